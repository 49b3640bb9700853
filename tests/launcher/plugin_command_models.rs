//! `/multi-cursor:models` with the plugin installed, on a Cursor route: the user gets the
//! helper's model table (every line `multi-cursor --cursor-models` prints), answered by the
//! gateway without a Cursor turn.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn models_command_shows_the_catalog() {
    let gw = TestGateway::start(GatewayOptions::default());
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    plugin::install(&home, &project);

    let output = plugin::run_command(
        plugin::claude_through(&gw, &home, &project),
        "/multi-cursor:models",
    );
    assert_eq!(output.status, Some(0), "{output:?}");

    let (expected, code) = plugin::helper_output(
        &["--cursor-models"],
        &[
            ("MULTI_CURSOR_AGENT", gateway::fake_agent().into()),
            (
                "MULTI_CURSOR_STATE_DIR",
                gw.dir.path().join("direct-state").into(),
            ),
        ],
        &project,
    );
    assert_eq!(code, 0);
    assert!(
        expected
            .iter()
            .any(|l| l.contains("multi/cursor/composer-2.5"))
    );
    assert!(
        output.stdout.starts_with("/multi-cursor:models"),
        "{output:?}"
    );
    for line in &expected {
        assert!(
            output.stdout.contains(line.as_str()),
            "{line:?} missing from the answer: {}",
            output.stdout
        );
    }
    assert!(gw.turns().is_empty(), "no Cursor turn: {:?}", gw.turns());
}
