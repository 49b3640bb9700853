//! Cursor works with the user through Claude Code's own dialogs, in the real Claude Code TUI
//! (tmux), on the pinned build and on the newest: a plan-mode turn opens "Ready to code?" with
//! Cursor's plan and "Yes" resumes the same chat with the picked mode's flags and its edit
//! lands; "Tell Claude what to change" resumes it in plan mode with the words; Esc sends
//! nothing and the next message goes on in plan mode; Cursor's question opens the question
//! dialog and the picked label reaches the resumed chat.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use multi_cursor_test_support::claude;
use multi_cursor_test_support::launcher::Launch;
use multi_cursor_test_support::repo_root;
use multi_cursor_test_support::tmux::Tmux;

const WAIT: Duration = Duration::from_secs(90);

/// The builds under test: the pinned one and the newest `scripts/test` installs.
fn builds() -> [PathBuf; 2] {
    [claude::claude_binary(), claude::latest_claude_binary()]
}

/// A scenario folder whose runs replay `files` in order (the last repeats).
fn runs(dir: &Path, files: &[&str]) -> PathBuf {
    let folder = dir.join("runs");
    std::fs::create_dir_all(&folder).unwrap();
    for (i, file) in files.iter().enumerate() {
        std::fs::copy(
            repo_root().join(file),
            folder.join(format!(
                "{:02}-{}",
                i + 1,
                Path::new(file).file_name().unwrap().to_string_lossy()
            )),
        )
        .unwrap();
    }
    folder
}

const PLAN: &str = "tests/fake-agent/scenarios/plan-mode.scenario";
const EDIT: &str = "tests/fake-agent/scenarios/edit-file.scenario";
const QUESTION: &str = "tests/fixtures/cursor-stream-2026/hcn0915-askquestion-rejected.ndjson";

/// A session in accept edits whose first run has Cursor ask which file to edit, up to the
/// settled question dialog.
fn question_until_dialog(claude: &Path) -> (Launch, Tmux) {
    let (launch, tmux) = session(claude, &[QUESTION, EDIT], "acceptEdits");
    tmux.wait_for("accept edits", WAIT, |pane| {
        pane.contains("accept edits on")
    });
    tmux.type_line("ask me which file to edit");
    let pane = tmux.wait_for("the question dialog", WAIT, |pane| {
        pane.contains("Which file should I edit?") && pane.contains("Enter to select")
    });
    assert!(pane.contains("other.txt"), "{pane}");
    settle();
    (launch, tmux)
}

/// A launched session on Cursor with `claude` and the runs `files`, in `mode`.
fn session(claude: &Path, files: &[&str], mode: &str) -> (Launch, Tmux) {
    let launch = Launch::real().env("MULTI_CURSOR_CLAUDE", claude).args([
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        mode,
    ]);
    let folder = runs(launch.dir.path(), files);
    let launch = launch.env("FAKE_AGENT_SCENARIO", &folder);
    let tmux = Tmux::start(launch.dir.path(), &launch.script());
    tmux.keep_after_exit();
    (launch, tmux)
}

fn argv(turn: &serde_json::Value) -> Vec<String> {
    serde_json::from_value(turn["argv"].clone()).unwrap()
}

