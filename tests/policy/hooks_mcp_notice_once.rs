//! When the user has Claude PreToolUse hooks or Claude MCP servers, the first Cursor answer of a
//! session says once, naming them, that they do not see Cursor's native actions; later answers
//! in that session do not repeat it, and another session gets it once too. Without such hooks
//! or servers there is no note.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;

fn answer(gw: &TestGateway, chat: &mut policy::Conversation, prompt: &str) -> String {
    let (status, text) = chat.send(&gw.url, &gw.token, prompt);
    assert_eq!(status, 200, "{text}");
    // Every answer ends with its turn's tokens; this test is about the note.
    without_tokens(&text)
}

#[test]
fn hooks_and_mcp_note_once_per_session() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let mut s0 = policy::Conversation::new("s0");
    assert_eq!(
        answer(&gw, &mut s0, "nothing configured"),
        "fake agent reply"
    );

    let ws = gw.workspace();
    let settings = joined(&ws, ".claude/settings.json");
    policy::write_json(
        &settings,
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}]}}),
    );
    policy::write_json(
        &ws.join(".mcp.json"),
        &serde_json::json!({"mcpServers": {"github": {"command": "gh-mcp"}}}),
    );
    policy::write_json(
        &gw.home().join(".claude.json"),
        &serde_json::json!({"mcpServers": {"sentry": {"url": "https://mcp.example"}}}),
    );

    let mut s1 = policy::Conversation::new("s1");
    let first = answer(&gw, &mut s1, "first");
    let note = first.lines().next().unwrap();
    for part in [
        "PreToolUse hooks".to_string(),
        settings.display().to_string(),
        "MCP servers (github, sentry)".to_string(),
        "do not see Cursor's native actions".to_string(),
    ] {
        assert!(note.contains(&part), "missing {part:?} in {first}");
    }
    assert!(first.ends_with("fake agent reply"), "{first}");
    assert_eq!(
        answer(&gw, &mut s1, "second"),
        "fake agent reply",
        "once per session"
    );
    assert_eq!(answer(&gw, &mut s1, "third"), "fake agent reply");

    let mut s2 = policy::Conversation::new("s2");
    let other = answer(&gw, &mut s2, "elsewhere");
    assert!(
        other.starts_with(note),
        "a new session is told once: {other}"
    );
    assert_eq!(gw.turns().len(), 5);
}
