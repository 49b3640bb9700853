//! What Claude Code's hooks tell the gateway: each session's permission mode and workspace,
//! and each worker's workspace.
//!
//! SessionStart carries `cwd` but no mode; UserPromptSubmit carries `permission_mode` (the mode
//! then applies from that prompt on); SubagentStart carries `agent_id` and `cwd` but no mode (a
//! worker runs under its parent session's current mode).

use std::collections::HashMap;
use std::collections::HashSet;
use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

use crate::dialog::DialogTool;
use crate::policy::ClaudeMode;

/// Sessions remembered at most; beyond this the gateway refuses new ones (restart it).
pub(crate) const MAX_SESSIONS: usize = 4096;

/// The session id used for requests that carry none.
pub(crate) const DEFAULT_SESSION: &str = "default";

/// The fields of a hook payload the gateway uses; everything else is ignored.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct HookPayload {
    pub hook_event_name: String,
    pub session_id: String,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub permission_mode: Option<String>,
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The tool of a `PreToolUse`/`PostToolUse` hook.
    #[serde(default)]
    pub tool_name: Option<String>,
    /// `Interrupt` (2.1.335+): who interrupted (`user`, `session`, `system`); SessionStart
    /// also has a `source` (`startup`, `resume`).
    #[serde(default)]
    pub source: Option<String>,
    /// `Interrupt`: why (`stop`, `permission_denied`, `rewind`, `other`).
    #[serde(default)]
    pub reason: Option<String>,
}

/// An unknown word of a hook payload, on one line and short.
fn word(text: &str) -> String {
    crate::text::clip_bytes(&crate::text::one_line(text), 32).to_string()
}

/// The hook event Claude Code 2.1.335+ sends once when an interrupt ends the main turn (Esc,
/// a rewind, a denied permission); the launcher registers it only for those builds.
pub(crate) const INTERRUPT_EVENT: &str = "Interrupt";

impl HookPayload {
    /// For an `Interrupt` payload, why the session's run ends, in words for its ledger line
    /// ("stopped by the user", "rewound by the user", …); `None` for any other event.
    pub(crate) fn interruption(&self) -> Option<String> {
        if self.hook_event_name != INTERRUPT_EVENT {
            return None;
        }
        let what = match self.reason.as_deref() {
            Some("stop") => "stopped".to_string(),
            Some("rewind") => "rewound".to_string(),
            Some("permission_denied") => "ended when a permission was denied".to_string(),
            Some("other") | None => "interrupted".to_string(),
            Some(other) => format!("interrupted ({})", word(other)),
        };
        let by = match self.source.as_deref() {
            Some("user") => " by the user".to_string(),
            Some("session") => " by the session".to_string(),
            Some("system") => " by Claude Code".to_string(),
            None => String::new(),
            Some(other) => format!(" by {}", word(other)),
        };
        Some(format!("{what}{by}"))
    }
}

/// One Claude session as hooks described it.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct SessionInfo {
    /// The mode of the newest prompt, if any hook reported one.
    pub mode: Option<ClaudeMode>,
    /// Canonical workspace from the session's first hook with a `cwd`.
    pub workspace: Option<PathBuf>,
    /// Worker id → its canonical workspace (SubagentStart `cwd`).
    pub workers: HashMap<String, PathBuf>,
    /// The policy the session's newest Cursor request was admitted under, or why it was
    /// refused (`policy::status_text`), for `multi-cursor status`.
    pub policy: Option<String>,
    /// Once-per-session notices already shown in this session's answers (kept in memory: a
    /// restarted gateway shows them once more).
    #[serde(skip)]
    pub notices_shown: HashSet<String>,
}

/// Why a hook payload was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum HookError {
    #[error("unsupported Claude permission mode {0:?}")]
    UnknownMode(String),
    #[error("the gateway already tracks {MAX_SESSIONS} sessions; restart multi-cursor")]
    TooManySessions,
}

/// Every session's mode and workspace.
#[derive(Debug, Default)]
pub(crate) struct SessionBook {
    sessions: HashMap<String, SessionInfo>,
    /// The Claude session the user last typed a prompt in (a `UserPromptSubmit` outside a
    /// worker): what the launcher names for `--resume` when Claude Code exits.
    last_prompted: Option<String>,
}

