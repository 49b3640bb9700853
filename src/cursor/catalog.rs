//! The model catalog: which models the user's Cursor account can run (`agent --list-models`),
//! the routes Claude Code sees for them (`multi/cursor/<id>` and presets), the `/model` picker
//! rows, and how a requested model becomes the id passed to `agent --model` (DESIGN §3 "Routes
//! and picker", reference/cursor-cli.md §1.4).
//!
//! Who calls what:
//! - the launcher and `--cursor-models` call [`fetch_catalog`], save a good answer with
//!   [`store_cache`] and fall back to [`load_cached`] when Cursor cannot be asked;
//! - the launcher writes [`Catalog::picker`] rows into `--settings` after [`Picker::check`]
//!   (an unknown `MULTI_CURSOR_EXTRA_MODELS` id stops the launch);
//! - `--cursor-models` prints [`render_table`] or [`routes_json_text`] (never failing on an
//!   unknown extra id: the table notes it, the JSON stays exactly the route array);
//! - the gateway calls [`Catalog::resolve`] for each request's `model` and for a worker's first
//!   prompt line `model: <id>`.
//!
//! Route rules. Every catalog id `X` is the route `multi/cursor/X`, except Cursor's `auto`,
//! whose route is `multi/cursor/default` (`multi/cursor/auto` is accepted as an alias). An id
//! that differs from another listed id only by the suffixes `-low -medium -high -xhigh`
//! (`effort=<level>`), `-fast` (`fast=true`) and `-thinking` (`thinking=true`) is also a preset
//! of that base: `gpt-5.3-codex-high-fast` is `multi/cursor/gpt-5.3-codex/effort=high,fast=true`
//! (pairs sorted by key; the shortest listed base wins).
//!
//! Effort rule (decided here, see [`Catalog::resolve`]): Claude Code's `output_config.effort`
//! only changes a request for a route named by a catalog id (never a preset, which wins
//! unchanged), and only to the id `<id>-<level>` when the catalog lists it. `medium` means the
//! id itself; `max` means the highest listed of `-xhigh`, `-high`; any other value, or a level
//! the catalog lacks, keeps the id itself. A Fast variant is never chosen this way.

use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

use super::bounded;
use super::strip_ansi;
use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;

use crate::state::StateError;

/// Prefix of every Cursor route Claude Code can ask for.
pub const ROUTE_PREFIX: &str = "multi/cursor/";

/// The route of Cursor's Auto model (catalog id [`AUTO_ID`]).
pub const AUTO_ROUTE: &str = "multi/cursor/default";

/// Cursor's id for Auto, as `agent --list-models` prints it and `agent --model` takes it.
pub const AUTO_ID: &str = "auto";

/// Environment variable with extra picker ids (comma-separated), read by
/// [`extra_models_from_env`].
pub const EXTRA_MODELS_ENV: &str = "MULTI_CURSOR_EXTRA_MODELS";

/// How long [`fetch_catalog`] waits for `agent --list-models` before killing its process group.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(15);

/// File name of the catalog cache inside the state folder.
pub const CACHE_FILE: &str = "catalog.json";

/// Version of the cache file format; a cache with another version is ignored.
const CACHE_VERSION: u32 = 1;

/// The most stdout of `--list-models` we keep (real lists are a few KB).
const STDOUT_LIMIT: usize = 1 << 20;

/// The most stderr text an error carries.
const STDERR_LIMIT: usize = 4 * 1024;

/// The line `agent --list-models` prints for an account without models.
const NO_MODELS_TEXT: &str = "No models available for this account";

/// Picker defaults in picker order: (ids, display name). A model matches when its id is one of
/// the ids, or is one of them prefixed `cursor-` (the CLI spells Grok 4.7 `cursor-grok-4.7`), or
/// its display name equals the display name (ASCII case ignored).
const PICKER_DEFAULTS: &[(&[&str], &str)] = &[
    (&[AUTO_ID, "default"], "Auto"),
    (&["grok-4.7"], "Grok 4.7"),
    (&["composer-2.5"], "Composer 2.5"),
];

