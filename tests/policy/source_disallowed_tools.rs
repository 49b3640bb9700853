//! Deny rules given to Claude Code on the launcher's command line (`--disallowedTools`) are a
//! settings source too: under the real Claude Code the Cursor route is refused naming the rule
//! and its origin, and the Cursor agent never runs.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn command_line_deny_rules_are_enforced() {
    let mut launch = Launch::real().args([
        "--disallowedTools",
        "Bash(git push:*)",
        "--permission-mode",
        "bypassPermissions",
        "-p",
        "ship it",
        "--model",
        "multi/cursor/composer-2.5",
    ]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    assert!(
        shown.contains(
            "deny rule `Bash(git push:*)` in --disallowedTools (command line) (for Cursor: `Shell(git:push*)`)"
        ),
        "{output:?}"
    );
    assert!(
        launch.turns().is_empty(),
        "Cursor ran: {:#?}",
        launch.turns()
    );
}
