//! Claude Code's `Interrupt` hook (2.1.335+). On the newest build, in the TUI (tmux), the
//! launcher's settings with the hook are taken and Esc while a Cursor run is live (the fake agent
//! works for five minutes) ends that run's process group and writes its ledger line, cancelled.
//! (2.1.337 closes the turn's connection on Esc about 0.1 s before it runs the hook, so here the
//! client leaving ends the run; `tests/sessions/interrupt_hook.rs` holds the case of a client
//! that stays open, with the payload measured from 2.1.337.) The launcher and the wrapper
//! register the hook only for a Claude Code that knows it: 2.1.328 refuses settings naming it.

use std::time::Duration;

use multi_cursor_test_support::claude;
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::ledger::ledger_lines;
use multi_cursor_test_support::process::group_gone;
use multi_cursor_test_support::repo_root;
use multi_cursor_test_support::scenario;
use multi_cursor_test_support::tmux::Tmux;

use launcher::Launch;

const WAIT: Duration = Duration::from_secs(60);

#[test]
fn on_the_newest_build_esc_ends_the_live_cursor_run() {
    let launch = Launch::real_on(&claude::latest_claude_binary())
        .env(
            "FAKE_AGENT_SCENARIO",
            repo_root().join("tests/fake-agent/scenarios/stall-after-text.scenario"),
        )
        .args([
            "--model",
            "multi/cursor/composer-2.5",
            "--permission-mode",
            "acceptEdits",
        ]);
    let tmux = Tmux::start(launch.dir.path(), &launch.script());
    tmux.wait_for("the prompt", WAIT, |pane| pane.contains("accept edits on"));
    tmux.type_line("work on it");
    tmux.wait_for("Cursor's first words", WAIT, |pane| {
        pane.contains("Working on it.")
    });
    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let pgid = i32::try_from(turns[0]["pgid"].as_i64().unwrap()).unwrap();
    assert!(!group_gone(pgid), "the run is live before Esc");

    tmux.send(&["Escape"]);
    let pane = tmux.wait_for("the interruption", WAIT, |pane| {
        pane.contains("Interrupted")
    });
    // 2.1.337 took the launcher's settings with the Interrupt hook (2.1.328 would stop at start).
    assert!(!pane.contains("Unknown hook event"), "{pane}");
    assert!(!pane.contains("Settings Warning"), "{pane}");
    // The fake agent would work for five minutes more.
    assert!(
        scenario::wait_for(WAIT.as_secs(), || group_gone(pgid)),
        "the Cursor run's process group {pgid} outlived the Interrupt hook: {}",
        tmux.pane()
    );
    assert!(
        scenario::wait_for(WAIT.as_secs(), || !ledger_lines(&launch.state).is_empty()),
        "no ledger line"
    );
    let lines = ledger_lines(&launch.state);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert_eq!(lines[0]["outcome"], "cancelled", "{lines:#?}");
}

fn registered_events(mut launch: Launch) -> Vec<String> {
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let settings = launch.claude_settings();
    settings["hooks"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[test]
fn only_a_claude_code_that_knows_the_hook_gets_it() {
    for (version, wanted) in [
        ("2.1.328", false),
        ("2.1.334", false),
        ("2.1.335", true),
        ("2.1.337", true),
    ] {
        let launched = registered_events(
            Launch::scripted()
                .env("FAKE_CLAUDE_VERSION", version)
                .args(["-p", "hi"]),
        );
        assert_eq!(
            launched.iter().any(|e| e == "Interrupt"),
            wanted,
            "launcher, Claude Code {version}: {launched:?}"
        );
        assert!(
            launched.iter().any(|e| e == "UserPromptSubmit"),
            "{launched:?}"
        );

        let mut wrapped = Launch::scripted()
            .env("FAKE_CLAUDE_VERSION", version)
            .args(["-p", "hi"]);
        let mut child = wrapped.spawn_wrapper();
        let output = launcher::finish(&mut child, WAIT);
        assert_eq!(output.status, Some(0), "{output:?}");
        let settings = wrapped.claude_settings();
        let events: Vec<&String> = settings["hooks"].as_object().unwrap().keys().collect();
        assert_eq!(
            events.iter().any(|e| *e == "Interrupt"),
            wanted,
            "wrapper, Claude Code {version}: {events:?}"
        );
    }
}
