//! An action still running after `LONG_ACTION` gets one `running…` row; its completion row
//! follows when it ends. A quick action gets only its completion row.

use multi_cursor_test_support::display;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use multi_cursor::display::LONG_ACTION;
use multi_cursor::display::TurnDisplay as Display;
use serde_json::json;
use std::time::Duration;
use std::time::Instant;

#[test]
fn a_long_action_is_shown_when_it_starts_to_take_long() {
    let events = display::events(&[
        lines::started("s1", "shellToolCall", json!({"command": "cargo build"})),
        lines::completed(
            "s1",
            "shellToolCall",
            json!({"command": "cargo build"}),
            json!({"success": {"exitCode": 0, "stdout": "Finished", "executionTime": 7000}}),
        ),
    ]);
    let t0 = Instant::now();
    let mut display = Display::new("/w", t0);
    assert_eq!(display.event(&events[0], t0), "");
    assert_eq!(display.next_wake(), t0 + LONG_ACTION);
    assert_eq!(display.tick(t0 + Duration::from_secs(1)), "");
    let at = t0 + LONG_ACTION + Duration::from_millis(1);
    // A row leaves with its newline: Claude Code's TUI shows a line only once it has one.
    assert_eq!(display.tick(at), "⎿ shell `cargo build` · running…\n");
    assert_eq!(display.tick(at + Duration::from_secs(1)), "", "shown once");
    assert_eq!(
        display.event(&events[1], t0 + Duration::from_secs(7)),
        "⎿ shell `cargo build` · exit 0 · 7.0 s · Finished\n"
    );
}

#[test]
fn a_quick_action_has_only_its_completion_row() {
    let events = display::events(&[
        lines::started("r1", "lsToolCall", json!({"path": "/w/src"})),
        lines::completed(
            "r1",
            "lsToolCall",
            json!({"path": "/w/src"}),
            json!({"success": {}}),
        ),
    ]);
    let t0 = Instant::now();
    let mut display = Display::new("/w", t0);
    assert_eq!(display.event(&events[0], t0), "");
    assert_eq!(
        display.event(&events[1], t0 + Duration::from_millis(200)),
        "⎿ ls `src`\n"
    );
    assert_eq!(display.tick(t0 + LONG_ACTION * 2), "");
}

/// The same through a real turn: the turn wakes up on its own while Cursor is silent, so the
/// `running…` row reaches the client before the action completes.
#[test]
fn a_real_turn_shows_the_running_row_while_the_action_runs() {
    let scenarios = tempfile::tempdir().unwrap();
    let args = json!({"command": "sleep 8"});
    let scenario = lines::write(
        scenarios.path(),
        "long-shell.scenario",
        &[
            lines::init(),
            lines::started("s1", "shellToolCall", args.clone()),
            "#!sleep 8s".to_string(),
            lines::completed(
                "s1",
                "shellToolCall",
                args,
                json!({"success": {"exitCode": 0, "stdout": "", "executionTime": 8000}}),
            ),
            lines::result("", None),
        ],
    );
    let gw = gateway::TestGateway::start(gateway::GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_SCENARIO".into(), scenario.display().to_string())],
        ..gateway::GatewayOptions::default()
    });
    let (status, body) = gw.ask(
        "long-action",
        &gateway::cursor_request("multi/cursor/composer-2.5", "wait", true),
    );
    assert_eq!(status, 200, "{body}");
    let deltas: Vec<String> = gateway::sse_events(&body)
        .iter()
        .filter(|(e, _)| e == "content_block_delta")
        .map(|(_, d)| d["delta"]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        deltas,
        [
            "⎿ shell `sleep 8` · running…\n",
            "⎿ shell `sleep 8` · exit 0 · 8.0 s\n",
            "\n[Cursor] 1 native action: 1 shell.\n[Cursor] 1 in / 27 out (est.)"
        ]
    );
}
