//! A second turn in the same session resumes the first turn's Cursor chat and sends only what
//! is new.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::resumed_chat;
use gateway::sse_text;

const CHAT: &str = "7a3f1c2e-0000-4000-8000-00000000c4a7";

#[test]
fn second_turn_resumes_the_chat() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_CHAT_ID".into(), CHAT.into())],
        ..Default::default()
    });
    let session = [("x-claude-code-session-id", "resume-session")];
    let first = serde_json::json!({
        "model": "multi/cursor/composer-2.5", "max_tokens": 1000, "stream": true,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "First question about apples"}]}]
    });
    let response = gw.post_with("/v1/messages", &first, &session);
    assert_eq!(response.status(), 200);
    let answer = sse_text(&response.text().unwrap());
    assert_eq!(without_tokens(&answer), "fake agent reply");

    let second = serde_json::json!({
        "model": "multi/cursor/composer-2.5", "max_tokens": 1000, "stream": true,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "First question about apples"}]},
            {"role": "assistant", "content": [{"type": "text", "text": answer}]},
            {"role": "user", "content": [{"type": "text", "text": "Second question about pears"}]}
        ]
    });
    // The chat is recorded when the run ends, just after the answer; wait until no run is live.
    gw.wait_idle();
    let response = gw.post_with("/v1/messages", &second, &session);
    assert_eq!(response.status(), 200);
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "fake agent reply"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    assert_eq!(resumed_chat(&turns[1]).as_deref(), Some(CHAT));
    assert_eq!(resumed_chat(&turns[0]), None);
    assert_eq!(turns[1]["stdin"], "Second question about pears");
}