/// Id suffixes that make a preset: (suffix, parameter, value).
const PRESET_SUFFIXES: &[(&str, &str, &str)] = &[
    ("-low", "effort", "low"),
    ("-medium", "effort", "medium"),
    ("-high", "effort", "high"),
    ("-xhigh", "effort", "xhigh"),
    ("-fast", "fast", "true"),
    ("-thinking", "thinking", "true"),
];

/// Why the catalog could not be fetched, saved, or a model not resolved. Every message names
/// the fix.
#[derive(Debug, Error)]
pub enum CatalogError {
    /// [`fetch_catalog`]: the agent executable does not exist.
    #[error(
        "Cursor's agent CLI was not found at {}; install it (curl https://cursor.com/install -fsS | bash) or set MULTI_CURSOR_AGENT to its path",
        .path.display()
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
        "Cursor is not logged in (the agent CLI said: {message}); run `multi-cursor --cursor-login` (or set CURSOR_API_KEY) and try again"
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

    /// [`Catalog::resolve`]: the requested model is no route of this account's catalog.
    /// `suggestions` are close routes (`multi/cursor/…`), best first; possibly empty.
    #[error(
        "unknown Cursor model \"{requested}\"{}; run `multi-cursor --cursor-models` to see the models your Cursor account can run",
        suggestion_text(.suggestions)
    )]
    UnknownModel {
        requested: String,
        suggestions: Vec<String>,
    },

    /// [`Picker::check`]: an id in `MULTI_CURSOR_EXTRA_MODELS` is not in the catalog.
    #[error(
        "MULTI_CURSOR_EXTRA_MODELS: model \"{id}\" is unavailable. Use --cursor-models to see the models your Cursor account can run."
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
pub fn is_valid_id(id: &str) -> bool {
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

/// One route Claude Code can ask for. Serialised (by [`routes_json_text`]) as
/// `{"model","label","cursorModel","picker"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    /// `multi/cursor/<id>` or a preset `multi/cursor/<base>/<k>=<v>[,…]`.
    pub model: String,
    /// `<Display Name> via Cursor` (a preset uses its variant's display name).
    pub label: String,
    /// The id passed to `agent --model`.
    pub cursor_model: String,
    /// Whether the route is a `/model` picker row. Only [`Catalog::picker`] and
    /// [`Catalog::routes_with_picker`] set it; elsewhere (e.g. in [`Resolved`]) it is `false`.
    pub picker: bool,
}

impl Route {
    /// The route without `multi/cursor/` (`default`, `composer-2.5`,
    /// `gpt-5.3-codex/effort=high`): the spelling for a worker's `model: <id>` line.
    pub fn short_id(&self) -> &str {
        self.model
            .strip_prefix(ROUTE_PREFIX)
            .unwrap_or(self.model.as_str())
    }
}

/// What [`Catalog::resolve`] chose for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The id to pass to `agent --model`: the route's own id, or its effort variant.
    pub cursor_model: String,
    /// The canonical route that was asked for (aliases and spellings normalised).
    pub route: Route,
}

/// A route plus what the effort rule needs to know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    route: Route,
    /// A preset (`multi/cursor/<base>/<k>=<v>`): effort never changes it.
    preset: bool,
}

/// The account's models and every route they make. Built by [`Catalog::from_models`] (after a
/// fetch, from the cache, or in tests); read-only afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Catalog {
    models: Vec<CatalogModel>,
    entries: Vec<Entry>,
    /// Route model → index into `entries`.
    index: HashMap<String, usize>,
}

impl Catalog {
    /// Builds the catalog and its routes from parsed models (duplicate ids keep the first).
    pub fn from_models(models: Vec<CatalogModel>) -> Catalog {
        let mut seen = HashSet::new();
        let models: Vec<CatalogModel> = models
            .into_iter()
            .filter(|m| seen.insert(m.id.clone()))
            .collect();
        let ids: HashSet<&str> = models.iter().map(|m| m.id.as_str()).collect();

        // Presets grouped by their base id, in catalog order of the variants.
        let mut presets: HashMap<&str, Vec<(String, &CatalogModel)>> = HashMap::new();
        for model in &models {
            if let Some((base, params)) = decompose(&model.id, &ids) {
                let route = format!("{}/{params}", base_route(base));
                presets.entry(base).or_default().push((route, model));
            }
        }

        let mut entries = Vec::new();
        let mut index = HashMap::new();
        let mut push = |route: Route, preset: bool| {
            if !index.contains_key(&route.model) {
                index.insert(route.model.clone(), entries.len());
                entries.push(Entry { route, preset });
            }
        };
        for model in &models {
            push(
                Route {
                    model: base_route(&model.id),
                    label: label(model),
                    cursor_model: model.id.clone(),
                    picker: false,
                },
                false,
            );
            for (route, variant) in presets.get(model.id.as_str()).into_iter().flatten() {
                push(
                    Route {
                        model: route.clone(),
                        label: label(variant),
                        cursor_model: variant.id.clone(),
                        picker: false,
                    },
                    true,
                );
            }
        }
        Catalog {
            models,
            entries,
            index,
        }
    }

