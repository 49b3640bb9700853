//! Budgets: the turn after the limit is refused with 429 `rate_limit_error`,
//! `x-should-retry: false`, naming the variable, the limit and the use, before anything is
//! spawned; a replay is still served. A value that is not a number keeps the gateway from
//! starting.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::get;
use super::common::request;

#[test]
fn the_turn_budget_refuses_the_next_turn_only() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_BUDGET_TURNS".into(), "1".into())],
        ..Default::default()
    });
    let first = request("the only paid turn");
    assert_eq!(ask(&gw, "budget", None, &first).0, 200);
    gw.wait_idle();
    let (status, retry, body) = ask(&gw, "budget", None, &request("one more"));
    assert_eq!(status, 429, "{body}");
    assert_eq!(retry.as_deref(), Some("false"));
    assert_eq!(body["error"]["type"], "rate_limit_error");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("MULTI_CURSOR_BUDGET_TURNS is 1 and 1 turn was started"),
        "{message}"
    );
    assert_eq!(
        gw.turns().len(),
        1,
        "nothing was spawned for the refused turn"
    );
    let (status, _, replay) = ask(&gw, "budget", None, &first);
    assert_eq!(status, 200, "a replay is still served: {replay}");
    let (_, status) = get(&gw, "/multi-cursor/status");
    assert_eq!(
        status["spend"]["budgets"][0],
        serde_json::json!({"variable": "MULTI_CURSOR_BUDGET_TURNS", "limit": 1, "used": 1, "left": 0})
    );
}

#[test]
fn the_token_budget_counts_what_runs_used() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_BUDGET_TOKENS".into(), "1".into())],
        ..Default::default()
    });
    assert_eq!(ask(&gw, "tokens", None, &request("first")).0, 200);
    gw.wait_idle();
    let (status, _, body) = ask(&gw, "tokens", None, &request("second"));
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("MULTI_CURSOR_BUDGET_TOKENS is 1 and its runs used"),
        "{message}"
    );
}

#[test]
fn a_bad_budget_keeps_the_gateway_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(multi_cursor_test_support::multi_cursor_bin())
        .args(["serve", "--permission-mode", "bypassPermissions"])
        .env("MULTI_CURSOR_STATE_DIR", dir.path())
        .env("MULTI_CURSOR_BUDGET_DAILY_TOKENS", "2M")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("MULTI_CURSOR_BUDGET_DAILY_TOKENS=\"2M\" is not a whole number of tokens"),
        "{stderr}"
    );
}
