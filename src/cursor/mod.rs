//! Everything that talks to Cursor's agent CLI: locating it, building a turn's invocation,
//! supervising the child, parsing its stream-json, the model catalog, login and status.

pub mod account;
pub mod catalog;
pub mod child_env;
pub mod command;
pub mod events;
pub mod failure;
pub mod locate;
pub mod process;
pub mod sanitize;
pub mod spawn;
pub mod stream;

use std::borrow::Cow;

use thiserror::Error;

/// `text` cut to at most `limit` bytes on a char boundary, with `…` when cut.
pub fn bounded(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// `text` on one line (whitespace runs become one space) and at most `max` characters, with
/// `…` when cut: words the CLI said, quoted in a message.
pub fn bounded_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

/// Removes ANSI escape sequences (SGR colours and other CSI, OSC, two-byte escapes). The CLI
/// colours its human output (`--list-models`, `status`, plain-text errors) even on a pipe.
pub fn strip_ansi(text: &str) -> Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters and intermediates, then one final byte in '@'..='~'.
            Some('[') => {
                chars.by_ref().find(|c| ('@'..='~').contains(c));
            }
            // OSC: until BEL or ESC '\'.
            Some(']') => {
                while let Some(tail) = chars.next() {
                    if tail == '\u{7}' || (tail == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            // Any other escape is two characters long.
            _ => {}
        }
    }
    Cow::Owned(out)
}

/// A failure the agent CLI reports as plain text (not JSON) on stdout or stderr. Each carries the
/// CLI's own words so the user sees exactly what Cursor said.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CliFailure {
    /// `Error: Authentication required. Run 'agent login', …`
    #[error(
        "Cursor is not logged in: {0} (run `multi-cursor --cursor-login`, or set CURSOR_API_KEY)"
    )]
    AuthRequired(String),
    /// `Cannot use this model: <id>. Available models: …`
    #[error("Cursor refused the model: {0}")]
    BadModel(String),
    /// The workspace-trust gate (`⚠ Workspace Trust Required …`).
    #[error("Cursor asked to trust the workspace: {0}")]
    WorkspaceTrust(String),
    /// `Rate limit exceeded, try again later` and similar wording.
    #[error("Cursor rate limit: {0}")]
    RateLimited(String),
}