    /// The models as listed (catalog order).
    pub fn models(&self) -> &[CatalogModel] {
        &self.models
    }

    /// Whether the account lists no models (`No models available for this account.`).
    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    /// Whether `id` is a listed Cursor id.
    pub fn has_id(&self, id: &str) -> bool {
        self.models.iter().any(|m| m.id == id)
    }

    /// Every route in catalog order, each id followed by its presets; `picker` is `false`.
    pub fn routes(&self) -> impl Iterator<Item = &Route> {
        self.entries.iter().map(|e| &e.route)
    }

    /// Resolves a requested model to the id `agent --model` receives. Used by the gateway for
    /// a request's `model` (with `output_config.effort`) and for a worker's `model: <id>` line.
    ///
    /// Accepted spellings: `multi/cursor/<id>`, presets `multi/cursor/<base>/<k>=<v>[,…]` (pairs
    /// in any order), `multi/cursor/auto` (alias of `multi/cursor/default`), and each of those
    /// without `multi/cursor/` (`composer-2.5`, `default`, `auto`). An exact match wins; otherwise
    /// ASCII case is ignored.
    ///
    /// Effort (see the module docs): only a non-preset route changes, only to a listed
    /// `<id>-<low|high|xhigh>` (`max` → the highest listed of xhigh, high); `medium`, unknown
    /// values and missing variants keep the id. Presets win unchanged.
    pub fn resolve(
        &self,
        requested_model: &str,
        effort: Option<&str>,
    ) -> Result<Resolved, CatalogError> {
        let entry = self
            .lookup(requested_model)
            .ok_or_else(|| CatalogError::UnknownModel {
                requested: requested_model.to_string(),
                suggestions: self.suggestions(requested_model),
            })?;
        let cursor_model = self.apply_effort(entry, effort);
        Ok(Resolved {
            cursor_model,
            route: entry.route.clone(),
        })
    }

    fn lookup(&self, requested: &str) -> Option<&Entry> {
        let key = canonical_route(requested)?;
        if let Some(&i) = self.index.get(&key) {
            return self.entries.get(i);
        }
        // Alias: `auto` is Auto's id, so `multi/cursor/auto[/…]` means `multi/cursor/default[/…]`.
        let short = key.strip_prefix(ROUTE_PREFIX).unwrap_or(&key);
        let (first, rest) = match short.split_once('/') {
            Some((first, rest)) => (first, Some(rest)),
            None => (short, None),
        };
        if first.eq_ignore_ascii_case(AUTO_ID) {
            let alias = match rest {
                Some(rest) => format!("{AUTO_ROUTE}/{rest}"),
                None => AUTO_ROUTE.to_string(),
            };
            if let Some(&i) = self.index.get(&alias) {
                return self.entries.get(i);
            }
        }
        self.entries
            .iter()
            .find(|e| e.route.model.eq_ignore_ascii_case(&key))
    }

    fn apply_effort(&self, entry: &Entry, effort: Option<&str>) -> String {
        let id = &entry.route.cursor_model;
        let Some(effort) = effort else {
            return id.clone();
        };
        if entry.preset {
            return id.clone();
        }
        let levels: &[&str] = match effort.trim().to_ascii_lowercase().as_str() {
            "low" => &["low"],
            "high" => &["high"],
            "xhigh" => &["xhigh"],
            "max" => &["xhigh", "high"],
            // `medium` is the id itself; anything else is unknown and keeps it too.
            _ => &[],
        };
        levels
            .iter()
            .map(|level| format!("{id}-{level}"))
            .find(|variant| self.has_id(variant))
            .unwrap_or_else(|| id.clone())
    }

