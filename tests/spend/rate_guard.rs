//! The rate guard: more Cursor turns a minute than `MULTI_CURSOR_MAX_TURNS_PER_MINUTE` in one
//! gateway are refused with 429 naming the variable.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::request;

#[test]
fn too_many_turns_a_minute_are_refused() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_MAX_TURNS_PER_MINUTE".into(), "2".into())],
        ..Default::default()
    });
    for (session, text) in [("r1", "one"), ("r2", "two")] {
        assert_eq!(ask(&gw, session, None, &request(text)).0, 200);
        gw.wait_idle();
    }
    let (status, retry, body) = ask(&gw, "r3", None, &request("three"));
    assert_eq!(status, 429, "{body}");
    assert_eq!(retry.as_deref(), Some("false"));
    assert_eq!(body["error"]["type"], "rate_limit_error");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("more than 2 Cursor turns were started in the last minute"),
        "{message}"
    );
    assert!(
        message.contains("MULTI_CURSOR_MAX_TURNS_PER_MINUTE"),
        "{message}"
    );
    assert_eq!(gw.turns().len(), 2);
}
