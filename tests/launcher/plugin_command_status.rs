//! `/multi-cursor:status` with the plugin installed, inside a session pointed at a gateway:
//! the user gets that gateway's state (its pid, the Cursor agent, the login), answered without
//! a Cursor turn.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn status_command_shows_the_gateway() {
    let gw = TestGateway::start(GatewayOptions::default());
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    plugin::install(&home, &project);

    let output = plugin::run_command(
        plugin::claude_through(&gw, &home, &project),
        "/multi-cursor:status",
    );
    assert_eq!(output.status, Some(0), "{output:?}");
    let answer = &output.stdout;
    assert!(answer.starts_with("/multi-cursor:status"), "{output:?}");
    assert!(
        answer.contains(&format!("gateway pid {}", gw.pid)),
        "{answer}"
    );
    assert!(
        answer.contains(&format!(
            "Cursor agent: {}",
            gateway::fake_agent().display()
        )),
        "{answer}"
    );
    assert!(
        answer.contains("Logged in to Cursor as fake@example.com"),
        "{answer}"
    );
    assert!(gw.turns().is_empty(), "no Cursor turn: {:?}", gw.turns());
}
