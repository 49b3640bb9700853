//! Reading an Anthropic Messages request and deciding what text Cursor receives.
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
//! - The marker line (`omitted_marker`) appears only when older entries were dropped.
//! - Entries, oldest first, one per piece: `User: <text>`, `Assistant: <text>` (text may span
//!   lines), `User: [image]`, `User: [document]`, `[tool <name>: <input JSON>]`,
//!   `[tool result: <one line>]`, `[tool error: <one line>]`,
//!   `[server tool <type>: <JSON>]`. Tool lines are bounded to `TOOL_LINE_LIMIT` bytes of
//!   payload and end with `…` when cut. Thinking blocks are not sent.
//! - Tool results inside the newest user turn are context: they become the newest entries,
//!   bounded to `NEWEST_TOOL_LINE_LIMIT`. (When the newest turn holds nothing but tool
//!   results, their lines are the new request.)
//! - The entries and the marker together stay within the limit (64 KiB by default,
//!   [`DEFAULT_TRANSCRIPT_LIMIT`]); the newest are kept. The new request is never cut.
//! - The new request (`New request:` then the turn) is the user content after the last
//!   assistant message, which may span several user messages. Base64 images in it are written
//!   to files named by their sha256 and referenced as `[image: /abs/path.png]`; URL images as
//!   `[image: https://…]`.

pub(crate) mod classify;
mod clean;
pub(crate) mod digest;
mod images;
mod prompt;
pub(crate) mod transcript;
mod validate;

#[cfg(test)]
mod tests;

use thiserror::Error;

use crate::anthropic;
use crate::anthropic::request::MESSAGE_THREADS_BETA;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::ParseError;
use crate::state::StateError;

pub(crate) use classify::BASH_MODE_NOTE;
pub(crate) use classify::is_bash_mode_only;
pub use classify::is_compaction_request;
pub use classify::is_subagent;
pub use classify::plugin_command;
pub use classify::session_id_from_metadata;
pub(crate) use clean::strip_system_reminders;
pub use digest::estimate_tokens;
pub use digest::exchange_body_digest_bytes;
pub use prompt::Continuation;
pub use prompt::Prompt;
pub use prompt::answer_text;
pub use prompt::continuation_prompt;
pub use prompt::first_turn_prompt;
pub use validate::validate_for_cursor;

/// Default bound of the transcript part of a prompt, in bytes.
pub const DEFAULT_TRANSCRIPT_LIMIT: usize = 64 * 1024;

/// Bound of the payload of one tool line in a transcript (the input JSON of a call, the text of
/// a result), in bytes.
pub(crate) const TOOL_LINE_LIMIT: usize = 400;

/// Bound of the payload of a tool-result line from the newest user turn (a worker's hand-back
/// report, say), in bytes: it is what the new request is about, so it gets more room.
pub(crate) const NEWEST_TOOL_LINE_LIMIT: usize = 8 * 1024;

/// First line of a first turn's framing, and of a turn sent after the outer history changed.
pub const FIRST_TURN_HEADER: &str =
    "Conversation so far (context; actions in it are already done — do not repeat them):";

/// First line of a later turn's framing: what happened after Cursor's recorded answer.
pub const CONTINUATION_HEADER: &str = "Conversation since your last answer (context; actions in it are already done — do not repeat them):";

/// The line that introduces the newest user turn after a transcript.
pub(crate) const NEW_REQUEST_HEADER: &str = "New request:";

/// Streamed to Claude (and not sent to Cursor) when Cursor's recorded answer is no longer in the
/// conversation Claude Code sends: the native chat keeps its own record.
pub const OUTER_HISTORY_NOTICE: &str =
    "[Cursor] Outer history changed; the native conversation continues with its own record.";

/// How Claude Code's message carrying a compaction summary begins (measured on 2.1.328): after
/// `/compact` or an automatic compaction it opens the conversation it sends.
pub(crate) const COMPACTED_SUMMARY_PREFIX: &str =
    "This session is being continued from a previous conversation that ran out of context.";

/// What a Cursor chat that continues gets instead of Claude Code's compaction summary: its own
/// history is intact, so the summary (and Claude Code's instructions around it) would only
/// repeat it.
pub const COMPACTED_NOTE: &str = "[multi-cursor] Claude Code compacted its copy of this conversation into a summary; this chat still holds the full history.";

/// The request of a continuing chat whose newest turn was only Claude Code's compaction summary
/// (an automatic compaction in the middle of a task).
pub(crate) const COMPACTED_CONTINUE: &str = "Continue the task where you left off.";

/// How the last user message of a `/compact` request begins (measured on Claude Code 2.1.328).
pub(crate) const COMPACTION_PREFIX: &str =
    "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.";

/// How the first `system` block of a subagent (worker) request ends (measured on Claude Code
/// 2.1.328).
pub(crate) const SUBAGENT_MARKER: &str = "cc_is_subagent=true;";

/// Namespace of this plugin's slash commands as Claude Code writes them in `<command-name>`.
pub(crate) const PLUGIN_COMMAND_NAMESPACE: &str = "multi-cursor:";

/// Tokens counted for each image by [`estimate_tokens`].
pub(crate) const IMAGE_TOKEN_ESTIMATE: u64 = 1_600;

const REMINDER_OPEN: &str = "<system-reminder>";
const REMINDER_CLOSE: &str = "</system-reminder>";
const TASK_NOTIFICATION: &str = "<task-notification>";

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a request cannot be answered by Cursor. Every message starts `multi-cursor:` and says
/// what to do; the gateway sends it as an Anthropic error (`gateway::error` has its status).
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
    /// `safeguards` asks for more checks than
    /// `MAX_SAFEGUARDS`.
    #[error(
        "multi-cursor: the request asks for {count} action checks in `safeguards`; a Cursor route answers at most {limit} (Claude Code asks for one). Send at most {limit}"
    )]
    TooManySafeguards { count: usize, limit: usize },
    /// A `thread` that continues a server-side thread: the request may hold only the newest
    /// messages, and Cursor never runs on part of a conversation. The message is the exact
    /// token Claude Code matches to send the turn again with its whole history (nothing else
    /// may be in it).
    #[error("capability_rejected: beta_header:{MESSAGE_THREADS_BETA}")]
    ThreadContinuation,
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
