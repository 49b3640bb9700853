//! `POST /multi-cursor/hook` (Claude Code's hook payloads) and `GET /multi-cursor/status`.

use axum::Json;
use axum::extract::State;
use axum::response::IntoResponse;
use axum::response::Response;
use serde_json::Value;
use serde_json::json;

use super::Gateway;
use super::LimitedBody;
use super::error::ApiError;
use crate::policy::ClaudeMode;
use crate::session::hooks::HookPayload;

/// Takes one hook payload: remembers the session's mode and workspace, or a worker's workspace.
pub async fn hook(State(gateway): State<Gateway>, LimitedBody(body): LimitedBody) -> Response {
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
pub async fn status(State(gateway): State<Gateway>) -> Json<Value> {
    let agent = gateway.services().agent().await;
    let (agent_json, login) = match &agent {
        Ok(info) => {
            let login = match crate::cursor::account::login_state(&info.path).await {
                Ok(state) => json!({"usable": state.is_usable(), "summary": state.describe()}),
                Err(error) => json!({"usable": false, "summary": error.to_string()}),
            };
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
    let default_mode = gateway.config().default_mode.map(ClaudeMode::as_str);
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
