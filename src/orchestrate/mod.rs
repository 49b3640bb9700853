//! One way down for a Cursor request: the typed `CursorRequest` is carried from admission to
//! a running turn below the HTTP layer, and comes back as a `Reply` to answer from or a
//! `Refusal` saying why nothing runs.
//!
//! The steps, each in its own file and in this order (a request refused by an earlier step
//! never reaches a later one, so the same request always gets the same refusal):
//!
//! 1. `admission.rs`: Cursor's agent, the session's permission mode and the Cursor flags it
//!    becomes, the MCP opt-in, Claude's settings binding Cursor; then what Cursor cannot
//!    honour in the request itself (a forced tool choice, stop sequences, documents, …).
//! 2. `routing.rs`: the model (the catalog, checked with Cursor again for an unknown id) and a
//!    worker's `model:` line.
//! 3. `prompt.rs`: the rulebook's preamble and the interruption notice in front of the prompt.
//! 4. `start.rs`: the session opened under its lock, a run left by a stopped gateway ended, the
//!    request joined to an identical one or replayed, its answer to a dialog of Claude Code's
//!    the session waits on read (`dialog.rs`: answered there, or the words the chat resumes
//!    with), else the turn started.
//! 5. `keeper.rs`: one task per running turn takes its items in order: the record, the ledger,
//!    the exchange, the live run and the notices, the dialog it opens.
//!
//! What the orchestrator needs from whoever serves the request (the agent, the catalog cache,
//! the per-session modes and notices, the session store, the live runs, the spend book) is one
//! concrete `services::TurnServices`, which the gateway owns. Nothing here knows HTTP: the gateway turns the
//! outcome into an answer and each refusal into its status (`gateway::error`).

mod admission;
mod dialog;
mod keeper;
mod prompt;
mod routing;
pub(crate) mod services;
mod start;

pub use start::HOOKS_MISSING_NOTICE;

use std::sync::Arc;

use thiserror::Error;

use crate::anthropic::StreamEvent;
use crate::compaction::CompactionError;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::command::CursorMode;
use crate::cursor::locate::LocateError;
use crate::policy::PolicyRefusal;
use crate::session::conversation;
use crate::session::conversation::RequestError;
use crate::session::cursor_request::CursorRequest;
use crate::session::exchange::Observer;
use crate::session::store::BUSY_MESSAGE;
use crate::session::store::StoreError;
use crate::spend::SpendRefusal;
use services::TurnServices;

/// What a Cursor request is answered from.
#[derive(Debug)]
pub(crate) enum Reply {
    /// An exchange: a turn started for this request, or an identical one joined, replayed, or
    /// failed before.
    Exchange(Observer),
    /// One text message; nothing ran (an unknown model on a worker's `model:` line).
    Local(String),
    /// A complete answer made of these events (a compaction's summary).
    Events(Vec<StreamEvent>),
}

