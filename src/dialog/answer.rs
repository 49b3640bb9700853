//! The user's pick, read from the `tool_result` Claude Code sends for a dialog (measured on
//! Claude Code 2.1.332; the result's `content` is a string):
//!
//! - the plan file's `Write`: `File created successfully at: …` (or `The file … has been
//!   updated`), no `is_error`;
//! - "Ready to code?", any "Yes": `User has approved your plan. …` with no `is_error` (the
//!   mode picked reaches the gateway through the `PostToolUse` hook, not here); Shift+Tab on
//!   typed words adds them as a text block beside the result;
//! - "Tell Claude what to change": `is_error`, `… To tell you how to proceed, the user
//!   said:\n<words>`;
//! - the question dialog: `Your questions have been answered: "<q>"="<label>". …` (a pick) or
//!   `The user answered: …` (free text);
//! - anything else — Esc's `STOP what you are doing…`, an idle dialog's `No response after …`,
//!   `InputValidationError`, a crash's `[Tool call interrupted…]`, "Chat about this" — is no
//!   pick.

use super::pending::PendingDialog;
use crate::anthropic::request::Content;
use crate::anthropic::request::ContentBlock;
use crate::anthropic::request::Message;
use crate::anthropic::request::MessagesRequest;
use crate::anthropic::request::Role;

/// How the approved-plan result begins.
pub(crate) const PLAN_APPROVED: &str = "User has approved your plan.";
/// How the result of approving an empty plan begins.
pub(crate) const EXIT_APPROVED: &str = "User has approved exiting plan mode.";
/// What comes before the user's words in a rejected tool's result.
pub(crate) const USER_SAID: &str = "To tell you how to proceed, the user said:\n";
/// How long an allowed action stays allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AllowScope {
    /// For the one resumed run; the file is put back after it.
    Once,
    /// For good, in the workspace's `.cursor/cli.json`.
    Workspace,
}

/// The options of the dialog that allows a refused action, in order.
pub(crate) const ALLOW_ONCE: &str = "Allow once";
/// See [`ALLOW_ONCE`].
pub(crate) const ALLOW_WORKSPACE: &str = "Allow in this workspace";
/// See [`ALLOW_ONCE`].
pub(crate) const DO_NOT_ALLOW: &str = "No";

/// How a question dialog's pick begins.
pub(crate) const QUESTIONS_ANSWERED: &str = "Your questions have been answered:";
/// How a question dialog's free-text answer begins.
pub(crate) const USER_ANSWERED: &str = "The user answered:";

/// What the user did with a pending dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DialogAnswer {
    /// The plan file was written: open "Ready to code?".
    PlanWritten,
    /// The plan was approved, with words typed beside the approval.
    PlanApproved { added: Option<String> },
    /// The user wants the plan changed: their words.
    PlanChanges(String),
    /// The question dialog's answer, in Claude Code's words (a pick, or free text).
    Answered(String),
    /// A refused action allowed by the user's pick: for one run, or in this workspace.
    Allowed(AllowScope),
    /// "No" picked for a refused action.
    NotAllowed,
    /// No pick: the dialog was closed, timed out, refused or lost. Cursor reads what the user
    /// sends next, as any message.
    Declined,
}

