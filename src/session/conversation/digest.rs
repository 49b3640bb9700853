//! The local token estimate and the canonical digest of a request body (an exchange's key).

use std::fmt::Write as _;

use serde_json::Value;
use sha2::Digest;
use sha2::Sha256;

use super::IMAGE_TOKEN_ESTIMATE;
use super::MessagesRequest;
use super::RequestError;
use super::clean::Piece;
use super::clean::pieces;

/// A cheap local ESTIMATE of the request's input tokens for `count_tokens`: one token per four
/// bytes (rounded up) of the message text Cursor would see (reminders removed, tool calls and
/// results as their text), plus the `system` text and the tool catalogue JSON (count_tokens
/// asks about them), plus [`IMAGE_TOKEN_ESTIMATE`] per image. Not a tokenizer.
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
pub fn exchange_body_digest(body: &Value) -> [u8; 32] {
    let mut canonical = String::new();
    match body {
        Value::Object(map) => {
            let mut fields: Vec<_> = map.iter().filter(|(k, _)| *k != "stream").collect();
            fields.sort_by(|a, b| a.0.cmp(b.0));
            canonical.push('{');
            for (index, (key, value)) in fields.into_iter().enumerate() {
                if index > 0 {
                    canonical.push(',');
                }
                let _ = write!(canonical, "{}:", Value::String(key.clone()));
                match (key.as_str(), value) {
                    ("messages", Value::Array(messages)) => {
                        write_history(&mut canonical, messages);
                    }
                    _ => write_canonical(&mut canonical, value),
                }
            }
            canonical.push('}');
        }
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
    out.push('[');
    let mut first = true;
    for message in messages {
        let blocks = message.get("content").and_then(Value::as_array);
        if blocks.is_some_and(|blocks| blocks.iter().all(is_thinking)) {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        match (message, blocks) {
            (Value::Object(fields), Some(blocks)) => {
                let mut fields: Vec<_> = fields.iter().collect();
                fields.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (index, (key, value)) in fields.into_iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    let _ = write!(out, "{}:", Value::String(key.clone()));
                    if key == "content" {
                        out.push('[');
                        for (index, block) in blocks.iter().filter(|b| !is_thinking(b)).enumerate()
                        {
                            if index > 0 {
                                out.push(',');
                            }
                            write_canonical(out, block);
                        }
                        out.push(']');
                    } else {
                        write_canonical(out, value);
                    }
                }
                out.push('}');
            }
            _ => write_canonical(out, message),
        }
    }
    out.push(']');
}

/// [`exchange_body_digest`] of raw body bytes.
pub fn exchange_body_digest_bytes(body: &[u8]) -> Result<[u8; 32], RequestError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| RequestError::InvalidJson(e.to_string()))?;
    Ok(exchange_body_digest(&value))
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Object(map) => write_object(out, map.iter()),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

fn write_object<'a>(out: &mut String, fields: impl Iterator<Item = (&'a String, &'a Value)>) {
    let mut fields: Vec<_> = fields.collect();
    fields.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (index, (key, value)) in fields.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let _ = write!(out, "{}:", Value::String(key.clone()));
        write_canonical(out, value);
    }
    out.push('}');
}