fn flat(pane: &str) -> String {
    pane.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Types a plan-mode request and waits for "Ready to code?" showing Cursor's plan.
fn plan_until_approval(tmux: &Tmux) {
    tmux.wait_for("plan mode", WAIT, |pane| pane.contains("plan mode on"));
    tmux.type_line("add a greeting");
    let pane = tmux.wait_for("Ready to code?", WAIT, |pane| {
        pane.contains("Ready to code?") && pane.contains("Tell Claude what to change")
    });
    assert!(
        pane.contains("Add greet() to src/lib.rs"),
        "the plan is in the dialog: {pane}"
    );
    settle();
}

/// A dialog takes keys once it has settled, as a person's first key press comes (on a busy
/// machine a key sent the moment it is drawn can be lost).
fn settle() {
    std::thread::sleep(Duration::from_millis(1500));
}

#[test]
fn an_approved_plan_is_carried_out_in_the_same_chat_with_the_picked_modes_flags() {
    for claude in builds() {
        let (launch, tmux) = session(&claude, &[PLAN, EDIT], "plan");
        plan_until_approval(&tmux);
        // Row 1: "Yes, and use auto mode" (Cursor's CLI here has auto review).
        let pane = tmux.pane();
        assert!(pane.contains("Yes, and use auto mode"), "{pane}");
        tmux.send(&["Enter"]);
        let pane = tmux.wait_for("the edit", WAIT, |pane| pane.contains("Changed: notes.txt"));
        assert!(pane.contains("auto mode on"), "{pane}");
        assert_eq!(
            std::fs::read_to_string(launch.project.join("notes.txt")).unwrap(),
            "written by Cursor\n"
        );
        let turns = launch.turns();
        assert_eq!(
            turns.len(),
            2,
            "one plan run, one run carrying it out: {turns:#?}"
        );
        let (first, second) = (argv(&turns[0]), argv(&turns[1]));
        assert!(
            first.windows(2).any(|w| w == ["--mode", "plan"]),
            "{first:?}"
        );
        assert!(second.contains(&"--auto-review".to_string()), "{second:?}");
        assert!(!second.contains(&"--mode".to_string()), "{second:?}");
        assert!(
            !first.iter().any(|a| a.starts_with("--resume")),
            "{first:?}"
        );
        assert!(
            second
                .iter()
                .any(|a| a.starts_with("--resume=") && a.len() > "--resume=".len()),
            "the same chat goes on: {second:?}"
        );
        let prompt = turns[1]["stdin"].as_str().unwrap();
        assert!(
            prompt.contains("Carry out the approved plan now."),
            "{prompt}"
        );
        // The plan file Claude Code named holds Cursor's plan.
        let plans = launch.home.join(".claude/plans");
        let plan = std::fs::read_dir(&plans)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        assert!(
            std::fs::read_to_string(plan)
                .unwrap()
                .contains("Add greet() to src/lib.rs")
        );
    }
}

#[test]
fn changes_asked_for_revise_the_plan_in_the_same_chat_and_esc_runs_nothing() {
    for claude in builds() {
        let (launch, tmux) = session(&claude, &[PLAN, PLAN], "plan");
        plan_until_approval(&tmux);
        tmux.send(&["Down"]);
        std::thread::sleep(Duration::from_millis(300));
        tmux.send(&["Down"]);
        std::thread::sleep(Duration::from_millis(300));
        tmux.send(&["-l", "Also add a farewell"]);
        std::thread::sleep(Duration::from_millis(300));
        tmux.send(&["Enter"]);
        // The revised plan goes through the dialog again.
        tmux.wait_for("the second dialog", WAIT, |pane| {
            launch.turns().len() == 2
                && pane.contains("Ready to code?")
                && pane.contains("Tell Claude what to change")
        });
        let turns = launch.turns();
        let second = argv(&turns[1]);
        assert!(
            second.windows(2).any(|w| w == ["--mode", "plan"]),
            "{second:?}"
        );
        let prompt = turns[1]["stdin"].as_str().unwrap();
        assert!(
            prompt.contains("wants changes before anything is done:\nAlso add a farewell"),
            "{prompt}"
        );

        // Esc: nothing is sent, nothing runs; the next message goes on in plan mode.
        settle();
        tmux.send(&["Escape"]);
        tmux.wait_for("the rejection", WAIT, |pane| pane.contains("Rejected"));
        std::thread::sleep(Duration::from_secs(2));
        assert_eq!(launch.turns().len(), 2);
        assert!(flat(&tmux.pane()).contains("plan mode on"));
        tmux.type_line("never mind, just explain it");
        tmux.wait_for("the third run", WAIT, |_| launch.turns().len() == 3);
        let third = argv(&launch.turns()[2]);
        assert!(
            third.windows(2).any(|w| w == ["--mode", "plan"]),
            "{third:?}"
        );
        let prompt = launch.turns()[2]["stdin"].as_str().unwrap().to_string();
        assert!(prompt.contains("never mind, just explain it"), "{prompt}");
        assert!(!launch.project.join("notes.txt").exists());
    }
}

#[test]
fn cursors_question_opens_the_question_dialog_and_the_pick_resumes_the_chat() {
    for claude in builds() {
        let (launch, tmux) = question_until_dialog(&claude);
        tmux.send(&["2"]);
        tmux.wait_for("the resumed run", WAIT, |_| launch.turns().len() == 2);
        let prompt = launch.turns()[1]["stdin"].as_str().unwrap().to_string();
        assert!(
            prompt.contains("\"Which file should I edit?\"=\"other.txt\""),
            "the pick reaches Cursor: {prompt}"
        );
        let second = argv(&launch.turns()[1]);
        assert!(
            second
                .iter()
                .any(|a| a.contains("4d284e10-4db4-49b9-a84c-25bc2b417037")),
            "the same chat: {second:?}"
        );
    }
}

#[test]
fn approving_in_manual_mode_says_how_to_let_cursor_edit_and_runs_nothing() {
    for claude in builds() {
        let (launch, tmux) = session(&claude, &[PLAN, EDIT], "plan");
        plan_until_approval(&tmux);
        tmux.send(&["Down"]);
        std::thread::sleep(Duration::from_millis(300));
        tmux.send(&["Enter"]);
        let pane = tmux.wait_for("the answer", WAIT, |pane| {
            flat(pane).contains("Plan approved, in manual mode")
        });
        let flat = flat(&pane);
        assert!(flat.contains("Shift+Tab to accept edits"), "{pane}");
        assert!(flat.contains("manual mode on"), "{pane}");
        assert_eq!(launch.turns().len(), 1, "nothing ran for the approval");
        assert!(!launch.project.join("notes.txt").exists());
        // Shift+Tab and "go ahead": the same chat carries it out.
        tmux.shift_tab();
        tmux.wait_for("accept edits", WAIT, |pane| {
            pane.contains("accept edits on")
        });
        tmux.type_line("go ahead");
        tmux.wait_for("the edit", WAIT, |pane| pane.contains("Changed: notes.txt"));
        let second = argv(&launch.turns()[1]);
        assert!(
            second.iter().any(|a| a.starts_with("--resume=")),
            "{second:?}"
        );
    }
}

#[test]
fn typed_words_in_the_question_dialog_reach_cursor_as_words() {
    for claude in builds() {
        let (launch, tmux) = question_until_dialog(&claude);
        tmux.send(&["3"]);
        std::thread::sleep(Duration::from_millis(300));
        tmux.send(&["-l", "neither, make a new one"]);
        std::thread::sleep(Duration::from_millis(300));
        tmux.send(&["Enter"]);
        tmux.wait_for("the resumed run", WAIT, |_| launch.turns().len() == 2);
        let prompt = launch.turns()[1]["stdin"].as_str().unwrap().to_string();
        assert!(prompt.contains("The user answered:"), "{prompt}");
        assert!(prompt.contains("neither, make a new one"), "{prompt}");
    }
}

#[test]
fn esc_on_the_question_dialog_runs_nothing_until_the_next_message() {
    for claude in builds() {
        let (launch, tmux) = question_until_dialog(&claude);
        tmux.send(&["Escape"]);
        tmux.wait_for("the declined dialog", WAIT, |pane| {
            pane.contains("Declined")
        });
        std::thread::sleep(Duration::from_secs(2));
        assert_eq!(launch.turns().len(), 1);
        tmux.type_line("use notes.txt");
        tmux.wait_for("the next run", WAIT, |_| launch.turns().len() == 2);
        let prompt = launch.turns()[1]["stdin"].as_str().unwrap().to_string();
        assert!(prompt.contains("use notes.txt"), "{prompt}");
        assert!(
            !prompt.contains("The user answered your question"),
            "no pick: {prompt}"
        );
    }
}

const BLOCKED: &str = "tests/fixtures/cursor-stream-2026/hcn0915-shell-denied-fetch-denied.ndjson";

/// The workspace's own Cursor permissions, with a comment: put back byte for byte.
const CLI_JSON: &str =
    "{\n  // the team's list\n  \"permissions\": {\n    \"allow\": [\"Shell(ls)\"]\n  }\n}\n";

/// A session in accept edits whose first run has Cursor's allowlist refuse `curl`, up to the
/// dialog offering to allow it.
fn blocked_until_dialog(claude: &Path) -> (Launch, Tmux, PathBuf) {
    let (launch, tmux) = session(claude, &[BLOCKED, EDIT], "acceptEdits");
    let cli = launch.project.join(".cursor/cli.json");
    std::fs::create_dir_all(cli.parent().unwrap()).unwrap();
    std::fs::write(&cli, CLI_JSON).unwrap();
    tmux.wait_for("accept edits", WAIT, |pane| {
        pane.contains("accept edits on")
    });
    tmux.type_line("fetch the headers of example.com");
    let pane = tmux.wait_for("the allow dialog", WAIT, |pane| {
        pane.contains("Allow in this workspace") && pane.contains("Enter to select")
    });
    let flat = flat(&pane);
    assert!(
        flat.contains(
            "Cursor's allowlist blocked `curl -sI https://example.com`. Allow `Shell(curl)`?"
        ),
        "{pane}"
    );
    settle();
    (launch, tmux, cli)
}

#[test]
fn allowing_a_blocked_command_once_runs_it_and_puts_the_allow_list_back_byte_for_byte() {
    for claude in builds() {
        let (launch, tmux, cli) = blocked_until_dialog(&claude);
        tmux.send(&["1"]);
        tmux.wait_for("the resumed run's answer", WAIT, |pane| {
            pane.contains("Changed: notes.txt")
        });
        let turns = launch.turns();
        assert_eq!(turns.len(), 2, "{turns:#?}");
        let during = turns[1]["cursor_cli_json"].as_str().unwrap();
        assert!(
            during.contains("\"Shell(curl)\"") && during.contains("// the team's list"),
            "{during}"
        );
        assert!(
            turns[1]["stdin"]
                .as_str()
                .unwrap()
                .contains("allowed `curl -sI https://example.com` once")
        );
        let second = argv(&turns[1]);
        assert!(
            second.iter().any(|a| a.starts_with("--resume=")),
            "{second:?}"
        );
        // Put back once the turn is over.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::fs::read_to_string(&cli).unwrap() != CLI_JSON
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(std::fs::read_to_string(&cli).unwrap(), CLI_JSON);
    }
}

#[test]
fn allowing_a_blocked_command_in_the_workspace_adds_the_entry_and_no_runs_nothing() {
    for claude in builds() {
        let (launch, tmux, cli) = blocked_until_dialog(&claude);
        tmux.send(&["2"]);
        let pane = tmux.wait_for("the resumed run's answer", WAIT, |pane| {
            pane.contains("Changed: notes.txt")
        });
        assert!(
            flat(&pane).contains("Added Shell(curl) to the allow list in"),
            "{pane}"
        );
        let kept = std::fs::read_to_string(&cli).unwrap();
        let value: serde_json::Value =
            serde_json::from_str(&kept.replace("  // the team's list\n", "")).unwrap();
        assert_eq!(
            value["permissions"]["allow"],
            serde_json::json!(["Shell(ls)", "Shell(curl)"])
        );
        assert!(kept.contains("// the team's list"));
        assert_eq!(launch.turns().len(), 2);

        let (launch, tmux, cli) = blocked_until_dialog(&claude);
        tmux.send(&["3"]);
        let pane = tmux.wait_for("the refusal", WAIT, |pane| {
            flat(pane).contains("Not allowed:")
        });
        assert!(flat(&pane).contains("stays blocked"), "{pane}");
        std::thread::sleep(Duration::from_secs(2));
        assert_eq!(launch.turns().len(), 1, "no runs nothing");
        assert_eq!(std::fs::read_to_string(&cli).unwrap(), CLI_JSON);
    }
}
