//! The real Claude Code (2.1.328), pointed at `multi-cursor serve`, prints the Cursor agent's
//! answer for a `multi/cursor/*` model: the gateway's SSE is something Claude Code accepts.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn claude_prints_the_cursor_answer() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let home = gw.dir.path().join("claude-home");
    let output = ClaudeRun::new(&home, &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .args(["-p", "say hello", "--model", "multi/cursor/composer-2.5"])
        .run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(
        without_tokens(output.stdout.trim()),
        "fake agent reply",
        "{output:?}"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 1, "one Cursor turn");
    assert!(
        turns[0]["stdin"].as_str().unwrap().contains("say hello"),
        "the prompt reached Cursor: {}",
        turns[0]["stdin"]
    );
}
