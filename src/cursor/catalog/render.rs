//! What `--cursor-models` prints: the aligned table for people and the JSON route array.

use std::fmt::Write as _;

use serde_json::Value;

use super::Catalog;
use super::PickerSize;
use super::Route;

/// `--cursor-models --json` as a value: exactly an array of
/// `{"model","label","cursorModel","picker"}`, one per route, in `Catalog::routes_with_picker`
/// order. Unknown extra ids are not in it (see [`Picker::unavailable`](super::Picker::unavailable)).
pub(crate) fn routes_json(catalog: &Catalog, extra: &[String], size: PickerSize) -> Value {
    Value::Array(
        catalog
            .routes_with_picker(extra, size)
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

/// `--cursor-models --json` as printed text: the same array as `routes_json`, pretty, with
/// each object's keys in contract order (`model`, `label`, `cursorModel`, `picker`).
pub fn routes_json_text(catalog: &Catalog, extra: &[String], size: PickerSize) -> String {
    let routes = catalog.routes_with_picker(extra, size);
    serde_json::to_string_pretty(&routes)
        .unwrap_or_else(|_| routes_json(catalog, extra, size).to_string())
}

/// `--cursor-models` for people: an aligned table (route, Cursor model, label, picker mark),
/// picker rows first and set apart, then a note on any unavailable `MULTI_CURSOR_EXTRA_MODELS`
/// id (the table itself never fails on one).
pub fn render_table(catalog: &Catalog, extra: &[String], size: PickerSize) -> String {
    let picker = catalog.picker_sized(extra, size);
    let routes = catalog.routes_with_picker(extra, size);
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
