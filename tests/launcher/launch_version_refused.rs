//! A Claude Code older than the version multi-cursor's facts were measured on is refused, with
//! the minimum version and how to update, before anything starts.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn an_old_claude_is_refused_naming_the_minimum() {
    let mut launch = Launch::scripted()
        .env("FAKE_CLAUDE_VERSION", "2.1.200")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(1), "{output:?}");
    assert!(
        output.stderr.contains("Claude Code 2.1.200 (")
            && output
                .stderr
                .contains("is too old: multi-cursor needs 2.1.328 or newer"),
        "{}",
        output.stderr
    );
    assert!(
        output
            .stderr
            .contains("npm install -g @anthropic-ai/claude-code@latest")
    );
    assert!(launch.claude_argv().is_none(), "claude must not start");
}

#[test]
fn a_missing_claude_names_the_install_command() {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_CLAUDE", "/nonexistent/claude")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(1), "{output:?}");
    assert!(
        output.stderr.contains("Claude Code was not found")
            && output
                .stderr
                .contains("npm install -g @anthropic-ai/claude-code@latest"),
        "{}",
        output.stderr
    );
}
