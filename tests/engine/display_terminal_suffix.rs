//! When Cursor's `result` holds text its deltas did not carry, only the missing suffix is
//! added after the streamed text — nothing is shown twice — streamed and non-streamed alike.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn only_the_missing_suffix_is_added() {
    let scenarios = tempfile::tempdir().unwrap();
    // Deltas stop after "Checking now."; the result also holds the final segment, whose
    // deltas never came.
    let scenario = lines::write(
        scenarios.path(),
        "short-deltas.ndjson",
        &[
            lines::init(),
            lines::delta("Checking"),
            lines::delta(" now."),
            lines::result("Checking now. All 4 tests pass.", None),
        ],
    );
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    let expected = "Checking now. All 4 tests pass.\n\n[Cursor] 2 in / 8 out (est.)";

    let (status, body) = gw.ask(
        "suffix-streamed",
        &cursor_request("multi/cursor/composer-2.5", "check", true),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(sse_text(&body), expected);
    let deltas: Vec<String> = gateway::sse_events(&body)
        .iter()
        .filter(|(e, _)| e == "content_block_delta")
        .map(|(_, d)| d["delta"]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        deltas,
        [
            "Checking",
            " now.",
            " All 4 tests pass.\n\n[Cursor] 2 in / 8 out (est.)"
        ]
    );

    let (status, body) = gw.ask(
        "suffix-json",
        &cursor_request("multi/cursor/composer-2.5", "check", false),
    );
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(message["content"][0]["text"], expected);
}
