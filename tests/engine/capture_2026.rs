//! Every stream-json capture of the 2026.09–2026.10 CLI in `tests/fixtures/cursor-stream-2026/`
//! renders to the rows, prose, notes and closing summary of its insta snapshot
//! `snapshots/display__2026-<name>.snap`, and the gateway answers a turn that replays it through
//! the fake agent with exactly that text, streamed and not. A capture that ends without a
//! `result` is answered with its text so far, then the error (streamed), or an error status.
//!
//! Both render with a workspace the captures never name, so the snapshot holds Cursor's paths
//! as it reported them whichever workspace the gateway's turn ran in.

use std::path::Path;
use std::path::PathBuf;

use multi_cursor_test_support::display;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;
use gateway::sse_text;

fn capture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream-2026")
        .join(name)
}

fn assert_shown(name: &str, text: &str) {
    let stem = name.trim_end_matches(".ndjson");
    insta::with_settings!({
        snapshot_path => "snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("display__2026-{stem}"), text);
    });
}

/// The display module's rendering of the capture as a turn answers it (a finished run ends
/// with its tokens), against its snapshot; whether it finished.
fn rendered(name: &str) -> bool {
    let stream = std::fs::read(capture(name)).unwrap();
    let shown = display::render_answer(&stream, Path::new("/not-a-capture-workspace"));
    assert!(
        shown
            .text
            .lines()
            .filter(|l| !l.is_empty())
            .all(|l| !l.starts_with('[') || l.starts_with("[Cursor] ")),
        "{name}: every note starts with [Cursor]"
    );
    assert_shown(name, &shown.text);
    shown.finished
}

/// The gateway's answers to a turn replaying the capture.
fn replayed(name: &str, finished: bool) {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![(
            "FAKE_AGENT_SCENARIO".into(),
            capture(name).to_string_lossy().into_owned(),
        )],
        ..Default::default()
    });
    let prompt = format!("Replay {name}, please.");
    // Asked for the model the capture ran (its `system/init` names a Fast variant when the
    // spike ran `--model composer-2.5-fast`), as a turn asking for another would be told.
    let text = std::fs::read_to_string(capture(name)).unwrap();
    let route = if text.contains(r#""model":"Composer 2.5 Fast""#) {
        "multi/cursor/composer-2.5-fast"
    } else {
        "multi/cursor/composer-2.5"
    };
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request(route, &prompt, true),
        &[("x-claude-code-session-id", "capture-streamed")],
    );
    assert_eq!(response.status(), 200);
    let body = response.text().unwrap();
    let shown = sse_text(&body);
    assert_shown(name, &shown);
    let events = sse_events(&body);
    assert!(!body.contains("tool_use"), "{name}: no tool_use");
    let errored = events.iter().any(|(e, _)| e == "error");
    assert_eq!(
        errored, !finished,
        "{name}: an error event only without a result"
    );

    let response = gw.post_with(
        "/v1/messages",
        &cursor_request(route, &prompt, false),
        &[("x-claude-code-session-id", "capture-json")],
    );
    if !finished {
        assert!(
            response.status().is_server_error(),
            "{name}: {}",
            response.status()
        );
        return;
    }
    assert_eq!(response.status(), 200);
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(
        message["content"],
        serde_json::json!([{"type": "text", "text": shown}]),
        "{name}: non-streamed text"
    );
}

fn check(name: &str) {
    let finished = rendered(name);
    replayed(name, finished);
}

#[test]
fn webfetch_denied() {
    check("hcn0915-webfetch-denied.ndjson");
}

#[test]
fn askquestion_rejected() {
    check("hcn0915-askquestion-rejected.ndjson");
}

#[test]
fn shell_denied_fetch_denied() {
    check("hcn0915-shell-denied-fetch-denied.ndjson");
}

#[test]
fn force_shell_success() {
    check("hcn0915-force-shell-success.ndjson");
}

#[test]
fn partial_read_tool() {
    check("hcn0915-partial-read-tool.ndjson");
}

#[test]
fn prompt_after_dashdash() {
    check("hcn0910-prompt-after-dashdash.ndjson");
}

#[test]
fn denials_websearch_no_started() {
    check("hcn0910-denials-websearch-no-started.ndjson");
}

#[test]
fn force_webfetch_approved() {
    check("hcn0910-force-webfetch-approved.ndjson");
}

#[test]
fn server_reject_retry_no_result() {
    check("dsh1001-server-reject-retry-no-result.ndjson");
}

#[test]
fn plain_thinking_nopartial() {
    check("dsh1001-plain-thinking-nopartial.ndjson");
}
