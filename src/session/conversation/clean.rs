//! The parts of a conversation Cursor may hear about: `user` and `assistant` messages, their
//! pieces in order, with Claude Code's `<system-reminder>` context removed, and the one-line
//! form of a piece.

use serde_json::Value;

use super::REMINDER_CLOSE;
use super::REMINDER_OPEN;
use super::TASK_NOTIFICATION;
use super::TOOL_LINE_LIMIT;
use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::MediaSource;
use crate::anthropic::request::Message;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;
use crate::text;

/// Removes every complete `<system-reminder>…</system-reminder>` segment from `text` (Claude
/// Code's context, not the user's words), with the line breaks that follow it; when anything was
/// removed, the result is trimmed at the ends. A reminder holding a `<task-notification>` keeps
/// its inner text. Text without reminders is returned unchanged.
pub(crate) fn strip_system_reminders(text: &str) -> String {
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
/// roles dropped, and so are the gateway's answers to bash mode, [`super::BASH_MODE_NOTE`]).
pub(super) fn conversation(req: &MessagesRequest) -> Vec<&Message> {
    req.messages
        .iter()
        .filter(|m| match m.role {
            Role::User => true,
            // The gateway's answer to bash mode is not Cursor's: without it, the command and
            // its output join the next user turn and reach Cursor with it.
            Role::Assistant => super::answer_text(&m.content) != super::BASH_MODE_NOTE,
            _ => false,
        })
        .collect()
}

/// Splits at the last assistant message: (everything up to and including it, the newest user
/// turn after it).
pub(super) fn split_newest<'m, 'r>(
    messages: &'m [&'r Message],
) -> (&'m [&'r Message], &'m [&'r Message]) {
    match messages.iter().rposition(|m| m.role == Role::Assistant) {
        Some(last) => messages.split_at(last + 1),
        None => (&[], messages),
    }
}

/// One cleaned piece of a message, in order.
pub(super) enum Piece<'a> {
    Text(String),
    ToolCall { name: &'a str, input: &'a Value },
    ToolResult { text: String, is_error: bool },
    Image(&'a MediaSource),
    Document { title: Option<&'a str> },
    ServerTool { kind: &'a str, raw: &'a Value },
}

pub(super) fn pieces(content: &Content) -> Vec<Piece<'_>> {
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

/// The one-line form of a non-text piece, its payload bounded to `limit` bytes.
pub(super) fn piece_line(piece: &Piece<'_>, limit: usize) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
