//! The stream a turn prints when no scenario is set: `system/init`, the `user` echo, the reply,
//! and a success `result` with usage — in the real CLI's field order and shapes (see the
//! maestro captures in `fixtures/cursor-stream/`).
//!
//! With `--stream-partial-output` the reply arrives as word deltas (with `timestamp_ms`), then
//! once more whole without it (the real CLI's end-of-turn flush). `--output-format json` prints
//! only the result object; `text` prints only the reply.

use std::time::Instant;

use serde::Serialize;

use crate::cli::Invocation;
use crate::config;
use crate::emit::Emitter;
use crate::error::Error;
use crate::events_2026;
use crate::ids;
use crate::subst::Context;

/// The reply when `FAKE_AGENT_REPLY` is unset.
const DEFAULT_REPLY: &str = "fake agent reply";

/// `{"type":"system","subtype":"init",…}`.
#[derive(Serialize)]
struct Init<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    subtype: &'static str,
    #[serde(rename = "apiKeySource")]
    api_key_source: &'a str,
    cwd: &'a str,
    session_id: &'a str,
    model: &'a str,
    #[serde(rename = "permissionMode")]
    permission_mode: &'static str,
}

/// One text block of a message.
#[derive(Serialize)]
struct TextBlock<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

/// `{"role":…,"content":[…]}`.
#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: [TextBlock<'a>; 1],
}

/// A `user` or `assistant` event.
#[derive(Serialize)]
struct MessageEvent<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    message: Message<'a>,
    session_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamp_ms: Option<u64>,
}

/// The `usage` object of a result (camelCase, as the CLI writes it).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Usage {
    input_tokens: u64,
    output_tokens: u64,
    cache_read_tokens: u64,
    cache_write_tokens: u64,
}

/// `{"type":"result","subtype":"success",…}`.
#[derive(Serialize)]
struct ResultEvent<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    subtype: &'static str,
    duration_ms: u64,
    duration_api_ms: u64,
    is_error: bool,
    result: &'a str,
    session_id: &'a str,
    request_id: &'a str,
    usage: Usage,
}

/// Plays the default stream; returns the exit code (0).
pub(crate) fn play(
    invocation: &Invocation,
    context: &Context,
    started: Instant,
) -> Result<i32, Error> {
    let reply = config::var(config::REPLY).unwrap_or_else(|| DEFAULT_REPLY.to_owned());
    let mut out = Emitter::new()?;
    match invocation.output_format() {
        "stream-json" => {
            let partial = invocation.has("--stream-partial-output");
            write_json(&mut out, &init(context))?;
            write_json(&mut out, &message("user", &context.prompt, context, None))?;
            let rounds = config::number(config::RECONNECTS)?.unwrap_or(0);
            events_2026::reconnects(&mut out, context, rounds)?;
            if let Some(url) = config::non_empty(config::WEB_FETCH) {
                events_2026::web_fetch(&mut out, context, &url, invocation.force())?;
            }
            if partial {
                for delta in deltas(&reply) {
                    let event = message("assistant", delta, context, Some(ids::now_ms()));
                    write_json(&mut out, &event)?;
                }
            }
            write_json(&mut out, &message("assistant", &reply, context, None))?;
            write_json(&mut out, &result(&reply, context, started))?;
        }
        "json" => write_json(&mut out, &result(&reply, context, started))?,
        _ => out.emit(format!("{reply}\n").as_bytes())?,
    }
    Ok(0)
}

/// Writes one event as a JSON line.
fn write_json(out: &mut Emitter, event: &impl Serialize) -> Result<(), Error> {
    let mut line = serde_json::to_vec(event)
        .map_err(|error| Error::new(format!("encoding an event: {error}")))?;
    line.push(b'\n');
    out.emit(&line)
}

/// The `system/init` event.
fn init(context: &Context) -> Init<'_> {
    Init {
        kind: "system",
        subtype: "init",
        api_key_source: &context.api_key_source,
        cwd: &context.workspace,
        session_id: &context.chat_id,
        model: &context.model_name,
        permission_mode: "default",
    }
}

/// A `user` or `assistant` event carrying `text`.
fn message<'a>(
    role: &'static str,
    text: &'a str,
    context: &'a Context,
    timestamp_ms: Option<u64>,
) -> MessageEvent<'a> {
    MessageEvent {
        kind: role,
        message: Message {
            role,
            content: [TextBlock { kind: "text", text }],
        },
        session_id: &context.chat_id,
        timestamp_ms,
    }
}

/// The success `result` event.
fn result<'a>(reply: &'a str, context: &'a Context, started: Instant) -> ResultEvent<'a> {
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    ResultEvent {
        kind: "result",
        subtype: "success",
        duration_ms,
        duration_api_ms: duration_ms,
        is_error: false,
        result: reply,
        session_id: &context.chat_id,
        request_id: &context.request_id,
        usage: Usage {
            input_tokens: estimate_tokens(&context.prompt),
            output_tokens: estimate_tokens(reply),
            cache_read_tokens: 0,
            cache_write_tokens: 0,
        },
    }
}

/// A rough token count (four bytes a token, at least one).
fn estimate_tokens(text: &str) -> u64 {
    u64::try_from(text.len() / 4).unwrap_or(u64::MAX).max(1)
}

/// `text` cut before each space, so the deltas concatenate back to `text`.
fn deltas(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for (index, _) in text.match_indices(' ') {
        if index > start {
            pieces.push(&text[start..index]);
            start = index;
        }
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_concatenate_back() {
        assert_eq!(deltas("fake agent reply"), vec!["fake", " agent", " reply"]);
        assert_eq!(deltas("  two  spaces").concat(), "  two  spaces");
        assert!(deltas("").is_empty());
    }

    #[test]
    fn events_have_the_real_field_order() {
        let context = Context {
            chat_id: "c".to_owned(),
            prompt: "hi".to_owned(),
            workspace: "/w".to_owned(),
            model: "auto".to_owned(),
            model_name: "Auto".to_owned(),
            request_id: "r".to_owned(),
            api_key_source: "login".to_owned(),
        };
        let init = serde_json::to_string(&init(&context)).unwrap_or_default();
        assert_eq!(
            init,
            r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"c","model":"Auto","permissionMode":"default"}"#
        );
        let user =
            serde_json::to_string(&message("user", "hi", &context, None)).unwrap_or_default();
        assert_eq!(
            user,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"c"}"#
        );
        let result =
            serde_json::to_string(&result("ok", &context, Instant::now())).unwrap_or_default();
        assert!(result.starts_with(r#"{"type":"result","subtype":"success","duration_ms":"#));
        assert!(result.ends_with(
            r#","is_error":false,"result":"ok","session_id":"c","request_id":"r","usage":{"inputTokens":1,"outputTokens":1,"cacheReadTokens":0,"cacheWriteTokens":0}}"#
        ));
    }
}
