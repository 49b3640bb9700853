//! Routing: which Cursor model a request runs on. The model id Claude Code sent is resolved in
//! the catalog (with the request's effort variant); an id the catalog does not know is checked
//! with Cursor again, since Cursor may have added it after the catalog was cached. A worker
//! picks its model with a first prompt line `model: <id>`, which never reaches Cursor; an
//! unknown id there is answered as text listing the valid ones, and nothing runs.

use super::Refusal;
use std::sync::Arc;

use super::admission::Cleared;
use super::services::TurnServices;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::catalog::ROUTE_PREFIX;
use crate::cursor::catalog::Resolved;
use crate::session::conversation::Prompt;
use crate::session::cursor_request::CursorRequest;

/// The main session's route, resolved before its session is opened, so an unknown id (and the
/// catalog recheck it may cause) never holds the session's lock. `None` for a worker, whose
/// route can still change with its `model:` line ([`turn_route`]).
pub(super) async fn main_route(
    services: &Arc<TurnServices>,
    parsed: &CursorRequest,
    cleared: &Cleared,
    catalog: &mut Catalog,
) -> Result<Option<Resolved>, Refusal> {
    if parsed.worker.is_some() {
        return Ok(None);
    }
    let request = &parsed.request;
    resolve_model(services, cleared, catalog, &request.model, parsed.effort())
        .await
        .map(Some)
        .map_err(Refusal::Model)
}

/// How a turn's model was decided.
pub(super) enum ModelChoice {
    /// Run on this model; for a worker, the route its `model:` line (or, on a later turn, its
    /// record) chose, to be kept in the record.
    Run(Resolved, Option<String>),
    /// The worker's `model:` line names no model Cursor has: answer with this text.
    UnknownWorkerModel(String),
}

/// The turn's route: `main` when the main session's was resolved already, else the worker's
/// (its `model:` line, taken off `prompt`, else the request's model).
pub(super) async fn turn_route(
    services: &Arc<TurnServices>,
    parsed: &CursorRequest,
    cleared: &Cleared,
    catalog: &mut Catalog,
    main: Option<Resolved>,
    prompt: &mut Prompt,
    remembered: Option<&str>,
) -> Result<ModelChoice, Refusal> {
    let request = &parsed.request;
    let mut requested = request.model.clone();
    let mut chosen = None;
    if parsed.worker.is_some()
        && let Some(id) = prompt.take_worker_model_line()
    {
        let spelled = if id.starts_with(ROUTE_PREFIX) {
            id.clone()
        } else {
            format!("{ROUTE_PREFIX}{id}")
        };
        if resolve_model(services, cleared, catalog, &spelled, None)
            .await
            .is_err()
        {
            return Ok(ModelChoice::UnknownWorkerModel(unknown_worker_model(
                &id, catalog,
            )));
        }
        requested = spelled.clone();
        chosen = Some(spelled);
    } else if parsed.worker.is_some()
        && let Some(route) = remembered
    {
        // A later turn of a worker that chose its model: the same model, in the same chat.
        requested = route.to_string();
        chosen = Some(route.to_string());
    }
    let resolved = match main {
        Some(resolved) => resolved,
        None => resolve_model(services, cleared, catalog, &requested, parsed.effort())
            .await
            .map_err(Refusal::Model)?,
    };
    Ok(ModelChoice::Run(resolved, chosen))
}

/// The answer to a worker whose `model:` line names `id`, unknown to Cursor.
fn unknown_worker_model(id: &str, catalog: &Catalog) -> String {
    let valid: Vec<String> = catalog
        .picker(&[])
        .rows
        .iter()
        .map(|r| r.short_id().to_string())
        .collect();
    format!(
        "[Cursor] Unknown model \"{id}\" on the worker's `model:` line; nothing was run. Valid ids: {}. See `multi-cursor --cursor-models` for every route.",
        valid.join(", ")
    )
}

/// The answer to a main-session request for `requested`, a route Cursor does not offer this
/// account (a model it dropped, or one saved in `/model` that the account cannot run): what is
/// offered instead, checked with Cursor just now ([`resolve_model`]).
pub(super) fn unoffered_model(requested: &str, close: &[String], catalog: &Catalog) -> String {
    let offered: Vec<String> = catalog
        .picker(&[])
        .rows
        .iter()
        .map(|r| r.label.clone())
        .collect();
    let close = if close.is_empty() {
        String::new()
    } else {
        format!(" Close ids: {}.", close.join(", "))
    };
    format!(
        "[Cursor] Cursor does not offer \"{}\" to this account (any more), so nothing was run.{close} Choose another model in /model: {} (`multi-cursor --cursor-models` lists every route).",
        crate::text::one_line(requested),
        offered.join(", ")
    )
}

/// Resolves `model` in `catalog`. An unknown one is checked with Cursor again (once per id for
/// a while, [`TurnServices::recheck_catalog`]): Cursor may have added it since the catalog was
/// cached; `catalog` then holds the fresh list.
async fn resolve_model(
    services: &Arc<TurnServices>,
    cleared: &Cleared,
    catalog: &mut Catalog,
    model: &str,
    effort: Option<&str>,
) -> Result<Resolved, CatalogError> {
    match catalog.resolve(model, effort) {
        Err(CatalogError::UnknownModel { .. }) => {
            if let Some(fresh) = services.recheck_catalog(&cleared.agent.path, model).await {
                *catalog = fresh;
            }
            catalog.resolve(model, effort)
        }
        resolved => resolved,
    }
}
