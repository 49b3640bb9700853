//! Each captured Cursor stream, replayed by the fake agent, is answered through the real gateway
//! with exactly the text its display snapshot (`tests/engine/snapshots/display__<name>.snap`:
//! Cursor's prose with the action rows and closing summary) holds — streamed and non-streamed —
//! from a turn whose command line is `-p --output-format stream-json --stream-partial-output
//! --trust --workspace <workspace> --model <id> --force` (the `bypassPermissions` mode) and whose
//! stdin is the prompt.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_fixture;
use gateway::cursor_request;
use gateway::sse_events;
use gateway::sse_text;

/// Asserts `text` is what the user sees of a fixture stream: its display snapshot, the one
/// `engine/display_fixtures.rs` checks against the display module. The captures' rows name no
/// workspace paths, so the test's own workspace changes nothing.
fn assert_shown(name: &str, text: &str) {
    assert!(!text.is_empty(), "{name}: a snapshot with text");
    let stem = name.trim_end_matches(".ndjson");
    insta::with_settings!({
        snapshot_path => "../engine/snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("display__{stem}"), text);
    });
}

fn expected_argv(workspace: &std::path::Path) -> Vec<String> {
    [
        "-p",
        "--output-format",
        "stream-json",
        "--stream-partial-output",
        "--trust",
        "--workspace",
        workspace.to_str().unwrap(),
        "--model=composer-2.5",
        "--force",
    ]
    .iter()
    .map(std::string::ToString::to_string)
    .collect()
}

fn replay(name: &str) {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![(
            "FAKE_AGENT_SCENARIO".into(),
            cursor_fixture(name).to_string_lossy().into_owned(),
        )],
        ..Default::default()
    });
    let prompt = format!("Replay {name}, please.");

    // Streamed (its own session, so the turn starts a fresh chat).
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", &prompt, true),
        &[("x-claude-code-session-id", "fixture-streamed")],
    );
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let body = response.text().unwrap();
    let shown = sse_text(&body);
    assert_shown(name, &shown);
    let events = sse_events(&body);
    assert_eq!(events.first().unwrap().0, "message_start");
    assert_eq!(events.last().unwrap().0, "message_stop");
    assert!(!events.iter().any(|(e, _)| e == "error"));
    assert!(
        !body.contains("tool_use"),
        "{name}: no tool_use reaches Claude Code"
    );

    // Non-streamed.
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", &prompt, false),
        &[("x-claude-code-session-id", "fixture-json")],
    );
    assert_eq!(response.status(), 200);
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(message["type"], "message");
    assert_eq!(message["role"], "assistant");
    assert_eq!(message["model"], "multi/cursor/composer-2.5");
    assert_eq!(message["stop_reason"], "end_turn");
    assert_eq!(
        message["content"],
        serde_json::json!([{"type": "text", "text": shown}]),
        "{name}: non-streamed text"
    );

    let turns = gw.turns();
    assert_eq!(turns.len(), 2, "{name}: one turn per request");
    let argv = expected_argv(&gw.workspace());
    for turn in &turns {
        let got: Vec<String> = serde_json::from_value(turn["argv"].clone()).unwrap();
        assert_eq!(got, argv, "{name}: argv");
        assert_eq!(turn["stdin"], prompt, "{name}: stdin is the prompt");
    }
}

#[test]
fn maestro_02_shell_tool_call() {
    replay("maestro-02_shell_tool_call.ndjson");
}

#[test]
fn maestro_04_partial_output() {
    replay("maestro-04_partial_output.ndjson");
}

#[test]
fn maestro_05_rejected_shell() {
    replay("maestro-05_rejected_shell.ndjson");
}

#[test]
fn golembot_shell_pwd() {
    replay("golembot-shell-pwd.ndjson");
}
