//! The model catalog: which models the user's Cursor account can run (`agent --list-models`),
//! the routes Claude Code sees for them (`multi/cursor/<id>` and presets), the `/model` picker
//! rows, and how a requested model becomes the id passed to `agent --model`.
//!
//! `agent --list-models` prints one model per line, `<id> - <Display Name>`, with ` (current)`,
//! ` (default)` or ` (current, default)` after the name of the model the CLI would use and the
//! account's default; a header, a tip line and ANSI colours may surround them, and an account
//! without models gets `No models available for this account.` instead. `agent --model` takes
//! the id.
//!
//! Who calls what:
//! - the launcher reads the cache (`load_cached_from`) and uses it when it came from the same
//!   agent, refreshing it in the background with [`fetch_catalog`] and `store_cache_in`;
//!   without a usable cache it fetches before starting Claude Code (and falls back to a cache
//!   from another agent when the fetch fails);
//! - `--cursor-models` always calls [`fetch_catalog`] and saves the answer with
//!   [`store_cache`];
//! - the launcher writes `Catalog::picker` rows into `--settings` after `Picker::check`
//!   (an unknown `MULTI_CURSOR_EXTRA_MODELS` id stops the launch);
//! - `--cursor-models` prints [`render_table`] or [`routes_json_text`] (never failing on an
//!   unknown extra id: the table notes it, the JSON stays exactly the route array);
//! - the gateway calls `Catalog::resolve` for each request's `model` and for a worker's first
//!   prompt line `model: <id>`.
//!
//! Route rules. Every catalog id `X` is the route `multi/cursor/X`, except Cursor's `auto`,
//! whose route is `multi/cursor/default` (`multi/cursor/auto` is accepted as an alias). An id
//! that differs from another listed id only by the suffixes `-low -medium -high -xhigh`
//! (`effort=<level>`), `-fast` (`fast=true`) and `-thinking` (`thinking=true`) is also a preset
//! of that base: `gpt-5.3-codex-high-fast` is `multi/cursor/gpt-5.3-codex/effort=high,fast=true`
//! (pairs sorted by key; the shortest listed base wins).
//!
//! Effort rule (decided here, see `Catalog::resolve`): Claude Code's `output_config.effort`
//! only changes a request for a route named by a catalog id (never a preset, which wins
//! unchanged), and only to the id `<id>-<level>` when the catalog lists it. `medium` means the
//! id itself; `max` means the highest listed of `-xhigh`, `-high`; any other value, or a level
//! the catalog lacks, keeps the id itself. A Fast variant is never chosen this way.
//!
//! Files: `routes.rs` (routes, resolution, the picker), `render.rs` (the `--cursor-models`
//! table and JSON), `list_models.rs` (the `agent --list-models` child), `cache.rs` (the cache
//! in the state folder); this file holds the constants, the error and the output parser.

pub(crate) mod cache;
mod list_models;
pub(crate) mod plan;
pub(crate) mod render;
pub(crate) mod routes;

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use serde::Serialize;
use thiserror::Error;

use crate::state::StateError;
use crate::text::strip_ansi;

pub(crate) use cache::load_cached_from;
pub use cache::store_cache;
pub(crate) use cache::store_cache_in;
pub use list_models::fetch_catalog;
pub use list_models::fetch_catalog_with_timeout;
pub use render::render_table;
pub use render::routes_json_text;
pub(crate) use routes::Catalog;
pub(crate) use routes::Picker;
pub use routes::PickerSize;
pub(crate) use routes::Resolved;
pub(crate) use routes::Route;
pub use routes::extra_models_from_env;

/// Prefix of every Cursor route Claude Code can ask for.
pub(crate) const ROUTE_PREFIX: &str = "multi/cursor/";

/// The route of Cursor's Auto model (catalog id [`AUTO_ID`]).
pub(crate) const AUTO_ROUTE: &str = "multi/cursor/default";

