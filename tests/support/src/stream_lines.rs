//! Stream-json lines in the shapes Cursor's `agent -p --output-format stream-json` prints (as
//! captured in `tests/fixtures/cursor-stream/`), for display and compaction tests. Placeholders (`{{chat_id}}`, …) are filled by the fake agent; the display
//! tests feed the lines to the parser as they are.

use serde_json::Value;
use serde_json::json;

/// `system/init`.
pub fn init() -> String {
    r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}"#.to_string()
}

/// A `--stream-partial-output` delta (`timestamp_ms`, no `model_call_id`).
pub fn delta(text: &str) -> String {
    json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}, "session_id": "{{chat_id}}", "timestamp_ms": 1}).to_string()
}

/// A whole segment without partial output (the final segment's shape: no timestamp, no
/// `model_call_id`).
pub fn whole(text: &str) -> String {
    json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}, "session_id": "{{chat_id}}"}).to_string()
}

/// A thinking delta.
pub fn thinking(text: &str) -> String {
    json!({"type": "thinking", "subtype": "delta", "text": text, "session_id": "{{chat_id}}", "timestamp_ms": 1}).to_string()
}

/// `tool_call` `started` for `<key>` (e.g. `shellToolCall`).
pub fn started(call_id: &str, key: &str, args: Value) -> String {
    json!({"type": "tool_call", "subtype": "started", "call_id": call_id, "tool_call": {key: {"args": args}}, "session_id": "{{chat_id}}", "timestamp_ms": 1}).to_string()
}

/// `tool_call` `completed` with `result` (`{"success":…}`, `{"error":…}`, `{"rejected":…}`);
/// `args` `Null` leaves them out, as the CLI does for a rejected call.
pub fn completed(call_id: &str, key: &str, args: Value, result: Value) -> String {
    let mut inner = json!({"result": result});
    if !args.is_null() {
        inner["args"] = args;
    }
    json!({"type": "tool_call", "subtype": "completed", "call_id": call_id, "tool_call": {key: inner}, "session_id": "{{chat_id}}", "timestamp_ms": 1}).to_string()
}

/// A successful `result` with `text` and Cursor's usage counts (`None`: no `usage` field).
pub fn result(text: &str, usage: Option<Value>) -> String {
    let mut line = json!({"type": "result", "subtype": "success", "duration_ms": 10, "duration_api_ms": 10, "is_error": false, "result": text, "session_id": "{{chat_id}}", "request_id": "{{request_id}}"});
    if let Some(usage) = usage {
        line["usage"] = usage;
    }
    line.to_string()
}

/// Writes a fake-agent scenario file.
pub fn write(dir: &std::path::Path, name: &str, lines: &[String]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A turn that answers `text` whole and succeeds with it (no usage).
pub fn reply(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    write(dir, name, &[init(), whole(text), result(text, None)])
}
