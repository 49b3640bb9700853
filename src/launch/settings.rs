//! The `--settings` and `--agents` JSON the launcher gives Claude Code (picker rows, hooks, the
//! `multi-cursor` worker type; as measured on Claude Code 2.1.328), merged with the user's own.
//!
//! Settings: one `modelPicker.options` row per picker route (`model`, `label`, `description`,
//! `behavesAs`) and a command hook running `<this exe> hook` on SessionStart, UserPromptSubmit
//! and SubagentStart (the gateway learns each session's workspace and permission mode, and each
//! worker's workspace, from them). Agents: the `multi-cursor` worker type.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use super::LaunchError;
use crate::cursor::catalog::AUTO_ROUTE;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::Picker;
use crate::cursor::catalog::Route;

/// The Agent type the launcher defines.
pub const WORKER_TYPE: &str = "multi-cursor";

/// The Claude model whose client-side handling a picker row borrows (`behavesAs`): a 200K
/// context window (Claude Code compacts at a sensible size and prints no "unrecognized model"
/// warning) and no effort setting, since the row's Cursor id has no effort variants (measured
/// on 2.1.328: no `output_config` is sent, `/model` says effort is not supported).
pub const BEHAVES_AS: &str = "claude-sonnet-4-5";

/// `behavesAs` for a row whose Cursor id has effort variants (`<id>-low|-high|-xhigh`): also a
/// 200K window, but Claude Code offers the effort choice in `/model` and sends
/// `output_config.effort` (default `high`, measured on 2.1.328), which the gateway maps to the
/// listed variant.
pub const BEHAVES_AS_WITH_EFFORT: &str = "claude-sonnet-4-6";

/// Effort suffixes the gateway can map `output_config.effort` to.
const EFFORT_SUFFIXES: [&str; 3] = ["-low", "-high", "-xhigh"];

/// The hook events the gateway needs.
pub const HOOK_EVENTS: [&str; 3] = ["SessionStart", "UserPromptSubmit", "SubagentStart"];

/// How long Claude Code lets one hook run (seconds); `multi-cursor hook` takes milliseconds.
const HOOK_TIMEOUT_SECS: u64 = 10;

/// The worker's system prompt. Claude Code refuses an empty one; Cursor never receives it.
const WORKER_PROMPT: &str = "Complete the delegated task.";

/// `behavesAs` for a picker row: [`BEHAVES_AS_WITH_EFFORT`] when `catalog` lists an effort
/// variant of the row's own id (presets never change with effort), else [`BEHAVES_AS`].
pub fn behaves_as(route: &Route, catalog: Option<&Catalog>) -> &'static str {
    let preset = route.short_id().contains('/');
    let has_effort = catalog.is_some_and(|catalog| {
        EFFORT_SUFFIXES
            .iter()
            .any(|suffix| catalog.has_id(&format!("{}{suffix}", route.cursor_model)))
    });
    if has_effort && !preset {
        BEHAVES_AS_WITH_EFFORT
    } else {
        BEHAVES_AS
    }
}

