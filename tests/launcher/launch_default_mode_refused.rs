//! Through the launcher, a Cursor model in Claude's `default` permission mode (no
//! `--permission-mode`) is refused: Claude Code prints the refusal naming the modes that work,
//! and Cursor never runs.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn default_mode_is_refused_and_nothing_runs() {
    let mut launch = Launch::real().args([
        "-p",
        "edit the readme",
        "--model",
        "multi/cursor/composer-2.5",
    ]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    assert!(
        shown.contains("Cursor cannot run in Claude's \"default\" permission mode")
            && shown.contains("bypassPermissions"),
        "{output:?}"
    );
    assert!(
        launch.turns().is_empty(),
        "Cursor ran: {:#?}",
        launch.turns()
    );
}
