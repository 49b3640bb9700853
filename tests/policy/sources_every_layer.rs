//! Every settings source Claude Code reads is read, each rule named with its own file, in
//! Claude's precedence order: managed `managed-settings.json`, its `managed-settings.d/*.json`
//! drop-ins (name order, dot files skipped), Claude Code's cached server-managed settings,
//! local, project and user settings — and
//! `CLAUDE_CONFIG_DIR` moves the user settings as it does for Claude Code.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn ask(gw: &TestGateway) -> String {
    policy::refusal(gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", "s")],
    ))
}

#[test]
fn each_source_is_read_with_its_file() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let ws = gw.workspace();
    let files = [
        (gw.managed_dir().join("managed-settings.json"), "Bash(m1:*)"),
        (
            joined(&gw.managed_dir(), "managed-settings.d/20-b.json"),
            "Bash(m3:*)",
        ),
        (
            joined(&gw.managed_dir(), "managed-settings.d/10-a.json"),
            "Bash(m2:*)",
        ),
        (
            joined(&gw.home(), ".claude/remote-settings.json"),
            "Bash(remote:*)",
        ),
        (joined(&ws, ".claude/settings.local.json"), "Bash(local:*)"),
        (joined(&ws, ".claude/settings.json"), "Bash(project:*)"),
        (joined(&gw.home(), ".claude/settings.json"), "Bash(user:*)"),
    ];
    for (file, rule) in &files {
        policy::write_json(file, &policy::deny(&[rule]));
    }
    policy::write_json(
        &joined(&gw.managed_dir(), "managed-settings.d/.hidden.json"),
        &policy::deny(&["Bash(hidden:*)"]),
    );
    let message = ask(&gw);
    let mut at = Vec::new();
    for (file, rule) in &files {
        let line = format!("deny rule `{rule}` in {}", file.display());
        at.push(
            message
                .find(&line)
                .unwrap_or_else(|| panic!("missing {line:?} in {message}")),
        );
    }
    let order = [0, 2, 1, 3, 4, 5, 6].map(|i| at[i]);
    assert!(order.is_sorted(), "precedence order: {message}");
    assert!(!message.contains("hidden"), "{message}");
    assert!(gw.turns().is_empty());

    // With CLAUDE_CONFIG_DIR, user settings come from there (as for Claude Code).
    let config_dir = tempfile::tempdir().unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![(
            "CLAUDE_CONFIG_DIR".into(),
            config_dir.path().to_string_lossy().into_owned(),
        )],
        ..GatewayOptions::default()
    });
    policy::write_json(
        &joined(&gw.home(), ".claude/settings.json"),
        &policy::deny(&["Bash(home:*)"]),
    );
    let moved = config_dir.path().join("settings.json");
    policy::write_json(&moved, &policy::deny(&["Bash(moved:*)"]));
    let message = ask(&gw);
    assert!(
        message.contains(&format!("deny rule `Bash(moved:*)` in {}", moved.display())),
        "{message}"
    );
    assert!(!message.contains("Bash(home:*)"), "{message}");
}
