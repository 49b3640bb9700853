//! The stream-json parser: raw bytes from the agent's stdout in, typed [`RunEvent`]s and
//! plain-text [`CliFailure`]s out. `agent --print --output-format stream-json` writes one JSON
//! object per line (`system/init`, `user`, `thinking`, `assistant`, `tool_call`, `result`; the
//! 2026.09–2026.10 builds add `interaction_query`, `connection` and `retry`). Its failures come
//! as plain text.
//!
//! The process supervisor feeds every stdout read to [`StreamParser::feed`] and calls
//! [`StreamParser::finish`] at EOF; it runs each stderr line through `classify_plain_text`
//! (which lives in [`super::failure`] with the rest of the failure classification).
//!
//! Decisions worth knowing:
//! - **Lines.** Split on `\n`; a trailing `\r` and surrounding ASCII whitespace are trimmed. Only
//!   the incomplete last line is held between feeds, and only the new bytes are scanned for a
//!   newline (the held bytes are known to contain none). A line longer than the limit is dropped
//!   as it grows (memory stays bounded), reported once as [`StreamError::LineTooLong`], and the
//!   parser resynchronises at the next newline.
//! - **JSON or plain text.** A line whose first non-blank byte is `{` is JSON; anything else is
//!   plain text, classified by `classify_plain_text` (unrecognised text is noise, skipped and
//!   logged at debug level). The workspace-trust gate prints a multi-line block: its header opens
//!   a block, the indented lines after it join it, and the block becomes ONE
//!   [`CliFailure::WorkspaceTrust`] carrying all its words when a non-indented line, a JSON line
//!   or EOF ends it.
//! - **Malformed JSON** (and a `system/init` without `session_id`) is skipped, never fatal: it is
//!   logged with `tracing::warn!` (a preview and the serde error) and counted by
//!   the parser, but not turned into a [`StreamItem`]. A broken line
//!   carries nothing a turn can act on; what it costs (a missing `result`, a tool that never
//!   completes) is already visible to the supervisor as an absence. Fields with an unexpected
//!   type (a float `duration_ms`, a string `usage`) only lose that field, not the event.
//! - **Assistant text** goes through the accumulator rule (see [`RunEvent::Text`] and the
//!   `text` submodule): every word exactly once, whether or not the CLI streamed partial output
//!   and whether a flush arrives before or after the tool call that cut its segment.
//! - **Tool calls** are decoded by the `tool_call` submodule, whichever of the CLI's three
//!   payload forms they come in.

mod interaction;
mod text;
mod tool_call;

use std::mem;

use serde::Deserialize;
use serde::Deserializer;
use serde::de::DeserializeOwned;
use serde::de::IgnoredAny;
use serde_json::Value;
use thiserror::Error;

use super::CliFailure;
use super::events::CursorStatus;
use super::events::RunEvent;
use super::events::RunResult;
use super::events::RunUsage;
use super::failure::TrustBlock;
use crate::text::strip_ansi;
use interaction::Interactions;
use text::Shape;
use text::TextAccumulator;
use tool_call::tool_call;
use tool_call::tool_outcome;

use super::failure::classify_plain_text;

/// The line limit the supervisor uses for the agent's stdout. Lines over 1 MB are normal (a
/// `readToolCall` result embeds the whole file), so the limit only guards against runaway output.
pub const DEFAULT_MAX_LINE: usize = 64 * 1024 * 1024;

/// Capacity the line buffer keeps between lines. Multi-megabyte lines are normal, and growing a
/// fresh buffer for each one (reallocations, page faults) cost about a third of the throughput on
/// 2 MB lines in the bench; a buffer grown past this by a rarer, larger line is freed once that
/// line is parsed, so it does not pin the memory for the rest of the run.
const RETAINED_CAPACITY: usize = 4 * 1024 * 1024;

/// How much of a skipped line goes into the log.
const LOG_PREVIEW_BYTES: usize = 160;

/// One thing the parser recognised in the agent's output, in stream order.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// A stream-json event turned into meaning.
    Event(RunEvent),
    /// A recognised plain-text failure (not JSON): not logged in, bad model, trust gate, rate
    /// limit. The run will not produce a useful `result` after one of these.
    Failure(CliFailure),
    /// Other plain text (not JSON, not a known failure), ANSI stripped and trimmed. Usually
    /// noise to skip; the supervisor keeps a few lines to explain a run that ends without a
    /// result (e.g. the CLI's words when it refuses `--resume`).
    PlainText(String),
}

/// Why [`StreamParser::feed`] could not accept the bytes it was given.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StreamError {
    /// A line grew past the parser's limit; it was discarded and parsing resumes after its
    /// newline.
    #[error(
        "the Cursor agent wrote an output line longer than {limit} bytes; that line was discarded"
    )]
    LineTooLong {
        /// The limit the parser was created with.
        limit: usize,
    },
}

