//! Without Cursor's counts (older CLIs send no `usage`), the usage is our estimate and
//! `multi_cursor_usage` says `"source": "estimate"`, so nobody mistakes it for a bill.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;
use serde_json::json;

#[test]
fn an_estimate_says_so() {
    let scenarios = tempfile::tempdir().unwrap();
    let answer = "An answer of exactly forty bytes, see...";
    assert_eq!(answer.len(), 40);
    let scenario = lines::reply(scenarios.path(), "no-usage.ndjson", answer);
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));

    let (status, body) = gw.ask(
        "estimate-streamed",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_eq!(status, 200, "{body}");
    let events = sse_events(&body);
    let (_, start) = events.iter().find(|(e, _)| e == "message_start").unwrap();
    let estimate = start["message"]["usage"]["input_tokens"].as_u64().unwrap();
    assert!(estimate > 0);
    let (_, delta) = events.iter().find(|(e, _)| e == "message_delta").unwrap();
    assert_eq!(
        delta["usage"],
        json!({"input_tokens": estimate, "output_tokens": 10})
    );
    assert_eq!(
        delta["multi_cursor_usage"],
        json!({"source": "estimate", "model": "composer-2.5"})
    );

    let (status, body) = gw.ask(
        "estimate-json",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
    );
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(message["multi_cursor_usage"]["source"], "estimate");
    assert_eq!(message["usage"]["output_tokens"], 10);
}