fn canonical(path: &std::path::Path) -> PathBuf {
    crate::platform::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl SessionBook {
    /// Takes one hook payload.
    pub(crate) fn record(&mut self, payload: &HookPayload) -> Result<(), HookError> {
        let mode = payload
            .permission_mode
            .as_deref()
            .map(|m| ClaudeMode::parse(m).ok_or_else(|| HookError::UnknownMode(m.to_string())))
            .transpose()?;
        let session = self
            .entry(&payload.session_id)
            .ok_or(HookError::TooManySessions)?;
        let cwd = payload.cwd.as_deref().map(canonical);
        match (payload.hook_event_name.as_str(), &payload.agent_id) {
            ("SubagentStart", Some(agent)) => {
                if let Some(cwd) = cwd {
                    session.workers.insert(agent.clone(), cwd);
                }
            }
            _ => {
                if session.workspace.is_none() {
                    session.workspace = cwd;
                }
            }
        }
        // Tool hooks inside a worker also carry a mode; the parent's prompt mode is what counts.
        // The one tool hook that changes it is plan approval's: its PostToolUse carries the mode
        // the user picked in "Ready to code?" (PreToolUse still says plan).
        let approval = payload.hook_event_name == "PostToolUse"
            && payload.agent_id.is_none()
            && payload.tool_name.as_deref() == Some(DialogTool::ExitPlanMode.name());
        if (payload.hook_event_name == "UserPromptSubmit" || approval)
            && let Some(mode) = mode
        {
            session.mode = Some(mode);
        }
        if payload.hook_event_name == "UserPromptSubmit" && payload.agent_id.is_none() {
            self.last_prompted = Some(payload.session_id.clone());
        }
        Ok(())
    }

    /// The Claude session the user last typed a prompt in, if any.
    pub(crate) fn last_prompted(&self) -> Option<&str> {
        self.last_prompted.as_deref()
    }

    /// The session's current mode (the worker runs under its parent's) and the request's
    /// workspace, if hooks reported them.
    pub(crate) fn lookup(
        &self,
        session: &str,
        worker: Option<&str>,
    ) -> (Option<ClaudeMode>, Option<PathBuf>) {
        let Some(info) = self.sessions.get(session) else {
            return (None, None);
        };
        let workspace = worker
            .and_then(|w| info.workers.get(w).cloned())
            .or_else(|| info.workspace.clone());
        (info.mode, workspace)
    }

    /// The session's entry, created if it is new and there is room.
    fn entry(&mut self, session: &str) -> Option<&mut SessionInfo> {
        if !self.sessions.contains_key(session) && self.sessions.len() >= MAX_SESSIONS {
            return None;
        }
        Some(self.sessions.entry(session.to_string()).or_default())
    }

    /// Notes the policy a Cursor request of `session` was admitted under (or its refusal).
    pub(crate) fn note_policy(&mut self, session: &str, policy: String) {
        if let Some(info) = self.entry(session) {
            info.policy = Some(policy);
        }
    }

    /// Whether `notice` was already shown in `session` (see [`SessionBook::notice_shown`]).
    pub(crate) fn was_shown(&self, session: &str, notice: &str) -> bool {
        self.sessions
            .get(session)
            .is_some_and(|info| info.notices_shown.contains(notice))
    }

    /// Remembers that `session` was shown `notice`: call it once an answer carrying it was
    /// delivered. With no room to remember, every answer shows it (better repeated than lost).
    pub(crate) fn notice_shown(&mut self, session: &str, notice: &str) {
        if let Some(info) = self.entry(session) {
            info.notices_shown.insert(notice.to_string());
        }
    }

    /// A snapshot for `GET /multi-cursor/status`.
    pub(crate) fn snapshot(&self) -> Vec<(String, SessionInfo)> {
        let mut all: Vec<_> = self
            .sessions
            .iter()
            .map(|(id, info)| (id.clone(), info.clone()))
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(event: &str, mode: Option<&str>, agent: Option<&str>, cwd: &str) -> HookPayload {
        HookPayload {
            hook_event_name: event.into(),
            session_id: "s".into(),
            cwd: Some(cwd.into()),
            permission_mode: mode.map(str::to_string),
            agent_id: agent.map(str::to_string),
            tool_name: None,
            source: None,
            reason: None,
        }
    }

    #[test]
    fn plan_approvals_post_tool_use_sets_the_mode_and_other_tool_hooks_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().to_str().unwrap();
        let mut book = SessionBook::default();
        book.record(&payload("UserPromptSubmit", Some("plan"), None, cwd))
            .unwrap();
        let mut pre = payload("PreToolUse", Some("plan"), None, cwd);
        pre.tool_name = Some("ExitPlanMode".into());
        book.record(&pre).unwrap();
        let mut other = payload("PostToolUse", Some("acceptEdits"), None, cwd);
        other.tool_name = Some("Write".into());
        book.record(&other).unwrap();
        assert_eq!(book.lookup("s", None).0, Some(ClaudeMode::Plan));
        let mut worker = payload("PostToolUse", Some("auto"), Some("w"), cwd);
        worker.tool_name = Some("ExitPlanMode".into());
        book.record(&worker).unwrap();
        assert_eq!(book.lookup("s", None).0, Some(ClaudeMode::Plan));
        let mut approved = payload("PostToolUse", Some("auto"), None, cwd);
        approved.tool_name = Some("ExitPlanMode".into());
        book.record(&approved).unwrap();
        assert_eq!(book.lookup("s", None).0, Some(ClaudeMode::Auto));
    }

    #[test]
    fn an_interrupt_says_who_and_why_and_other_events_say_nothing() {
        // 2.1.337's payload, measured: {"hook_event_name":"Interrupt","source":"user",
        // "reason":"stop","via":"terminal",…}.
        let said = |source: Option<&str>, reason: Option<&str>| {
            let mut payload = payload(INTERRUPT_EVENT, Some("auto"), None, "/");
            payload.source = source.map(str::to_string);
            payload.reason = reason.map(str::to_string);
            payload.interruption()
        };
        assert_eq!(
            said(Some("user"), Some("stop")).unwrap(),
            "stopped by the user"
        );
        assert_eq!(
            said(Some("user"), Some("rewind")).unwrap(),
            "rewound by the user"
        );
        assert_eq!(
            said(Some("system"), Some("permission_denied")).unwrap(),
            "ended when a permission was denied by Claude Code"
        );
        assert_eq!(said(None, None).unwrap(), "interrupted");
        assert_eq!(
            said(Some("bot\u{1b}[31m"), Some("new\nthing")).unwrap(),
            "interrupted (new thing) by bot"
        );
        assert_eq!(payload("Stop", None, None, "/").interruption(), None);
    }

    #[test]
    fn mode_from_prompt_worker_inherits() {
        // Real folders, so their canonical form is the same on every system.
        let dir = tempfile::tempdir().unwrap();
        let main = canonical(dir.path());
        let worker = main.join("worker");
        std::fs::create_dir(&worker).unwrap();
        let (main_cwd, worker_cwd) = (main.to_str().unwrap(), worker.to_str().unwrap());
        let mut book = SessionBook::default();
        book.record(&payload("SessionStart", None, None, main_cwd))
            .unwrap();
        assert_eq!(book.lookup("s", None), (None, Some(main.clone())));
        book.record(&payload("UserPromptSubmit", Some("plan"), None, main_cwd))
            .unwrap();
        book.record(&payload("SubagentStart", None, Some("a1"), worker_cwd))
            .unwrap();
        assert_eq!(
            book.lookup("s", Some("a1")),
            (Some(ClaudeMode::Plan), Some(worker))
        );
        book.record(&payload(
            "PreToolUse",
            Some("bypassPermissions"),
            Some("a1"),
            main_cwd,
        ))
        .unwrap();
        assert_eq!(book.lookup("s", None).0, Some(ClaudeMode::Plan));
    }

    #[test]
    fn unknown_mode_refused() {
        let mut book = SessionBook::default();
        let err = book
            .record(&payload("UserPromptSubmit", Some("yolo"), None, "/"))
            .unwrap_err();
        assert_eq!(err, HookError::UnknownMode("yolo".into()));
    }
}
