//! Under the real Claude Code, a Claude `permissions.ask` rule refuses the Cursor route (Cursor
//! cannot ask from inside Claude Code): Claude Code shows the rule, its file and the Cursor deny
//! token that would enforce it, and the Cursor agent never runs.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn ask_rule_is_shown_and_nothing_runs() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let settings = joined(&gw.workspace(), ".claude/settings.local.json");
    policy::write_json(
        &settings,
        &serde_json::json!({"permissions": {"ask": ["Read(.env)"]}}),
    );
    let output = ClaudeRun::new(&gw.home(), &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", gw.managed_dir())
        .args([
            "-p",
            "check the config",
            "--model",
            "multi/cursor/composer-2.5",
        ])
        .run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    for part in [
        "ask rule `Read(.env)`".to_string(),
        settings.display().to_string(),
        "Cursor cannot ask you from inside Claude Code".to_string(),
        "[\"Read(.env)\"]".to_string(),
    ] {
        assert!(shown.contains(&part), "missing {part:?} in {output:?}");
    }
    assert!(gw.turns().is_empty(), "Cursor ran: {:#?}", gw.turns());
}