    /// Up to five routes close to `requested` (by containment or edit distance), best first.
    fn suggestions(&self, requested: &str) -> Vec<String> {
        let wanted = requested
            .trim()
            .strip_prefix(ROUTE_PREFIX)
            .unwrap_or(requested.trim())
            .to_ascii_lowercase();
        if wanted.is_empty() {
            return Vec::new();
        }
        let limit = (wanted.chars().count() / 3).max(2);
        let mut scored: Vec<(usize, usize, &str)> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(order, e)| {
                let short = e.route.short_id().to_ascii_lowercase();
                let score = if short.contains(&wanted) || wanted.contains(&short) {
                    short.len().abs_diff(wanted.len()).min(limit)
                } else {
                    edit_distance(&short, &wanted)
                };
                (score <= limit).then_some((score, order, e.route.model.as_str()))
            })
            .collect();
        scored.sort_unstable();
        scored
            .into_iter()
            .take(5)
            .map(|(_, _, model)| model.to_string())
            .collect()
    }

    /// The `/model` picker rows, in order: Auto, Grok 4.7, Composer 2.5 (each when the account
    /// has it, matched by id or display name), then the `extra` ids (see
    /// [`parse_extra_models`]); duplicates keep their first row. Extra ids the catalog cannot
    /// resolve are collected in [`Picker::unavailable`], not dropped silently: the launcher
    /// refuses them with [`Picker::check`], `--cursor-models` only reports them.
    pub fn picker(&self, extra: &[String]) -> Picker {
        let mut rows: Vec<Route> = Vec::new();
        let mut unavailable = Vec::new();
        let add = |route: &Route, rows: &mut Vec<Route>| {
            if !rows.iter().any(|r| r.model == route.model) {
                rows.push(Route {
                    picker: true,
                    ..route.clone()
                });
            }
        };
        for (ids, display) in PICKER_DEFAULTS {
            if let Some(model) = self.find_default(ids, display)
                && let Some(&i) = self.index.get(&base_route(&model.id))
                && let Some(entry) = self.entries.get(i)
            {
                add(&entry.route, &mut rows);
            }
        }
        for id in extra {
            match self.lookup(id) {
                Some(entry) => add(&entry.route, &mut rows),
                None => {
                    if !unavailable.contains(id) {
                        unavailable.push(id.clone());
                    }
                }
            }
        }
        Picker { rows, unavailable }
    }

    /// A picker default: by id first, then by `cursor-<id>`, then by display name.
    fn find_default(&self, ids: &[&str], display: &str) -> Option<&CatalogModel> {
        let by_id = |m: &&CatalogModel| ids.contains(&m.id.as_str());
        let by_cursor_id = |m: &&CatalogModel| {
            m.id.strip_prefix("cursor-")
                .is_some_and(|rest| ids.contains(&rest))
        };
        let by_name = |m: &&CatalogModel| m.display_name.trim().eq_ignore_ascii_case(display);
        self.models
            .iter()
            .find(by_id)
            .or_else(|| self.models.iter().find(by_cursor_id))
            .or_else(|| self.models.iter().find(by_name))
    }

    /// Every route with `picker` set: picker rows first in picker order, then the others in
    /// catalog order (each id followed by its presets). What `--cursor-models` lists.
    pub fn routes_with_picker(&self, extra: &[String]) -> Vec<Route> {
        let picker = self.picker(extra);
        let mut routes = picker.rows;
        for entry in &self.entries {
            if !routes.iter().any(|r| r.model == entry.route.model) {
                routes.push(entry.route.clone());
            }
        }
        routes
    }
}

/// The `/model` picker for this account, from [`Catalog::picker`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker {
    /// The picker rows in order (`picker` is `true`).
    pub rows: Vec<Route>,
    /// Ids from `MULTI_CURSOR_EXTRA_MODELS` the catalog lacks, in the order given.
    pub unavailable: Vec<String>,
}

