//! A user's own `--agents` is merged with the `multi-cursor` worker; Claude Code receives one
//! `--agents` holding both.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn user_agents_are_merged_with_the_worker() {
    let agents = serde_json::json!({
        "reviewer": {"description": "Reviews code", "prompt": "You are a code reviewer"}
    });
    let mut launch = Launch::scripted().args(["--agents", &agents.to_string(), "-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let argv = launch.claude_argv().unwrap();
    assert_eq!(
        argv.iter().filter(|a| *a == "--agents").count(),
        1,
        "{argv:?}"
    );
    let merged = launch.claude_agents();
    assert_eq!(merged["reviewer"], agents["reviewer"]);
    assert_eq!(merged["multi-cursor"]["model"], "multi/cursor/default");
}
