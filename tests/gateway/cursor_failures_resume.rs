//! A resume the 2026.10 CLI refuses because a lingering agent holds the chat (`Error: Session ID
//! "<uuid>" is already in use.`, exit 1): the turn cannot prove that process group its own, so
//! it signals nothing and starts a fresh chat with the conversation so far, once, saying so.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::repo_root;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::resumed_chat;
use gateway::sse_text;

const CHAT: &str = "7a3f1c2e-0000-4000-8000-00000000c4a7";

#[test]
fn a_chat_in_use_falls_back_to_a_fresh_chat_once() {
    let scenarios = tempfile::tempdir().unwrap();
    let reply =
        std::fs::read_to_string(repo_root().join("tests/fake-agent/scenarios/basic-reply.ndjson"))
            .unwrap();
    std::fs::write(scenarios.path().join("01-first.ndjson"), &reply).unwrap();
    std::fs::write(
        scenarios.path().join("02-in-use.scenario"),
        format!("#!stderr Error: Session ID \"{CHAT}\" is already in use.\n#!exit 1\n"),
    )
    .unwrap();
    std::fs::write(scenarios.path().join("03-fresh.ndjson"), &reply).unwrap();
    let mut options = GatewayOptions::replaying(scenarios.path());
    options.env.push(("FAKE_AGENT_CHAT_ID".into(), CHAT.into()));
    let gw = TestGateway::start(options);
    let session = [("x-claude-code-session-id", "in-use-session")];
    let first = serde_json::json!({
        "model": "multi/cursor/composer-2.5", "max_tokens": 1000, "stream": true,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "First question"}]}]
    });
    let response = gw.post_with("/v1/messages", &first, &session);
    assert_eq!(response.status(), 200);
    let answer = sse_text(&response.text().unwrap());
    assert!(
        answer.contains("Hello from the fake Cursor agent."),
        "{answer}"
    );
    gw.wait_idle();

    let second = serde_json::json!({
        "model": "multi/cursor/composer-2.5", "max_tokens": 1000, "stream": true,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "First question"}]},
            {"role": "assistant", "content": [{"type": "text", "text": answer}]},
            {"role": "user", "content": [{"type": "text", "text": "Second question"}]}
        ]
    });
    let response = gw.post_with("/v1/messages", &second, &session);
    assert_eq!(response.status(), 200);
    let text = sse_text(&response.text().unwrap());
    assert!(
        text.contains("could not resume its earlier conversation"),
        "{text}"
    );
    assert!(text.contains("Hello from the fake Cursor agent."), "{text}");
    let turns = gw.turns();
    assert_eq!(turns.len(), 3, "{turns:?}");
    assert_eq!(resumed_chat(&turns[1]).as_deref(), Some(CHAT));
    assert_eq!(resumed_chat(&turns[2]), None);
    let fresh_prompt = turns[2]["stdin"].as_str().unwrap();
    assert!(fresh_prompt.contains("First question"), "{fresh_prompt}");
    assert!(fresh_prompt.contains("Second question"), "{fresh_prompt}");
}
