//! An answer served again from the record (the identical request after the turn completed)
//! says `"replayed": true` in `multi_cursor_usage`; the record itself keeps the answer as it
//! was first served, without the flag.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;
use serde_json::json;

fn usage_of_stream(body: &str) -> serde_json::Value {
    let events = sse_events(body);
    let (_, delta) = events.iter().find(|(e, _)| e == "message_delta").unwrap();
    delta["multi_cursor_usage"].clone()
}

#[test]
fn replays_say_replayed() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let session = "replayed-usage";
    let streamed = cursor_request("multi/cursor/composer-2.5", "hi", true);
    let first = gw.post_with(
        "/v1/messages",
        &streamed,
        &[("x-claude-code-session-id", session)],
    );
    assert!(first.headers().get("x-multi-cursor-replayed").is_none());
    let first_usage = usage_of_stream(&first.text().unwrap());
    assert_eq!(
        first_usage,
        json!({"source": "provider", "model": "composer-2.5"})
    );

    let again = gw.post_with(
        "/v1/messages",
        &streamed,
        &[("x-claude-code-session-id", session)],
    );
    assert_eq!(again.headers()["x-multi-cursor-replayed"], "true");
    assert_eq!(
        usage_of_stream(&again.text().unwrap()),
        json!({"source": "provider", "model": "composer-2.5", "replayed": true})
    );

    // Claude Code's non-streamed fallback of the same body is the same exchange, replayed.
    let json_body = cursor_request("multi/cursor/composer-2.5", "hi", false);
    let (status, body) = gw.ask(session, &json_body);
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(message["multi_cursor_usage"]["replayed"], true);
    assert_eq!(gw.turns().len(), 1, "served twice from one turn");

    let record = gw.record(session, "main");
    assert_eq!(
        record["response"]["multi_cursor_usage"],
        json!({"source": "provider", "model": "composer-2.5"})
    );
    let recorded = record["replay"]["events"].to_string();
    assert!(!recorded.contains("replayed"), "{recorded}");
}
