//! `POST /v1/messages/count_tokens`: a local estimate for Cursor models, the upstream's answer
//! for Claude models.

use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::gateway;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

#[test]
fn count_tokens_estimates_cursor_and_forwards_claude() {
    let upstream = FakeUpstream::start();
    let gw = TestGateway::start(GatewayOptions {
        upstream: Some(upstream.url()),
        ..Default::default()
    });

    let response = gw.post(
        "/v1/messages/count_tokens",
        &cursor_request("multi/cursor/composer-2.5", &"word ".repeat(400), false),
    );
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-multi-cursor-token-count"], "estimate");
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    let n = body["input_tokens"].as_u64().expect("input_tokens");
    assert!(n > 0, "{body}");
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    assert_eq!(upstream.request_count(), 0);
    assert!(gw.turns().is_empty());

    upstream.push(ScriptedResponse::json(
        200,
        &serde_json::json!({"input_tokens": 1234}),
    ));
    let request = cursor_request("claude-sonnet-4-5", "hello", false);
    let response = gw.post_with(
        "/v1/messages/count_tokens?beta=true",
        &request,
        &[("x-api-key", "sk-ant-test")],
    );
    assert_eq!(response.status(), 200);
    assert!(
        response
            .headers()
            .get("x-multi-cursor-token-count")
            .is_none()
    );
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(body, serde_json::json!({"input_tokens": 1234}));
    let seen = upstream.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].path_and_query(),
        "/v1/messages/count_tokens?beta=true"
    );
    assert_eq!(seen[0].body, request.to_string().into_bytes());
}
