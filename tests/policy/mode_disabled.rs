//! A mode Claude's settings turn off (`permissions.disableBypassPermissionsMode: "disable"`,
//! `disableAutoMode: "disable"`) is refused even when the gateway was started with it
//! (`serve --permission-mode`), naming the setting and its file; nothing runs. Other modes are
//! unaffected.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn run(gw: &TestGateway, session: &str) -> reqwest::blocking::Response {
    gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", session)],
    )
}

#[test]
fn disabled_modes_are_refused() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let managed = gw.managed_dir().join("managed-settings.json");
    policy::write_json(
        &managed,
        &serde_json::json!({
            "permissions": {"disableBypassPermissionsMode": "disable"},
            "disableAutoMode": "disable"
        }),
    );
    let message = policy::refusal(run(&gw, "default-mode"));
    assert!(
        message.contains(&format!(
            "`permissions.disableBypassPermissionsMode: \"disable\"` in {} turns off bypass permissions (bypassPermissions)",
            managed.display()
        )),
        "{message}"
    );
    assert!(
        message.contains("choose another permission mode"),
        "{message}"
    );

    gw.set_mode("auto-session", "auto");
    let message = policy::refusal(run(&gw, "auto-session"));
    assert!(
        message.contains(&format!(
            "`disableAutoMode: \"disable\"` in {}",
            managed.display()
        )),
        "{message}"
    );
    assert!(gw.turns().is_empty());

    gw.set_mode("plan-session", "plan");
    let response = run(&gw, "plan-session");
    assert_eq!(response.status(), 200);
    let _ = response.text();
    assert_eq!(gw.turns().len(), 1);
}
