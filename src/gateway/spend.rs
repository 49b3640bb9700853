//! `GET /multi-cursor/spend/<session id>`: what one Claude session's Cursor use cost so far in
//! this gateway (its workers included), as a [`crate::spend::SessionSpend`] JSON, answered
//! from memory (the status line asks about once a second and has 50 ms end to end). Also where
//! a request's identity becomes the [`RunPlace`] of its ledger lines.

use axum::Json;
use axum::extract::Path;
use axum::extract::State;

use super::Gateway;
use crate::cursor::command::CursorMode;
use crate::session::identity::Identity;
use crate::spend::SessionSpend;
use crate::spend::ledger::RunPlace;

/// The spend of the session named in the path; a session this gateway never ran Cursor for
/// has `runs: 0`, `replays: 0` and no `live`.
pub async fn session_spend(
    State(gateway): State<Gateway>,
    Path(session): Path<String>,
) -> Json<SessionSpend> {
    Json(gateway.spend().session_spend(&session))
}

/// Where a turn's runs belong in the ledger: the identity, the route Claude Code asked for,
/// the Cursor model id that runs (`auto` for Auto) and the Cursor mode.
pub fn place(identity: &Identity, route: &str, model: &str, mode: &CursorMode) -> RunPlace {
    RunPlace {
        workspace: identity.workspace.to_string_lossy().into_owned(),
        session: identity.session.clone(),
        worker: identity.worker.clone(),
        route: route.to_string(),
        model: model.to_string(),
        mode: mode_name(mode).to_string(),
    }
}

/// A Cursor mode as the ledger names it.
pub fn mode_name(mode: &CursorMode) -> &'static str {
    match mode {
        CursorMode::Plan => "plan",
        CursorMode::Allowlist => "allowlist",
        CursorMode::Force => "force",
        CursorMode::AutoReview => "auto_review",
        CursorMode::Ask => "ask",
    }
}

/// The spend part of `multi-cursor status`'s printout, from the status JSON's `spend` object:
/// turns and tokens of this gateway, today's tokens across gateways, and each budget set.
pub fn render_figures(spend: &serde_json::Value) -> String {
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    if spend.is_null() {
        return String::new();
    }
    let mut out = format!(
        "Cursor spend: {} turns, {} tokens in this gateway; {} tokens today in all gateways\n",
        n(&spend["turns"]),
        crate::spend::format_count(n(&spend["tokens"])),
        crate::spend::format_count(n(&spend["daily_tokens"])),
    );
    for budget in spend["budgets"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "  {} {}: {} used, {} left\n",
            budget["variable"].as_str().unwrap_or("-"),
            n(&budget["limit"]),
            n(&budget["used"]),
            n(&budget["left"]),
        ));
    }
    out
}

/// The spend book's tap for a `/compact` summary run (read-only, `ask` mode) of `session`'s
/// `worker` in `workspace`, on `route` run by Cursor model `model`.
pub fn compaction_tap(
    gateway: &Gateway,
    workspace: &std::path::Path,
    session: &str,
    worker: Option<&str>,
    route: &str,
    model: &str,
) -> crate::spend::RunTap {
    let identity = Identity {
        workspace: workspace.to_path_buf(),
        session: session.to_string(),
        worker: worker
            .unwrap_or(crate::session::identity::MAIN_WORKER)
            .to_string(),
    };
    gateway
        .spend()
        .tap(place(&identity, route, model, &CursorMode::Ask))
}