/// Why a Cursor request is not run. Nothing ran for any of them.
#[derive(Debug, Error)]
pub(crate) enum Refusal {
    /// The request itself is malformed or unsupported, or its images could not be saved.
    #[error("{0}")]
    Request(#[from] RequestError),
    /// Cursor's agent is missing or is not Cursor's CLI.
    #[error("{0}")]
    Agent(LocateError),
    /// The permission mode, the MCP opt-in or Claude's settings do not let Cursor run.
    #[error("{0}")]
    Policy(PolicyRefusal),
    /// The catalog of Cursor's models could not be had.
    #[error("{0}")]
    CatalogUnavailable(CatalogError),
    /// The model is unknown to Cursor (or an effort variant it lacks).
    #[error("{0}")]
    Model(CatalogError),
    /// `/compact` gave no summary.
    #[error("{0}")]
    Compaction(CompactionError),
    /// The session could not be opened (its lock, its record, the store's capacity).
    #[error("{0}")]
    Store(StoreError),
    /// A different request of the same identity is running.
    #[error("{BUSY_MESSAGE}")]
    Busy,
    /// The rulebook could not be loaded.
    #[error("loading the rulebook failed: {0}")]
    Rulebook(String),
    /// A spend budget or a runaway guard refuses the turn (checked before anything runs).
    #[error("{0}")]
    Spend(SpendRefusal),
}

/// Serves one `multi/cursor/*` request: admits it, resolves its model, then answers a
/// `/compact` with a summary run, or joins, replays or starts the identity's turn.
pub(crate) async fn run(
    services: &Arc<TurnServices>,
    parsed: &CursorRequest,
) -> Result<Reply, Refusal> {
    // Claude Code names a session (at its first message, after a plan is approved) by asking
    // the same model for one JSON string: made here, never with a Cursor run.
    if let Some(naming) = crate::dialog::naming::naming_request(&parsed.request) {
        return Ok(Reply::Local(crate::dialog::naming::answer(
            &parsed.request,
            naming,
        )));
    }
    let cleared = admission::admit(services, parsed).await?;
    conversation::validate_for_cursor(&parsed.request)?;
    // Cursor said "not logged in" and its login has not changed: the same answer, nothing run.
    if let Some(said) = services.cursor_logged_out() {
        return Err(Refusal::CatalogUnavailable(CatalogError::LoggedOut {
            message: said,
        }));
    }
    let mut catalog = services
        .catalog(&cleared.agent.path)
        .await
        .map_err(Refusal::CatalogUnavailable)?;
    if conversation::is_compaction_request(&parsed.request) {
        return compact(services, parsed, &cleared, &catalog).await;
    }
    let main_route = match routing::main_route(services, parsed, &cleared, &mut catalog).await {
        // A saved or typed route Cursor no longer offers: one line saying so and naming what
        // is, not an API error (Claude Code would send a 400 again and again).
        Err(Refusal::Model(CatalogError::UnknownModel {
            requested,
            suggestions,
        })) => {
            return Ok(Reply::Local(routing::unoffered_model(
                &requested,
                &suggestions,
                &catalog,
            )));
        }
        other => other?,
    };
    start::start(services, parsed, cleared, catalog, main_route).await
}

/// `/compact`: a separate read-only Cursor run writes the summary; the session's record and its
/// Cursor chat are not touched (`compaction`).
async fn compact(
    services: &Arc<TurnServices>,
    parsed: &CursorRequest,
    cleared: &admission::Cleared,
    catalog: &Catalog,
) -> Result<Reply, Refusal> {
    let settings = services.settings();
    let identity = parsed.identity(cleared.workspace.clone());
    // A compaction run is a Cursor run: it holds its identity open for the whole run, so it
    // counts against MULTI_CURSOR_MAX_SESSIONS like a turn (its record is only read), and
    // goes through the rate guard and the budgets (`SpendBook::check_compaction`).
    let open = services
        .store()
        .open(&identity)
        .await
        .map_err(Refusal::Store)?;
    let held = open.lock().await;
    if held.is_busy() {
        return Err(Refusal::Busy);
    }
    services
        .spend()
        .check_compaction(&identity.session)
        .map_err(Refusal::Spend)?;
    // The summary run is read-only (`ask`); its ledger line names the model the route runs.
    let model = catalog
        .resolve(&parsed.request.model, parsed.effort())
        .map(|resolved| resolved.cursor_model)
        .unwrap_or_default();
    let place = identity.run_place(&parsed.request.model, &model, CursorMode::Ask);
    let setup = crate::compaction::Setup {
        agent: cleared.agent.path.clone(),
        workspace: cleared.workspace.clone(),
        approve_mcps: settings.approve_mcps,
        limits: settings.limits,
        images_dir: settings.state_dir.join("images"),
        spend: Some(services.spend().tap(place)),
        cursor_config: crate::policy::cursor_config::default_model_file(&settings.policy),
    };
    let answer = crate::compaction::answer(&parsed.request, catalog, setup).await;
    drop(held);
    match answer {
        Ok(events) => Ok(Reply::Events(events)),
        Err(error) => {
            tracing::warn!(%error, "compaction failed");
            Err(Refusal::Compaction(error))
        }
    }
}
