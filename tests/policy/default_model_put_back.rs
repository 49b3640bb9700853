//! Every `agent --model <id>` run makes Cursor write `model.modelId` and
//! `hasChangedDefaultModel: true` into its global `cli-config.json` (the fake agent does so by
//! default, as the 2026.10 CLI does). A worker's turn must not change the model the user chose
//! for their own Cursor: once the run has ended those two fields hold the user's values again,
//! and every other key (the login, the deny rules) is as Cursor left it.

use std::time::Duration;
use std::time::Instant;

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

const USER_CONFIG: &str = r#"{"version":1,"model":{"modelId":"auto","displayName":"Auto"},"hasChangedDefaultModel":false,"authInfo":{"email":"you@example.com"},"permissions":{"allow":[],"deny":["Shell(rm)"]}}"#;

fn model_fields(text: &str) -> (serde_json::Value, serde_json::Value) {
    let config: serde_json::Value = serde_json::from_str(text).unwrap();
    (
        config["model"]["modelId"].clone(),
        config["hasChangedDefaultModel"].clone(),
    )
}

#[test]
fn a_turn_puts_the_users_default_model_back() {
    let config_dir = tempfile::tempdir().unwrap();
    let path = config_dir.path().join("cli-config.json");
    std::fs::write(&path, USER_CONFIG).unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![(
            "CURSOR_CONFIG_DIR".into(),
            config_dir.path().to_string_lossy().into_owned(),
        )],
        ..GatewayOptions::default()
    });
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", "s")],
    );
    assert_eq!(response.status(), 200);
    let _ = response.text();
    assert_eq!(gw.turns().len(), 1);

    // The put-back follows the end of the run's process group, which may come just after the
    // answer's last byte.
    let deadline = Instant::now() + Duration::from_secs(10);
    let text = loop {
        let text = std::fs::read_to_string(&path).unwrap();
        if model_fields(&text).0 == "auto" || Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_ne!(text, USER_CONFIG, "Cursor's run rewrote the file");
    assert_eq!(
        model_fields(&text),
        (serde_json::json!("auto"), serde_json::json!(false)),
        "{text}"
    );
    let config: serde_json::Value = serde_json::from_str(&text).unwrap();
    let user: serde_json::Value = serde_json::from_str(USER_CONFIG).unwrap();
    assert_eq!(config, user, "nothing else changed");
}