/// Incremental parser for one run's stdout: splits lines across arbitrary chunk boundaries and
/// keeps the state the assistant-text rule and the trust block need. Create one per run.
#[derive(Debug)]
pub struct StreamParser {
    max_line: usize,
    /// The incomplete last line (it contains no `\n`).
    partial: Vec<u8>,
    /// Inside an over-long line: drop bytes until the next newline.
    discarding: bool,
    text: TextAccumulator,
    interactions: Interactions,
    trust: Option<TrustBlock>,
    malformed: u64,
}

impl Default for StreamParser {
    /// A parser with [`DEFAULT_MAX_LINE`].
    fn default() -> Self {
        Self::new(DEFAULT_MAX_LINE)
    }
}

impl StreamParser {
    /// A parser for one run whose lines may be at most `max_line` bytes (without the newline).
    /// The supervisor passes [`DEFAULT_MAX_LINE`]; tests pass small limits.
    pub fn new(max_line: usize) -> Self {
        Self {
            max_line,
            partial: Vec::new(),
            discarding: false,
            text: TextAccumulator::default(),
            interactions: Interactions::default(),
            trust: None,
            malformed: 0,
        }
    }

    /// Feed raw stdout bytes, split anywhere (even inside a UTF-8 character); pushes every item
    /// completed by these bytes onto `out`.
    ///
    /// An error means a line was too long and was discarded; every other item these bytes
    /// completed is still pushed, and the parser stays usable for the following lines.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<StreamItem>) -> Result<(), StreamError> {
        let mut status = Ok(());
        let mut rest = chunk;
        if self.discarding || !self.partial.is_empty() {
            let Some(end) = find_newline(rest) else {
                return self.hold(rest);
            };
            keep_first_error(&mut status, self.end_held_line(&rest[..end], out));
            rest = &rest[end + 1..];
        }
        while let Some(end) = find_newline(rest) {
            keep_first_error(&mut status, self.complete_line(&rest[..end], out));
            rest = &rest[end + 1..];
        }
        keep_first_error(&mut status, self.hold(rest));
        status
    }

    /// At EOF: parse the incomplete tail as a final line and close an open trust block. Calling
    /// it again is harmless.
    pub fn finish(&mut self, out: &mut Vec<StreamItem>) -> Result<(), StreamError> {
        if self.discarding {
            self.discarding = false;
        } else if !self.partial.is_empty() {
            let line = mem::take(&mut self.partial);
            self.process_line(&line, out);
        }
        self.release_buffer();
        self.end_trust_block(out);
        Ok(())
    }

    /// Bytes currently held: the incomplete line only. The bench checks it stays bounded.
    pub fn buffered(&self) -> usize {
        self.partial.len()
    }

    /// Keep an incomplete tail for the next feed, or drop it when it makes the line too long.
    fn hold(&mut self, bytes: &[u8]) -> Result<(), StreamError> {
        if self.discarding {
            return Ok(());
        }
        if self.partial.len() + bytes.len() > self.max_line {
            return Err(self.overflow());
        }
        self.partial.extend_from_slice(bytes);
        Ok(())
    }

    /// The held line (or the line being discarded) ends with `piece`.
    fn end_held_line(
        &mut self,
        piece: &[u8],
        out: &mut Vec<StreamItem>,
    ) -> Result<(), StreamError> {
        if mem::take(&mut self.discarding) {
            return Ok(());
        }
        if self.partial.len() + piece.len() > self.max_line {
            let error = self.overflow();
            self.discarding = false;
            return Err(error);
        }
        let mut line = mem::take(&mut self.partial);
        line.extend_from_slice(piece);
        self.process_line(&line, out);
        line.clear();
        self.partial = line;
        self.release_buffer();
        Ok(())
    }

    /// A whole line found inside one chunk: parsed in place, nothing copied.
    fn complete_line(&mut self, line: &[u8], out: &mut Vec<StreamItem>) -> Result<(), StreamError> {
        if line.len() > self.max_line {
            return Err(self.line_too_long());
        }
        self.process_line(line, out);
        Ok(())
    }

    /// Drop the held bytes and skip the rest of the current line.
    fn overflow(&mut self) -> StreamError {
        self.partial.clear();
        self.release_buffer();
        self.discarding = true;
        self.line_too_long()
    }

    fn line_too_long(&self) -> StreamError {
        tracing::warn!(
            limit = self.max_line,
            "discarding an over-long line from the Cursor agent"
        );
        StreamError::LineTooLong {
            limit: self.max_line,
        }
    }

    /// Free the buffer after it held a long line.
    fn release_buffer(&mut self) {
        if self.partial.is_empty() && self.partial.capacity() > RETAINED_CAPACITY {
            self.partial = Vec::new();
        }
    }

    fn process_line(&mut self, line: &[u8], out: &mut Vec<StreamItem>) {
        let trimmed = line.trim_ascii();
        if trimmed.first() == Some(&b'{') {
            self.end_trust_block(out);
            self.json_line(trimmed, out);
        } else {
            self.plain_line(line, out);
        }
    }

    fn plain_line(&mut self, raw: &[u8], out: &mut Vec<StreamItem>) {
        let lossy = String::from_utf8_lossy(raw);
        let text = strip_ansi(&lossy);
        if let Some(block) = &mut self.trust {
            if block.accepts(&text) {
                block.push(&text);
                return;
            }
            self.end_trust_block(out);
        }
        match classify_plain_text(&text) {
            Some(CliFailure::WorkspaceTrust(words)) => self.trust = Some(TrustBlock::new(words)),
            Some(failure) => out.push(StreamItem::Failure(failure)),
            None if text.trim().is_empty() => {}
            None => {
                tracing::debug!(line = %text.trim(), "non-JSON output from the Cursor agent");
                out.push(StreamItem::PlainText(text.trim().to_string()));
            }
        }
    }

    fn end_trust_block(&mut self, out: &mut Vec<StreamItem>) {
        if let Some(block) = self.trust.take() {
            out.push(StreamItem::Failure(block.into_failure()));
        }
    }

    fn json_line(&mut self, line: &[u8], out: &mut Vec<StreamItem>) {
        match serde_json::from_slice::<WireEvent>(line) {
            Ok(event) => self.dispatch(event, out),
            Err(error) => {
                let preview = String::from_utf8_lossy(&line[..line.len().min(LOG_PREVIEW_BYTES)]);
                self.note_malformed(&error.to_string(), &preview);
            }
        }
    }

    fn note_malformed(&mut self, why: &str, line: &str) {
        self.malformed += 1;
        tracing::warn!(
            error = why,
            line,
            "skipping a malformed stream-json line from the Cursor agent"
        );
    }

    fn dispatch(&mut self, event: WireEvent, out: &mut Vec<StreamItem>) {
        let produced = match event.kind.as_deref() {
            Some("system") => self.on_system(event),
            Some("user") => Some(RunEvent::UserEcho {
                text: message_text(event.message),
            }),
            Some("thinking") => on_thinking(event),
            Some("assistant") => self.on_assistant(event),
            Some("tool_call") => self.on_tool_call(event),
            Some("interaction_query") => {
                self.on_interaction(event);
                None
            }
            Some("connection" | "retry") => on_connection(event),
            Some("result") => Some(RunEvent::Result(run_result(event))),
            _ => None,
        };
        out.extend(produced.map(StreamItem::Event));
    }

    fn on_system(&mut self, event: WireEvent) -> Option<RunEvent> {
        match event.subtype.as_deref() {
            Some("init") => {}
            Some("task_notification") => {
                return Some(RunEvent::Status(CursorStatus::TaskNotification {
                    text: notification_text(&event),
                }));
            }
            Some("background_shell_timeout") => {
                return Some(RunEvent::Status(CursorStatus::BackgroundShellTimeout));
            }
            _ => return None,
        }
        match event.session_id.filter(|id| !id.is_empty()) {
            Some(chat_id) => Some(RunEvent::Init {
                chat_id,
                model: event.model,
            }),
            None => {
                self.note_malformed("no session_id", "system/init");
                None
            }
        }
    }

    fn on_assistant(&mut self, event: WireEvent) -> Option<RunEvent> {
        let shape = if event.timestamp_ms.is_some() && event.model_call_id.is_none() {
            Shape::Delta
        } else {
            Shape::Whole
        };
        let text = self.text.on_assistant(message_text(event.message), shape)?;
        Some(RunEvent::Text { text })
    }

    fn on_tool_call(&mut self, event: WireEvent) -> Option<RunEvent> {
        let completed = match event.subtype.as_deref() {
            Some("started") => false,
            Some("completed") => true,
            _ => return None,
        };
        self.text.on_tool();
        let (mut call, result) = tool_call(event.call_id, event.tool_call);
        Some(if completed {
            let mut outcome = tool_outcome(result);
            self.interactions.on_call(&mut call, Some(&mut outcome));
            RunEvent::ToolCompleted { call, outcome }
        } else {
            self.interactions.on_call(&mut call, None);
            RunEvent::ToolStarted { call }
        })
    }

    /// An `interaction_query` half: remembered, never an event of its own (see the
    /// `interaction` submodule).
    fn on_interaction(&mut self, event: WireEvent) {
        match event.subtype.as_deref() {
            Some("request") => self
                .interactions
                .request(event.query_type.as_deref(), event.query),
            Some("response") => self.interactions.response(event.response),
            _ => {}
        }
    }
}

