//! The once-per-session note about Claude's hooks and MCP servers is used up only by an answer
//! that reached Claude Code: when the session's first Cursor turn fails (here the CLI prints a
//! rate-limit error as plain text and exits, as the real one does), the next answer carries
//! the note, and the one after does not.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;

const RATE_LIMITED: [&str; 2] = ["#!stderr Rate limit exceeded, try again later", "#!exit 1"];

#[test]
fn a_failed_answer_does_not_use_up_the_note() {
    let dir = tempfile::tempdir().unwrap();
    scenario::write(dir.path(), "01-limited.scenario", &RATE_LIMITED);
    for (name, reply) in [("02-ok.scenario", "noted"), ("03-ok.scenario", "again")] {
        scenario::reply(dir.path(), name, reply);
    }
    let gw = TestGateway::start(GatewayOptions::replaying(dir.path()));
    policy::write_json(
        &joined(&gw.workspace(), ".claude/settings.json"),
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}]}}),
    );

    let mut chat = policy::Conversation::new("s-note");
    let (status, body) = chat.send(&gw.url, &gw.token, "first");
    assert_eq!(status, 429, "{body}");

    let (status, text) = chat.send(&gw.url, &gw.token, "first, again");
    assert_eq!(status, 200, "{text}");
    assert!(
        text.starts_with("[Cursor] Note: Claude's PreToolUse hooks"),
        "{text}"
    );
    assert!(without_tokens(&text).ends_with("noted"), "{text}");

    let (status, text) = chat.send(&gw.url, &gw.token, "second");
    assert_eq!(status, 200, "{text}");
    assert_eq!(without_tokens(&text), "again", "shown once");
    assert_eq!(gw.turns().len(), 3);
}
