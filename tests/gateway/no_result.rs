//! A Cursor stream that ends without a `result` is an error, never a finished message: streamed,
//! an `event: error` (or an error status) and no `message_stop`; non-streamed, a 502 JSON error.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;

const NO_RESULT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Half an answer"}]},"session_id":"{{chat_id}}"}
"#;

#[test]
fn a_stream_without_result_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("no-result.ndjson");
    std::fs::write(&scenario, NO_RESULT).unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![(
            "FAKE_AGENT_SCENARIO".into(),
            scenario.to_string_lossy().into_owned(),
        )],
        ..Default::default()
    });

    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
        &[("x-claude-code-session-id", "s-stream")],
    );
    let status = response.status().as_u16();
    let body = response.text().unwrap();
    if status == 200 {
        let events = sse_events(&body);
        let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
        assert!(names.contains(&"error"), "{body}");
        assert!(!names.contains(&"message_stop"), "{body}");
        let (_, error) = events.iter().find(|(e, _)| e == "error").unwrap();
        assert_eq!(error["type"], "error");
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("multi-cursor: "),
            "{error}"
        );
    } else {
        assert_eq!(status, 502, "{body}");
        assert!(!body.contains("message_stop"));
    }

    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
        &[("x-claude-code-session-id", "s-json")],
    );
    assert_eq!(response.status(), 502);
    assert_eq!(response.headers()["x-should-retry"], "false");
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(body["type"], "error");
    assert_eq!(body["error"]["type"], "api_error");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("without a result"),
        "{body}"
    );
}
