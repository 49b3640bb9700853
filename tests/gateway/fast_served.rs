//! Cursor's `system/init` names the model it runs by display name. When that is a Fast variant
//! and the id asked for was not, the closing summary says so and the run's ledger line is
//! marked (`served_fast`); a Fast id asked for is not remarked on.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::ledger::ledger_lines;
use multi_cursor_test_support::repo_root;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

fn answer(gw: &TestGateway, model: &str, session: &str) -> String {
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request(model, "hi", true),
        &[("x-claude-code-session-id", session)],
    );
    assert_eq!(response.status(), 200);
    sse_text(&response.text().unwrap())
}

#[test]
fn an_unasked_fast_variant_is_said_and_marked() {
    let gw = TestGateway::start(GatewayOptions::replaying(
        repo_root().join("tests/fake-agent/scenarios/served-fast.scenario"),
    ));
    let text = answer(&gw, "multi/cursor/composer-2.5", "s-standard");
    assert!(
        text.contains("\n\n[Cursor] Cursor ran Composer 2.5 Fast, a Fast variant, though a model that is not Fast was asked for.\n[Cursor] 10 in / 3 out"),
        "{text}"
    );
    let lines = ledger_lines(&gw.state_dir);
    assert_eq!(
        lines[0]["served_fast"], "Composer 2.5 Fast",
        "{:?}",
        lines[0]
    );

    let text = answer(&gw, "multi/cursor/composer-2.5-fast", "s-fast");
    assert!(!text.contains("a Fast variant"), "{text}");
    let lines = ledger_lines(&gw.state_dir);
    assert!(lines[1].get("served_fast").is_none(), "{:?}", lines[1]);
}
