//! Admission: whether Cursor may run for a request at all, decided before anything is opened
//! or spawned. The agent must be Cursor's CLI, Cursor's MCP servers must be opted in, Claude's
//! permission settings must bind Cursor (`policy::admission`), and the session's Claude
//! permission mode becomes the Cursor flags that do no more than it allows (`policy::cursor_mode`),
//! refused when Cursor's own configuration would widen them; the outcome is noted per session
//! for `multi-cursor status`.

use std::path::PathBuf;

use super::Refusal;
use std::sync::Arc;

use super::services::TurnServices;
use crate::cursor::command::CursorMode;
use crate::cursor::locate::AgentInfo;
use crate::policy;
use crate::policy::Admitted;
use crate::policy::ClaudeMode;
use crate::policy::ModeFacts;
use crate::policy::PolicyRefusal;
use crate::session::cursor_request::CursorRequest;

/// A request cleared to run: the agent, the mode and the rules it runs under, and where.
#[derive(Debug, Clone)]
pub(super) struct Cleared {
    /// Cursor's agent.
    pub agent: AgentInfo,
    /// The session's Claude permission mode (`None`: no hook has reported it yet).
    pub mode: Option<ClaudeMode>,
    /// The Cursor flags that mode became.
    pub cursor_mode: CursorMode,
    /// The `[Cursor]` line saying Cursor may do less than the mode's name suggests, if so.
    pub mode_note: Option<String>,
    /// The workspace the turn runs in (the hook's, else the server's working folder).
    pub workspace: PathBuf,
    /// Claude's permission rules and the Cursor config enforcing each.
    pub admitted: Admitted,
    /// No hook of this session reached the gateway though the launcher registered them.
    pub hooks_missing: bool,
}

impl Cleared {
    /// The policy the turn runs under, as recorded and as part of its exchange key.
    pub(super) fn policy_text(&self, approve_mcps: bool) -> String {
        policy::describe(self.mode, self.cursor_mode, approve_mcps, &self.admitted)
    }
}

/// Admits `parsed`, or says why Cursor may not run for it.
pub(super) async fn admit(
    services: &Arc<TurnServices>,
    parsed: &CursorRequest,
) -> Result<Cleared, Refusal> {
    let agent = services.agent().await.map_err(Refusal::Agent)?;
    let settings = services.settings();
    let (mode, hook_workspace) = services.session_mode(&parsed.session, parsed.worker.as_deref());
    let hooks_missing = settings.expects_hooks && mode.is_none() && hook_workspace.is_none();
    let mode = mode.or(settings.default_mode);
    let workspace = hook_workspace.unwrap_or_else(|| settings.working_dir.to_path_buf());
    policy::check_mcp(&workspace, settings.home.as_deref(), settings.approve_mcps)
        .map_err(Refusal::Policy)?;
    // Claude's permission settings must bind Cursor, or nothing runs (`policy::admission`);
    // the outcome is shown per session by `multi-cursor status`.
    let admitted = policy::admit_request(&settings.policy, mode, &workspace).await;
    services.note_policy(&parsed.session, policy::status_text(&admitted));
    let admitted = admitted.map_err(|e| Refusal::Policy(PolicyRefusal::from(e)))?;
    let plan = policy::cursor_mode(
        mode,
        &ModeFacts {
            supports_auto_review: agent.supports_auto_review,
            cli_version: &agent.version,
            edits_preapproved: admitted.edits_preapproved,
            auto_rules: parsed.request.auto_mode_rules(),
            surface: settings.surface,
        },
    );
    policy::check_not_widened(mode, &plan, &admitted.widening, settings.surface)
        .map_err(Refusal::Policy)?;
    Ok(Cleared {
        agent,
        mode,
        cursor_mode: plan.cursor,
        mode_note: plan.note,
        workspace,
        admitted,
        hooks_missing,
    })
}
