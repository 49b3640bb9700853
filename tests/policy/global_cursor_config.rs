//! Cursor's global config counts as enforcing a rule: `~/.cursor/cli-config.json`, or
//! `$CURSOR_CONFIG_DIR/cli-config.json` when that is set (then the home one does not), read
//! without touching its other fields (the login lives there too).

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn run(gw: &TestGateway) -> reqwest::blocking::Response {
    gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", "s")],
    )
}

fn global_config(tokens: &[&str]) -> serde_json::Value {
    serde_json::json!({
        "version": 1,
        "editor": {"vimMode": false},
        "authInfo": {"email": "you@example.com", "accessToken": "not-for-anyone"},
        "permissions": {"allow": [], "deny": tokens}
    })
}

#[test]
fn global_cursor_config_enforces_rules() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        // Cursor's own `--model` write and our put-back are default_model_put_back's.
        env: vec![("FAKE_AGENT_PERSIST_MODEL".into(), "0".into())],
        ..GatewayOptions::default()
    });
    policy::write_json(
        &joined(&gw.home(), ".claude/settings.json"),
        &policy::deny(&["Bash(rm:*)"]),
    );
    let home_config = joined(&gw.home(), ".cursor/cli-config.json");
    policy::write_json(&home_config, &global_config(&["Shell(rm)"]));
    let before = std::fs::read(&home_config).unwrap();
    let response = run(&gw);
    assert_eq!(response.status(), 200);
    let _ = response.text();
    assert_eq!(gw.turns().len(), 1);
    assert_eq!(
        std::fs::read(&home_config).unwrap(),
        before,
        "never written"
    );
    let recorded = gw.record("s", "main")["policy"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        recorded.contains(&format!("= Shell(rm) in {}", home_config.display())),
        "{recorded}"
    );
    assert!(!recorded.contains("not-for-anyone"), "{recorded}");

    // CURSOR_CONFIG_DIR moves Cursor's global config: the home file no longer counts.
    let elsewhere = tempfile::tempdir().unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            (
                "CURSOR_CONFIG_DIR".into(),
                elsewhere.path().to_string_lossy().into_owned(),
            ),
            ("FAKE_AGENT_PERSIST_MODEL".into(), "0".into()),
        ],
        ..GatewayOptions::default()
    });
    policy::write_json(
        &joined(&gw.home(), ".claude/settings.json"),
        &policy::deny(&["Bash(rm:*)"]),
    );
    policy::write_json(
        &joined(&gw.home(), ".cursor/cli-config.json"),
        &global_config(&["Shell(rm)"]),
    );
    let message = policy::refusal(run(&gw));
    assert!(message.contains("`Shell(rm)`"), "{message}");
    assert!(!message.contains("not-for-anyone"), "{message}");
    policy::write_json(
        &elsewhere.path().join("cli-config.json"),
        &global_config(&["Shell(*)"]),
    );
    let response = run(&gw);
    assert_eq!(response.status(), 200);
    let _ = response.text();
    assert_eq!(gw.turns().len(), 1);
}
