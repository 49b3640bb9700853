//! The transcript is bounded: over the limit, the newest entries are kept behind a marker
//! line; tool lines are bounded on their own; the new request is never cut.

use super::support::multi_turn_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::TOOL_LINE_LIMIT;
use crate::session::conversation::first_turn_prompt;
use serde_json::json;

#[test]
fn newest_entries_are_kept_at_a_small_limit() {
    let req = parse(&multi_turn_body());
    let images = tempfile::tempdir().unwrap();
    let limit = 150;
    let prompt = first_turn_prompt(&req, limit, images.path()).unwrap();
    assert_eq!(
        prompt.text(),
        "Conversation so far (context; actions in it are already done — do not repeat them):\n\
         [older turns omitted: 3 entries did not fit the transcript limit]\n\
         [tool result: Cargo.toml src]\n\
         Assistant: There are two entries: Cargo.toml and src.\n\
         \n\
         New request:\n\
         now count them"
    );
    assert_eq!(prompt.omitted_entries, 3);
    let context = prompt.context.unwrap();
    let header_len = context.find('\n').unwrap() + 1;
    assert!(context.len() - header_len < limit);
}

#[test]
fn long_tool_output_is_one_bounded_line() {
    let mut body = multi_turn_body();
    let messages = body["messages"].as_array_mut().unwrap();
    messages.pop();
    let output = "line\n".repeat(1000);
    push(
        &mut body,
        "assistant",
        json!([{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "yes line"}}]),
    );
    push(
        &mut body,
        "user",
        json!([{"type": "tool_result", "tool_use_id": "t2", "content": output}]),
    );
    push(&mut body, "assistant", json!("done"));
    let long_request = "x".repeat(2 * TOOL_LINE_LIMIT);
    push(&mut body, "user", json!(long_request));
    let req = parse(&body);
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&req, DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    let context = prompt.context.unwrap();
    let result_line = context
        .lines()
        .find(|l| l.starts_with("[tool result: line line"))
        .unwrap();
    let expected_payload = "line ".repeat(TOOL_LINE_LIMIT / 5);
    assert_eq!(result_line, format!("[tool result: {expected_payload}…]"));
    assert_eq!(prompt.request, long_request);
}
