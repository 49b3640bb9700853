//! Under the real Claude Code, a Claude settings file that exists but is not valid JSON is never
//! skipped (it may hold deny rules): the Cursor route is refused naming the file, and the Cursor
//! agent never runs.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn broken_settings_file_is_shown_and_nothing_runs() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let settings = joined(&gw.workspace(), ".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\"permissions\": {\"deny\": [\"Bash(rm:*)\"]").unwrap();
    let output = ClaudeRun::new(&gw.home(), &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", gw.managed_dir())
        .args(["-p", "tidy up", "--model", "multi/cursor/composer-2.5"])
        .run();
    assert_ne!(output.status, Some(0), "{output:?}");
    let shown = format!("{}{}", output.stdout, output.stderr);
    for part in [
        format!("{} could not be read", settings.display()),
        "not valid JSON".to_string(),
        "fix the settings that could not be used".to_string(),
    ] {
        assert!(shown.contains(&part), "missing {part:?} in {output:?}");
    }
    assert!(gw.turns().is_empty(), "Cursor ran: {:#?}", gw.turns());
}
