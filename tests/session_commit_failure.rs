//! A turn whose answer cannot be recorded (here: the sessions folder replaced by a file while
//! Cursor works) is never reported as a success: the streamed answer ends with an error event
//! instead of `message_stop`, and an identical re-send gets that failure, not a second run.

#![allow(clippy::unwrap_used)]

#[path = "support/gateway.rs"]
mod gateway;
#[path = "support/scenario.rs"]
mod scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;

#[test]
fn a_failed_commit_is_a_failure() {
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(
        scenarios.path(),
        "slow.scenario",
        "almost",
        "1500ms",
        " done",
    );
    let gw = std::sync::Arc::new(TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_SCENARIO".into(), slow.display().to_string())],
        ..GatewayOptions::default()
    }));
    let request = cursor_request("multi/cursor/composer-2.5", "finish it", true);
    let streamed = {
        let (gw, request) = (std::sync::Arc::clone(&gw), request.clone());
        std::thread::spawn(move || gw.ask("s-disk", &request))
    };
    let record = gw.record_path("s-disk", "main");
    assert!(scenario::wait_for(10, || record.exists()
        && gw.record("s-disk", "main")["chatId"].is_string()));
    let sessions = record.parent().unwrap().to_path_buf();
    std::fs::rename(&sessions, sessions.with_extension("moved")).unwrap();
    std::fs::write(&sessions, b"not a folder").unwrap();

    let (status, body) = streamed.join().unwrap();
    assert_eq!(status, 200);
    let events = sse_events(&body);
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert!(!names.contains(&"message_stop"), "{names:?}");
    assert!(!names.contains(&"message_delta"), "{names:?}");
    let (_, error) = events.last().unwrap();
    assert_eq!(events.last().unwrap().0, "error");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("could not be recorded"), "{message}");

    let mut again = request;
    again["stream"] = serde_json::json!(false);
    let (status, body) = gw.ask("s-disk", &again);
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("could not be recorded"), "{body}");
    assert_eq!(gw.turns().len(), 1, "not run a second time");
}
