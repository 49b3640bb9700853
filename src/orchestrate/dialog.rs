//! The user's answer to a dialog the session waits on (`crate::dialog`), before any turn
//! starts: the plan file's `Write` result is answered with `ExitPlanMode` (nothing runs), an
//! approval in a mode where Cursor only reads is answered in words, and every other answer
//! becomes the words the resumed chat is given.

use super::Refusal;
use super::Reply;
use super::admission::Cleared;
use crate::anthropic::StreamEvent;
use crate::anthropic::Usage;
use crate::anthropic::events::StopReason;
use crate::cursor::command::CursorMode;
use crate::dialog::DialogTool;
use crate::dialog::answer;
use crate::dialog::answer::AllowScope;
use crate::dialog::answer::DialogAnswer;
use crate::dialog::offer::exit_plan_mode;
use crate::dialog::pending::PendingDialog;
use crate::policy::cursor_config::AllowEntry;
use crate::session::cursor_request::CursorRequest;
use crate::session::store::Session;
use crate::session::store::StoreError;

/// What the session's pending dialog makes of this request.
pub(super) enum Step {
    /// Answered here; nothing runs.
    Answered(Reply),
    /// The chat resumes with these words instead of the request's own.
    Resume(String),
    /// The chat resumes with these words, with this `[Cursor]` line in front of the answer,
    /// and the entry that allows a refused action for this one run (put back after it).
    ResumeAllowed {
        words: String,
        notice: String,
        once: Option<AllowEntry>,
    },
    /// No dialog was answered (or it was declined): the request goes on as any other.
    Continue,
}

/// Reads the request's answer to the dialog `session` waits on and decides the step.
pub(super) async fn step(
    session: &mut Session,
    parsed: &CursorRequest,
    cleared: &Cleared,
) -> Result<Step, Refusal> {
    let Some(pending) = session.record.dialog.clone() else {
        return Ok(Step::Continue);
    };
    let Some(answer) = answer::read(&parsed.request, &pending) else {
        return Ok(Step::Continue);
    };
    match (&answer, &pending) {
        (
            DialogAnswer::PlanWritten,
            PendingDialog::PlanWrite {
                write_id,
                exit_id,
                plan_file,
            }
            | PendingDialog::PlanApproval {
                write_id,
                exit_id,
                plan_file,
            },
        ) => {
            // The plan file is written: "Ready to code?" opens, only while this request can
            // still show it for that file (plan mode, ExitPlanMode listed, the main thread).
            // A re-sent request gets the same call again.
            if surface(parsed, cleared).plan_file.as_ref() != Some(plan_file) {
                save(session, None).await?;
                return Ok(Step::Continue);
            }
            let waiting = PendingDialog::PlanApproval {
                write_id: write_id.clone(),
                exit_id: exit_id.clone(),
                plan_file: plan_file.clone(),
            };
            if pending != waiting {
                save(session, Some(waiting)).await?;
            }
            Ok(Step::Answered(Reply::Events(open_plan_approval(
                &parsed.request.model,
                exit_id,
            ))))
        }
        (DialogAnswer::PlanApproved { .. }, _)
            if matches!(cleared.cursor_mode, CursorMode::Ask | CursorMode::Plan) =>
        {
            save(session, None).await?;
            Ok(Step::Answered(Reply::Local(read_only_approval(cleared))))
        }
        (DialogAnswer::Allowed(scope), PendingDialog::Allow { what, token, .. }) => {
            allow(session, cleared, *scope, what, token).await
        }
        (DialogAnswer::NotAllowed, PendingDialog::Allow { what, token, .. }) => {
            save(session, None).await?;
            Ok(Step::Answered(Reply::Local(format!(
                "[Cursor] Not allowed: `{what}` stays blocked ({token} is not in Cursor's allow list), and nothing ran. Send a message to have Cursor go on without it."
            ))))
        }
        (DialogAnswer::Declined | DialogAnswer::PlanWritten, _)
        | (DialogAnswer::Allowed(_) | DialogAnswer::NotAllowed, _) => Ok(Step::Continue),
        (answer, _) => Ok(answer::prompt_for(answer).map_or(Step::Continue, Step::Resume)),
    }
}

