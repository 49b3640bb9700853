//! Every Cursor answer ends with its turn's tokens, the same figures as the answer's `usage`, on
//! a `[Cursor] <in> in / <out> out` line of its own: right after the `[Cursor]` summary when
//! native actions ran, else as a paragraph of its own; ` (est.)` when the counts are our
//! estimate. Streamed, non-streamed and replayed answers agree.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;
use gateway::sse_text;
use serde_json::json;

/// The `usage` of a streamed answer's `message_delta`.
fn streamed_usage(body: &str) -> serde_json::Value {
    let events = sse_events(body);
    let (_, delta) = events.iter().find(|(e, _)| e == "message_delta").unwrap();
    delta["usage"].clone()
}

#[test]
fn the_tokens_line_follows_the_summary() {
    let scenarios = tempfile::tempdir().unwrap();
    let scenario = lines::write(
        scenarios.path(),
        "shell.ndjson",
        &[
            lines::init(),
            lines::started("s1", "shellToolCall", json!({"command": "ls"})),
            lines::completed(
                "s1",
                "shellToolCall",
                json!({"command": "ls"}),
                json!({"success": {"exitCode": 0, "stdout": "a\n"}}),
            ),
            lines::delta("Listed."),
            lines::result(
                "Listed.",
                Some(json!({"inputTokens": 12_345, "outputTokens": 456})),
            ),
        ],
    );
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    let request = cursor_request("multi/cursor/composer-2.5", "list", true);
    let (status, body) = gw.ask("tokens-provider", &request);
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    assert!(
        text.ends_with("[Cursor] 1 native action: 1 shell.\n[Cursor] 12.3k in / 456 out"),
        "the tokens follow the summary on a line of their own: {text}"
    );
    let usage = streamed_usage(&body);
    assert_eq!(
        (
            usage["input_tokens"].as_u64(),
            usage["output_tokens"].as_u64()
        ),
        (Some(12_345), Some(456))
    );

    // The same request again is a replay: the recorded answer, its tokens included.
    let (status, again) = gw.ask("tokens-provider", &request);
    assert_eq!(status, 200, "{again}");
    assert_eq!(sse_text(&again), text);
    assert_eq!(gw.turns().len(), 1, "a replay runs nothing");
}

#[test]
fn an_answer_without_actions_ends_with_a_token_line_of_its_own() {
    let scenarios = tempfile::tempdir().unwrap();
    let answer = "An answer of exactly forty bytes, see...";
    let scenario = lines::reply(scenarios.path(), "no-usage.ndjson", answer);
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));

    let (status, body) = gw.ask(
        "tokens-estimate",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_eq!(status, 200, "{body}");
    let usage = streamed_usage(&body);
    let input = usage["input_tokens"].as_u64().unwrap();
    assert_eq!(usage["output_tokens"], 10, "ceil(40 bytes / 4)");
    let expected = format!("{answer}\n\n[Cursor] {input} in / 10 out (est.)");
    assert_eq!(sse_text(&body), expected);

    let (status, body) = gw.ask(
        "tokens-estimate-json",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
    );
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(message["content"][0]["text"], expected.as_str());
    assert_eq!(message["usage"]["input_tokens"], input);
    assert_eq!(message["usage"]["output_tokens"], 10);
}
