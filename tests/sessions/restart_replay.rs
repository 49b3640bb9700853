//! A completed turn is replayed from its record by a gateway that never ran it: after the
//! gateway that answered is killed and another starts on the same state, Claude Code's
//! identical re-send (streamed or not) gets the recorded answer, marked as a replay, and Cursor
//! does not run again.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn a_restarted_gateway_replays_from_disk() {
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    let options = GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_REPLY".into(), "recorded once".into())],
        state_dir: Some(root.path().join("state")),
        workspace: Some(workspace),
        agent_log: Some(root.path().join("agent.jsonl")),
        ..GatewayOptions::default()
    };
    let mut first = TestGateway::start(options.clone());
    let request = cursor_request("multi/cursor/composer-2.5", "answer once", true);
    let (status, body) = first.ask("s-replay", &request);
    assert_eq!(status, 200);
    assert_eq!(without_tokens(&sse_text(&body)), "recorded once");
    first.kill();

    let second = TestGateway::start(options);
    let response = second.post_with(
        "/v1/messages",
        &request,
        &[("x-claude-code-session-id", "s-replay")],
    );
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-multi-cursor-replayed"], "true");
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "recorded once"
    );
    let mut unstreamed = request;
    unstreamed["stream"] = serde_json::json!(false);
    let (status, body) = second.ask("s-replay", &unstreamed);
    assert_eq!(status, 200);
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        without_tokens(message["content"][0]["text"].as_str().unwrap()),
        "recorded once"
    );
    assert_eq!(
        second.turns().len(),
        1,
        "Cursor ran once, in the first gateway"
    );
}
