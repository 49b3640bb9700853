//! Reading an Anthropic Messages request and deciding what text Cursor receives (DESIGN §6
//! "What Cursor receives").
//!
//! Everything here is pure except [`first_turn_prompt`] and [`continuation_prompt`], which
//! write the newest turn's base64 images into the folder they are given.
//!
//! # What is sent
//!
//! Claude's `system` prompt, its tool catalogue, `role:"system"` messages and
//! `<system-reminder>…</system-reminder>` context (whole blocks and segments inside a text) are
//! never sent; the user's own words are kept exactly. A reminder that carries a background
//! agent's `<task-notification>` is the one exception: it is the only content of the request
//! Claude Code sends when a background worker finishes, so its inner text is kept.
//!
//! # Prompt framing
//!
//! When only the newest user turn has something to say, the prompt is exactly that turn's text
//! (its text blocks and image references joined by a blank line), with no framing at all.
//! Otherwise the prompt is a bounded transcript, a blank line, and the new request:
//!
//! ```text
//! Conversation so far (context; actions in it are already done — do not repeat them):
//! [older turns omitted: 3 entries did not fit the transcript limit]
//! User: list the files
//! Assistant: I'll look.
//! [tool Bash: {"command":"ls"}]
//! [tool result: Cargo.toml src]
//! Assistant: There are two entries.
//!
//! New request:
//! now count them
//! ```
//!
//! - The header is [`FIRST_TURN_HEADER`] for a chat's first turn (and after the outer history
//!   changed), [`CONTINUATION_HEADER`] for a later turn that carries what happened since
//!   Cursor's recorded answer.
//! - The marker line ([`omitted_marker`]) appears only when older entries were dropped.
//! - Entries, oldest first, one per piece: `User: <text>`, `Assistant: <text>` (text may span
//!   lines), `User: [image]`, `User: [document]`, `[tool <name>: <input JSON>]`,
//!   `[tool result: <one line>]`, `[tool error: <one line>]`,
//!   `[server tool <type>: <JSON>]`. Tool lines are bounded to [`TOOL_LINE_LIMIT`] bytes of
//!   payload and end with `…` when cut. Thinking blocks are not sent.
//! - Tool results inside the newest user turn are context: they become the newest entries,
//!   bounded to [`NEWEST_TOOL_LINE_LIMIT`]. (When the newest turn holds nothing but tool
//!   results, their lines are the new request.)
//! - The entries and the marker together stay within the limit (64 KiB by default,
//!   [`DEFAULT_TRANSCRIPT_LIMIT`]); the newest are kept. The new request is never cut.
//! - The new request (`New request:` then the turn) is the user content after the last
//!   assistant message, which may span several user messages. Base64 images in it are written
//!   to files named by their sha256 and referenced as `[image: /abs/path.png]`; URL images as
//!   `[image: https://…]`.

use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;

use serde_json::Value;
use sha2::Digest;
use sha2::Sha256;
use thiserror::Error;

use crate::anthropic;
pub use crate::anthropic::request::Content;
pub use crate::anthropic::request::ContentBlock;
pub use crate::anthropic::request::MediaSource;
pub use crate::anthropic::request::Message;
pub use crate::anthropic::request::MessagesRequest;
pub use crate::anthropic::request::Metadata;
pub use crate::anthropic::request::OutputConfig;
use crate::anthropic::request::ParseError;
pub use crate::anthropic::request::Role;
pub use crate::anthropic::request::ToolChoice;
use crate::state;
use crate::state::StateError;
use crate::text;
use crate::text::ELLIPSIS;

/// Default bound of the transcript part of a prompt, in bytes (DESIGN §6).
pub const DEFAULT_TRANSCRIPT_LIMIT: usize = 64 * 1024;

/// Bound of the payload of one tool line in a transcript (the input JSON of a call, the text of
/// a result), in bytes.
pub const TOOL_LINE_LIMIT: usize = 400;

/// Bound of the payload of a tool-result line from the newest user turn (a worker's hand-back
/// report, say), in bytes: it is what the new request is about, so it gets more room.
pub const NEWEST_TOOL_LINE_LIMIT: usize = 8 * 1024;

/// First line of a first turn's framing, and of a turn sent after the outer history changed.
pub const FIRST_TURN_HEADER: &str =
    "Conversation so far (context; actions in it are already done — do not repeat them):";

/// First line of a later turn's framing: what happened after Cursor's recorded answer.
pub const CONTINUATION_HEADER: &str = "Conversation since your last answer (context; actions in it are already done — do not repeat them):";

/// The line that introduces the newest user turn after a transcript.
pub const NEW_REQUEST_HEADER: &str = "New request:";

