//! Why a Cursor turn failed ([`TurnError`]) and the failure every request joined to it gets
//! ([`TurnFailure`]).

use std::sync::Arc;

use thiserror::Error;

use crate::cursor::CliFailure;
use crate::cursor::failure::RunFailure;
use crate::cursor::failure::classify_plain_text;
use crate::cursor::locate::install_hint;
use crate::cursor::process::RunError;

/// Why a Cursor turn failed; its message says what happened and what to do. The gateway maps
/// each case to its HTTP status and Anthropic error type (`gateway::error`).
#[derive(Debug, Error)]
pub enum TurnError {
    /// The agent could not be started (not installed, not executable).
    #[error("{}; {}", .0, install_hint())]
    Spawn(RunError),
    /// The CLI reported a failure it has words for: logged out, rate limited, an unknown
    /// model, an untrusted workspace.
    #[error("{}", cli_failure_message(.0))]
    Cli(CliFailure),
    /// The run ended without a `result`: its failure in Cursor's words, with its own status
    /// and what it may have done to the workspace.
    #[error("{0}")]
    Failed(RunFailure),
    /// The run was cancelled.
    #[error("{0}")]
    Cancelled(RunError),
    /// The run failed after Cursor may have acted.
    #[error(
        "{0}. Cursor may have changed files before it stopped; check your workspace before retrying."
    )]
    Run(RunError),
    /// Cursor's `result` reported an error of no known kind (its text).
    #[error("Cursor reported an error: {0}")]
    Reported(String),
    /// The record keeper went away (or could not record the turn) before the prompt was given.
    #[error("the Cursor turn was stopped before it started")]
    StoppedBeforeStart,
    /// The turn was cancelled (the client left) while Cursor ran.
    #[error("the Cursor run was cancelled before it finished")]
    CancelledBeforeFinish,
    /// Cursor would not resume the recorded chat, and the fresh chat tried instead failed too.
    #[error("Cursor could not resume its earlier conversation, and a fresh chat was already tried")]
    FreshChatFailed,
    /// The agent's output ended without a `result`.
    #[error("Cursor ended without a result; its work may be incomplete")]
    NoResult,
}

/// A failed turn as its waiting requests and its record see it: why it failed and, when Cursor
/// ran something first, what (the closing summary on one line), so the user learns what
/// changed even though the answer is not shown. Cheap to clone: every request joined to the
/// turn gets the same failure.
#[derive(Debug, Clone)]
pub struct TurnFailure {
    /// Why the turn failed (its case decides the HTTP status in the gateway).
    pub error: Arc<TurnError>,
    /// What Cursor ran before it stopped ([`TurnDisplay::summary_sentence`](crate::display::TurnDisplay::summary_sentence)).
    pub summary: Option<String>,
}

impl std::fmt::Display for TurnFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.error)?;
        if let Some(summary) = &self.summary {
            write!(f, " Before it stopped, Cursor ran {summary}")?;
        }
        Ok(())
    }
}

impl std::error::Error for TurnFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.error.as_ref())
    }
}

impl From<RunError> for TurnError {
    fn from(error: RunError) -> Self {
        match error {
            RunError::Spawn { .. } => TurnError::Spawn(error),
            RunError::Failed(failure) => TurnError::Failed(failure),
            RunError::Cancelled => TurnError::Cancelled(error),
            RunError::Stalled { .. }
            | RunError::NoFirstEvent { .. }
            | RunError::OutputTooLarge { .. }
            | RunError::Stream(_)
            | RunError::Io(_) => TurnError::Run(error),
        }
    }
}

impl TurnError {
    /// A `result` that reported an error: its text classified like a plain-text CLI failure.
    pub(crate) fn reported(text: &str) -> Self {
        match classify_plain_text(text) {
            Some(failure) => TurnError::Cli(failure),
            None => TurnError::Reported(text.to_string()),
        }
    }
}

/// The agent's exit code when a failure carries one.
pub(super) fn exit_code(error: &TurnError) -> Option<i32> {
    match error {
        TurnError::Failed(
            RunFailure::Killed {
                exit: crate::cursor::failure::Exit::Code(code),
                ..
            }
            | RunFailure::Other {
                exit: crate::cursor::failure::Exit::Code(code),
                ..
            },
        ) => Some(*code),
        _ => None,
    }
}

/// A CLI failure's message with the fix for the failures the user can fix here.
fn cli_failure_message(failure: &CliFailure) -> String {
    match failure {
        CliFailure::AuthRequired(_) | CliFailure::RateLimited(_) => failure.to_string(),
        CliFailure::BadModel(_) => {
            format!("{failure}. Pick a model from `multi-cursor --cursor-models`.")
        }
        CliFailure::WorkspaceTrust(_) => {
            format!("{failure}. Run `agent` once in this folder and trust it.")
        }
    }
}
