//! Under the real Claude Code, a Claude deny rule Cursor's own config does not enforce refuses
//! the Cursor route: Claude Code shows the rule, its file, its Cursor token and the fix, and
//! the Cursor agent never runs.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn unenforced_deny_rule_is_shown_and_nothing_runs() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let settings = joined(&gw.home(), ".claude/settings.json");
    policy::write_json(&settings, &policy::deny(&["Bash(rm:*)"]));
    let output = ClaudeRun::new(&gw.home(), &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", gw.managed_dir())
        .args(["-p", "tidy up", "--model", "multi/cursor/composer-2.5"])
        .run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    for part in [
        "deny rule `Bash(rm:*)`".to_string(),
        settings.display().to_string(),
        "`Shell(rm)`".to_string(),
        format!("{}", joined(&gw.workspace(), ".cursor/cli.json").display()),
    ] {
        assert!(shown.contains(&part), "missing {part:?} in {output:?}");
    }
    assert!(gw.turns().is_empty(), "Cursor ran: {:#?}", gw.turns());
}
