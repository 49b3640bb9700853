//! Deny rules for Claude-only tools (subagents, the to-do list, …) concern nothing Cursor does:
//! the turn runs, and the rules are listed in the session record's policy as Claude-only —
//! admitted, never dropped silently.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn claude_only_rules_are_admitted_and_listed() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("plan".into()),
        ..GatewayOptions::default()
    });
    let settings = joined(&gw.workspace(), ".claude/settings.json");
    policy::write_json(&settings, &policy::deny(&["Task", "TodoWrite"]));
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "plan it", true),
        &[("x-claude-code-session-id", "s")],
    );
    assert_eq!(response.status(), 200);
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "fake agent reply"
    );
    assert_eq!(gw.turns().len(), 1);
    let recorded = gw.record("s", "main")["policy"]
        .as_str()
        .unwrap()
        .to_string();
    for rule in ["Task", "TodoWrite"] {
        let line = format!("deny {rule} ({}) = Claude-only tool", settings.display());
        assert!(recorded.contains(&line), "missing {line:?} in {recorded}");
    }
}