impl Picker {
    /// The launcher's gate: the first unavailable extra id as
    /// [`CatalogError::ExtraModelUnavailable`], else `Ok`.
    pub fn check(&self) -> Result<(), CatalogError> {
        match self.unavailable.first() {
            Some(id) => Err(CatalogError::ExtraModelUnavailable { id: id.clone() }),
            None => Ok(()),
        }
    }
}

/// Splits a `MULTI_CURSOR_EXTRA_MODELS` value: comma-separated, each trimmed, empty entries
/// dropped, duplicates dropped (first kept). `None` (unset) gives no ids.
pub fn parse_extra_models(raw: Option<&str>) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for id in raw.unwrap_or_default().split(',').map(str::trim) {
        if !id.is_empty() && !ids.iter().any(|known| known == id) {
            ids.push(id.to_string());
        }
    }
    ids
}

/// [`parse_extra_models`] of the process environment's `MULTI_CURSOR_EXTRA_MODELS`; for the
/// launcher and `--cursor-models`.
pub fn extra_models_from_env() -> Vec<String> {
    let raw = std::env::var(EXTRA_MODELS_ENV).ok();
    parse_extra_models(raw.as_deref())
}

/// `--cursor-models --json` as a value: exactly an array of
/// `{"model","label","cursorModel","picker"}`, one per route, in [`Catalog::routes_with_picker`]
/// order. Unknown extra ids are not in it (see [`Picker::unavailable`]).
pub fn routes_json(catalog: &Catalog, extra: &[String]) -> Value {
    Value::Array(
        catalog
            .routes_with_picker(extra)
            .iter()
            .map(|r| {
                serde_json::json!({
                    "model": r.model,
                    "label": r.label,
                    "cursorModel": r.cursor_model,
                    "picker": r.picker,
                })
            })
            .collect(),
    )
}

/// `--cursor-models --json` as printed text: the same array as [`routes_json`], pretty, with
/// each object's keys in contract order (`model`, `label`, `cursorModel`, `picker`).
pub fn routes_json_text(catalog: &Catalog, extra: &[String]) -> String {
    let routes = catalog.routes_with_picker(extra);
    serde_json::to_string_pretty(&routes)
        .unwrap_or_else(|_| routes_json(catalog, extra).to_string())
}

/// `--cursor-models` for people: an aligned table (route, Cursor model, label, picker mark),
/// picker rows first and set apart, then a note on any unavailable `MULTI_CURSOR_EXTRA_MODELS`
/// id (the table itself never fails on one).
pub fn render_table(catalog: &Catalog, extra: &[String]) -> String {
    let picker = catalog.picker(extra);
    let routes = catalog.routes_with_picker(extra);
    let mut out = String::new();
    if routes.is_empty() {
        out.push_str(
            "Cursor lists no models for this account (\"No models available for this account.\").\n\
             Check the account's plan at cursor.com, or sign in to another one with `multi-cursor --cursor-login`.\n",
        );
    } else {
        let headers = ["ROUTE", "CURSOR MODEL", "LABEL", "PICKER"];
        let width = |column: fn(&Route) -> &str, header: &str| {
            routes
                .iter()
                .map(|r| column(r).chars().count())
                .chain([header.chars().count()])
                .max()
                .unwrap_or_default()
        };
        let w_route = width(|r| r.model.as_str(), headers[0]);
        let w_model = width(|r| r.cursor_model.as_str(), headers[1]);
        let w_label = width(|r| r.label.as_str(), headers[2]);
        let mut line = |route: &str, model: &str, label: &str, mark: &str| {
            let text = format!("{route:<w_route$}  {model:<w_model$}  {label:<w_label$}  {mark}");
            out.push_str(text.trim_end());
            out.push('\n');
        };
        line(headers[0], headers[1], headers[2], headers[3]);
        let mut in_picker = true;
        for route in &routes {
            if in_picker && !route.picker {
                in_picker = false;
                if !picker.rows.is_empty() {
                    line("", "", "", "");
                }
            }
            let mark = if route.picker { "✓" } else { "" };
            line(&route.model, &route.cursor_model, &route.label, mark);
        }
        let presets = routes.iter().filter(|r| r.short_id().contains('/')).count();
        let _ = writeln!(
            out,
            "\n{} ({} in the /model picker, marked ✓; {}). A worker picks one with a first prompt line `model: <route without multi/cursor/>`.",
            plural(routes.len(), "route"),
            picker.rows.len(),
            plural(presets, "preset"),
        );
    }
    for id in &picker.unavailable {
        let _ = writeln!(
            out,
            "\nMULTI_CURSOR_EXTRA_MODELS names \"{id}\", which this account does not list; the launcher refuses to start until it is removed or corrected."
        );
    }
    out
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The route of a catalog id: `multi/cursor/<id>`, or [`AUTO_ROUTE`] for Auto.
fn base_route(id: &str) -> String {
    if id == AUTO_ID {
        AUTO_ROUTE.to_string()
    } else {
        format!("{ROUTE_PREFIX}{id}")
    }
}

fn label(model: &CatalogModel) -> String {
    format!("{} via Cursor", model.display_name)
}

/// If `id` is a listed id plus preset suffixes, the shortest such listed base and the sorted
/// `k=v,…` parameter text. Each parameter may appear once.
fn decompose<'a>(id: &'a str, ids: &HashSet<&str>) -> Option<(&'a str, String)> {
    let mut rest = id;
    let mut params: Vec<(&str, &str)> = Vec::new();
    let mut best = None;
    while let Some((suffix, key, value)) = PRESET_SUFFIXES
        .iter()
        .find(|(suffix, _, _)| rest.ends_with(suffix))
    {
        if params.iter().any(|(known, _)| known == key) {
            break;
        }
        rest = &rest[..rest.len() - suffix.len()];
        if rest.is_empty() {
            break;
        }
        params.push((key, value));
        if ids.contains(rest) {
            best = Some((rest, params.clone()));
        }
    }
    let (base, mut params) = best?;
    params.sort_unstable();
    Some((base, params_text(&params)))
}

