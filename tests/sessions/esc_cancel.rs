//! Esc in Claude Code closes the connection: when the last client watching a turn goes away,
//! the turn is cancelled — Cursor's process group ends, a tool process it started too,
//! `lastOutcome` is "cancelled" — and the next turn carries no interruption notice (the user
//! knows they stopped it).

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn the_last_client_leaving_cancels_the_turn() {
    let scenarios = tempfile::tempdir().unwrap();
    let dir = scenarios.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    // A tool process the agent started (a grandchild of the gateway), holding its pipes.
    let lingerer_pidfile = scenarios.path().join("lingerer.pid");
    let lingerer = format!("#!spawn-lingerer {} ms=forever", lingerer_pidfile.display());
    scenario::write(
        &dir,
        "01-long.scenario",
        &[
            scenario::INIT,
            &lingerer,
            &scenario::delta("starting"),
            "#!sleep 60s",
            &scenario::result("starting"),
        ],
    );
    scenario::reply(&dir, "02-ok.scenario", "fine");
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_SCENARIO".into(), dir.display().to_string()),
            ("FAKE_AGENT_CHAT_ID".into(), "chat-esc".into()),
        ],
        ..GatewayOptions::default()
    });
    let mut response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "long job", true),
        &[("x-claude-code-session-id", "s-esc")],
    );
    assert_eq!(response.status(), 200);
    gateway::read_until(&mut response, "starting");
    let pid = gw.turns()[0]["pid"].as_u64().unwrap() as u32;
    assert!(!scenario::process_gone(pid));
    let grandchild: u32 = std::fs::read_to_string(&lingerer_pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(!scenario::process_gone(grandchild));
    drop(response); // Esc

    assert!(
        scenario::wait_for(10, || scenario::process_gone(pid)),
        "Cursor's process ended"
    );
    assert!(
        scenario::wait_for(10, || scenario::process_gone(grandchild)),
        "the tool process Cursor started ended with it"
    );
    assert!(scenario::wait_for(
        5,
        || gw.record("s-esc", "main")["lastOutcome"] == "cancelled"
    ));
    let record = gw.record("s-esc", "main");
    assert_eq!(record["interrupted"], false);
    assert!(record["pendingRun"].is_null());
    assert_eq!(record["chatId"], "chat-esc");

    let mut next = cursor_request("multi/cursor/composer-2.5", "", true);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "long job"},
        {"role": "user", "content": "never mind, say hi"}
    ]);
    let (status, body) = gw.ask("s-esc", &next);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        without_tokens(&sse_text(&body)),
        "fine",
        "no interruption notice after a cancel"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    assert!(!turns[1]["stdin"].as_str().unwrap().contains("interrupted"));
    assert!(
        turns[1]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "--resume=chat-esc")
    );
}