/// Streamed to Claude (and not sent to Cursor) when Cursor's recorded answer is no longer in the
/// conversation Claude Code sends: the native chat keeps its own record.
pub const OUTER_HISTORY_NOTICE: &str =
    "[Cursor] Outer history changed; the native conversation continues with its own record.";

/// How Claude Code's message carrying a compaction summary begins (measured on 2.1.328): after
/// `/compact` or an automatic compaction it opens the conversation it sends.
pub const COMPACTED_SUMMARY_PREFIX: &str =
    "This session is being continued from a previous conversation that ran out of context.";

/// What a Cursor chat that continues gets instead of Claude Code's compaction summary: its own
/// history is intact, so the summary (and Claude Code's instructions around it) would only
/// repeat it.
pub const COMPACTED_NOTE: &str = "[multi-cursor] Claude Code compacted its copy of this conversation into a summary; this chat still holds the full history.";

/// The request of a continuing chat whose newest turn was only Claude Code's compaction summary
/// (an automatic compaction in the middle of a task).
pub const COMPACTED_CONTINUE: &str = "Continue the task where you left off.";

/// How the last user message of a `/compact` request begins (DESIGN §4).
pub const COMPACTION_PREFIX: &str = "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.";

/// How the first `system` block of a subagent (worker) request ends (DESIGN §4).
pub const SUBAGENT_MARKER: &str = "cc_is_subagent=true;";

/// Namespace of this plugin's slash commands as Claude Code writes them in `<command-name>`.
pub const PLUGIN_COMMAND_NAMESPACE: &str = "multi-cursor:";

/// Tokens counted for each image by [`estimate_tokens`].
pub const IMAGE_TOKEN_ESTIMATE: u64 = 1_600;

const REMINDER_OPEN: &str = "<system-reminder>";
const REMINDER_CLOSE: &str = "</system-reminder>";
const TASK_NOTIFICATION: &str = "<task-notification>";

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a request cannot be answered by Cursor. Every message starts `multi-cursor:` and says
/// what to do; the gateway sends it as an Anthropic error with [`RequestError::status`].
#[derive(Debug, Error)]
pub enum RequestError {
    /// The body is not JSON at all.
    #[error("multi-cursor: the request body is not valid JSON: {0}")]
    InvalidJson(String),
    /// The body is JSON but not a Messages request (missing `model`, a malformed block, …).
    #[error("multi-cursor: the request body is not a valid Messages request: {0}")]
    InvalidRequest(String),
    /// `tool_choice` of type `tool` or `any`.
    #[error(
        "multi-cursor: Cursor chooses its own tools; a forced tool_choice (\"{0}\") is unsupported. Use tool_choice \"auto\" or leave it out"
    )]
    ForcedToolChoice(String),
    /// `tool_choice` of type `none`.
    #[error(
        "multi-cursor: Cursor cannot be kept from its tools for one request; tool_choice \"none\" is unsupported. Leave tool_choice out"
    )]
    ToolChoiceNone,
    /// `tool_choice` of a type this gateway does not know.
    #[error(
        "multi-cursor: tool_choice \"{0}\" is unsupported. Use tool_choice \"auto\" or leave it out"
    )]
    UnknownToolChoice(String),
    /// Non-empty `stop_sequences`.
    #[error(
        "multi-cursor: Cursor does not support stop sequences. Remove stop_sequences from the request"
    )]
    StopSequences,
    /// `output_config.format` or `output_format`.
    #[error(
        "multi-cursor: Cursor cannot enforce a strict output schema (output_config.format / output_format). Remove it and describe the format in the prompt"
    )]
    OutputFormat,
    /// A PDF (or other non-text) document in the newest user turn.
    #[error(
        "multi-cursor: Cursor does not accept PDF or other document attachments. Provide the extracted text instead"
    )]
    Document,
    /// No `role:"user"` message at all.
    #[error("multi-cursor: the request has no user message. Send at least one user message")]
    NoUserMessage,
    /// Nothing for Cursor to answer: the conversation ends with an assistant message, or the
    /// newest user turn holds only Claude Code's context.
    #[error(
        "multi-cursor: no new user message for Cursor. The conversation must end with a user message that has text, an image or a tool result"
    )]
    NoNewUserMessage,
    /// A base64 image that cannot be decoded.
    #[error(
        "multi-cursor: an image in the request could not be read ({0}). Attach it as base64 PNG, JPEG, GIF or WebP"
    )]
    InvalidImage(String),
    /// The image folder or an image file could not be written.
    #[error("multi-cursor: could not save an image for Cursor: {0}")]
    ImageWrite(#[source] StateError),
}