/// Cursor's id for Auto, as `agent --list-models` prints it and `agent --model` takes it.
pub(crate) const AUTO_ID: &str = "auto";

/// The line `agent --list-models` prints for an account without models.
const NO_MODELS_TEXT: &str = "No models available for this account";

/// Why the catalog could not be fetched, saved, or a model not resolved. Every message names
/// the fix.
#[derive(Debug, Error)]
pub enum CatalogError {
    /// `MULTI_CURSOR_PICKER` holds a value other than `short` or `all`.
    #[error(
        "{}={value:?} is not understood: set it to `all` to list every Cursor route in /model, or `short` (the default) for Auto, Grok 4.7, Composer 2.5 and {}",
        crate::env::PICKER_ENV,
        crate::env::EXTRA_MODELS_ENV
    )]
    PickerSetting { value: String },

    /// [`fetch_catalog`]: the agent executable does not exist.
    #[error(
        "Cursor's agent CLI was not found at {}; install it with {} or set MULTI_CURSOR_AGENT to its path",
        .path.display(),
        crate::platform::places::AGENT_INSTALL_COMMAND
    )]
    AgentMissing { path: PathBuf },

    /// [`fetch_catalog`]: the agent exists but could not be started or waited for.
    #[error(
        "could not run `{} --list-models`: {source}; check that MULTI_CURSOR_AGENT names Cursor's agent CLI",
        .path.display()
    )]
    Spawn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// [`fetch_catalog`]: Cursor answered that nobody is signed in. `message` is the CLI's own
    /// words.
    #[error(
        "Cursor is not logged in: run `multi-cursor --cursor-login` in a terminal or /multi-cursor:login in Claude Code (or set CURSOR_API_KEY), then try again (Cursor said: “{message}”)"
    )]
    LoggedOut { message: String },

    /// [`fetch_catalog`]: no answer in time; the process group was killed.
    #[error(
        "`{} --list-models` did not answer within {} s and was stopped; check your network connection and try again (`multi-cursor doctor` checks the agent)",
        .path.display(),
        .timeout.as_secs_f32()
    )]
    Timeout { path: PathBuf, timeout: Duration },

    /// [`fetch_catalog`]: the agent failed for another reason. `stderr` is bounded to a few KB.
    #[error(
        "`{} --list-models` failed ({}): {}; run it yourself to see Cursor's full answer, or `multi-cursor doctor`",
        .path.display(),
        exit_text(*.code),
        if .stderr.is_empty() { "no error output" } else { .stderr.as_str() }
    )]
    Failed {
        path: PathBuf,
        /// Exit code; `None` when a signal ended it.
        code: Option<i32>,
        stderr: String,
    },

    /// [`fetch_catalog`]: the agent succeeded but printed no model list we understand.
    #[error(
        "`{} --list-models` printed no model list this version of multi-cursor understands ({}); update the Cursor CLI (`agent update`) or multi-cursor",
        .path.display(),
        if .excerpt.is_empty() { "no output" } else { .excerpt.as_str() }
    )]
    UnrecognisedOutput { path: PathBuf, excerpt: String },

    /// `Catalog::resolve`: the requested model is no route of this account's catalog.
    /// `suggestions` are close routes (`multi/cursor/…`), best first; possibly empty.
    #[error(
        "unknown Cursor model \"{requested}\"{}; run `multi-cursor --cursor-models` to see the models your Cursor account can run",
        suggestion_text(.suggestions)
    )]
    UnknownModel {
        requested: String,
        suggestions: Vec<String>,
    },

    /// `Picker::check`: an id in `MULTI_CURSOR_EXTRA_MODELS` is not in the catalog.
    #[error(
        "{}: model \"{id}\" is unavailable. Use --cursor-models to see the models your Cursor account can run.",
        crate::env::EXTRA_MODELS_ENV
    )]
    ExtraModelUnavailable { id: String },

    /// [`store_cache`]: the state folder or the cache file could not be written.
    #[error("could not save the model catalog cache: {0}")]
    Cache(#[from] StateError),

    /// [`store_cache`]: the cache could not be encoded (not expected to happen).
    #[error("could not encode the model catalog cache: {0}; please report this")]
    Encode(#[from] serde_json::Error),
}

fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(code) => format!("exit code {code}"),
        None => "ended by a signal".to_string(),
    }
}