/// `connection/reconnecting|reconnected` and `retry/starting` (2026.10.01): the CLI lost its
/// connection and tries again, up to three times before it gives up without a `result`.
fn on_connection(event: WireEvent) -> Option<RunEvent> {
    let status = match (event.kind.as_deref(), event.subtype.as_deref()) {
        (Some("connection"), Some("reconnecting")) | (Some("retry"), Some("starting")) => {
            CursorStatus::Reconnecting {
                attempt: event.attempt,
            }
        }
        (Some("connection"), Some("reconnected")) => CursorStatus::Reconnected,
        _ => return None,
    };
    Some(RunEvent::Status(status))
}

/// The words of a `system/task_notification` (no capture shows its fields: the usual text
/// fields are tried in turn).
fn notification_text(event: &WireEvent) -> String {
    let from_message = match &event.message {
        Some(Value::String(text)) => Some(text.clone()),
        Some(message @ Value::Object(_)) => {
            Some(message_text(Some(message.clone()))).filter(|text| !text.is_empty())
        }
        _ => None,
    };
    from_message
        .or_else(|| event.text.clone())
        .or_else(|| event.description.clone())
        .or_else(|| event.summary.clone())
        .unwrap_or_default()
}

/// Replay a whole recorded stream (tests, fixtures, diagnostics): feed everything, then finish.
pub fn parse_all(input: &[u8]) -> Result<Vec<StreamItem>, StreamError> {
    let mut parser = StreamParser::default();
    let mut out = Vec::new();
    parser.feed(input, &mut out)?;
    parser.finish(&mut out)?;
    Ok(out)
}