/// The user's answer to `pending` in the request's newest user turn; `None` when the turn
/// carries no result for it (the conversation moved on without it).
pub(crate) fn read(request: &MessagesRequest, pending: &PendingDialog) -> Option<DialogAnswer> {
    let newest = newest_turn(request);
    let result_of = |id: &str| {
        newest
            .iter()
            .filter_map(|message| match &message.content {
                Content::Blocks(blocks) => Some(blocks),
                Content::Text(_) => None,
            })
            .flatten()
            .find_map(|block| match block {
                ContentBlock::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                } if tool_use_id == id => Some((content.texts().join("\n"), *is_error)),
                _ => None,
            })
    };
    let Some((content, is_error)) = result_of(pending.answered_by()) else {
        // The plan file's `Write` result sent again after "Ready to code?" was opened for it
        // (a re-sent request): it opens the same dialog again.
        if let PendingDialog::PlanApproval { write_id, .. } = pending {
            let (content, is_error) = result_of(write_id)?;
            return Some(written(&content, is_error));
        }
        return None;
    };
    let trimmed = content.trim_start();
    Some(match pending {
        PendingDialog::PlanWrite { .. } => written(&content, is_error),
        PendingDialog::PlanApproval { .. } => {
            if !is_error
                && (trimmed.starts_with(PLAN_APPROVED) || trimmed.starts_with(EXIT_APPROVED))
            {
                let added: Vec<&str> = newest
                    .iter()
                    .flat_map(|message| message.content.texts())
                    .map(str::trim)
                    .filter(|text| !text.is_empty())
                    .collect();
                DialogAnswer::PlanApproved {
                    added: (!added.is_empty()).then(|| added.join("\n")),
                }
            } else if is_error
                && let Some(at) = content.find(USER_SAID)
                && !content[at + USER_SAID.len()..].trim().is_empty()
            {
                DialogAnswer::PlanChanges(content[at + USER_SAID.len()..].trim().to_string())
            } else {
                DialogAnswer::Declined
            }
        }
        PendingDialog::Allow { question, .. } => {
            // Only Claude Code's own words for a pick of one of our labels count, read against
            // the exact question: typed words, whatever they say, allow nothing.
            let picked = |label: &str| {
                !is_error
                    && trimmed.starts_with(&format!(
                        "{QUESTIONS_ANSWERED} \"{question}\"=\"{label}\". "
                    ))
            };
            if picked(ALLOW_ONCE) {
                DialogAnswer::Allowed(AllowScope::Once)
            } else if picked(ALLOW_WORKSPACE) {
                DialogAnswer::Allowed(AllowScope::Workspace)
            } else if picked(DO_NOT_ALLOW) {
                DialogAnswer::NotAllowed
            } else if !is_error && trimmed.starts_with(USER_ANSWERED) {
                DialogAnswer::Answered(trimmed.to_string())
            } else {
                DialogAnswer::Declined
            }
        }
        PendingDialog::Question { .. } => {
            if !is_error
                && (trimmed.starts_with(QUESTIONS_ANSWERED) || trimmed.starts_with(USER_ANSWERED))
            {
                DialogAnswer::Answered(trimmed.to_string())
            } else {
                DialogAnswer::Declined
            }
        }
    })
}

/// The plan file's `Write` result: written, or not (refused, failed).
fn written(content: &str, is_error: bool) -> DialogAnswer {
    let content = content.trim_start();
    if !is_error && (content.starts_with("File created") || content.contains("has been updated")) {
        DialogAnswer::PlanWritten
    } else {
        DialogAnswer::Declined
    }
}

/// The user messages after the last assistant message.
fn newest_turn(request: &MessagesRequest) -> Vec<&Message> {
    let start = request
        .messages
        .iter()
        .rposition(|m| m.role == Role::Assistant)
        .map_or(0, |i| i + 1);
    request.messages[start..]
        .iter()
        .filter(|m| m.role == Role::User)
        .collect()
}

/// What Cursor is told when its chat resumes with the user's answer.
pub(crate) fn prompt_for(answer: &DialogAnswer) -> Option<String> {
    match answer {
        DialogAnswer::PlanApproved { added } => {
            let mut prompt = String::from(
                "The user approved your plan in Claude Code's plan approval. Carry out the approved plan now.",
            );
            if let Some(added) = added {
                prompt.push_str(&format!("\n\nThe user added:\n{added}"));
            }
            Some(prompt)
        }
        DialogAnswer::PlanChanges(words) => Some(format!(
            "The user reviewed your plan in Claude Code and wants changes before anything is done:\n{words}\n\nRevise the plan accordingly."
        )),
        DialogAnswer::Answered(text) => Some(format!(
            "The user answered your question in Claude Code's question dialog. {text}"
        )),
        DialogAnswer::PlanWritten
        | DialogAnswer::Declined
        | DialogAnswer::Allowed(_)
        | DialogAnswer::NotAllowed => None,
    }
}

#[cfg(test)]
mod tests;
