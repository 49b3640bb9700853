//! `POST /multi-cursor/hook` (Claude Code's hook payloads) and `GET /multi-cursor/status`.
//!
//! The status route learns the Cursor login from `agent status`, a Node process with Cursor's
//! CLI: one run answers every status request that arrives while it runs and for
//! [`LOGIN_KEPT`] after ([`LoginProbe`]), so a burst of requests starts one agent, not one each.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::response::Response;
use serde_json::Value;
use serde_json::json;

use super::Gateway;
use super::LimitedBody;
use super::error::ApiError;
use crate::cursor::account::login_state;
use crate::policy::ClaudeMode;
use crate::session::hooks::HookPayload;

/// Takes one hook payload: remembers the session's mode and workspace, or a worker's workspace.
pub(crate) async fn hook(
    State(gateway): State<Gateway>,
    LimitedBody(body): LimitedBody,
) -> Response {
    let payload: HookPayload = match serde_json::from_slice(&body) {
        Ok(payload) => payload,
        Err(error) => {
            return ApiError::bad_request(format!(
                "the hook payload is not a Claude Code hook input ({error})"
            ))
            .into_response();
        }
    };
    tracing::debug!(event = %payload.hook_event_name, session = %payload.session_id, mode = ?payload.permission_mode, "hook");
    if let Some(why) = payload.interruption() {
        // Claude Code may keep the connection of the stopped turn open: end its run now.
        let ended = gateway.services().interrupt(&payload.session_id, &why);
        tracing::info!(session = %payload.session_id, ended, %why, "Interrupt hook");
    }
    match gateway.services().sessions().record(&payload) {
        // The hook's answer is printed for Claude Code, which shows a SessionStart hook's
        // `systemMessage` to the user (and not to the model).
        Ok(()) => match (payload.hook_event_name == "SessionStart")
            .then(|| gateway.take_startup_notices())
            .flatten()
        {
            Some(notices) => Json(json!({"systemMessage": notices})).into_response(),
            None => Json(json!({})).into_response(),
        },
        Err(error) => ApiError::bad_request(error.to_string()).into_response(),
    }
}

/// The gateway's state: version, agent, login, sessions, live runs, and Cursor spend (turns,
/// tokens, today's tokens across gateways, each budget's use and what is left).
pub(crate) async fn status(State(gateway): State<Gateway>) -> Json<Value> {
    let agent = gateway.services().agent().await;
    let (agent_json, login) = match &agent {
        Ok(info) => {
            let login = gateway.login_probe().login(&info.path).await;
            (
                json!({"found": true, "path": info.path, "version": info.version, "autoReview": info.supports_auto_review}),
                login,
            )
        }
        Err(error) => (
            json!({"found": false, "error": error.to_string()}),
            json!({"usable": false, "summary": "unknown: the agent was not found"}),
        ),
    };
    let default_mode = gateway
        .config()
        .settings
        .default_mode
        .map(ClaudeMode::as_str);
    let sessions: Vec<Value> = gateway
        .services()
        .sessions()
        .snapshot()
        .into_iter()
        .map(|(id, info)| {
            json!({
                "session": id,
                "mode": info.mode.map(ClaudeMode::as_str).or(default_mode),
                "workspace": info.workspace,
                "workers": info.workers,
                "policy": info.policy,
            })
        })
        .collect();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "pid": std::process::id(),
        "upstream": super::passthrough::without_user_info(&gateway.config().upstream),
        "defaultMode": default_mode,
        "agent": agent_json,
        "login": login,
        "sessions": sessions,
        "runs": gateway.services().live_runs(),
        "spend": gateway.services().spend().figures(),
    }))
}

/// How long one `agent status` answer serves the status route.
pub(crate) const LOGIN_KEPT: Duration = Duration::from_secs(5);

/// The status route's view of the Cursor login: one `agent status` at a time, its answer shared
/// by every request waiting for it and kept for [`LOGIN_KEPT`].
#[derive(Debug, Default)]
pub(crate) struct LoginProbe {
    /// The last answer: when it was learned, for which agent, and the status's `login` object.
    /// Held across the run, so requests arriving meanwhile wait for it rather than start their
    /// own.
    last: tokio::sync::Mutex<Option<(Instant, PathBuf, Value)>>,
}

impl LoginProbe {
    /// The status's `login` object (`usable`, `summary`) for `agent`: the kept answer when it is
    /// fresh, else one new `agent status` run.
    pub(crate) async fn login(&self, agent: &Path) -> Value {
        let mut last = self.last.lock().await;
        if let Some((at, path, login)) = last.as_ref()
            && at.elapsed() < LOGIN_KEPT
            && path == agent
        {
            return login.clone();
        }
        let login = match login_state(agent).await {
            Ok(state) => json!({"usable": state.is_usable(), "summary": state.describe()}),
            Err(error) => json!({"usable": false, "summary": error.to_string()}),
        };
        *last = Some((Instant::now(), agent.to_path_buf(), login.clone()));
        login
    }
}
