//! Message threads (beta `message-threads-2026-08-12`): a request that continues a server-side
//! thread carries only the newest messages. On a Cursor route it is answered with the 400 Claude
//! Code reads as "send the whole history" (`capability_rejected: beta_header:…`), and Cursor
//! never runs on the partial history; on passthrough it reaches the upstream untouched.

use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::gateway;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

const BETA: &str = "message-threads-2026-08-12";

fn continuation() -> serde_json::Value {
    serde_json::json!({"type": "continue", "previous_message_id": "msg_01XFDUDYJgAACzvnptvVoYEL"})
}

#[test]
fn a_thread_continuation_on_a_cursor_route_is_rejected_as_a_capability() {
    let gw = TestGateway::start(GatewayOptions::default());
    let threads = [
        continuation(),
        // A shape this gateway does not know is not a thread it holds either.
        serde_json::json!({"type": "fork", "previous_message_id": "msg_x"}),
        serde_json::json!("continue"),
    ];
    for (i, thread) in threads.into_iter().enumerate() {
        for stream in [true, false] {
            let mut body = cursor_request("multi/cursor/composer-2.5", "only the new part", stream);
            body["thread"] = thread.clone();
            let response = gw.post_with(
                "/v1/messages",
                &body,
                &[
                    ("anthropic-beta", BETA),
                    ("x-claude-code-session-id", &format!("s{i}")),
                ],
            );
            assert_eq!(response.status(), 400, "{thread}");
            let error: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
            assert_eq!(
                error,
                serde_json::json!({"type": "error", "error": {
                    "type": "invalid_request_error",
                    "message": "capability_rejected: beta_header:message-threads-2026-08-12"}}),
                "the token is the whole message"
            );
        }
    }
    assert!(
        gw.turns().is_empty(),
        "Cursor never ran on a partial history"
    );
    // Creating a thread (or none) is a whole conversation: answered.
    let mut body = cursor_request("multi/cursor/composer-2.5", "a whole conversation", false);
    body["thread"] = serde_json::json!({"type": "create"});
    assert_eq!(gw.post("/v1/messages", &body).status(), 200);
    body["thread"] = serde_json::Value::Null;
    body["messages"][0]["content"][0]["text"] = "again".into();
    assert_eq!(gw.post("/v1/messages", &body).status(), 200);
    assert_eq!(gw.turns().len(), 2);
}

#[test]
fn a_thread_continuation_passes_through_untouched() {
    let upstream = FakeUpstream::start();
    let gw = TestGateway::start(GatewayOptions {
        upstream: Some(upstream.url()),
        ..Default::default()
    });
    let answer = fake_upstream::anthropic::message_json("claude-sonnet-4-5", "from the thread");
    upstream.push(ScriptedResponse::json(200, &answer));
    let body = format!(
        "{{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":64,\"thread\":{},\"messages\":[{{\"role\":\"user\",\"content\":\"next\"}}]}}",
        continuation()
    );
    let response = gw
        .client()
        .post(format!("{}/v1/messages", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .header("content-type", "application/json")
        .header("x-api-key", "sk-ant-test")
        .header("anthropic-beta", BETA)
        .body(body.clone())
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let relayed: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(relayed, answer);
    let seen = upstream.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].body,
        body.as_bytes(),
        "byte for byte, thread included"
    );
    assert_eq!(seen[0].header_str("anthropic-beta"), Some(BETA));
    assert!(gw.turns().is_empty());
}