/// Adds the allow entry the user picked to the workspace's `.cursor/cli.json` (for good, or
/// for the one resumed run) and resumes the chat to run the action; when the file cannot be
/// edited, says so and runs nothing.
async fn allow(
    session: &mut Session,
    cleared: &Cleared,
    scope: AllowScope,
    what: &str,
    token: &str,
) -> Result<Step, Refusal> {
    let path = crate::policy::cursor_config::project_path(&cleared.workspace);
    let (file, entry) = (path.clone(), token.to_string());
    let added = tokio::task::spawn_blocking(move || AllowEntry::add(&file, &entry))
        .await
        .map_err(|error| error.to_string())
        .and_then(|added| added.map_err(|error| error.to_string()));
    save(session, None).await?;
    let entry = match added {
        Ok(entry) => entry,
        Err(error) => {
            return Ok(Step::Answered(Reply::Local(format!(
                "[Cursor] Could not allow `{what}`: {error}. Nothing ran; add `{token}` to `permissions.allow` in {} yourself and send \"go ahead\".",
                path.display()
            ))));
        }
    };
    let shown = path.display();
    Ok(match scope {
        AllowScope::Once => Step::ResumeAllowed {
            words: format!(
                "The user allowed `{what}` once, in Claude Code's dialog: {token} is in this workspace's .cursor/cli.json for this run only. Run it now and go on with the task."
            ),
            notice: format!(
                "[Cursor] Allowed once: `{token}` is in {shown} for this run, then the file is put back."
            ),
            once: Some(entry),
        },
        AllowScope::Workspace => {
            entry.keep();
            Step::ResumeAllowed {
                words: format!(
                    "The user allowed `{what}` in this workspace, in Claude Code's dialog: {token} is now in .cursor/cli.json's allow list. Run it now and go on with the task."
                ),
                notice: format!("[Cursor] Added `{token}` to the allow list in {shown}."),
                once: None,
            }
        }
    })
}

async fn save(session: &mut Session, dialog: Option<PendingDialog>) -> Result<(), Refusal> {
    session
        .wait_on_dialog(dialog)
        .await
        .map_err(|error| Refusal::Store(StoreError::from(error)))
}

/// The answer that opens "Ready to code?": one `ExitPlanMode` call with `{}`.
fn open_plan_approval(model: &str, exit_id: &str) -> Vec<StreamEvent> {
    let mut events = vec![StreamEvent::message_start(model, 0)];
    events.extend(StreamEvent::tool_use_block(
        0,
        exit_id,
        DialogTool::ExitPlanMode.name(),
        &exit_plan_mode(),
    ));
    events.push(StreamEvent::stop(
        StopReason::ToolUse,
        Usage::default(),
        None,
    ));
    events.push(StreamEvent::MessageStop);
    events
}

/// An approval in a mode where Cursor may only read: said, with the way to let it edit,
/// rather than a run that could not carry the plan out.
fn read_only_approval(cleared: &Cleared) -> String {
    let mode = match cleared.cursor_mode {
        CursorMode::Plan => "plan mode",
        _ => "manual mode",
    };
    format!(
        "[Cursor] Plan approved, in {mode}: there Cursor answers read-only (it cannot ask you before each edit), so it has not started. Shift+Tab to accept edits (or auto mode) and send \"go ahead\": Cursor carries out the approved plan in the same chat."
    )
}

/// The dialogs a turn of `parsed` can open, given the session's mode.
pub(super) fn surface(
    parsed: &CursorRequest,
    cleared: &Cleared,
) -> crate::dialog::surface::Surface {
    let main_thread =
        parsed.worker.is_none() && !crate::session::conversation::is_subagent(&parsed.request);
    let mut surface = crate::dialog::surface::Surface::of(
        &parsed.request,
        main_thread,
        cleared.cursor_mode == CursorMode::Plan,
    );
    surface.seed = hex::encode(parsed.digest);
    // Accept edits is where Claude would have asked before such an action.
    surface.allow_actions = surface.question && cleared.cursor_mode == CursorMode::Allowlist;
    surface
        .never_offer
        .clone_from(&cleared.admitted.cursor_deny);
    surface
}
