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

/// sha256 of the request JSON without its top-level `stream` field, serialised canonically
/// (object keys sorted at every level, no whitespace). Claude Code re-sends a failed streamed
/// request with `stream:false`; this digest recognises it as the same exchange.
pub fn exchange_body_digest(body: &Value) -> [u8; 32] {
    let mut canonical = String::new();
    match body {
        Value::Object(map) => {
            write_object(&mut canonical, map.iter().filter(|(k, _)| *k != "stream"));
        }
        other => write_canonical(&mut canonical, other),
    }
    Sha256::digest(canonical.as_bytes()).into()
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
