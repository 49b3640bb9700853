//! The status line in the real Claude Code TUI (tmux): the launcher's `statusLine` runs in the
//! terminal and chains the user's own line; after a Cursor answer the line ends with the
//! session's Cursor spend (`Cursor composer-2.5 · 1 run · … in / … out`).

use std::time::Duration;

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::tmux::Tmux;

use launcher::Launch;

/// The launcher in tmux on a Cursor model, the user's own status line printing `USER-LINE`,
/// one prompt answered by the fake agent.
fn answered_session() -> (Launch, Tmux) {
    let launch = Launch::real().args([
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        "bypassPermissions",
    ]);
    let settings = launch.home.join(".claude/settings.json");
    std::fs::write(
        &settings,
        r#"{"statusLine": {"type": "command", "command": "echo USER-LINE"}}"#,
    )
    .unwrap();
    let script = launch.script();
    let tmux = Tmux::start(launch.dir.path(), &script);
    let pane = tmux.wait_for("the prompt", Duration::from_secs(60), |pane| {
        pane.contains("USER-LINE") || pane.contains("Yes, I accept")
    });
    if pane.contains("Yes, I accept") {
        // Claude Code asks once to confirm bypassPermissions (the mode Cursor turns run in).
        tmux.send(&["Down"]);
        tmux.send(&["Enter"]);
    }
    tmux.wait_for("the user's status line", Duration::from_secs(60), |pane| {
        pane.contains("USER-LINE")
    });
    tmux.send(&["say hello"]);
    std::thread::sleep(Duration::from_millis(500));
    tmux.send(&["Enter"]);
    tmux.wait_for("the Cursor answer", Duration::from_secs(60), |pane| {
        pane.contains("fake agent reply")
    });
    (launch, tmux)
}

#[test]
fn the_chained_status_line_runs_in_the_tui() {
    let (launch, tmux) = answered_session();
    let pane = tmux.pane();
    assert!(
        pane.contains("[Cursor] ") && pane.contains(" in / "),
        "the answer ends with its tokens:\n{pane}"
    );
    assert_eq!(launch.turns().len(), 1, "{pane}");
}

#[test]
fn the_cursor_spend_ends_the_status_line_in_the_tui() {
    let (_launch, tmux) = answered_session();
    tmux.wait_for(
        "the Cursor segment after the user's line",
        Duration::from_secs(15),
        |pane| {
            pane.lines().any(|line| {
                line.contains("USER-LINE · Cursor composer-2.5 · 1 run · ") && line.contains(" out")
            })
        },
    );
}
