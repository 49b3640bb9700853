//! Under the real Claude Code, the policy notices reach the user ahead of Cursor's text: in plan
//! mode with a widening Cursor config the answer's first line is the warning, followed by the
//! once-per-session note about Claude's PreToolUse hooks.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn claude_prints_the_notices_first() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("plan".into()),
        ..GatewayOptions::default()
    });
    let ws = gw.workspace();
    policy::write_json(
        &joined(&ws, ".cursor/cli.json"),
        &serde_json::json!({"permissions": {"allow": ["Write(**)"], "deny": []}}),
    );
    policy::write_json(
        &joined(&ws, ".claude/settings.json"),
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    let output = ClaudeRun::new(&gw.home(), &ws)
        .gateway(&gw.url, &gw.token)
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", gw.managed_dir())
        .args([
            "-p",
            "plan the change",
            "--model",
            "multi/cursor/composer-2.5",
        ])
        .run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let mut lines = output.stdout.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or_default();
    assert!(
        first.starts_with("[Cursor] Warning:")
            && first.contains("Claude's plan mode")
            && first.contains("allow `Write(**)`"),
        "{output:?}"
    );
    let second = lines.next().unwrap_or_default();
    assert!(
        second.starts_with("[Cursor] Note:") && second.contains("PreToolUse hooks"),
        "{output:?}"
    );
    assert_eq!(lines.next(), Some("fake agent reply"), "{output:?}");
    assert_eq!(gw.turns().len(), 1);
}
