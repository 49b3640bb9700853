//! Under the real Claude Code, a managed-policy deny rule with no Cursor equivalent (`WebSearch`)
//! refuses the Cursor route: Claude Code shows the rule, the managed file it came from, why
//! Cursor cannot express it and what to do, and the Cursor agent never runs.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::policy;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn inexpressible_managed_rule_is_shown_and_nothing_runs() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let managed = gw.managed_dir().join("managed-settings.json");
    policy::write_json(&managed, &policy::deny(&["WebSearch"]));
    let output = ClaudeRun::new(&gw.home(), &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", gw.managed_dir())
        .args(["-p", "look it up", "--model", "multi/cursor/composer-2.5"])
        .run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    for part in [
        "deny rule `WebSearch`".to_string(),
        managed.display().to_string(),
        "has no Cursor equivalent".to_string(),
        "keep this work on a Claude model".to_string(),
    ] {
        assert!(shown.contains(&part), "missing {part:?} in {output:?}");
    }
    assert!(gw.turns().is_empty(), "Cursor ran: {:#?}", gw.turns());
}
