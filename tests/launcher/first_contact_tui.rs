//! A newcomer's first session in the real Claude Code TUI (tmux), started as people start it:
//! `multi-cursor` with no `--permission-mode`. The first message gets an answer; Shift+Tab
//! alone gives Cursor write access and its edit lands in the workspace; `/exit` names how to
//! resume through the launcher; in a plain `claude` with the plugin, the start-up notice is on
//! screen and a switch to a Cursor model is refused with the fix. Each runs on the pinned Claude
//! Code and on the newest (`claude::builds`).

use std::time::Duration;

use multi_cursor_test_support::claude;
use multi_cursor_test_support::fake_upstream::FakeUpstream;
use multi_cursor_test_support::fake_upstream::ScriptedResponse;
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::repo_root;
use multi_cursor_test_support::tmux::Tmux;

use launcher::Launch;

const WAIT: Duration = Duration::from_secs(60);

fn edit_scenario() -> std::path::PathBuf {
    repo_root().join("tests/fake-agent/scenarios/edit-file.scenario")
}

#[test]
fn the_first_message_is_answered_and_shift_tab_lets_cursor_edit() {
    for claude in claude::builds() {
        let launch = Launch::real_on(&claude)
            .env("FAKE_AGENT_SCENARIO", edit_scenario())
            .args(["--model", "multi/cursor/composer-2.5"]);
        // A Cursor CLI without `--auto-review`: Claude Code then offers no auto mode on Cursor
        // rows and a fresh session starts in manual mode.
        let help =
            multi_cursor_test_support::fake_agent::help_without_auto_review(launch.dir.path());
        let launch = launch.env("FAKE_AGENT_HELP_FILE", &help);
        let note = launch.project.join("notes.txt");
        let tmux = Tmux::start(launch.dir.path(), &launch.script());
        tmux.keep_after_exit();
        tmux.wait_for("manual mode", WAIT, |pane| pane.contains("manual mode on"));

        tmux.type_line("write the note");
        let pane = tmux.wait_for("the first answer", WAIT, |pane| pane.contains("Done."));
        assert!(
            pane.contains("Cursor answered read-only: in manual mode it cannot ask you before"),
            "{pane}"
        );
        assert!(!pane.contains("API Error"), "{pane}");
        assert!(!note.exists(), "manual mode let Cursor edit");

        tmux.shift_tab();
        tmux.wait_for("accept edits", WAIT, |pane| {
            pane.contains("accept edits on")
        });
        tmux.type_line("now write it");
        let pane = tmux.wait_for("the edit", WAIT, |pane| pane.contains("Changed: notes.txt"));
        assert!(pane.contains("edit notes.txt"), "{pane}");
        assert_eq!(
            std::fs::read_to_string(&note).unwrap(),
            "written by Cursor\n"
        );
        let turns = launch.turns();
        let flags: Vec<Vec<String>> = turns
            .iter()
            .map(|turn| {
                let argv: Vec<String> = serde_json::from_value(turn["argv"].clone()).unwrap();
                argv.into_iter()
                    .filter(|a| a == "--mode" || a == "ask" || a == "plan" || a == "--force")
                    .collect()
            })
            .collect();
        assert_eq!(flags, [vec!["--mode", "ask"], vec![]], "{flags:?}");

        tmux.type_line("/exit");
        let pane = tmux.wait_for("the resume lines", WAIT, |pane| {
            pane.contains("multi-cursor -- --resume ")
        });
        let claude_line = pane
            .lines()
            .position(|line| line.contains("claude --resume "))
            .unwrap_or_else(|| panic!("Claude Code's own line: {pane}"));
        let ours = pane
            .lines()
            .position(|line| {
                line.contains("To resume it with Cursor models: multi-cursor -- --resume ")
            })
            .unwrap();
        assert!(ours > claude_line, "ours comes after Claude Code's: {pane}");
    }
}