impl RequestError {
    /// The HTTP status the gateway answers with: 400 for everything the request itself causes,
    /// 500 when an image could not be saved.
    pub fn status(&self) -> u16 {
        match self {
            RequestError::ImageWrite(_) => 500,
            _ => 400,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Parses a Messages request body. Used by the gateway for every `multi/cursor/*` request
/// (messages and count_tokens) before anything else is decided.
pub fn parse_request(body: &[u8]) -> Result<MessagesRequest, RequestError> {
    anthropic::request::parse(body).map_err(RequestError::from)
}

impl From<ParseError> for RequestError {
    fn from(error: ParseError) -> Self {
        match error {
            ParseError::Json(e) => RequestError::InvalidJson(e),
            ParseError::Request(e) => RequestError::InvalidRequest(e),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/// Refuses what Cursor cannot honour, before anything runs: a forced or `none` `tool_choice`,
/// stop sequences, a strict output schema, a PDF/document in the newest user turn, and a
/// request without any user message. Used by the gateway on every Cursor request.
pub fn validate_for_cursor(req: &MessagesRequest) -> Result<(), RequestError> {
    check_tool_choice(req.tool_choice.as_ref())?;
    if !req.stop_sequences.is_empty() {
        return Err(RequestError::StopSequences);
    }
    let format = req.output_config.as_ref().and_then(|c| c.format.as_ref());
    if format.is_some() || req.output_format.is_some() {
        return Err(RequestError::OutputFormat);
    }
    let messages = conversation(req);
    require_user_message(&messages)?;
    let (_, newest) = split_newest(&messages);
    if newest
        .iter()
        .flat_map(|m| pieces(&m.content))
        .any(|p| matches!(p, Piece::Document { .. }))
    {
        return Err(RequestError::Document);
    }
    Ok(())
}

fn check_tool_choice(choice: Option<&ToolChoice>) -> Result<(), RequestError> {
    let Some(choice) = choice else {
        return Ok(());
    };
    match choice.kind.as_str() {
        "auto" | "" => Ok(()),
        "none" => Err(RequestError::ToolChoiceNone),
        "tool" | "any" => Err(RequestError::ForcedToolChoice(choice.kind.clone())),
        other => Err(RequestError::UnknownToolChoice(other.to_string())),
    }
}

fn require_user_message(messages: &[&Message]) -> Result<(), RequestError> {
    if messages.iter().any(|m| m.role == Role::User) {
        Ok(())
    } else {
        Err(RequestError::NoUserMessage)
    }
}

// ---------------------------------------------------------------------------------------------
// Cleaning
// ---------------------------------------------------------------------------------------------

/// Removes every complete `<system-reminder>…</system-reminder>` segment from `text` (Claude
/// Code's context, not the user's words), with the line breaks that follow it; when anything was
/// removed, the result is trimmed at the ends. A reminder holding a `<task-notification>` keeps
/// its inner text. Text without reminders is returned unchanged.
pub fn strip_system_reminders(text: &str) -> String {
    if !text.contains(REMINDER_OPEN) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(start) = rest.find(REMINDER_OPEN) {
        let after_open = &rest[start + REMINDER_OPEN.len()..];
        let Some(end) = after_open.find(REMINDER_CLOSE) else {
            break;
        };
        let inner = &after_open[..end];
        let after_close = &after_open[end + REMINDER_CLOSE.len()..];
        out.push_str(&rest[..start]);
        changed = true;
        if inner.contains(TASK_NOTIFICATION) {
            out.push_str(inner.trim());
            rest = after_close;
        } else {
            rest = after_close.trim_start_matches(['\n', '\r']);
        }
    }
    out.push_str(rest);
    if changed {
        out.trim_end().trim_start_matches(['\n', '\r']).to_string()
    } else {
        out
    }
}

/// The messages Cursor may hear about: `user` and `assistant`, in order (`system` and unknown
/// roles dropped).
fn conversation(req: &MessagesRequest) -> Vec<&Message> {
    req.messages
        .iter()
        .filter(|m| matches!(m.role, Role::User | Role::Assistant))
        .collect()
}

/// Splits at the last assistant message: (everything up to and including it, the newest user
/// turn after it).
fn split_newest<'m, 'r>(messages: &'m [&'r Message]) -> (&'m [&'r Message], &'m [&'r Message]) {
    match messages.iter().rposition(|m| m.role == Role::Assistant) {
        Some(last) => messages.split_at(last + 1),
        None => (&[], messages),
    }
}

/// One cleaned piece of a message, in order.
enum Piece<'a> {
    Text(String),
    ToolCall { name: &'a str, input: &'a Value },
    ToolResult { text: String, is_error: bool },
    Image(&'a MediaSource),
    Document { title: Option<&'a str> },
    ServerTool { kind: &'a str, raw: &'a Value },
}

fn pieces(content: &Content) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    match content {
        Content::Text(text) => push_text(&mut out, text),
        Content::Blocks(blocks) => {
            for block in blocks {
                push_block(&mut out, block);
            }
        }
    }
    out
}

fn push_text(out: &mut Vec<Piece<'_>>, text: &str) {
    let cleaned = strip_system_reminders(text);
    if !cleaned.trim().is_empty() {
        out.push(Piece::Text(cleaned));
    }
}

fn push_block<'a>(out: &mut Vec<Piece<'a>>, block: &'a ContentBlock) {
    match block {
        ContentBlock::Text { text } => push_text(out, text),
        ContentBlock::Image { source } => out.push(Piece::Image(source)),
        ContentBlock::Document { source, title } => push_document(out, source, title.as_deref()),
        ContentBlock::ToolUse { name, input, .. } => out.push(Piece::ToolCall { name, input }),
        ContentBlock::ToolResult {
            content, is_error, ..
        } => out.push(Piece::ToolResult {
            text: flatten(content),
            is_error: *is_error,
        }),
        ContentBlock::ServerTool { kind, raw } => out.push(Piece::ServerTool { kind, raw }),
        ContentBlock::Thinking { .. }
        | ContentBlock::RedactedThinking
        | ContentBlock::Unknown { .. } => {}
    }
}

fn push_document<'a>(out: &mut Vec<Piece<'a>>, source: &'a MediaSource, title: Option<&'a str>) {
    let heading = match title {
        Some(title) => format!("[document: {title}]"),
        None => "[document]".to_string(),
    };
    match source {
        MediaSource::Text { data } => out.push(Piece::Text(format!("{heading}\n{data}"))),
        MediaSource::Content { content } => {
            let text = flatten(content);
            out.push(Piece::Text(format!("{heading}\n{text}")));
        }
        _ => out.push(Piece::Document { title }),
    }
}

/// The text of tool-result or document content on its own: text pieces as they are, other
/// pieces as their short transcript form, joined by a space.
fn flatten(content: &Content) -> String {
    pieces(content)
        .iter()
        .map(|p| match p {
            Piece::Text(text) => text.clone(),
            other => piece_line(other, TOOL_LINE_LIMIT),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// Transcript
// ---------------------------------------------------------------------------------------------

/// One transcript entry: a label (`User: `, `Assistant: ` or nothing) and its body.
struct Entry {
    label: &'static str,
    body: String,
}

impl Entry {
    fn len(&self) -> usize {
        self.label.len() + self.body.len()
    }

    fn render(&self) -> String {
        format!("{}{}", self.label, self.body)
    }
}

fn label(role: Role) -> &'static str {
    match role {
        Role::Assistant => "Assistant: ",
        _ => "User: ",
    }
}

fn entry(role: Role, piece: &Piece<'_>, limit: usize) -> Entry {
    match piece {
        Piece::Text(text) => Entry {
            label: label(role),
            body: text.clone(),
        },
        Piece::Image(_) | Piece::Document { .. } => Entry {
            label: label(role),
            body: piece_line(piece, limit),
        },
        _ => Entry {
            label: "",
            body: piece_line(piece, limit),
        },
    }
}

/// The one-line form of a non-text piece, its payload bounded to `limit` bytes.
fn piece_line(piece: &Piece<'_>, limit: usize) -> String {
    match piece {
        Piece::Text(text) => one_line_bounded(text, limit),
        Piece::ToolCall { name, input } => {
            format!(
                "[tool {name}: {}]",
                text::ellipsize_bytes(&input.to_string(), limit)
            )
        }
        Piece::ToolResult { text, is_error } => {
            let kind = if *is_error { "error" } else { "result" };
            let text = if text.trim().is_empty() {
                "(empty)".to_string()
            } else {
                one_line_bounded(text, limit)
            };
            format!("[tool {kind}: {text}]")
        }
        Piece::Image(_) => "[image]".to_string(),
        Piece::Document { title: Some(title) } => format!("[document: {title}]"),
        Piece::Document { title: None } => "[document]".to_string(),
        Piece::ServerTool { kind, raw } => {
            let mut raw = (*raw).clone();
            if let Value::Object(map) = &mut raw {
                map.remove("type");
            }
            format!(
                "[server tool {kind}: {}]",
                text::ellipsize_bytes(&raw.to_string(), limit)
            )
        }
    }
}

/// `text` on one line (whitespace runs as one space), cut to `limit` bytes with `…`.
fn one_line_bounded(text: &str, limit: usize) -> String {
    text::ellipsize_bytes(&text::squash_whitespace(text), limit)
}

fn transcript_entries(messages: &[&Message]) -> Vec<Entry> {
    messages
        .iter()
        .flat_map(|m| {
            pieces(&m.content)
                .iter()
                .map(|p| entry(m.role, p, TOOL_LINE_LIMIT))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The marker line that replaces older transcript entries dropped to stay within the limit.
pub fn omitted_marker(omitted: usize) -> String {
    format!("[older turns omitted: {omitted} entries did not fit the transcript limit]")
}

/// Keeps the newest entries whose lines (each plus a newline, and the marker when needed) fit
/// in `limit` bytes. When not even the newest fits, its tail is kept. Returns the kept lines,
/// oldest first, and how many entries were dropped.
fn bound_entries(entries: Vec<Entry>, limit: usize) -> (Vec<String>, usize) {
    let total: usize = entries.iter().map(|e| e.len() + 1).sum();
    if total <= limit {
        return (entries.iter().map(Entry::render).collect(), 0);
    }
    let budget = limit.saturating_sub(omitted_marker(entries.len()).len() + 1);
    let mut used = 0;
    let mut kept = Vec::new();
    for entry in entries.iter().rev() {
        if used + entry.len() < budget {
            used += entry.len() + 1;
            kept.push(entry.render());
            continue;
        }
        let room = budget.saturating_sub(entry.label.len() + ELLIPSIS.len() + 1);
        if kept.is_empty() && room > 0 {
            kept.push(format!(
                "{}{ELLIPSIS}{}",
                entry.label,
                text::clip_bytes_end(&entry.body, room)
            ));
        }
        break;
    }
    let omitted = entries.len() - kept.len();
    kept.reverse();
    (kept, omitted)
}

fn render_context(header: &str, lines: &[String], omitted: usize) -> String {
    let mut out = String::from(header);
    if omitted > 0 {
        out.push('\n');
        out.push_str(&omitted_marker(omitted));
    }
    for line in lines {
        out.push('\n');
        out.push_str(line);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------------------------

/// What Cursor receives for one turn, in parts so the worker model line can be taken from the
/// newest turn. [`Prompt::text`] is the exact stdin text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// The framed transcript (header, marker, entries), or `None` when only the newest turn
    /// has something to say.
    pub context: Option<String>,
    /// The newest user turn as Cursor sees it (never cut).
    pub request: String,
    /// Image files written for this prompt (absolute paths, in order of appearance).
    pub images: Vec<PathBuf>,
    /// How many transcript entries were dropped to stay within the limit.
    pub omitted_entries: usize,
}

impl Prompt {
    /// The text sent on the agent's stdin: the request alone, or the context, a blank line,
    /// [`NEW_REQUEST_HEADER`] and the request.
    pub fn text(&self) -> String {
        match &self.context {
            None => self.request.clone(),
            Some(context) => format!("{context}\n\n{NEW_REQUEST_HEADER}\n{}", self.request),
        }
    }

    /// For a worker request only (the caller decides): removes a first line `model: <id>` from
    /// the newest turn and returns the id. The line never reaches Cursor. See
    /// [`take_worker_model_line`].
    pub fn take_worker_model_line(&mut self) -> Option<String> {
        let (id, rest) = take_worker_model_line(&self.request)?;
        self.request = rest;
        Some(id)
    }
}

/// The prompt of a later turn, from [`continuation_prompt`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Continuation {
    /// Cursor's recorded answer was found; the prompt holds everything after it.
    Continue(Prompt),
    /// The recorded answer is no longer in the history: the prompt holds the newest user turn
    /// only, and the caller streams [`OUTER_HISTORY_NOTICE`] to Claude.
    HistoryChanged(Prompt),
}

impl Continuation {
    /// The prompt, whichever case.
    pub fn prompt(&self) -> &Prompt {
        match self {
            Continuation::Continue(p) | Continuation::HistoryChanged(p) => p,
        }
    }

    /// The prompt, by value.
    pub fn into_prompt(self) -> Prompt {
        match self {
            Continuation::Continue(p) | Continuation::HistoryChanged(p) => p,
        }
    }
}

/// The prompt of a Cursor chat's first turn: the conversation before the newest user turn as a
/// bounded transcript (`limit` bytes, usually [`DEFAULT_TRANSCRIPT_LIMIT`]), then the newest
/// user turn; just the turn when nothing came before. Base64 images of the newest turn are
/// written (0600) into `images_dir` (created 0700 when missing).
pub fn first_turn_prompt(
    req: &MessagesRequest,
    limit: usize,
    images_dir: &Path,
) -> Result<Prompt, RequestError> {
    let messages = conversation(req);
    require_user_message(&messages)?;
    let (history, newest) = split_newest(&messages);
    build_prompt(
        FIRST_TURN_HEADER,
        history,
        newest,
        limit,
        images_dir,
        Summary::Keep,
    )
}

/// Whether `text` is Claude Code's record of a local slash command (its caveat, the command,
/// its output), which asks the model nothing.
fn is_local_command_echo(text: &str) -> bool {
    let text = text.trim_start();
    ["<local-command-", "<command-name>", "<command-message>"]
        .iter()
        .any(|tag| text.starts_with(tag))
}

/// What a prompt does with Claude Code's compaction summary in the newest turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Summary {
    /// Sent as written: a new chat knows nothing else of the conversation.
    Keep,
    /// Replaced with [`COMPACTED_NOTE`]: the continuing chat has the history itself.
    Replace,
}

/// The prompt of a later turn of a Cursor chat whose last answer was `recorded_answer` (the
/// concatenated text of the response the gateway sent, compared as [`answer_text`] does). The
/// last assistant message equal to it marks where Cursor left off; everything after it is sent
/// (Claude-model turns included, bounded like a first turn, framed with
/// [`CONTINUATION_HEADER`]). No match → [`Continuation::HistoryChanged`] with the newest user
/// turn only. Nothing new after the match → [`RequestError::NoNewUserMessage`].
pub fn continuation_prompt(
    req: &MessagesRequest,
    recorded_answer: &str,
    limit: usize,
    images_dir: &Path,
) -> Result<Continuation, RequestError> {
    let messages = conversation(req);
    require_user_message(&messages)?;
    let wanted = recorded_answer.trim();
    let found = messages
        .iter()
        .rposition(|m| m.role == Role::Assistant && answer_text(&m.content) == wanted);
    match found {
        Some(index) => {
            let after = &messages[index + 1..];
            let (between, newest) = split_newest(after);
            let prompt = build_prompt(
                CONTINUATION_HEADER,
                between,
                newest,
                limit,
                images_dir,
                Summary::Replace,
            )?;
            Ok(Continuation::Continue(prompt))
        }
        None => {
            let (_, newest) = split_newest(&messages);
            let prompt = build_prompt(
                FIRST_TURN_HEADER,
                &[],
                newest,
                limit,
                images_dir,
                Summary::Replace,
            )?;
            Ok(Continuation::HistoryChanged(prompt))
        }
    }
}

/// An assistant message's answer text as compared with a recorded answer: its text blocks
/// concatenated with no separator, `<system-reminder>`s removed, trimmed at the ends. The turn
/// code records Cursor's answer in the same form.
pub fn answer_text(content: &Content) -> String {
    let joined = match content {
        Content::Text(text) => text.clone(),
        Content::Blocks(blocks) => blocks
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect(),
    };
    strip_system_reminders(&joined).trim().to_string()
}

fn build_prompt(
    header: &str,
    history: &[&Message],
    newest: &[&Message],
    limit: usize,
    images_dir: &Path,
    summary: Summary,
) -> Result<Prompt, RequestError> {
    let mut entries = transcript_entries(history);
    let turn: Vec<(Role, Piece<'_>)> = newest
        .iter()
        .flat_map(|m| pieces(&m.content).into_iter().map(|p| (m.role, p)))
        .collect();
    if turn.is_empty() {
        return Err(RequestError::NoNewUserMessage);
    }
    let has_words = turn
        .iter()
        .any(|(_, p)| matches!(p, Piece::Text(_) | Piece::Image(_)));
    let mut parts = Vec::new();
    let mut images = Vec::new();
    // Whether the summary was replaced, and whether the turn asks anything besides it (Claude
    // Code's echo of a local command such as `/compact` asks nothing).
    let (mut replaced, mut asks) = (false, false);
    for (role, piece) in &turn {
        match piece {
            Piece::Text(text)
                if summary == Summary::Replace
                    && text.trim_start().starts_with(COMPACTED_SUMMARY_PREFIX) =>
            {
                parts.push(COMPACTED_NOTE.to_string());
                replaced = true;
            }
            Piece::Text(text) => {
                asks |= !is_local_command_echo(text);
                parts.push(text.clone());
            }
            Piece::Image(source) => {
                let (reference, file) = image_reference(source, images_dir)?;
                parts.push(format!("[image: {reference}]"));
                images.extend(file);
                asks = true;
            }
            Piece::Document { .. } => return Err(RequestError::Document),
            other if has_words => entries.push(entry(*role, other, NEWEST_TOOL_LINE_LIMIT)),
            other => {
                parts.push(piece_line(other, NEWEST_TOOL_LINE_LIMIT));
                asks = true;
            }
        }
    }
    if replaced && !asks {
        parts.push(COMPACTED_CONTINUE.to_string());
    }
    let (lines, omitted) = bound_entries(entries, limit);
    let context =
        (!lines.is_empty() || omitted > 0).then(|| render_context(header, &lines, omitted));
    Ok(Prompt {
        context,
        request: parts.join("\n\n"),
        images,
        omitted_entries: omitted,
    })
}

// ---------------------------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------------------------

/// How an image of the newest turn is referenced, and the file written for it (if any).
fn image_reference(
    source: &MediaSource,
    images_dir: &Path,
) -> Result<(String, Option<PathBuf>), RequestError> {
    match source {
        MediaSource::Base64 { media_type, data } => {
            let path = save_image(media_type, data, images_dir)?;
            Ok((path.display().to_string(), Some(path)))
        }
        MediaSource::Url { url } => Ok((url.clone(), None)),
        MediaSource::Other { kind, .. } => Err(RequestError::InvalidImage(format!(
            "source type \"{kind}\" is not supported"
        ))),
        MediaSource::Text { .. } | MediaSource::Content { .. } => Err(RequestError::InvalidImage(
            "an image needs a base64 or url source".to_string(),
        )),
    }
}

/// Writes a base64 image as `<images_dir>/<sha256 hex>.<ext>` (0600, atomically; an existing
/// file with that name already holds these bytes) and returns its absolute path.
fn save_image(media_type: &str, data: &str, images_dir: &Path) -> Result<PathBuf, RequestError> {
    let bytes = decode_base64(data).map_err(RequestError::InvalidImage)?;
    if bytes.is_empty() {
        return Err(RequestError::InvalidImage("the image is empty".to_string()));
    }
    state::ensure_private_dir(images_dir).map_err(RequestError::ImageWrite)?;
    let dir = std::path::absolute(images_dir).map_err(|source| {
        RequestError::ImageWrite(StateError::Io {
            path: images_dir.to_path_buf(),
            source,
        })
    })?;
    let name = format!(
        "{}.{}",
        hex::encode(Sha256::digest(&bytes)),
        image_extension(media_type)
    );
    let path = dir.join(name);
    if !path.is_file() {
        state::write_private_atomic(&path, &bytes).map_err(RequestError::ImageWrite)?;
    }
    Ok(path)
}

/// File extension for an image media type (`image/png` → `png`); `bin` when unknown.
fn image_extension(media_type: &str) -> String {
    let subtype = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let subtype = subtype.strip_prefix("image/").unwrap_or("");
    match subtype {
        "jpeg" | "jpg" | "pjpeg" => "jpg".to_string(),
        "svg+xml" => "svg".to_string(),
        s if !s.is_empty() && s.len() <= 8 && s.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            s.to_string()
        }
        _ => "bin".to_string(),
    }
}

/// Decodes standard or URL-safe base64, ignoring whitespace; padding is optional.
fn decode_base64(input: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    let mut padded = false;
    for (index, byte) in input.bytes().enumerate() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => {
                padded = true;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return Err(format!("invalid base64 character at byte {index}")),
        };
        if padded {
            return Err("base64 data continues after its padding".to_string());
        }
        acc = (acc << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err("base64 data is truncated".to_string());
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Worker model line and detection helpers
// ---------------------------------------------------------------------------------------------

/// Splits a worker's `model: <id>` first line off `text` (the newest user turn's text): leading
/// blank lines are skipped, the key is case-insensitive, spaces around the key, colon and id are
/// tolerated, and the id is one word. Returns `(id, rest)` with the rest's leading line breaks
/// removed; `None` when the first line is anything else. Only for worker requests (the caller
/// decides); the line never reaches Cursor.
pub fn take_worker_model_line(text: &str) -> Option<(String, String)> {
    let mut body = text;
    while let Some((line, rest)) = body.split_once('\n') {
        if !line.trim().is_empty() {
            break;
        }
        body = rest;
    }
    let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
    let (key, value) = first.split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("model") {
        return None;
    }
    let id = value.trim();
    if id.is_empty() || id.contains(char::is_whitespace) {
        return None;
    }
    Some((
        id.to_string(),
        rest.trim_start_matches(['\n', '\r']).to_string(),
    ))
}

/// Whether the request comes from a Claude Code subagent (a worker): the first `system` block's
/// text ends with [`SUBAGENT_MARKER`]. Used with (not instead of) the `x-claude-code-agent-id`
/// header when deciding the identity.
pub fn is_subagent(req: &MessagesRequest) -> bool {
    let first = match &req.system {
        Some(Content::Blocks(blocks)) => match blocks.first() {
            Some(ContentBlock::Text { text }) => text.as_str(),
            _ => return false,
        },
        Some(Content::Text(text)) => text.lines().next().unwrap_or_default(),
        None => return false,
    };
    first.trim_end().ends_with(SUBAGENT_MARKER)
}

/// Whether the request is Claude Code's `/compact` summary request: the last user message's
/// text (reminders removed) begins with [`COMPACTION_PREFIX`].
pub fn is_compaction_request(req: &MessagesRequest) -> bool {
    let Some(last_user) = req.messages.iter().rev().find(|m| m.role == Role::User) else {
        return false;
    };
    pieces(&last_user.content)
        .iter()
        .find_map(|p| match p {
            Piece::Text(text) => Some(text.trim_start().starts_with(COMPACTION_PREFIX)),
            _ => None,
        })
        .unwrap_or(false)
}

/// The name of this plugin's slash command the newest user turn runs, e.g. `login` for
/// `<command-name>/multi-cursor:login</command-name>`; used to answer plugin commands without
/// running Cursor.
pub fn plugin_command(req: &MessagesRequest) -> Option<String> {
    let messages = conversation(req);
    let (_, newest) = split_newest(&messages);
    newest.iter().find_map(|m| match &m.content {
        Content::Text(text) => command_name(text),
        Content::Blocks(blocks) => blocks.iter().find_map(|b| match b {
            ContentBlock::Text { text } => command_name(text),
            _ => None,
        }),
    })
}

fn command_name(text: &str) -> Option<String> {
    const OPEN: &str = "<command-name>";
    const CLOSE: &str = "</command-name>";
    let start = text.find(OPEN)? + OPEN.len();
    let inner = &text[start..];
    let inner = &inner[..inner.find(CLOSE)?];
    let inner = inner.trim();
    let name = inner
        .strip_prefix('/')
        .unwrap_or(inner)
        .strip_prefix(PLUGIN_COMMAND_NAMESPACE)?
        .trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The Claude session id in `metadata.user_id` (a JSON string holding `session_id`; an object
/// is accepted too). Used when the `X-Claude-Code-Session-Id` header is missing.
pub fn session_id_from_metadata(req: &MessagesRequest) -> Option<String> {
    let user_id = req.metadata.as_ref()?.user_id.as_ref()?;
    let parsed;
    let object = match user_id {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).ok()?;
            &parsed
        }
        other => other,
    };
    object
        .get("session_id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

// ---------------------------------------------------------------------------------------------
// Estimates and digests
// ---------------------------------------------------------------------------------------------

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_known_vectors() {
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("Zg==").unwrap(), b"f");
        assert_eq!(decode_base64("Zm8=").unwrap(), b"fo");
        assert_eq!(decode_base64("Zm9v").unwrap(), b"foo");
        assert_eq!(decode_base64("Zm9vYg").unwrap(), b"foob");
        assert_eq!(decode_base64("Zm9v\nYmFy").unwrap(), b"foobar");
        assert!(decode_base64("Z").is_err());
        assert!(decode_base64("Zm9v!").is_err());
        assert!(decode_base64("Zg==Zg").is_err());
    }

    #[test]
    fn reminders_are_removed_and_words_kept() {
        assert_eq!(strip_system_reminders("plain  text "), "plain  text ");
        assert_eq!(
            strip_system_reminders("<system-reminder>\nx\n</system-reminder>\nhi"),
            "hi"
        );
        assert_eq!(
            strip_system_reminders("a\n<system-reminder>x</system-reminder>\nb"),
            "a\nb"
        );
        assert_eq!(
            strip_system_reminders("report\n\n<system-reminder>x</system-reminder>"),
            "report"
        );
        assert_eq!(
            strip_system_reminders("keep <system-reminder> unclosed"),
            "keep <system-reminder> unclosed"
        );
    }

    #[test]
    fn image_extensions() {
        assert_eq!(image_extension("image/png"), "png");
        assert_eq!(image_extension("image/jpeg"), "jpg");
        assert_eq!(image_extension("image/svg+xml"), "svg");
        assert_eq!(image_extension("text/plain"), "bin");
    }

    #[test]
    fn oversized_newest_entry_keeps_its_tail() {
        let entries = vec![
            Entry {
                label: "User: ",
                body: "old".to_string(),
            },
            Entry {
                label: "Assistant: ",
                body: "x".repeat(300) + "END",
            },
        ];
        let (lines, omitted) = bound_entries(entries, 200);
        assert_eq!(omitted, 1);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("Assistant: …x"));
        assert!(lines[0].ends_with("END"));
        assert!(lines[0].len() + 1 + omitted_marker(1).len() < 200);
    }
}