/// Our own settings: the picker rows (from `picker`, with `catalog` deciding each row's
/// `behavesAs`) and the hooks running `exe hook`.
pub fn our_settings(picker: &Picker, catalog: Option<&Catalog>, exe: &Path) -> Value {
    let options: Vec<Value> = picker
        .rows
        .iter()
        .map(|route| {
            let display = route
                .label
                .strip_suffix(" via Cursor")
                .unwrap_or(&route.label);
            json!({
                "model": route.model,
                "label": route.label,
                "description": format!(
                    "{display} on Cursor's agent (--model {}) through the local gateway",
                    route.cursor_model
                ),
                "behavesAs": behaves_as(route, catalog),
            })
        })
        .collect();
    let command = format!("{} hook", shell_quote(&exe.to_string_lossy()));
    let mut hooks = Map::new();
    for event in HOOK_EVENTS {
        hooks.insert(
            event.to_string(),
            json!([{"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECS}]}]),
        );
    }
    json!({"modelPicker": {"options": options}, "hooks": hooks})
}

/// The `multi-cursor` worker definition: runs on Cursor Auto; the description tells the parent
/// how to choose another Cursor model (a first prompt line `model: <id>`), listing the picker
/// ids.
pub fn our_agents(picker: &Picker) -> Value {
    let ids: Vec<String> = picker
        .rows
        .iter()
        .map(|r| format!("`{}`", r.short_id()))
        .collect();
    let choices = if ids.is_empty() {
        "`default`".to_string()
    } else {
        ids.join(", ")
    };
    let description = format!(
        "Cursor worker: hands the task to Cursor's own coding agent, which works in this \
         workspace with its own tools and reports back. It runs Cursor Auto; to choose a Cursor \
         model, make the first line of the prompt `model: <id>` with one of {choices} (`multi-cursor \
         --cursor-models` lists every id). Leave the Agent tool's `model` argument unset: it only \
         takes Claude models."
    );
    json!({WORKER_TYPE: {"description": description, "prompt": WORKER_PROMPT, "model": AUTO_ROUTE}})
}

/// Reads one `--settings` or `--agents` value: inline JSON when it starts with `{`, else a
/// file (relative to the working directory, as Claude Code reads it). Must be a JSON object.
pub fn read_json_arg(option: &str, value: &OsStr) -> Result<Map<String, Value>, LaunchError> {
    let text = value.to_string_lossy();
    let (source, parsed) = if text.trim_start().starts_with('{') {
        (
            "inline JSON".to_string(),
            serde_json::from_str::<Value>(&text),
        )
    } else {
        let path = Path::new(value);
        let bytes = std::fs::read(path).map_err(|source| LaunchError::ReadArg {
            option: option.to_string(),
            path: path.to_path_buf(),
            source,
        })?;
        (
            path.display().to_string(),
            serde_json::from_slice::<Value>(&bytes),
        )
    };
    match parsed {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(LaunchError::BadArg {
            option: option.to_string(),
            origin: source,
            reason: "it is not a JSON object".to_string(),
        }),
        Err(error) => Err(LaunchError::BadArg {
            option: option.to_string(),
            origin: source,
            reason: error.to_string(),
        }),
    }
}

/// The user's settings (each `--settings` in order, later keys winning as in a plain object
/// merge; `modelPicker.options` and each hook event's list are concatenated), with ours
/// appended: our picker rows after theirs (a row of theirs for the same model wins), our hooks
/// after theirs.
pub fn merge_settings(user: Vec<Map<String, Value>>, ours: Value) -> Result<Value, LaunchError> {
    let mut merged = Map::new();
    for layer in user.into_iter().chain(match ours {
        Value::Object(map) => Some(map),
        _ => None,
    }) {
        for (key, value) in layer {
            match key.as_str() {
                "modelPicker" => merge_picker(&mut merged, value)?,
                "hooks" => merge_hooks(&mut merged, value)?,
                _ => {
                    merged.insert(key, value);
                }
            }
        }
    }
    Ok(Value::Object(merged))
}

fn merge_picker(merged: &mut Map<String, Value>, value: Value) -> Result<(), LaunchError> {
    let Value::Object(mut incoming) = value else {
        return Err(settings_shape("modelPicker must be an object"));
    };
    let rows = match incoming.remove("options") {
        None => Vec::new(),
        Some(Value::Array(rows)) => rows,
        Some(_) => return Err(settings_shape("modelPicker.options must be a list")),
    };
    let picker = merged
        .entry("modelPicker")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(picker) = picker else {
        return Err(settings_shape("modelPicker must be an object"));
    };
    let options = picker
        .entry("options")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Value::Array(options) = options else {
        return Err(settings_shape("modelPicker.options must be a list"));
    };
    for row in rows {
        let taken = row.get("model").and_then(Value::as_str).is_some_and(|m| {
            options
                .iter()
                .any(|o| o.get("model").and_then(Value::as_str) == Some(m))
        });
        if !taken {
            options.push(row);
        }
    }
    for (key, value) in incoming {
        picker.insert(key, value);
    }
    Ok(())
}

fn merge_hooks(merged: &mut Map<String, Value>, value: Value) -> Result<(), LaunchError> {
    let Value::Object(incoming) = value else {
        return Err(settings_shape("hooks must be an object"));
    };
    let hooks = merged
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err(settings_shape("hooks must be an object"));
    };
    for (event, entries) in incoming {
        let Value::Array(entries) = entries else {
            return Err(settings_shape(&format!("hooks.{event} must be a list")));
        };
        match hooks
            .entry(event.clone())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(list) => list.extend(entries),
            _ => return Err(settings_shape(&format!("hooks.{event} must be a list"))),
        }
    }
    Ok(())
}

fn settings_shape(reason: &str) -> LaunchError {
    LaunchError::BadArg {
        option: "--settings".to_string(),
        origin: "your settings".to_string(),
        reason: reason.to_string(),
    }
}

/// The user's agents (each `--agents` in order) with our worker added; a user agent named
/// [`WORKER_TYPE`] is refused.
pub fn merge_agents(user: Vec<Map<String, Value>>, ours: Value) -> Result<Value, LaunchError> {
    let mut merged = Map::new();
    for layer in user {
        for (name, agent) in layer {
            if name == WORKER_TYPE {
                return Err(LaunchError::AgentClash);
            }
            merged.insert(name, agent);
        }
    }
    if let Value::Object(ours) = ours {
        merged.extend(ours);
    }
    Ok(Value::Object(merged))
}

/// `text` quoted for a POSIX shell (Claude Code runs command hooks through one).
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c))
    {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn user_rows_and_hooks_come_first_and_other_keys_stay() {
        let ours = json!({
            "modelPicker": {"options": [{"model": "multi/cursor/default"}, {"model": "multi/cursor/x"}]},
            "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "mc hook"}]}]},
        });
        let user = obj(json!({
            "theme": "dark",
            "modelPicker": {"options": [{"model": "multi/cursor/x", "label": "mine"}]},
            "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "theirs"}]}],
                      "Stop": []},
        }));
        let merged = merge_settings(vec![user], ours).unwrap();
        assert_eq!(merged["theme"], "dark");
        let rows = merged["modelPicker"]["options"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["label"], "mine");
        assert_eq!(rows[1]["model"], "multi/cursor/default");
        let start = merged["hooks"]["SessionStart"].as_array().unwrap();
        assert_eq!(start[0]["hooks"][0]["command"], "theirs");
        assert_eq!(start[1]["hooks"][0]["command"], "mc hook");
        assert!(merged["hooks"]["Stop"].is_array());
    }

    #[test]
    fn a_misshapen_user_picker_is_refused() {
        let user = obj(json!({"modelPicker": {"options": "nope"}}));
        assert!(merge_settings(vec![user], json!({})).is_err());
    }

    #[test]
    fn agents_merge_and_refuse_our_name() {
        let ours = json!({WORKER_TYPE: {"model": AUTO_ROUTE}});
        let user = obj(json!({"reviewer": {"description": "r", "prompt": "p"}}));
        let merged = merge_agents(vec![user], ours.clone()).unwrap();
        assert!(merged["reviewer"].is_object() && merged[WORKER_TYPE].is_object());
        let clash = obj(json!({WORKER_TYPE: {"description": "mine", "prompt": "p"}}));
        assert!(matches!(
            merge_agents(vec![clash], ours),
            Err(LaunchError::AgentClash)
        ));
    }

    #[test]
    fn quotes_for_the_shell() {
        assert_eq!(
            shell_quote("/usr/bin/multi-cursor"),
            "/usr/bin/multi-cursor"
        );
        assert_eq!(shell_quote("/a b/it's"), r"'/a b/it'\''s'");
    }
}
