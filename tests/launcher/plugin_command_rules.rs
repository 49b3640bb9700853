//! `/multi-cursor:rules` with the plugin installed: the user gets exactly what `multi-cursor
//! rules` says in the project (including its exit status when it fails), answered without a
//! Cursor turn.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn rules_command_shows_the_rulebook() {
    let gw = TestGateway::start(GatewayOptions::default());
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    std::fs::create_dir_all(project.join(".cursor/rules")).unwrap();
    std::fs::write(
        project.join(".cursor/rules/style.mdc"),
        "---\ndescription: House style\nalwaysApply: true\n---\nUse tabs.\n",
    )
    .unwrap();
    plugin::install(&home, &project);

    let output = plugin::run_command(
        plugin::claude_through(&gw, &home, &project),
        "/multi-cursor:rules",
    );
    assert_eq!(output.status, Some(0), "{output:?}");

    let (expected, code) = plugin::helper_output(&["rules"], &[], &project);
    assert!(!expected.is_empty(), "`multi-cursor rules` says something");
    assert!(
        output.stdout.starts_with("/multi-cursor:rules"),
        "{output:?}"
    );
    for line in &expected {
        assert!(
            output.stdout.contains(line.as_str()),
            "{line:?} missing from the answer: {}",
            output.stdout
        );
    }
    if code != 0 {
        assert!(
            output
                .stdout
                .contains(&format!("[multi-cursor exited with status {code}]")),
            "{}",
            output.stdout
        );
    }
    assert!(gw.turns().is_empty(), "no Cursor turn: {:?}", gw.turns());
}