#[test]
fn a_fresh_session_starts_in_auto_when_cursor_has_auto_review() {
    for claude in claude::builds() {
        let launch = Launch::real_on(&claude).args(["--model", "multi/cursor/composer-2.5"]);
        let tmux = Tmux::start(launch.dir.path(), &launch.script());
        tmux.wait_for("auto mode", WAIT, |pane| pane.contains("auto mode on"));
        tmux.type_line("say hello");
        let pane = tmux.wait_for("the answer", WAIT, |pane| pane.contains("fake agent reply"));
        assert!(!pane.contains("API Error"), "{pane}");
        let turns = launch.turns();
        assert_eq!(turns.len(), 1, "{turns:#?}");
        let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
        assert!(argv.contains(&"--auto-review".to_string()), "{argv:?}");
    }
}

#[test]
fn plain_claude_refuses_a_switch_to_a_cursor_model() {
    for claude in claude::builds() {
        // Claude Code checks an unknown model with a one-token request first: this upstream
        // accepts every model, as an LLM gateway in ANTHROPIC_BASE_URL may.
        let upstream = FakeUpstream::start();
        upstream.respond_with(|request| {
            ScriptedResponse::message(&request.model().unwrap_or_default(), "ok")
        });
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let (home, project) = (root.join("home"), root.join("project"));
        std::fs::create_dir_all(&project).unwrap();
        claude::prepare_home(&home, &project);
        let script = root.join("plain-claude.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\ncd '{}' || exit 1\nexec env -i PATH=\"$PATH\" HOME='{}' TERM=xterm-256color ANTHROPIC_BASE_URL='{}' ANTHROPIC_API_KEY={} CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_MANAGED_SETTINGS_PATH='{}' '{}' --plugin-dir '{}' --model claude-sonnet-4-6\n",
                project.display(),
                home.display(),
                upstream.url(),
                claude::TEST_API_KEY,
                root.join("managed").display(),
                claude.display(),
                repo_root().join("plugin").display(),
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let tmux = Tmux::start(&root, &script);
        tmux.wait_for("the prompt", WAIT, |pane| pane.contains("auto mode on"));
        // The plugin's SessionStart hook (Node, in exec form: no shell) told the user on screen.
        tmux.wait_for("the start-up notice", WAIT, |pane| {
            let flat = pane.split_whitespace().collect::<Vec<_>>().join(" ");
            flat.contains(
                "SessionStart:startup says: multi-cursor: Cursor models are not available",
            )
        });
        tmux.type_line("/model multi/cursor/composer-2.5");
        let pane = tmux.wait_for("the refusal", WAIT, |pane| {
            pane.contains("blocked by a PreModelSwitch hook")
        });
        let flat = pane.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("multi/cursor/composer-2.5 is a Cursor model, and nothing answers it in this plain claude session"),
            "{pane}"
        );
        assert!(
            flat.contains("start Claude Code with multi-cursor"),
            "{pane}"
        );
        let saved = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap_or_default();
        assert!(
            !saved.contains("multi/cursor/"),
            "the switch was saved: {saved}"
        );

        // Any other switch goes through.
        tmux.type_line("/model claude-opus-4-8");
        tmux.wait_for("the switch", WAIT, |pane| pane.contains("Set model to"));
    }
}

#[test]
fn a_finished_actions_row_shows_while_cursor_works_on() {
    let launch = Launch::real()
        .env(
            "FAKE_AGENT_SCENARIO",
            repo_root().join("tests/fake-agent/scenarios/pause-after-action.scenario"),
        )
        .args([
            "--model",
            "multi/cursor/composer-2.5",
            "--permission-mode",
            "acceptEdits",
        ]);
    let tmux = Tmux::start(launch.dir.path(), &launch.script());
    tmux.wait_for("the prompt", WAIT, |pane| pane.contains("accept edits on"));
    tmux.type_line("read it");
    tmux.wait_for("Cursor's first words", WAIT, |pane| {
        pane.contains("Checking the files.")
    });
    // Cursor is silent for 15 s after the read: its row must not wait for the next words.
    let pane = tmux.wait_for("the read's row", Duration::from_secs(10), |pane| {
        pane.contains("read a.txt")
    });
    assert!(
        !pane.contains("All read."),
        "the row came with the next text: {pane}"
    );
    tmux.wait_for("the answer's end", WAIT, |pane| pane.contains("All read."));
}
