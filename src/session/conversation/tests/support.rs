//! Shared helpers for the conversation tests: the real Claude Code request fixtures and small
//! builders that append turns to them.

use std::path::Path;

use crate::anthropic::request::MessagesRequest;
use crate::session::conversation::parse_request;
use serde_json::Value;
use serde_json::json;

/// `tests/fixtures/claude/<name>` parsed as JSON.
pub(super) fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("read fixture");
    serde_json::from_str(&text).expect("fixture is JSON")
}

/// The body of `claude -p "hi" --model multi/cursor/composer-2.5` (user: two reminders + "hi";
/// then a `role:"system"` message).
pub(super) fn main_body() -> Value {
    fixture("claude-request-example.json")
}

/// The body of a subagent (worker) request; its prompt is "Say WORKER_OK and nothing else.".
pub(super) fn subagent_body() -> Value {
    fixture("claude-subagent-request-example.json")["body"].clone()
}

/// Parses a body as the gateway would.
pub(super) fn parse(body: &Value) -> MessagesRequest {
    let bytes = serde_json::to_vec(body).expect("body serialises");
    parse_request(&bytes).expect("body parses")
}

/// Appends a message with the given role and content (string or blocks).
pub(super) fn push(body: &mut Value, role: &str, content: Value) {
    body["messages"]
        .as_array_mut()
        .expect("messages array")
        .push(json!({"role": role, "content": content}));
}

/// Replaces the text of the last text block of the first user message (the prompt "hi" in
/// the fixtures) with `text`.
pub(super) fn set_first_prompt(body: &mut Value, text: &str) {
    let blocks = body["messages"][0]["content"]
        .as_array_mut()
        .expect("content blocks");
    let last = blocks.last_mut().expect("a prompt block");
    last["text"] = json!(text);
}

/// The main fixture continued: Cursor listed files with a tool, then the user asks again
/// (string content, as Claude Code sends after a resume).
pub(super) fn multi_turn_body() -> Value {
    let mut body = main_body();
    push(
        &mut body,
        "assistant",
        json!([
            {"type": "text", "text": "I'll list the files."},
            {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
        ]),
    );
    push(
        &mut body,
        "user",
        json!([
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Cargo.toml\nsrc",
             "is_error": false, "cache_control": {"type": "ephemeral"}}
        ]),
    );
    push(
        &mut body,
        "assistant",
        json!([
            {"type": "thinking", "thinking": "count them", "signature": ""},
            {"type": "text", "text": "There are two entries: Cargo.toml and src."}
        ]),
    );
    push(&mut body, "user", json!("now count them"));
    body
}
