//! In the read-only modes (plan, and manual's read-only answer), a Cursor config that would
//! widen the mode — `approvalMode: "unrestricted"` or a catch-all allow such as `Shell(*)` — is
//! reported in every answer's warning line, naming the setting and its file (accept edits and
//! auto are refused instead: tests/gateway/modes.rs); bypassPermissions is not warned about,
//! and a narrow allow list is not a widening.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;

fn answer(gw: &TestGateway, chat: &mut policy::Conversation, prompt: &str) -> String {
    let (status, text) = chat.send(&gw.url, &gw.token, prompt);
    assert_eq!(status, 200, "{text}");
    // Every answer ends with its turn's tokens; this test is about the warning.
    without_tokens(&text)
}

#[test]
fn widening_cursor_config_is_the_first_line() {
    let gw = TestGateway::start(GatewayOptions::default());
    let ws = gw.workspace();
    let project = joined(&ws, ".cursor/cli.json");
    policy::write_json(
        &project,
        &serde_json::json!({"permissions": {"allow": ["Shell(*)", "Read(**)"], "deny": []}}),
    );
    let global = joined(&gw.home(), ".cursor/cli-config.json");
    policy::write_json(
        &global,
        &serde_json::json!({"version": 1, "approvalMode": "unrestricted", "permissions": {"allow": [], "deny": []}}),
    );

    let mut plan = policy::Conversation::new("s-plan");
    let mut manual = policy::Conversation::new("s-manual");
    for (chat, session, mode, label) in [
        (&mut plan, "s-plan", "plan", "plan mode (plan)"),
        (&mut manual, "s-manual", "default", "manual mode (default)"),
    ] {
        gw.set_mode(session, mode);
        for prompt in ["one", "two"] {
            let text = answer(&gw, chat, prompt);
            let first = text
                .lines()
                .find(|line| line.starts_with("[Cursor] Warning:"))
                .unwrap_or_else(|| panic!("{mode}: no warning in {text}"));
            assert!(
                first.contains(&format!("Claude's {label}")),
                "{mode}: {text}"
            );
            assert!(
                first.contains(&format!("allow `Shell(*)` in {}", project.display())),
                "{first}"
            );
            assert!(
                first.contains(&format!(
                    "`approvalMode: \"unrestricted\"` in {}",
                    global.display()
                )),
                "{first}"
            );
            assert!(!first.contains("Read(**)"), "reads do not widen: {first}");
            assert!(text.ends_with("fake agent reply"), "{text}");
        }
    }

    gw.set_mode("s-bypass", "bypassPermissions");
    let mut bypass = policy::Conversation::new("s-bypass");
    assert_eq!(answer(&gw, &mut bypass, "three"), "fake agent reply");

    // A narrow allow list and an allowlist approval mode widen nothing.
    policy::write_json(
        &project,
        &serde_json::json!({"permissions": {"allow": ["Shell(ls)", "Write(docs/**)"], "deny": []}}),
    );
    policy::write_json(
        &global,
        &serde_json::json!({"version": 1, "approvalMode": "allowlist", "permissions": {"allow": [], "deny": []}}),
    );
    assert_eq!(answer(&gw, &mut plan, "four"), "fake agent reply");
}
