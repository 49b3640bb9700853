//! Builders for Anthropic Messages API bodies.

use serde_json::Value;
use serde_json::json;

/// One SSE frame: `event: <event>\ndata: <json>\n\n`.
pub fn sse_event(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

/// `{"type":"error","error":{"type":kind,"message":message}}`.
pub fn error_json(kind: &str, message: &str) -> Value {
    json!({"type": "error", "error": {"type": kind, "message": message}})
}

/// A message id derived from `seed` (stable across runs).
pub fn message_id(seed: &str) -> String {
    let sum: u64 = seed.bytes().fold(1469598103934665603u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(1099511628211)
    });
    format!("msg_fake{sum:016x}")
}

fn usage(output_tokens: u64) -> Value {
    json!({
        "input_tokens": 12,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": output_tokens,
    })
}

fn message_start(model: &str, seed: &str) -> String {
    sse_event(
        "message_start",
        &json!({
            "type": "message_start",
            "message": {
                "id": message_id(seed),
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": null,
                "stop_sequence": null,
                "usage": usage(1),
            },
        }),
    )
}

fn message_end(stop_reason: &str, output_tokens: u64) -> [String; 2] {
    [
        sse_event(
            "message_delta",
            &json!({
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": null},
                "usage": {"output_tokens": output_tokens},
            }),
        ),
        sse_event("message_stop", &json!({"type": "message_stop"})),
    ]
}

/// The pieces a text is streamed in: one per word, each with its trailing whitespace.
pub fn text_pieces(text: &str) -> Vec<&str> {
    let pieces: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
    if pieces.is_empty() { vec![""] } else { pieces }
}

/// A full streamed answer with one text block: `message_start`, `content_block_start`,
/// `ping`, one `text_delta` per word, `content_block_stop`, `message_delta`
/// (`stop_reason: end_turn`), `message_stop`. One string per event.
pub fn text_events(model: &str, text: &str) -> Vec<String> {
    let pieces = text_pieces(text);
    let mut events = vec![
        message_start(model, text),
        sse_event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 0,
                    "content_block": {"type": "text", "text": ""}}),
        ),
        sse_event("ping", &json!({"type": "ping"})),
    ];
    for piece in &pieces {
        events.push(sse_event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": piece}}),
        ));
    }
    events.push(sse_event(
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": 0}),
    ));
    events.extend(message_end("end_turn", pieces.len() as u64));
    events
}

/// A non-streamed Messages answer with one text block and `stop_reason: end_turn`.
pub fn message_json(model: &str, text: &str) -> Value {
    json!({
        "id": message_id(text),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": null,
        "usage": usage(text_pieces(text).len() as u64),
    })
}

/// The `Agent` tool's input for a `multi-cursor` worker.
pub fn agent_input(description: &str, prompt: &str) -> Value {
    json!({"description": description, "prompt": prompt, "subagent_type": "multi-cursor"})
}

/// A streamed answer that calls the `Agent` tool: a `tool_use` block
/// `{"type":"tool_use","id":tool_use_id,"name":"Agent","input":{}}` whose input
/// ([`agent_input`]) arrives as two `input_json_delta` chunks, then `stop_reason: tool_use`.
pub fn agent_tool_use_events(
    model: &str,
    tool_use_id: &str,
    description: &str,
    prompt: &str,
) -> Vec<String> {
    tool_use_events(
        model,
        tool_use_id,
        "Agent",
        &agent_input(description, prompt),
    )
}

/// The `Agent` tool's input for a `multi-cursor` worker run in the foreground: the parent
/// waits and gets the worker's report as the tool result.
pub fn agent_input_foreground(description: &str, prompt: &str) -> Value {
    let mut input = agent_input(description, prompt);
    input["run_in_background"] = json!(false);
    input
}

/// A streamed answer that calls tool `name`: a `tool_use` block whose `input` arrives as two
/// `input_json_delta` chunks, then `stop_reason: tool_use`.
pub fn tool_use_events(model: &str, tool_use_id: &str, name: &str, input: &Value) -> Vec<String> {
    let input = input.to_string();
    let mid = input.len() / 2;
    let mid = (mid..input.len())
        .find(|&i| input.is_char_boundary(i))
        .unwrap_or(input.len());
    let (first, second) = input.split_at(mid);
    let mut events = vec![
        message_start(model, tool_use_id),
        sse_event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 0,
                    "content_block": {"type": "tool_use", "id": tool_use_id,
                                      "name": name, "input": {}}}),
        ),
    ];
    for part in [first, second] {
        events.push(sse_event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": part}}),
        ));
    }
    events.push(sse_event(
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": 0}),
    ));
    events.extend(message_end("tool_use", 40));
    events
}
