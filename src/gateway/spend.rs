//! `GET /multi-cursor/spend/<session id>`: what one Claude session's Cursor use cost so far in
//! this gateway (its workers included), as a [`crate::spend::SessionSpend`] JSON, answered
//! from memory (the status line asks about once a second and has 50 ms end to end).

use axum::Json;
use axum::extract::Path;
use axum::extract::State;

use super::Gateway;
use crate::spend::SessionSpend;

/// The spend of the session named in the path; a session this gateway never ran Cursor for
/// has `runs: 0`, `replays: 0` and no `live`.
pub(crate) async fn session_spend(
    State(gateway): State<Gateway>,
    Path(session): Path<String>,
) -> Json<SessionSpend> {
    Json(gateway.services().spend().session_spend(&session))
}

/// The spend part of `multi-cursor status`'s printout, from the status JSON's `spend` object:
/// turns and tokens of this gateway, today's tokens across gateways, and each budget set.
pub(crate) fn render_figures(spend: &serde_json::Value) -> String {
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
