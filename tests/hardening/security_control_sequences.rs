//! Control sequences in Cursor's output never reach Claude Code: an escape sequence split over
//! two streamed deltas, a C1 control sequence and a bare C1 control are removed from the answer
//! (streamed and not), and the text around them is kept; an error that echoes the request's
//! model id carries no control character either.
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use std::path::PathBuf;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

/// What the scenario's prose reads once its control sequences are gone.
const CLEAN: &str = "Red alert, cleared and titled.";

fn scenario() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-agent/scenarios/control-sequences.ndjson")
}

/// True when `text` holds a C0 control other than newline and tab, DEL, or a C1 control.
fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

#[test]
fn a_split_escape_sequence_is_stripped_from_the_stream_without_eating_text() {
    let gw = TestGateway::start(GatewayOptions::replaying(scenario()));
    let (status, body) = gw.ask(
        "s-controls",
        &cursor_request("multi/cursor/composer-2.5", "colours", true),
    );
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    assert!(
        !has_control(&text),
        "a control reached Claude Code: {text:?}"
    );
    assert!(
        !body.contains("\\u001b") && !body.contains('\u{1b}'),
        "{body}"
    );
    assert_eq!(without_tokens(text.trim()), CLEAN, "{body}");
}

#[test]
fn the_whole_answer_is_stripped_too() {
    let gw = TestGateway::start(GatewayOptions::replaying(scenario()));
    let (status, body) = gw.ask(
        "s-controls-json",
        &cursor_request("multi/cursor/composer-2.5", "colours", false),
    );
    assert_eq!(status, 200, "{body}");
    let message: serde_json::Value = serde_json::from_str(&body).unwrap();
    let text: String = message["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|block| block["text"].as_str())
        .collect();
    assert!(
        !has_control(&text),
        "a control reached Claude Code: {text:?}"
    );
    assert_eq!(without_tokens(text.trim()), CLEAN, "{body}");
}

#[test]
fn an_echoed_model_id_carries_no_control() {
    let gw = TestGateway::start(GatewayOptions::replaying(scenario()));
    let (status, body) = gw.ask(
        "s-controls-model",
        &cursor_request("multi/cursor/\u{1b}]0;pwned\u{7}nope\u{9b}2J", "hi", false),
    );
    // A model Cursor does not offer is answered in one line that names it.
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let message = answer["content"][0]["text"].as_str().unwrap();
    assert!(!has_control(message), "{message:?}");
    assert!(message.contains("multi/cursor/nope"), "{message}");
    let echoed = answer["model"].as_str().unwrap();
    assert!(!has_control(echoed), "{echoed:?}");
}