fn suggestion_text(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", suggestions.join(", "))
    }
}

/// One line of `agent --list-models`: `<id> - <Display Name>[ (current|default|current, default)]`.
/// Produced by [`parse_list_models`]; kept in the cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogModel {
    /// The id `agent --model` takes (`composer-2.5`, `cursor-grok-4.7`, `auto`).
    pub id: String,
    /// The display name without markers (`Composer 2.5`, `Grok 4.7`, `Auto`).
    pub display_name: String,
    /// Marked `current`: the model the CLI would use without `--model`.
    #[serde(default)]
    pub current: bool,
    /// Marked `default`: the account's default model.
    #[serde(default)]
    pub default: bool,
}

/// What `agent --list-models` printed, as [`parse_list_models`] understands it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListModels {
    /// At least one model line.
    Models(Vec<CatalogModel>),
    /// `No models available for this account.`: the account can run nothing (an empty catalog,
    /// not an error).
    NoModelsForAccount,
    /// Neither model lines nor the "no models" line (an error page, a newer format, nothing).
    Unrecognised,
}

/// Whether `id` uses only the characters Cursor ids use: `[A-Za-z0-9._-]`, non-empty.
pub(crate) fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// Parses one model line (ANSI already stripped); `None` for anything else (header, tip,
/// blank, garbage). The display name is everything after the first ` - `.
fn parse_model_line(line: &str) -> Option<CatalogModel> {
    let line = line.trim();
    let (id, rest) = line.split_once(" - ")?;
    let id = id.trim();
    if !is_valid_id(id) {
        return None;
    }
    let (name, current, default) = split_markers(rest.trim());
    if name.is_empty() {
        return None;
    }
    Some(CatalogModel {
        id: id.to_string(),
        display_name: name.to_string(),
        current,
        default,
    })
}

/// Splits a trailing ` (current)`, ` (default)` or ` (current, default)` off a display name.
/// A parenthesis that holds anything else (`Sonnet 4.5 (1M)`) is part of the name.
fn split_markers(rest: &str) -> (&str, bool, bool) {
    let Some(inner_end) = rest.strip_suffix(')') else {
        return (rest, false, false);
    };
    let Some(open) = inner_end.rfind('(') else {
        return (rest, false, false);
    };
    let inner = &inner_end[open + 1..];
    let (mut current, mut default) = (false, false);
    for marker in inner.split(',').map(str::trim) {
        match marker {
            "current" => current = true,
            "default" => default = true,
            _ => return (rest, false, false),
        }
    }
    (inner_end[..open].trim_end(), current, default)
}

/// Parses the whole output of `agent --list-models` (coloured or not). Unparseable lines are
/// skipped; a repeated id keeps its first line. Used by [`fetch_catalog`] and tests.
pub fn parse_list_models(output: &str) -> ListModels {
    let clean = strip_ansi(output);
    let mut models: Vec<CatalogModel> = Vec::new();
    let mut seen = HashSet::new();
    let mut no_models = false;
    for line in clean.lines() {
        if line.contains(NO_MODELS_TEXT) {
            no_models = true;
            continue;
        }
        if let Some(model) = parse_model_line(line)
            && seen.insert(model.id.clone())
        {
            models.push(model);
        }
    }
    if !models.is_empty() {
        ListModels::Models(models)
    } else if no_models {
        ListModels::NoModelsForAccount
    } else {
        ListModels::Unrecognised
    }
}

#[cfg(test)]
mod tests;