fn params_text(params: &[(&str, &str)]) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Normalises a requested spelling to `multi/cursor/<id>[/<sorted k=v,…>]`; `None` when it
/// cannot be a route at all.
fn canonical_route(requested: &str) -> Option<String> {
    let requested = requested.trim();
    let short = requested.strip_prefix(ROUTE_PREFIX).unwrap_or(requested);
    let (id, params) = match short.split_once('/') {
        Some((id, params)) => (id, Some(params)),
        None => (short, None),
    };
    if !is_valid_id(id) {
        return None;
    }
    let Some(params) = params else {
        return Some(format!("{ROUTE_PREFIX}{id}"));
    };
    let mut pairs = Vec::new();
    for pair in params.split(',') {
        let (k, v) = pair.split_once('=')?;
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() || v.is_empty() || pairs.iter().any(|(known, _)| *known == k) {
            return None;
        }
        pairs.push((k, v));
    }
    pairs.sort_unstable();
    Some(format!("{ROUTE_PREFIX}{id}/{}", params_text(&pairs)))
}

/// Levenshtein distance over chars (short strings only: model ids).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitute.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

// ---------------------------------------------------------------------------------------------
// Fetching

/// Runs `<agent> --list-models` (15 s limit) and parses its answer. Used by the launcher and
/// `--cursor-models`; see [`fetch_catalog_with_timeout`] for the details.
pub async fn fetch_catalog(agent: &Path) -> Result<Catalog, CatalogError> {
    fetch_catalog_with_timeout(agent, FETCH_TIMEOUT).await
}

/// Runs `<agent> --list-models` in its own process group (stdin closed, `NO_COLOR=1`, killed on
/// drop; colour is stripped anyway, since the CLI ignores the variable on some builds) and
/// parses its answer; after `timeout` the whole group gets SIGKILL and the result is
/// [`CatalogError::Timeout`]. The auth failure text (`Authentication required`, on stderr or
/// stdout) gives [`CatalogError::LoggedOut`]; other non-zero exits give
/// [`CatalogError::Failed`] with bounded stderr. `No models available for this account.` gives
/// an empty catalog. Tests pass a short timeout.
pub async fn fetch_catalog_with_timeout(
    agent: &Path,
    timeout: Duration,
) -> Result<Catalog, CatalogError> {
    let output = run_list_models(agent, timeout).await?;
    interpret(agent, output)
}

