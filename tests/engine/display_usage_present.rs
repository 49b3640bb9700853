//! Cursor's token counts are mapped field by field into the Messages usage, and
//! `multi_cursor_usage` says `"source": "provider"` with the Cursor model id — on the final
//! `message_delta` and at the top of the non-streamed response.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;
use serde_json::json;

#[test]
fn provider_counts_are_mapped() {
    let scenarios = tempfile::tempdir().unwrap();
    let usage = json!({"inputTokens": 18377, "outputTokens": 122, "cacheReadTokens": 22528, "cacheWriteTokens": 7});
    let scenario = lines::write(
        scenarios.path(),
        "usage.ndjson",
        &[
            lines::init(),
            lines::whole("Hi."),
            lines::result("Hi.", Some(usage)),
        ],
    );
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    let expected_usage = json!({
        "input_tokens": 18377,
        "output_tokens": 122,
        "cache_read_input_tokens": 22528,
        "cache_creation_input_tokens": 7,
    });
    let expected_source = json!({"source": "provider", "model": "composer-2.5"});

    let (status, body) = gw.ask(
        "usage-streamed",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_eq!(status, 200, "{body}");
    let events = sse_events(&body);
    let (_, delta) = events.iter().find(|(e, _)| e == "message_delta").unwrap();
    assert_eq!(delta["usage"], expected_usage);
    assert_eq!(delta["multi_cursor_usage"], expected_source);

    let (status, body) = gw.ask(
        "usage-json",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
    );
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(message["usage"], expected_usage);
    assert_eq!(message["multi_cursor_usage"], expected_source);
}
