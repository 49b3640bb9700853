//! `GET /multi-cursor/status` never shows the user-info (a password) of the upstream URL,
//! though it shows the rest of it.
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn the_status_route_hides_the_upstream_password() {
    let gw = TestGateway::start(GatewayOptions {
        upstream: Some("http://user:UPSTREAM-PASS-SECRET@127.0.0.1:9/".into()),
        ..GatewayOptions::default()
    });
    let response = gw
        .client()
        .get(format!("{}/multi-cursor/status", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body = response.text().unwrap();
    assert!(!body.contains("UPSTREAM-PASS-SECRET"), "{body}");
    assert!(!body.contains("user:"), "{body}");
    let status: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status["upstream"], "http://127.0.0.1:9");
}
