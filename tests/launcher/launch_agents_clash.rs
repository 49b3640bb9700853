//! A user's `--agents` that defines `multi-cursor` is refused before Claude Code starts.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn an_agent_named_multi_cursor_is_refused() {
    let agents = serde_json::json!({"multi-cursor": {"description": "mine", "prompt": "p"}});
    let mut launch = Launch::scripted().args(["--agents", &agents.to_string(), "-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(1), "{output:?}");
    assert!(
        output
            .stderr
            .contains("--agents defines \"multi-cursor\", the worker type multi-cursor supplies"),
        "{}",
        output.stderr
    );
    assert!(launch.claude_argv().is_none(), "claude must not start");
    assert!(launch.tmp_entries().is_empty(), "no temporary folder left");
}
