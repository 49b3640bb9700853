//! The runaway loop guard: the same first message starting a new worker the third time within
//! ten minutes in one Claude session gets 429; a continuing conversation never counts; another
//! session is not affected; `MULTI_CURSOR_LOOP_LIMIT=0` turns it off.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::request;

#[test]
fn the_same_task_is_refused_the_third_time() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });
    let task = request("Fix the flaky test in src/lib.rs");
    for worker in ["w1", "w2"] {
        assert_eq!(ask(&gw, "looping", Some(worker), &task).0, 200);
        gw.wait_idle();
    }
    // Continuing w1's conversation is not a new worker.
    let more = serde_json::json!({
        "model": super::common::MODEL, "max_tokens": 1000, "stream": false,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Fix the flaky test in src/lib.rs"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "fake agent reply"}]},
            {"role": "user", "content": [{"type": "text", "text": "continue"}]}
        ]
    });
    assert_eq!(ask(&gw, "looping", Some("w1"), &more).0, 200);
    gw.wait_idle();
    assert_eq!(ask(&gw, "elsewhere", Some("w9"), &task).0, 200);
    gw.wait_idle();
    let turns = gw.turns().len();
    let (status, retry, body) = ask(&gw, "looping", Some("w3"), &task);
    assert_eq!(status, 429, "{body}");
    assert_eq!(retry.as_deref(), Some("false"));
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("3 times within 10 minutes"), "{message}");
    assert!(message.contains("MULTI_CURSOR_LOOP_LIMIT"), "{message}");
    assert_eq!(gw.turns().len(), turns, "nothing was spawned");
}

#[test]
fn the_guard_can_be_turned_off() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_LOOP_LIMIT".into(), "0".into())],
        ..Default::default()
    });
    let task = request("Same task");
    for worker in ["a", "b", "c"] {
        assert_eq!(ask(&gw, "off", Some(worker), &task).0, 200);
        gw.wait_idle();
    }
}
