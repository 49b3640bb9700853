//! `GET /multi-cursor/spend/<session>`: a session's runs, replays, tokens and model; a session
//! that never used Cursor has nothing; the token is checked like on every route.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::get;
use super::common::request;

#[test]
fn the_route_answers_a_sessions_spend() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });
    let (status, quiet) = get(&gw, "/multi-cursor/spend/never-used");
    assert_eq!(status, 200);
    assert_eq!(
        quiet,
        serde_json::json!({"session": "never-used", "runs": 0, "replays": 0,
            "input_tokens": 0, "output_tokens": 0, "estimated": false})
    );
    let body = request("count my spend");
    assert_eq!(ask(&gw, "spent", None, &body).0, 200);
    gw.wait_idle();
    assert_eq!(
        ask(&gw, "spent", Some("worker-1"), &request("a worker's task")).0,
        200
    );
    gw.wait_idle();
    assert_eq!(ask(&gw, "spent", None, &body).0, 200, "a replay");
    let (status, spend) = get(&gw, "/multi-cursor/spend/spent");
    assert_eq!(status, 200);
    assert_eq!(spend["runs"], 2, "workers included: {spend}");
    assert_eq!(spend["replays"], 1, "{spend}");
    assert_eq!(spend["model"], "composer-2.5");
    assert!(spend["input_tokens"].as_u64().unwrap() > 0, "{spend}");
    assert!(spend.get("live").is_none(), "{spend}");

    let anonymous = gw
        .client()
        .get(format!("{}/multi-cursor/spend/spent", gw.url))
        .send()
        .unwrap();
    assert_eq!(anonymous.status(), 401);
}
