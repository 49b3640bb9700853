//! Under the real Claude Code, Claude's command sandbox turned on in the project's settings
//! refuses the Cursor route (Cursor's print mode has no equivalent): Claude Code shows the
//! setting and its file, and the Cursor agent never runs.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn sandbox_setting_is_shown_and_nothing_runs() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let settings = joined(&gw.workspace(), ".claude/settings.json");
    policy::write_json(
        &settings,
        &serde_json::json!({"sandbox": {"enabled": true}}),
    );
    let output = ClaudeRun::new(&gw.home(), &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", gw.managed_dir())
        .args(["-p", "build it", "--model", "multi/cursor/composer-2.5"])
        .run();
    let shown = format!("{}{}", output.stdout, output.stderr);
    assert_ne!(output.status, Some(0), "{output:?}");
    for part in [
        "`sandbox.enabled`".to_string(),
        settings.display().to_string(),
        "no equivalent of Claude's command sandbox".to_string(),
    ] {
        assert!(shown.contains(&part), "missing {part:?} in {output:?}");
    }
    assert!(gw.turns().is_empty(), "Cursor ran: {:#?}", gw.turns());
}
