//! Routes and resolution: the routes a catalog makes (ids and presets), how a requested model
//! and effort become the id `agent --model` receives, and the `/model` picker rows.

use std::collections::HashMap;
use std::collections::HashSet;

use serde::Serialize;

use super::AUTO_ID;
use super::AUTO_ROUTE;
use super::CatalogError;
use super::CatalogModel;
use super::ROUTE_PREFIX;
use super::is_valid_id;
use crate::env::EXTRA_MODELS_ENV;

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

/// One route Claude Code can ask for. Serialised (by [`routes_json_text`](super::routes_json_text)) as
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
    /// `Catalog::routes_with_picker` set it; elsewhere (e.g. in [`Resolved`]) it is `false`.
    pub picker: bool,
}

impl Route {
    /// The route without `multi/cursor/` (`default`, `composer-2.5`,
    /// `gpt-5.3-codex/effort=high`): the spelling for a worker's `model: <id>` line.
    pub(crate) fn short_id(&self) -> &str {
        self.model
            .strip_prefix(ROUTE_PREFIX)
            .unwrap_or(self.model.as_str())
    }
}

/// What [`Catalog::resolve`] chose for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
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
    pub(crate) fn from_models(models: Vec<CatalogModel>) -> Catalog {
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
    pub(crate) fn has_id(&self, id: &str) -> bool {
        self.models.iter().any(|m| m.id == id)
    }

    /// Every route in catalog order, each id followed by its presets; `picker` is `false`.
    pub(crate) fn routes(&self) -> impl Iterator<Item = &Route> {
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
    pub(crate) fn resolve(
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
    pub(crate) fn routes_with_picker(&self, extra: &[String], size: PickerSize) -> Vec<Route> {
        let picker = self.picker_sized(extra, size);
        let mut routes = picker.rows;
        for entry in &self.entries {
            if !routes.iter().any(|r| r.model == entry.route.model) {
                routes.push(entry.route.clone());
            }
        }
        routes
    }

    /// The `/model` picker for `size`: [`Catalog::picker`] for [`PickerSize::Short`]; for
    /// [`PickerSize::All`] every route the account can run, in the order and with the labels
    /// `--cursor-models` shows (the short list's rows first, then the rest in catalog order,
    /// each id followed by its presets).
    pub(crate) fn picker_sized(&self, extra: &[String], size: PickerSize) -> Picker {
        let short = self.picker(extra);
        if size == PickerSize::Short {
            return short;
        }
        let mut rows = short.rows;
        for entry in &self.entries {
            if !rows.iter().any(|r| r.model == entry.route.model) {
                rows.push(Route {
                    picker: true,
                    ..entry.route.clone()
                });
            }
        }
        Picker {
            rows,
            unavailable: short.unavailable,
        }
    }
}

/// How many routes the `/model` picker offers (`MULTI_CURSOR_PICKER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PickerSize {
    /// Auto, Grok 4.7, Composer 2.5 and the `MULTI_CURSOR_EXTRA_MODELS` ids.
    #[default]
    Short,
    /// Every route the account can run (Claude Code's `/model` has a search box past 25 rows
    /// from 2.1.334 and Tab completion from 2.1.335).
    All,
}

impl PickerSize {
    /// Reads a `MULTI_CURSOR_PICKER` value: unset, empty or `short` → [`PickerSize::Short`],
    /// `all` → [`PickerSize::All`] (ASCII case ignored); anything else is refused.
    pub(crate) fn parse(value: Option<&str>) -> Result<PickerSize, CatalogError> {
        match value.map(str::trim).map(str::to_ascii_lowercase).as_deref() {
            None | Some("" | "short") => Ok(PickerSize::Short),
            Some("all") => Ok(PickerSize::All),
            Some(_) => Err(CatalogError::PickerSetting {
                value: crate::text::one_line(value.unwrap_or_default()),
            }),
        }
    }

    /// `PickerSize::parse` of the process environment's `MULTI_CURSOR_PICKER`.
    pub fn from_env() -> Result<PickerSize, CatalogError> {
        PickerSize::parse(std::env::var(crate::env::PICKER_ENV).ok().as_deref())
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
pub(crate) fn parse_extra_models(raw: Option<&str>) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for id in raw.unwrap_or_default().split(',').map(str::trim) {
        if !id.is_empty() && !ids.iter().any(|known| known == id) {
            ids.push(id.to_string());
        }
    }
    ids
}

/// `parse_extra_models` of the process environment's `MULTI_CURSOR_EXTRA_MODELS`; for the
/// launcher and `--cursor-models`.
pub fn extra_models_from_env() -> Vec<String> {
    let raw = std::env::var(EXTRA_MODELS_ENV).ok();
    parse_extra_models(raw.as_deref())
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

#[cfg(test)]
mod tests {
    use super::*;

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
