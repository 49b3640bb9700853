//! Passthrough through the real `multi-cursor serve`: a Claude model's request reaches the
//! upstream byte for byte (our token removed, credentials kept) and its SSE answer comes back
//! event by event.

use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::gateway;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use fake_upstream::anthropic;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn claude_request_passes_through_byte_for_byte() {
    let upstream = FakeUpstream::start();
    let gw = TestGateway::start(GatewayOptions {
        upstream: Some(upstream.url()),
        ..Default::default()
    });
    let events = anthropic::text_events("claude-sonnet-4-5", "Hello from Claude, relayed.");
    upstream.push(ScriptedResponse::sse(events.clone()));

    // Odd spacing and key order that a re-serialisation would change.
    let body = "{ \"stream\":true,  \"model\": \"claude-sonnet-4-5\",\"max_tokens\":1024,\n\"messages\":[{\"role\":\"user\",\"content\":\"caf\u{e9} \\u00e9\"}] }";
    let response = gw
        .client()
        .post(format!("{}/v1/messages?beta=true", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .header("content-type", "application/json")
        .header("x-api-key", "sk-ant-test-SECRET")
        .header("anthropic-version", "2023-06-01")
        .header(
            "anthropic-beta",
            "claude-code-20250219,interleaved-thinking-2025-05-14",
        )
        .body(body)
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let answer = response.text().unwrap();
    assert_eq!(answer, events.concat(), "relayed event by event, unchanged");
    assert_eq!(gateway::sse_text(&answer), "Hello from Claude, relayed.");

    let seen = upstream.requests();
    assert_eq!(seen.len(), 1);
    let request = &seen[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path_and_query(), "/v1/messages?beta=true");
    assert_eq!(request.body, body.as_bytes());
    assert!(request.header("x-multi-cursor-token").is_none());
    assert_eq!(request.header_str("x-api-key"), Some("sk-ant-test-SECRET"));
    assert_eq!(
        request.header_str("anthropic-beta"),
        Some("claude-code-20250219,interleaved-thinking-2025-05-14")
    );
    assert_eq!(request.header_str("anthropic-version"), Some("2023-06-01"));
    assert!(gw.turns().is_empty(), "passthrough never runs Cursor");
}
