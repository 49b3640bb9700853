//! One flow for every fault that stops a finished turn from being recorded (a full disk, a
//! read-only state folder, a folder replaced by a file): Cursor streams, the fault is injected
//! once the chat id is recorded, Cursor finishes. The user must see a failure naming the cause
//! (never `message_stop`), the record on disk must still read back naming the chat, an identical
//! re-send must get that failure without a second run, and once the fault is undone the next
//! message must run in the same chat with the interruption notice.

use std::sync::Arc;

use crate::display::without_tokens;
use crate::gateway::GatewayOptions;
use crate::gateway::TestGateway;
use crate::gateway::cursor_request;
use crate::gateway::resumed_chat;
use crate::gateway::sse_events;
use crate::gateway::sse_text;
use crate::scenario;

const NOTICE: &str = "[Cursor] The previous turn was interrupted. Report its state and do not repeat completed actions.";

/// A fault on the state folder: injected while Cursor works, undone before the next message.
pub struct Fault {
    pub inject: Box<dyn Fn(&TestGateway)>,
    pub undo: Box<dyn Fn(&TestGateway)>,
    /// Text the failure must contain to show which fault the user hit (the OS error).
    pub cause: &'static str,
}

/// Runs the flow on a gateway started with `options` (its scenario and chat id are set here).
pub fn a_commit_fault_is_a_failure(mut options: GatewayOptions, fault: Fault) {
    let scenarios = tempfile::tempdir().unwrap();
    scenario::write(
        scenarios.path(),
        "01-slow.scenario",
        &[
            scenario::INIT,
            &scenario::delta("almost"),
            "#!sleep 1500ms",
            &scenario::delta(" done"),
            &scenario::result("almost done"),
        ],
    );
    scenario::reply(scenarios.path(), "02-next.scenario", "state reported");
    options.permission_mode = Some("bypassPermissions".into());
    options.env.extend([
        (
            "FAKE_AGENT_SCENARIO".to_string(),
            scenarios.path().display().to_string(),
        ),
        ("FAKE_AGENT_CHAT_ID".to_string(), "chat-fault".to_string()),
    ]);
    let gw = Arc::new(TestGateway::start(options));
    let request = cursor_request("multi/cursor/composer-2.5", "finish it", true);
    let streamed = {
        let (gw, request) = (Arc::clone(&gw), request.clone());
        std::thread::spawn(move || gw.ask("s-fault", &request))
    };
    let record = gw.record_path("s-fault", "main");
    assert!(scenario::wait_for(10, || record.exists()
        && gw.record("s-fault", "main")["chatId"] == "chat-fault"));
    (fault.inject)(&gw);

    let (status, body) = streamed.join().unwrap();
    assert_eq!(status, 200);
    let events = sse_events(&body);
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert!(!names.contains(&"message_stop"), "{names:?}");
    assert!(!names.contains(&"message_delta"), "{names:?}");
    let (last, error) = events.last().unwrap();
    assert_eq!(last, "error");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("could not be recorded"), "{message}");
    assert!(message.contains(fault.cause), "{message}");

    let mut again = request;
    again["stream"] = serde_json::json!(false);
    let (status, body) = gw.ask("s-fault", &again);
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("could not be recorded"), "{body}");
    assert_eq!(gw.turns().len(), 1, "not run a second time");

    (fault.undo)(&gw);
    let left = gw.record("s-fault", "main");
    assert_eq!(left["chatId"], "chat-fault", "the record still reads back");
    assert_eq!(left["interrupted"], true, "{left:#}");

    let mut next = cursor_request("multi/cursor/composer-2.5", "", true);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "finish it"},
        {"role": "user", "content": "what state is it in?"}
    ]);
    let (status, body) = gw.ask("s-fault", &next);
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    assert!(text.starts_with(NOTICE), "{text}");
    assert!(without_tokens(&text).ends_with("state reported"), "{text}");
    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    assert_eq!(
        resumed_chat(&turns[1]).as_deref(),
        Some("chat-fault"),
        "the same chat goes on"
    );
    let record = gw.record("s-fault", "main");
    assert_eq!(record["lastOutcome"], "completed");
    assert_eq!(record["interrupted"], false);
    assert!(record["pendingRun"].is_null());
}
