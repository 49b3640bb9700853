//! Through the real Claude Code (`claude -p` on a Cursor route): when Claude Code has printed
//! the answer and exited, the turn's ledger line is on disk with Claude Code's session id.

use multi_cursor_test_support::claude::ClaudeRun;
use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ledger;

const SESSION: &str = "5d1e2f3a-0b4c-4d5e-8f60-718293a4b5c6";

#[test]
fn claude_codes_turn_is_in_the_ledger() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });
    let home = gw.dir.path().join("claude-home");
    let output = ClaudeRun::new(&home, &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .args(["-p", "say hi", "--session-id", SESSION])
        .args(["--model", "multi/cursor/composer-2.5"])
        .run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let lines = ledger(&gw);
    let turns: Vec<_> = lines.iter().filter(|l| l["purpose"] == "turn").collect();
    assert_eq!(turns.len(), 1, "{lines:?}");
    assert_eq!(turns[0]["session"], SESSION);
    assert_eq!(turns[0]["outcome"], "completed");
    assert_eq!(turns[0]["route"], "multi/cursor/composer-2.5");
}
