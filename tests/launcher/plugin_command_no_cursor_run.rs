//! On a Cursor route the gateway answers a plugin command's model turn itself, from the
//! command's output: it needs no Cursor login, no permission mode and no Cursor run, while an
//! ordinary prompt to the same gateway and model goes to Cursor (which is logged out here).

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn plugin_commands_never_run_cursor() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: None,
        env: vec![("FAKE_AGENT_LOGGED_OUT".into(), "1".into())],
        ..GatewayOptions::default()
    });
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    plugin::install(&home, &project);

    let command = plugin::run_command(
        plugin::claude_through(&gw, &home, &project),
        "/multi-cursor:status",
    );
    assert_eq!(command.status, Some(0), "{command:?}");
    assert!(
        command.stdout.starts_with("/multi-cursor:status\n"),
        "{command:?}"
    );
    assert!(
        command.stdout.contains("Not logged in to Cursor"),
        "the answer is the helper's output: {command:?}"
    );

    assert!(gw.turns().is_empty(), "no Cursor turn: {:?}", gw.turns());

    let prompt = plugin::run_command(plugin::claude_through(&gw, &home, &project), "say hello");
    assert_ne!(prompt.status, Some(0), "{prompt:?}");
    assert!(
        prompt.stdout.contains("--cursor-login"),
        "an ordinary prompt does reach Cursor, which is logged out: {prompt:?}"
    );
}
