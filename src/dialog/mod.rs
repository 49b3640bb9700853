//! Cursor works *with* the user through Claude Code's own dialogs, on a Cursor route's main
//! thread: its plan goes to Claude Code's plan approval ("Ready to code?") and its questions to
//! Claude Code's question dialog, and the user's pick resumes the same Cursor chat.
//!
//! Cursor's print mode cannot ask anyone: it rejects its own questions ("Questions skipped by
//! the user, …") and ends a plan-mode run with the plan. An answer of ours can instead end with
//! one `tool_use` of Claude Code's dialogs, which Claude Code shows at once (measured on Claude
//! Code 2.1.332, see `docs/claude-code-facts.md`):
//!
//! - **Plans.** In plan mode Claude Code reads the plan from the plan file its plan-mode
//!   instructions name, so the plan-mode turn ends with a `Write` of exactly that file (no prompt
//!   in plan mode); the answer to the `Write`'s result is `ExitPlanMode` with `{}` (answered
//!   here, nothing runs), which opens "Ready to code?". "Yes" resumes the chat under the mode
//!   the user picked (a `PostToolUse` hook on `ExitPlanMode` tells the gateway) to carry out the
//!   plan; "Tell Claude what to change" resumes it in plan mode with the user's words.
//! - **Questions.** A turn in which Cursor asked ends with `AskUserQuestion` holding Cursor's
//!   questions within the dialog's limits; the pick resumes the chat.
//!
//! Anything that is not a clear pick (Esc, an interrupt, a timeout, a validation error, a crash's
//! interrupted result) is a "no": the pending dialog is dropped and Cursor reads what the user
//! sends next. The pending dialog is part of the session's record (`pending::PendingDialog`),
//! so a gateway restarted between the dialog and its answer still resumes. Where Claude Code
//! has no dialog (`-p`, stream-json, workers) the answer says the same in words.
//!
//! [`surface`] decides what a request can open, [`material`] collects what Cursor asked during a
//! run, [`offer`] turns it into the `tool_use` (the only `tool_use`s the gateway ever writes,
//! typed by `DialogTool`), `answer` reads the user's pick back.

pub(crate) mod answer;
pub mod material;
pub(crate) mod naming;
pub mod offer;
pub(crate) mod pending;
pub mod surface;

use serde::Deserialize;
use serde::Serialize;
use sha2::Digest;
use sha2::Sha256;

/// The only tools an answer of this gateway may call: Claude Code's two dialogs, and the
/// `Write` of the plan file that plan approval reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum DialogTool {
    /// Claude Code's question dialog.
    AskUserQuestion,
    /// Claude Code's plan approval ("Ready to code?").
    ExitPlanMode,
    /// The plan file, written before `ExitPlanMode` (plan mode writes it without a prompt).
    Write,
}

impl DialogTool {
    /// The tool's name in Claude Code's `tools`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            DialogTool::AskUserQuestion => "AskUserQuestion",
            DialogTool::ExitPlanMode => "ExitPlanMode",
            DialogTool::Write => "Write",
        }
    }
}

/// A `tool_use` id (`toolu_` and 24 hex digits) derived from what it asks: a re-sent request,
/// and a gateway restarted in between, give the same id.
pub(crate) fn tool_use_id(parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    format!("toolu_mc{}", hex::encode(&hash.finalize()[..12]))
}
