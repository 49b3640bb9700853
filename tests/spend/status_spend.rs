//! `multi-cursor status` prints the gateway's spend and each budget's use and what is left.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::request;

#[test]
fn status_prints_spend_and_budgets() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_BUDGET_TURNS".into(), "10".into())],
        ..Default::default()
    });
    assert_eq!(ask(&gw, "st", None, &request("hello")).0, 200);
    gw.wait_idle();
    let output = std::process::Command::new(multi_cursor_test_support::multi_cursor_bin())
        .arg("status")
        .env("MULTI_CURSOR_GATEWAY_URL", &gw.url)
        .env("MULTI_CURSOR_GATEWAY_TOKEN", &gw.token)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("Cursor spend: 1 turns, "), "{stdout}");
    assert!(
        stdout.contains("  MULTI_CURSOR_BUDGET_TURNS 10: 1 used, 9 left\n"),
        "{stdout}"
    );
}
