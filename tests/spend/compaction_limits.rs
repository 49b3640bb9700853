//! A `/compact` summary run is a Cursor run: the rate guard and `MULTI_CURSOR_MAX_SESSIONS`
//! hold it like a turn, and past a spent budget only one compaction per session (that this
//! gateway ran Cursor for) is let through, whatever history the requests carry, until a turn of
//! that session succeeds. A request shaped like a compaction no longer skips every spend limit.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;
use multi_cursor_test_support::scenario;
use multi_cursor_test_support::stream_lines as lines;

use super::common::MODEL;
use super::common::ask;
use super::common::request;

/// A compaction request of the conversation "Do the task" / `answer`.
fn compaction(answer: &str) -> serde_json::Value {
    serde_json::json!({
        "model": MODEL, "max_tokens": 1000, "stream": false,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Do the task"}]},
            {"role": "assistant", "content": [{"type": "text", "text": answer}]},
            {"role": "user", "content": [{"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary of the conversation so far."}]}
        ]
    })
}

/// A gateway whose agent always answers with a summary, under `env`.
fn gateway(env: &[(&str, &str)]) -> (tempfile::TempDir, TestGateway) {
    let scenarios = tempfile::tempdir().unwrap();
    let file = lines::reply(
        scenarios.path(),
        "summary.ndjson",
        "<summary>\n1. Did the task.\n</summary>",
    );
    let mut options = GatewayOptions::replaying(file);
    options
        .env
        .extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    (scenarios, TestGateway::start(options))
}

#[test]
fn past_the_turn_budget_a_session_compacts_once() {
    let (_scenarios, gw) = gateway(&[("MULTI_CURSOR_BUDGET_TURNS", "1")]);
    assert_eq!(ask(&gw, "paid", None, &request("Do the task")).0, 200);
    gw.wait_idle();
    let (status, _, body) = ask(&gw, "paid", None, &compaction("Done."));
    assert_eq!(status, 200, "the session's own compaction: {body}");
    gw.wait_idle();
    let (status, _, body) = ask(&gw, "paid", None, &compaction("Done."));
    assert_eq!(status, 429, "the same history a second time: {body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MULTI_CURSOR_BUDGET_TURNS"),
        "{body}"
    );
    // Made-up histories buy no more runs: the exemption is the session's, not the history's.
    for made_up in ["Done, 1.", "Done, 2.", "Done, 3."] {
        let (status, _, body) = ask(&gw, "paid", None, &compaction(made_up));
        assert_eq!(status, 429, "another history, the same session: {body}");
    }
    for session in ["other-1", "other-2", "other-3"] {
        let (status, _, body) = ask(&gw, session, None, &compaction("Done."));
        assert_eq!(status, 429, "{session} never ran here: {body}");
    }
    assert_eq!(gw.turns().len(), 2, "one turn and one compaction ran");
}

#[test]
fn the_rate_guard_holds_a_compaction() {
    let (_scenarios, gw) = gateway(&[("MULTI_CURSOR_MAX_TURNS_PER_MINUTE", "1")]);
    assert_eq!(ask(&gw, "rate", None, &request("Do the task")).0, 200);
    gw.wait_idle();
    let (status, _, body) = ask(&gw, "rate", None, &compaction("Done."));
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MULTI_CURSOR_MAX_TURNS_PER_MINUTE"),
        "{body}"
    );
    assert_eq!(gw.turns().len(), 1);
}

#[test]
fn a_compaction_counts_against_the_session_cap() {
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(scenarios.path(), "slow.scenario", "busy", "2s", " done");
    let gw = std::sync::Arc::new(TestGateway::start(
        GatewayOptions::single_session_replaying(&slow),
    ));
    let busy = {
        let gw = std::sync::Arc::clone(&gw);
        std::thread::spawn(move || ask(&gw, "s-busy", None, &request("work")).0)
    };
    assert!(scenario::wait_for(10, || gw.turns().len() == 1));
    let (status, _, body) = ask(&gw, "s-other", None, &compaction("Done."));
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MULTI_CURSOR_MAX_SESSIONS"),
        "{body}"
    );
    assert_eq!(busy.join().unwrap(), 200);
    assert_eq!(gw.turns().len(), 1, "the compaction never ran");
}
