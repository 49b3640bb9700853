//! A turn that fails after Cursor may have acted (output, then a crash without a result) is
//! not run again: an identical retry gets the same failure, and the next new message tells
//! Cursor the previous turn was interrupted. A turn that failed before anything ran (Cursor
//! logged out) is forgotten by the record; its retry is answered the same without running
//! Cursor while Cursor's login is unchanged (`gateway::status_codes` logs in and sees it run).

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::resumed_chat;
use gateway::sse_text;

const NOTICE: &str = "[Cursor] The previous turn was interrupted. Report its state and do not repeat completed actions.";

#[test]
fn a_crash_after_output_is_reported_again_not_rerun() {
    let scenarios = tempfile::tempdir().unwrap();
    let dir = scenarios.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    scenario::write(
        &dir,
        "01-crash.scenario",
        &[
            scenario::INIT,
            &scenario::delta("editing files"),
            "#!exit 9",
        ],
    );
    scenario::reply(&dir, "02-ok.scenario", "state reported");
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_SCENARIO".into(), dir.display().to_string()),
            ("FAKE_AGENT_CHAT_ID".into(), "chat-crash".into()),
        ],
        ..GatewayOptions::default()
    });
    let request = cursor_request("multi/cursor/composer-2.5", "refactor", false);
    let (status, first) = gw.ask("s-fail", &request);
    assert_eq!(status, 502, "{first}");
    let (status, again) = gw.ask("s-fail", &request);
    assert_eq!(status, 502);
    assert_eq!(again, first, "the same failure, word for word");
    let (status, streamed) = gw.ask(
        "s-fail",
        &cursor_request("multi/cursor/composer-2.5", "refactor", true),
    );
    assert_eq!(
        status, 502,
        "a streamed re-send is the same exchange: {streamed}"
    );
    assert_eq!(gw.turns().len(), 1, "never run twice");
    let record = gw.record("s-fail", "main");
    assert_eq!(record["lastOutcome"], "failed");
    assert_eq!(record["interrupted"], true);
    assert!(record["pendingRun"].is_null());

    let mut next = cursor_request("multi/cursor/composer-2.5", "refactor", true);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "refactor"},
        {"role": "user", "content": "what happened?"}
    ]);
    let (status, body) = gw.ask("s-fail", &next);
    assert_eq!(status, 200, "{body}");
    assert!(sse_text(&body).starts_with(NOTICE), "{body}");
    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    assert!(turns[1]["stdin"].as_str().unwrap().starts_with(NOTICE));
    assert_eq!(resumed_chat(&turns[1]).as_deref(), Some("chat-crash"));
    assert_eq!(
        gw.record("s-fail", "main")["interrupted"],
        false,
        "cleared once that turn completed"
    );
}

#[test]
fn a_failure_before_anything_ran_is_forgotten() {
    let scenario_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-agent/scenarios/auth-error.scenario");
    assert!(scenario_path.exists());
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario_path));
    let request = cursor_request("multi/cursor/composer-2.5", "hello", false);
    let (status, body) = gw.ask("s-auth", &request);
    assert_eq!(status, 424, "{body}");
    let (status, _) = gw.ask("s-auth", &request);
    assert_eq!(status, 424);
    assert_eq!(
        gw.turns().len(),
        1,
        "the login has not changed: the retry is answered without running Cursor"
    );
    let record = gw.record("s-auth", "main");
    assert_eq!(record["interrupted"], false);
    assert!(record["pendingRun"].is_null());
    assert!(record["lastOutcome"].is_null());
}
