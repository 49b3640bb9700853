//! The dialog an answer opened and the session waits on, kept in the session's record (so a
//! restarted gateway still knows what the user's pick answers).

use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

/// A dialog waiting for the user's pick, by the `tool_use` id whose result answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum PendingDialog {
    /// The plan file's `Write` was sent; its result is answered with `ExitPlanMode`
    /// (`exit_id`), nothing run.
    #[serde(rename_all = "camelCase")]
    PlanWrite {
        write_id: String,
        exit_id: String,
        plan_file: PathBuf,
    },
    /// "Ready to code?" is open: approval carries the plan out, words revise it.
    #[serde(rename_all = "camelCase")]
    PlanApproval {
        write_id: String,
        exit_id: String,
        plan_file: PathBuf,
    },
    /// The question dialog asks whether to allow an action Cursor's allowlist refused.
    #[serde(rename_all = "camelCase")]
    Allow {
        ask_id: String,
        /// The dialog's question, exactly (the pick is read against it).
        question: String,
        /// What was refused, one line.
        what: String,
        /// The permission token that allows it.
        token: String,
    },
    /// The question dialog is open.
    #[serde(rename_all = "camelCase")]
    Question {
        ask_id: String,
        /// Cursor's questions the dialog could not hold (said in words beside it).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        left_out: Vec<String>,
    },
}

impl PendingDialog {
    /// The `tool_use` id whose result answers the dialog.
    pub(crate) fn answered_by(&self) -> &str {
        match self {
            PendingDialog::PlanWrite { write_id, .. } => write_id,
            PendingDialog::PlanApproval { exit_id, .. } => exit_id,
            PendingDialog::Question { ask_id, .. } | PendingDialog::Allow { ask_id, .. } => ask_id,
        }
    }
}
