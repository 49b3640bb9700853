//! The bounded transcript: one entry per piece, oldest first, the newest kept within the limit.

use super::TOOL_LINE_LIMIT;
use super::clean::Piece;
use super::clean::piece_line;
use super::clean::pieces;
use crate::anthropic::request::Message;
use crate::anthropic::request::Role;
use crate::text;
use crate::text::ELLIPSIS;

/// One transcript entry: a label (`User: `, `Assistant: ` or nothing) and its body.
pub(super) struct Entry {
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

pub(super) fn label(role: Role) -> &'static str {
    match role {
        Role::Assistant => "Assistant: ",
        _ => "User: ",
    }
}

pub(super) fn entry(role: Role, piece: &Piece<'_>, limit: usize) -> Entry {
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

pub(super) fn transcript_entries(messages: &[&Message]) -> Vec<Entry> {
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
pub(crate) fn omitted_marker(omitted: usize) -> String {
    format!("[older turns omitted: {omitted} entries did not fit the transcript limit]")
}

/// Keeps the newest entries whose lines (each plus a newline, and the marker when needed) fit
/// in `limit` bytes. When not even the newest fits, its tail is kept. Returns the kept lines,
/// oldest first, and how many entries were dropped.
pub(super) fn bound_entries(entries: Vec<Entry>, limit: usize) -> (Vec<String>, usize) {
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

pub(super) fn render_context(header: &str, lines: &[String], omitted: usize) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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
