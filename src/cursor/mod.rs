//! Everything that talks to Cursor's agent CLI: locating it, building a turn's invocation,
//! supervising the child, parsing its stream-json, the model catalog, login and status.

pub mod account;
pub mod catalog;
pub(crate) mod child_env;
pub mod command;
pub mod events;
pub mod failure;
pub mod locate;
pub mod process;
pub(crate) mod sanitize;
pub(crate) mod spawn;
pub mod stream;

use thiserror::Error;

/// `text` on one line (whitespace runs become one space) and at most `max` characters, with
/// `…` when cut: words the CLI said, quoted in a message.
pub(crate) fn bounded_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

/// A failure the agent CLI reports as plain text (not JSON) on stdout or stderr. Each carries the
/// CLI's own words so the user sees exactly what Cursor said.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CliFailure {
    /// `Error: Authentication required. Run 'agent login', …`
    #[error(
        "Cursor is not logged in: run `multi-cursor --cursor-login` in a terminal or /multi-cursor:login in Claude Code (or set CURSOR_API_KEY), then try again (Cursor said: “{0}”)"
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
