//! Identical requests while a turn runs join it: one Cursor run, every client answered with the
//! same text — streamed clients get the earlier events first, a non-streamed one the whole
//! message. Claude Code's re-send of the same body with `stream:false` is such a request.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn identical_requests_share_one_run() {
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(scenarios.path(), "slow.scenario", "one", "1200ms", " run");
    let gw = std::sync::Arc::new(TestGateway::start(GatewayOptions::replaying(&slow)));
    let ask = |stream: bool| {
        let gw = std::sync::Arc::clone(&gw);
        std::thread::spawn(move || {
            gw.ask(
                "s-join",
                &cursor_request("multi/cursor/composer-2.5", "same", stream),
            )
        })
    };
    let first = ask(true);
    assert!(scenario::wait_for(10, || gw.turns().len() == 1));
    let second = ask(true);
    let third = ask(false);
    let (s1, b1) = first.join().unwrap();
    let (s2, b2) = second.join().unwrap();
    let (s3, b3) = third.join().unwrap();
    assert_eq!((s1, s2, s3), (200, 200, 200));
    assert_eq!(without_tokens(&sse_text(&b1)), "one run");
    assert_eq!(
        without_tokens(&sse_text(&b2)),
        "one run",
        "the joiner gets the earlier events too"
    );
    let message: serde_json::Value = serde_json::from_str(&b3).unwrap();
    assert_eq!(
        without_tokens(message["content"][0]["text"].as_str().unwrap()),
        "one run"
    );
    assert_eq!(
        gw.turns().len(),
        1,
        "one Cursor run for three identical requests"
    );
}

#[test]
fn the_resend_without_thinking_is_replayed_not_run_again() {
    // Claude Code (2.1.334+) re-sends an unknown 400 once with the thinking blocks taken out
    // of the history, and any failed stream with stream:false: the same exchange, so a turn
    // that already ran is served again from its record, never run a second time.
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let mut body = cursor_request("multi/cursor/composer-2.5", "earlier", true);
    body["messages"] = serde_json::json!([
        {"role": "user", "content": [{"type": "text", "text": "earlier"}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Claude thought.", "signature": "c2ln"},
            {"type": "text", "text": "Claude answered."}]},
        {"role": "user", "content": [{"type": "text", "text": "now Cursor"}]}
    ]);
    let (status, first) = gw.ask("s-thinking", &body);
    assert_eq!(status, 200, "{first}");
    assert_eq!(gw.turns().len(), 1);
    let mut stripped = body.clone();
    stripped["stream"] = serde_json::json!(false);
    stripped["messages"][1]["content"] =
        serde_json::json!([{"type": "text", "text": "Claude answered."}]);
    let response = gw.post_with(
        "/v1/messages",
        &stripped,
        &[("x-claude-code-session-id", "s-thinking")],
    );
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-multi-cursor-replayed"], "true");
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(
        without_tokens(message["content"][0]["text"].as_str().unwrap()),
        without_tokens(&sse_text(&first))
    );
    assert_eq!(gw.turns().len(), 1, "one Cursor run for both");
}
