//! Two gateways on one identity (same workspace, state folder and Claude session): the second
//! is refused with 409, naming the first gateway's pid, and runs nothing. Once the first one is
//! gone the OS has dropped its lock and the second continues the same chat.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn a_second_gateway_is_refused_while_the_first_owns_the_session() {
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    let options = GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_CHAT_ID".into(), "chat-owned".into())],
        state_dir: Some(root.path().join("state")),
        workspace: Some(workspace),
        agent_log: Some(root.path().join("agent.jsonl")),
        ..GatewayOptions::default()
    };
    let mut first = TestGateway::start(options.clone());
    let second = TestGateway::start(options);
    let (status, body) = first.ask(
        "s-two",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_eq!(status, 200, "{body}");
    let mut follow = cursor_request("multi/cursor/composer-2.5", "", false);
    follow["messages"] = serde_json::json!([
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": sse_text(&body)},
        {"role": "user", "content": "more"}
    ]);
    let response = second.post_with(
        "/v1/messages",
        &follow,
        &[("x-claude-code-session-id", "s-two")],
    );
    assert_eq!(response.status(), 409);
    assert_eq!(response.headers()["x-should-retry"], "false");
    let message = response.text().unwrap();
    assert!(message.contains(&format!("pid {}", first.pid)), "{message}");
    assert!(
        message.contains("another multi-cursor gateway"),
        "{message}"
    );
    assert_eq!(first.turns().len(), 1, "the refused request ran nothing");

    first.kill();
    let (status, body) = second.ask("s-two", &follow);
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        without_tokens(message["content"][0]["text"].as_str().unwrap()),
        "fake agent reply"
    );
    let turns = second.turns();
    assert_eq!(turns.len(), 2);
    assert!(
        turns[1]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "--resume=chat-owned"),
        "same chat resumed"
    );
    let _ = sse_text;
}
