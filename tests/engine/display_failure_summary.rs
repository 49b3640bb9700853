//! A turn that fails after Cursor acted is answered with an error (Claude Code shows errors, not
//! partial answers); its message ends with what Cursor did before it stopped, so the user still
//! learns what changed.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use serde_json::json;

#[test]
fn the_error_says_what_changed() {
    let scenarios = tempfile::tempdir().unwrap();
    let edit = json!({"path": "{{workspace_json}}/src/a.rs"});
    let scenario = lines::write(
        scenarios.path(),
        "crash-after-edit.scenario",
        &[
            lines::init(),
            lines::started("e1", "editToolCall", edit.clone()),
            lines::completed(
                "e1",
                "editToolCall",
                edit,
                json!({"success": {"linesAdded": 2, "linesRemoved": 0}}),
            ),
            lines::started("s1", "shellToolCall", json!({"command": "cargo test"})),
            "#!stderr Error: connection lost".to_string(),
            "#!exit 1".to_string(),
        ],
    );
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    let (status, body) = gw.ask(
        "crash",
        &cursor_request("multi/cursor/composer-2.5", "edit and test", false),
    );
    assert_eq!(status, 502, "{body}");
    let error: serde_json::Value = serde_json::from_str(&body).unwrap();
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.ends_with(
            " Before it stopped, Cursor ran 2 native actions: 1 shell, 1 edit. Changed: src/a.rs. Unconfirmed: 1 action ended without a reported outcome."
        ),
        "{message}"
    );
}