/// Record the first error of a feed and keep going.
fn keep_first_error(status: &mut Result<(), StreamError>, next: Result<(), StreamError>) {
    if status.is_ok() {
        *status = next;
    }
}

/// Position of the first `\n` (SIMD-accelerated by `memchr`).
fn find_newline(haystack: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', haystack)
}

/// One stream-json line. Unknown fields are ignored; fields with an unexpected type become
/// `None` instead of failing the line.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct WireEvent {
    #[serde(rename = "type", deserialize_with = "lenient")]
    kind: Option<String>,
    #[serde(deserialize_with = "lenient")]
    subtype: Option<String>,
    #[serde(deserialize_with = "lenient")]
    session_id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    model: Option<String>,
    message: Option<Value>,
    #[serde(deserialize_with = "lenient")]
    text: Option<String>,
    #[serde(deserialize_with = "lenient")]
    call_id: Option<String>,
    tool_call: Option<Value>,
    model_call_id: Option<IgnoredAny>,
    timestamp_ms: Option<IgnoredAny>,
    #[serde(deserialize_with = "lenient")]
    result: Option<String>,
    #[serde(deserialize_with = "lenient")]
    is_error: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    duration_ms: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    usage: Option<RunUsage>,
    #[serde(deserialize_with = "lenient")]
    request_id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    query_type: Option<String>,
    query: Option<Value>,
    response: Option<Value>,
    #[serde(deserialize_with = "lenient")]
    attempt: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    description: Option<String>,
    #[serde(deserialize_with = "lenient")]
    summary: Option<String>,
}

/// Deserialize a field, or `None` when its value has another type.
fn lenient<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = Value::deserialize(deserializer)?;
    Ok(T::deserialize(value).ok())
}

fn on_thinking(event: WireEvent) -> Option<RunEvent> {
    (event.subtype.as_deref() == Some("delta")).then(|| RunEvent::Thinking {
        text: event.text.unwrap_or_default(),
    })
}

/// Concatenate the `text` blocks of a `message` (a bare string content is taken as is).
fn message_text(message: Option<Value>) -> String {
    let Some(Value::Object(mut message)) = message else {
        return String::new();
    };
    match message.remove("content") {
        Some(Value::String(text)) => text,
        Some(Value::Array(blocks)) => blocks.into_iter().filter_map(block_text).collect(),
        _ => String::new(),
    }
}

fn block_text(block: Value) -> Option<String> {
    let Value::Object(mut block) = block else {
        return None;
    };
    if block.get("type").and_then(Value::as_str) != Some("text") {
        return None;
    }
    match block.remove("text") {
        Some(Value::String(text)) => Some(text),
        _ => None,
    }
}

fn run_result(event: WireEvent) -> RunResult {
    RunResult {
        success: event.subtype.as_deref() == Some("success") && event.is_error != Some(true),
        text: event.result.unwrap_or_default(),
        chat_id: event.session_id,
        duration_ms: event.duration_ms,
        usage: event.usage,
        request_id: event.request_id,
    }
}

#[cfg(test)]
mod tests;
