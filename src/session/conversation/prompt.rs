//! What Cursor receives for a turn: the newest user turn alone, or a transcript framed by a
//! header and `New request:`; for a chat that continues, only what happened since Cursor's
//! recorded answer.

use std::path::Path;
use std::path::PathBuf;

use super::COMPACTED_CONTINUE;
use super::COMPACTED_NOTE;
use super::COMPACTED_SUMMARY_PREFIX;
use super::CONTINUATION_HEADER;
use super::FIRST_TURN_HEADER;
use super::NEW_REQUEST_HEADER;
use super::NEWEST_TOOL_LINE_LIMIT;
use super::RequestError;
use super::classify::take_worker_model_line;
use super::clean::Piece;
use super::clean::conversation;
use super::clean::piece_line;
use super::clean::pieces;
use super::clean::split_newest;
use super::clean::strip_system_reminders;
use super::images::image_reference;
use super::transcript::bound_entries;
use super::transcript::entry;
use super::transcript::render_context;
use super::transcript::transcript_entries;
use super::validate::require_user_message;
use crate::anthropic::request::Content;
use crate::anthropic::request::Message;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;

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
    /// `NEW_REQUEST_HEADER` and the request.
    pub fn text(&self) -> String {
        match &self.context {
            None => self.request.clone(),
            Some(context) => format!("{context}\n\n{NEW_REQUEST_HEADER}\n{}", self.request),
        }
    }

    /// For a worker request only (the caller decides): removes a first line `model: <id>` from
    /// the newest turn and returns the id. The line never reaches Cursor. See
    /// `take_worker_model_line`.
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
    /// only, and the caller streams [`OUTER_HISTORY_NOTICE`](super::OUTER_HISTORY_NOTICE) to Claude.
    HistoryChanged(Prompt),
}

impl Continuation {}

/// The prompt of a Cursor chat's first turn: the conversation before the newest user turn as a
/// bounded transcript (`limit` bytes, usually [`DEFAULT_TRANSCRIPT_LIMIT`](super::DEFAULT_TRANSCRIPT_LIMIT)), then the newest
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
    strip_system_reminders(&content.texts().concat())
        .trim()
        .to_string()
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