/// What the child printed and how it ended.
struct ListOutput {
    success: bool,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

async fn run_list_models(agent: &Path, timeout: Duration) -> Result<ListOutput, CatalogError> {
    let mut command = tokio::process::Command::new(agent);
    command
        .arg("--list-models")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            CatalogError::AgentMissing {
                path: agent.to_path_buf(),
            }
        } else {
            CatalogError::Spawn {
                path: agent.to_path_buf(),
                source,
            }
        }
    })?;
    // process_group(0): the group id is the child's pid.
    let pgid = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let finished = tokio::time::timeout(timeout, async {
        tokio::join!(
            read_bounded(stdout, STDOUT_LIMIT),
            read_bounded(stderr, STDERR_LIMIT),
            child.wait()
        )
    })
    .await;
    match finished {
        Ok((stdout, stderr, status)) => {
            let status = status.map_err(|source| CatalogError::Spawn {
                path: agent.to_path_buf(),
                source,
            })?;
            Ok(ListOutput {
                success: status.success(),
                code: status.code(),
                stdout: String::from_utf8_lossy(&stdout).into_owned(),
                stderr: String::from_utf8_lossy(&stderr).into_owned(),
            })
        }
        Err(_elapsed) => {
            kill_group(pgid);
            // Reap the leader; kill_on_drop covers the unlikely case that this stalls.
            let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
            Err(CatalogError::Timeout {
                path: agent.to_path_buf(),
                timeout,
            })
        }
    }
}

/// SIGKILL to the whole process group (the agent is a shell wrapper around Node, so its
/// descendants must go too). A group that is already gone is fine.
fn kill_group(pgid: Option<u32>) {
    let Some(pgid) = pgid.and_then(|p| i32::try_from(p).ok()) else {
        return;
    };
    if let Err(error) = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pgid),
        nix::sys::signal::Signal::SIGKILL,
    ) && error != nix::errno::Errno::ESRCH
    {
        tracing::warn!(pgid, %error, "could not kill the `agent --list-models` process group");
    }
}

/// Reads a pipe to its end, keeping at most `limit` bytes (the rest is drained so the child
/// never blocks on a full pipe).
async fn read_bounded<R: AsyncRead + Unpin>(pipe: Option<R>, limit: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let Some(mut pipe) = pipe else {
        return kept;
    };
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
    kept
}

fn interpret(agent: &Path, output: ListOutput) -> Result<Catalog, CatalogError> {
    let stdout = strip_ansi(&output.stdout);
    let stderr = strip_ansi(&output.stderr);
    let auth = || auth_failure(&stderr).or_else(|| auth_failure(&stdout));
    if !output.success {
        if let Some(message) = auth() {
            return Err(CatalogError::LoggedOut { message });
        }
        let text = if stderr.trim().is_empty() {
            &stdout
        } else {
            &stderr
        };
        return Err(CatalogError::Failed {
            path: agent.to_path_buf(),
            code: output.code,
            stderr: bounded(text.trim(), STDERR_LIMIT),
        });
    }
    match parse_list_models(&stdout) {
        ListModels::Models(models) => Ok(Catalog::from_models(models)),
        ListModels::NoModelsForAccount => Ok(Catalog::default()),
        ListModels::Unrecognised => match auth() {
            Some(message) => Err(CatalogError::LoggedOut { message }),
            None => Err(CatalogError::UnrecognisedOutput {
                path: agent.to_path_buf(),
                excerpt: bounded(stdout.trim(), 512),
            }),
        },
    }
}

/// The CLI's line saying nobody is signed in, if any.
fn auth_failure(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|line| line.contains("Authentication required") || line.starts_with("Not logged in"))
        .map(|line| bounded(line, STDERR_LIMIT))
}

// ---------------------------------------------------------------------------------------------
// Cache

/// The cache file as stored: `{"version":1,"fetchedAtMs":…,"agent":"…","models":[…]}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CacheFile {
    version: u32,
    fetched_at_ms: u64,
    agent: String,
    models: Vec<CatalogModel>,
}

/// A catalog read back from `<state>/catalog.json` by [`load_cached`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedCatalog {
    /// The catalog as it was fetched.
    pub catalog: Catalog,
    /// When it was fetched.
    pub fetched_at: SystemTime,
    /// The agent executable that answered (a cache from another agent may not fit this one).
    pub agent: PathBuf,
}

