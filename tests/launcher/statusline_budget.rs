//! `multi-cursor statusline` against a real gateway with budgets set: after a Cursor turn, the
//! line ends with the tightest budget (`· 1 of 2 turns left`, `· … of 1.0M tokens left today`)
//! and with `· budget reached (<variable>)` once it is used up; a session that never used
//! Cursor shows the budget alone.

use std::time::Duration;

use multi_cursor::spend::format_count;
use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;
use multi_cursor_test_support::gateway::cursor_request;
use multi_cursor_test_support::launcher::run_statusline;

const SESSION: &str = "5b0e7c2a-91d4-4f3e-8a6b-0c2d4e6f8a10";

/// A gateway that runs Cursor turns without asking, with `budgets` set.
fn gateway(budgets: &[(&str, &str)]) -> TestGateway {
    TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: budgets
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect(),
        ..Default::default()
    })
}

/// One Cursor turn for `session`, answered in full, then waits until no run is live (the
/// ledger line is written as the run ends).
fn cursor_turn(gw: &TestGateway, session: &str, prompt: &str) {
    let (status, body) = gw.ask(
        session,
        &cursor_request("multi/cursor/composer-2.5", prompt, false),
    );
    assert_eq!(status, 200, "{body}");
    gw.wait_idle();
}

/// Runs `multi-cursor statusline` as Claude Code does (its status-line JSON on stdin, the
/// gateway's URL and token inherited) and returns its line. Our segment is left out of a
/// refresh that misses the 45 ms deadline, which a loaded test machine can make it do, so a
/// refresh that printed nothing is tried again, a few times.
fn statusline(gw: &TestGateway, session: &str) -> String {
    let input = serde_json::json!({
        "session_id": session,
        "model": {"id": "multi/cursor/composer-2.5", "display_name": "Composer 2.5 via Cursor"},
        "cwd": gw.workspace(),
    })
    .to_string();
    for _ in 0..20 {
        let (code, line) = run_statusline(
            &[],
            &input,
            &[
                ("MULTI_CURSOR_GATEWAY_URL", gw.url.as_str()),
                ("MULTI_CURSOR_GATEWAY_TOKEN", gw.token.as_str()),
            ],
        );
        assert_eq!(code, Some(0));
        if !line.is_empty() {
            return line;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("multi-cursor statusline printed nothing 20 times");
}

#[test]
fn the_turn_budget_ends_the_line_until_it_is_reached() {
    let gw = gateway(&[
        ("MULTI_CURSOR_BUDGET_TURNS", "2"),
        ("MULTI_CURSOR_BUDGET_DAILY_TOKENS", "100000000"),
    ]);
    // Before any turn: the gateway's budget alone.
    assert_eq!(statusline(&gw, SESSION), "Cursor · 2 of 2 turns left\n");

    cursor_turn(&gw, SESSION, "the first paid turn");
    let line = statusline(&gw, SESSION);
    assert!(
        line.starts_with("Cursor composer-2.5 · 1 run · "),
        "{line:?}"
    );
    assert!(line.ends_with(" out · 1 of 2 turns left\n"), "{line:?}");

    // Budgets are the gateway's: another session sees the same one.
    cursor_turn(&gw, "another-session", "the second paid turn");
    let line = statusline(&gw, SESSION);
    assert!(
        line.starts_with("Cursor composer-2.5 · 1 run · "),
        "{line:?}"
    );
    assert!(
        line.ends_with(" out · budget reached (MULTI_CURSOR_BUDGET_TURNS)\n"),
        "{line:?}"
    );
}

#[test]
fn the_daily_budget_says_today() {
    let gw = gateway(&[("MULTI_CURSOR_BUDGET_DAILY_TOKENS", "1000000")]);
    cursor_turn(&gw, SESSION, "count today's tokens");
    let status = gw.status();
    let budget = &status["spend"]["budgets"][0];
    assert_eq!(
        budget["variable"], "MULTI_CURSOR_BUDGET_DAILY_TOKENS",
        "{status}"
    );
    let left = budget["left"].as_u64().unwrap();
    assert!(left < 1_000_000, "the turn's tokens are counted: {status}");
    let line = statusline(&gw, SESSION);
    assert!(
        line.ends_with(&format!(
            " out · {} of 1.0M tokens left today\n",
            format_count(left)
        )),
        "{line:?}"
    );
}
