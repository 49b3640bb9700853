//! Drives a [`TurnDisplay`] over stream-json lines the way a turn does, with a clock that never
//! moves (so no progress line or `running…` row appears unless a test ticks), and builds those
//! lines in the shapes Cursor's `agent -p --output-format stream-json` prints. The engine and
//! gateway harnesses have their own copies in `tests/support` (`display`, `stream_lines`).

use std::path::Path;
use std::path::PathBuf;
use std::time::Instant;

use crate::cursor::events::RunEvent;
use crate::cursor::stream::StreamItem;
use crate::cursor::stream::parse_all;
use crate::display::TurnDisplay;

/// What a stream looks like to the user.
#[derive(Debug)]
pub(super) struct Rendered {
    /// The text streamed: Cursor's prose, rows, plan and closing summary.
    pub text: String,
    /// Whether the stream ended with a successful `result`.
    pub finished: bool,
}

/// Renders stream-json lines for a turn running in `workspace`.
pub(super) fn render_lines(lines: &[String], workspace: &Path) -> Rendered {
    render((lines.join("\n") + "\n").as_bytes(), workspace)
}

/// Renders a whole stream-json capture for a turn running in `workspace`.
pub(super) fn render(stream: &[u8], workspace: &Path) -> Rendered {
    let now = Instant::now();
    let mut display = TurnDisplay::new(workspace, now);
    let mut text = String::new();
    let mut finished = false;
    for event in parse_all(stream)
        .unwrap()
        .into_iter()
        .filter_map(|item| match item {
            StreamItem::Event(event) => Some(event),
            _ => None,
        })
    {
        match &event {
            RunEvent::Result(result) if result.success => {
                text.push_str(&display.finish(result, now));
                finished = true;
            }
            _ => text.push_str(&display.event(&event, now)),
        }
    }
    Rendered { text, finished }
}

/// The folder of captured Cursor streams.
pub(super) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cursor-stream")
}

/// The events of stream-json lines, in order (plain-text items dropped).
pub(super) fn events(lines: &[String]) -> Vec<RunEvent> {
    parse_all((lines.join("\n") + "\n").as_bytes())
        .unwrap()
        .into_iter()
        .filter_map(|item| match item {
            StreamItem::Event(event) => Some(event),
            _ => None,
        })
        .collect()
}

/// Stream-json lines as the CLI prints them.
pub(super) mod lines {
    use serde_json::Value;
    use serde_json::json;

    /// `system/init`.
    pub(crate) fn init() -> String {
        r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"chat","model":"Auto","permissionMode":"default"}"#.to_string()
    }

    /// A `--stream-partial-output` delta (`timestamp_ms`, no `model_call_id`).
    pub(crate) fn delta(text: &str) -> String {
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}, "session_id": "chat", "timestamp_ms": 1}).to_string()
    }

    /// A whole segment (no timestamp, no `model_call_id`).
    pub(crate) fn whole(text: &str) -> String {
        json!({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}, "session_id": "chat"}).to_string()
    }

    /// A thinking delta.
    pub(crate) fn thinking(text: &str) -> String {
        json!({"type": "thinking", "subtype": "delta", "text": text, "session_id": "chat", "timestamp_ms": 1}).to_string()
    }

    /// `tool_call` `started` for `<key>` (e.g. `shellToolCall`).
    pub(crate) fn started(call_id: &str, key: &str, args: Value) -> String {
        json!({"type": "tool_call", "subtype": "started", "call_id": call_id, "tool_call": {key: {"args": args}}, "session_id": "chat", "timestamp_ms": 1}).to_string()
    }

    /// `tool_call` `completed` with `result`; `args` `Null` leaves them out, as the CLI does
    /// for a rejected call.
    pub(crate) fn completed(call_id: &str, key: &str, args: Value, result: Value) -> String {
        let mut inner = json!({"result": result});
        if !args.is_null() {
            inner["args"] = args;
        }
        json!({"type": "tool_call", "subtype": "completed", "call_id": call_id, "tool_call": {key: inner}, "session_id": "chat", "timestamp_ms": 1}).to_string()
    }

    /// A successful `result` with `text` and Cursor's usage counts (`None`: no `usage` field).
    pub(crate) fn result(text: &str, usage: Option<Value>) -> String {
        let mut line = json!({"type": "result", "subtype": "success", "duration_ms": 10, "duration_api_ms": 10, "is_error": false, "result": text, "session_id": "chat", "request_id": "request"});
        if let Some(usage) = usage {
            line["usage"] = usage;
        }
        line.to_string()
    }
}
