//! The launcher exits with Claude Code's exit code.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn claude_exit_code_is_passed_through() {
    for code in [0, 3, 7] {
        let mut launch = Launch::scripted()
            .env("FAKE_CLAUDE_EXIT", code.to_string())
            .args(["-p", "hi"]);
        let output = launch.run();
        assert_eq!(output.status, Some(code), "{output:?}");
        assert!(launch.claude_argv().is_some(), "claude ran");
    }
}