impl CachedCatalog {
    /// How old the cache is (zero when the clock went backwards).
    pub fn age(&self) -> Duration {
        SystemTime::now()
            .duration_since(self.fetched_at)
            .unwrap_or_default()
    }

    /// Whether the cache came from `agent` and is at most `max_age` old; what a caller checks
    /// before using it instead of fetching.
    pub fn is_fresh_for(&self, agent: &Path, max_age: Duration) -> bool {
        self.agent == agent && self.age() <= max_age
    }
}

/// Where the cache lives inside `state_dir`.
pub fn cache_path(state_dir: &Path) -> PathBuf {
    state_dir.join(CACHE_FILE)
}

/// Reads the cache in `state_dir`. A missing cache is `None`; an unreadable, corrupted or
/// other-version cache is `None` with a warning, never an error (it is rebuilt by the next
/// fetch).
pub fn load_cached_from(state_dir: &Path) -> Option<CachedCatalog> {
    let path = cache_path(state_dir);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "ignoring the model catalog cache: it cannot be read");
            return None;
        }
    };
    let file: CacheFile = match serde_json::from_slice(&bytes) {
        Ok(file) => file,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "ignoring the corrupted model catalog cache; the next fetch rewrites it");
            return None;
        }
    };
    if file.version != CACHE_VERSION {
        tracing::warn!(path = %path.display(), version = file.version, "ignoring a model catalog cache of another version; the next fetch rewrites it");
        return None;
    }
    Some(CachedCatalog {
        catalog: Catalog::from_models(file.models),
        fetched_at: UNIX_EPOCH + Duration::from_millis(file.fetched_at_ms),
        agent: PathBuf::from(file.agent),
    })
}

/// [`load_cached_from`] the state folder (`MULTI_CURSOR_STATE_DIR` or the platform default);
/// `None` with a warning when there is no usable state folder.
pub fn load_cached() -> Option<CachedCatalog> {
    match crate::state::state_dir() {
        Ok(dir) => load_cached_from(&dir),
        Err(error) => {
            tracing::warn!(%error, "no model catalog cache: the state folder is unusable");
            None
        }
    }
}

/// Writes `catalog` (fetched now from `agent`) to the cache in `state_dir`: 0600, atomically,
/// creating the folder 0700 when missing.
pub fn store_cache_in(
    state_dir: &Path,
    catalog: &Catalog,
    agent: &Path,
) -> Result<(), CatalogError> {
    crate::state::ensure_private_dir(state_dir)?;
    let fetched_at_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default();
    let file = CacheFile {
        version: CACHE_VERSION,
        fetched_at_ms,
        agent: agent.to_string_lossy().into_owned(),
        models: catalog.models().to_vec(),
    };
    let bytes = serde_json::to_vec_pretty(&file)?;
    crate::state::write_private_atomic(&cache_path(state_dir), &bytes)?;
    Ok(())
}

/// [`store_cache_in`] the state folder (`MULTI_CURSOR_STATE_DIR` or the platform default);
/// called after a successful [`fetch_catalog`].
pub fn store_cache(catalog: &Catalog, agent: &Path) -> Result<(), CatalogError> {
    let dir = crate::state::state_dir()?;
    store_cache_in(&dir, catalog, agent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_split_only_known_words() {
        assert_eq!(
            split_markers("Auto (current, default)"),
            ("Auto", true, true)
        );
        assert_eq!(
            split_markers("Sonnet 4.5 (1M)"),
            ("Sonnet 4.5 (1M)", false, false)
        );
        assert_eq!(
            split_markers("Sonnet 4.5 (1M) (default)"),
            ("Sonnet 4.5 (1M)", false, true)
        );
    }

    #[test]
    fn canonical_route_sorts_pairs() {
        assert_eq!(
            canonical_route("x/fast=true,effort=high").as_deref(),
            Some("multi/cursor/x/effort=high,fast=true")
        );
        assert_eq!(canonical_route("multi/cursor/x/effort"), None);
        assert_eq!(canonical_route("has space"), None);
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("composer-2.5", "composer-25"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
