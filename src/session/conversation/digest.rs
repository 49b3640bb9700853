//! The local token estimate and the canonical digest of a request body (an exchange's key).

use std::fmt::Write as _;

use serde_json::Value;
use sha2::Digest;
use sha2::Sha256;

use super::IMAGE_TOKEN_ESTIMATE;
use super::RequestError;
use super::clean::Piece;
use super::clean::pieces;
use crate::anthropic::request::MessagesRequest;

/// A cheap local ESTIMATE of the request's input tokens for `count_tokens`: one token per four
/// bytes (rounded up) of the message text Cursor would see (reminders removed, tool calls and
/// results as their text), plus the `system` text and the tool catalogue JSON (count_tokens
/// asks about them), plus `IMAGE_TOKEN_ESTIMATE` per image. Not a tokenizer.
pub fn estimate_tokens(req: &MessagesRequest) -> u64 {
    let mut bytes = 0usize;
    let mut images = 0u64;
    for message in &req.messages {
        for piece in pieces(&message.content) {
            match piece {
                Piece::Text(text) => bytes += text.len(),
                Piece::ToolCall { name, input } => bytes += name.len() + input.to_string().len(),
                Piece::ToolResult { text, .. } => bytes += text.len(),
                Piece::Image(_) => images += 1,
                Piece::Document { .. } => {}
                Piece::ServerTool { raw, .. } => bytes += raw.to_string().len(),
            }
        }
    }
    if let Some(system) = &req.system {
        bytes += pieces(system)
            .iter()
            .map(|p| match p {
                Piece::Text(text) => text.len(),
                _ => 0,
            })
            .sum::<usize>();
    }
    bytes += req.tools.iter().map(|t| t.to_string().len()).sum::<usize>();
    (bytes as u64).div_ceil(4) + images * IMAGE_TOKEN_ESTIMATE
}

/// sha256 of the request JSON without its top-level `stream` field and without the thinking
/// blocks of its history, serialised canonically (object keys sorted at every level, no
/// whitespace). Claude Code re-sends a failed streamed request with `stream:false`, and from
/// 2.1.334 re-sends an unknown 400/422 once with the `thinking` and `redacted_thinking` blocks
/// taken out of `messages` (measured on 2.1.337: nothing else in the body changes); this digest
/// recognises both as the same exchange. A message left with no content by that (one that held
/// only thinking) counts as absent, whether the re-send kept it empty or dropped it.
pub(crate) fn exchange_body_digest(body: &Value) -> [u8; 32] {
    let mut canonical = String::new();
    match body {
        Value::Object(map) => write_object_with(
            &mut canonical,
            map.iter().filter(|(k, _)| *k != "stream"),
            |out, key, value| match (key, value) {
                ("messages", Value::Array(messages)) => write_history(out, messages),
                _ => write_canonical(out, value),
            },
        ),
        other => write_canonical(&mut canonical, other),
    }
    Sha256::digest(canonical.as_bytes()).into()
}

/// Whether `block` is a thinking block Claude Code may take out of a re-sent history.
fn is_thinking(block: &Value) -> bool {
    matches!(
        block.get("type").and_then(Value::as_str),
        Some("thinking" | "redacted_thinking")
    )
}

/// `messages`, canonically, without thinking blocks and without the messages that held only
/// them (or nothing).
fn write_history(out: &mut String, messages: &[Value]) {
    let kept = messages.iter().filter(|message| {
        !message
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|blocks| blocks.iter().all(is_thinking))
    });
    write_array_with(out, kept, |out, message| match message {
        Value::Object(fields) if fields.get("content").is_some_and(Value::is_array) => {
            write_object_with(out, fields.iter(), |out, key, value| match (key, value) {
                ("content", Value::Array(blocks)) => write_array_with(
                    out,
                    blocks.iter().filter(|b| !is_thinking(b)),
                    write_canonical,
                ),
                _ => write_canonical(out, value),
            });
        }
        _ => write_canonical(out, message),
    });
}

/// `exchange_body_digest` of raw body bytes.
pub fn exchange_body_digest_bytes(body: &[u8]) -> Result<[u8; 32], RequestError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| RequestError::InvalidJson(e.to_string()))?;
    Ok(exchange_body_digest(&value))
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Object(map) => write_object_with(out, map.iter(), |out, _, value| {
            write_canonical(out, value);
        }),
        Value::Array(items) => write_array_with(out, items.iter(), write_canonical),
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

/// `[a,b,…]`, each item written by `write`.
fn write_array_with<'a>(
    out: &mut String,
    items: impl Iterator<Item = &'a Value>,
    mut write: impl FnMut(&mut String, &'a Value),
) {
    out.push('[');
    for (index, item) in items.enumerate() {
        if index > 0 {
            out.push(',');
        }
        write(out, item);
    }
    out.push(']');
}

/// `{"key":value,…}` with the keys sorted, each value written by `write` (given its key).
fn write_object_with<'a>(
    out: &mut String,
    fields: impl Iterator<Item = (&'a String, &'a Value)>,
    mut write: impl FnMut(&mut String, &str, &'a Value),
) {
    let mut fields: Vec<_> = fields.collect();
    fields.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (index, (key, value)) in fields.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let _ = write!(out, "{}:", Value::String(key.clone()));
        write(out, key, value);
    }
    out.push('}');
}
