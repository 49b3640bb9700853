//! The `--settings` and `--agents` JSON the launcher gives Claude Code, merged with the user's
//! own. Claude Code takes one `--settings` and one `--agents` (a second flag replaces the
//! first), and a higher settings layer's `modelPicker` replaces a lower one's, so everything
//! the user gave or saved is merged into the one value the launcher passes.
//!
//! Settings: one `modelPicker.options` row per picker route (`model`, `label`, `description`,
//! `behavesAs`) and a command hook running `<this exe> hook` on SessionStart, UserPromptSubmit
//! and SubagentStart (the gateway learns each session's workspace and permission mode, and each
//! worker's workspace, from them), and on Claude Code 2.1.335+ on Interrupt (the gateway ends
//! the session's live Cursor run). Agents: the `multi-cursor` worker type.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use super::LaunchError;
use super::claude::Version;
use crate::cursor::catalog::AUTO_ROUTE;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::Picker;
use crate::cursor::catalog::Route;
use crate::dialog::DialogTool;
use crate::env::GATEWAY_TOKEN_ENV;
use crate::env::GATEWAY_URL_ENV;
use crate::platform::shell_command::statusline_command;
use crate::policy::settings::Layer;
use crate::policy::settings::Scope;
use crate::session::hooks::INTERRUPT_EVENT;

/// The Agent type the launcher defines.
pub(crate) const WORKER_TYPE: &str = "multi-cursor";

/// The Claude model whose client-side handling a picker row borrows (`behavesAs`) when the
/// installed Cursor CLI has no auto review: a 200K context window (Claude Code compacts at a
/// sensible size and prints no "unrecognized model" warning), no effort setting and no auto
/// mode. Measured on 2.1.328 and 2.1.337 (`-p --permission-mode auto` against a stand-in): no
/// `output_config`, no `safeguards`, the mode falls back to manual (`default`), and the request
/// is the one `claude-sonnet-4-5` gave byte for byte but for the home path. `claude-sonnet-4-5`
/// was this profile until 2.1.337's table gave it a retirement date (2026-11-30); Haiku 4.5 has
/// none in either build, which `tests/launcher/picker_profile_not_retired.rs` checks in the
/// binary of the Claude Code under test.
pub const BEHAVES_AS: &str = "claude-haiku-4-5";

/// `behavesAs` for a row Claude's auto mode may run on (the CLI lists `--auto-review`), and for
/// a row whose Cursor id has effort variants (`<id>-low|-high|-xhigh`): also a 200K window;
/// Claude Code offers auto mode (Shift+Tab cycles auto → manual → accept edits → plan, and a
/// fresh interactive session starts in auto, its own default since 2.1.283), offers the
/// effort choice in `/model` and sends `output_config.effort` (default `high`, measured on
/// 2.1.328), which the gateway maps to a listed variant and otherwise ignores. No
/// auto-capable profile without effort exists.
pub const BEHAVES_AS_WITH_EFFORT: &str = "claude-sonnet-4-6";

/// Effort suffixes the gateway can map `output_config.effort` to.
const EFFORT_SUFFIXES: [&str; 3] = ["-low", "-high", "-xhigh"];

/// The hook events the gateway needs.
pub(crate) const HOOK_EVENTS: [&str; 3] = ["SessionStart", "UserPromptSubmit", "SubagentStart"];

/// The first Claude Code with the `Interrupt` hook event. Older builds refuse settings naming
/// it (measured: 2.1.328's TUI stops at start on `Unknown hook event "Interrupt"`, 2.1.332
/// warns in `-p`), so it is registered only from this version on, and never in the plugin's
/// `hooks.json`.
pub(crate) const INTERRUPT_HOOK_SINCE: Version = Version(2, 1, 335);

/// The hook events registered for Claude Code `claude`: [`HOOK_EVENTS`], and `Interrupt` (the
/// gateway ends the session's live Cursor run on it) from [`INTERRUPT_HOOK_SINCE`].
pub(crate) fn hook_events(claude: Version) -> Vec<&'static str> {
    let mut events = HOOK_EVENTS.to_vec();
    if claude >= INTERRUPT_HOOK_SINCE {
        events.push(INTERRUPT_EVENT);
    }
    events
}

/// How long Claude Code lets one hook run (seconds); `multi-cursor hook` takes milliseconds.
const HOOK_TIMEOUT_SECS: u64 = 10;

/// The worker's system prompt. Claude Code refuses an empty one; Cursor never receives it.
const WORKER_PROMPT: &str = "Complete the delegated task.";

/// `behavesAs` for a picker row: [`BEHAVES_AS_WITH_EFFORT`] when auto mode can run on it
/// (`auto_review`: the CLI offers `--auto-review`) or `catalog` lists an effort variant of the
/// row's own id (presets never change with effort), else [`BEHAVES_AS`].
pub(crate) fn behaves_as(
    route: &Route,
    catalog: Option<&Catalog>,
    auto_review: bool,
) -> &'static str {
    if auto_review {
        return BEHAVES_AS_WITH_EFFORT;
    }
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

/// Our own settings: the picker rows (from `picker`, with `catalog` and `auto_review` deciding
/// each row's `behavesAs`) and the hooks running `exe hook` (in exec form) on `events`
/// ([`hook_events`]).
pub(crate) fn our_settings(
    picker: &Picker,
    catalog: Option<&Catalog>,
    auto_review: bool,
    exe: &Path,
    events: &[&str],
) -> Value {
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
                "behavesAs": behaves_as(route, catalog, auto_review),
            })
        })
        .collect();
    // Exec form (`command` + `args`, Claude Code 2.1.328's schema): Claude Code spawns the
    // executable itself, with no shell between, so the path needs no quoting and the hook runs
    // the same on Windows, where a shell-form command would go to Git Bash or PowerShell (to
    // which a quoted path is only a string).
    let command = exe.to_string_lossy();
    let mut hooks = Map::new();
    for event in events {
        hooks.insert(
            event.to_string(),
            json!([{"hooks": [{
                "type": "command",
                "command": command,
                "args": ["hook"],
                "timeout": HOOK_TIMEOUT_SECS,
            }]}]),
        );
    }
    // Plan approval switches the mode without a prompt: the PostToolUse hook of
    // `ExitPlanMode` carries the mode the user picked, before the approval reaches the model.
    hooks.insert(
        "PostToolUse".to_string(),
        json!([{"matcher": DialogTool::ExitPlanMode.name(), "hooks": [{
            "type": "command",
            "command": command,
            "args": ["hook"],
            "timeout": HOOK_TIMEOUT_SECS,
        }]}]),
    );
    json!({"modelPicker": {"options": options}, "hooks": hooks})
}

/// The `multi-cursor` worker definition: runs on Cursor Auto; the description tells the parent
/// how to choose another Cursor model (a first prompt line `model: <id>`), listing the picker
/// ids.
pub(crate) fn our_agents(picker: &Picker) -> Value {
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

/// Largest `--settings` or `--agents` file read, in bytes (as for a settings layer).
const MAX_ARG_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Puts the gateway's address and token for our own hooks and `multi-cursor status`
/// (`MULTI_CURSOR_GATEWAY_URL`, `MULTI_CURSOR_GATEWAY_TOKEN`) in `settings`'s `env`. Claude Code
/// applies settings `env` over its process environment, and the `--settings` layer outranks
/// the project's and the user's, so a cloned repository's `.claude/settings.json` cannot point
/// our hooks elsewhere. The file is 0600 in the launcher's 0700 temporary folder, removed at
/// exit; the token never goes in argv.
pub(crate) fn put_client_env(settings: &mut Value, url: &str, token: &str) {
    if let Some(env) = super::upstream::settings_env(settings) {
        env.insert(GATEWAY_URL_ENV.to_string(), Value::from(url));
        env.insert(GATEWAY_TOKEN_ENV.to_string(), Value::from(token));
    }
}

/// Reads one `--settings` or `--agents` value: inline JSON when it starts with `{`, else a
/// file (relative to the working directory, as Claude Code reads it). Must be a JSON object.
pub(crate) fn read_json_arg(
    option: &str,
    value: &OsStr,
) -> Result<Map<String, Value>, LaunchError> {
    let text = value.to_string_lossy();
    let (source, parsed) = if text.trim_start().starts_with('{') {
        (
            "inline JSON".to_string(),
            serde_json::from_str::<Value>(&text),
        )
    } else {
        let path = Path::new(value);
        // Read like a repository's settings file: `--settings /dev/stdin` or a FIFO would hang
        // the launch, `/dev/zero` would never end.
        let bytes =
            crate::state::read_regular_file(path, MAX_ARG_FILE_BYTES).map_err(|source| {
                LaunchError::ReadArg {
                    option: option.to_string(),
                    path: path.to_path_buf(),
                    source,
                }
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
pub(crate) fn merge_settings(
    user: Vec<Map<String, Value>>,
    ours: Value,
) -> Result<Value, LaunchError> {
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

/// The `modelPicker.options` rows of the user's settings files (local, project, then user
/// settings, as Claude Code ranks them), each as a `{"modelPicker": {"options": […]}}` object
/// to merge after the `--settings` values and before our rows. A higher layer's
/// `modelPicker` replaces a lower one's in Claude Code (measured on 2.1.328), so without this
/// our flag-layer picker would hide the user's own rows. A misshapen picker is left out.
pub(crate) fn file_pickers(layers: &[Layer]) -> Vec<Map<String, Value>> {
    layers
        .iter()
        .filter(|l| matches!(l.scope, Scope::Local | Scope::Project | Scope::User))
        .filter_map(|l| {
            let rows = l.settings.get("modelPicker")?.get("options")?.as_array()?;
            let mut picker = Map::new();
            picker.insert(
                "modelPicker".to_string(),
                json!({"options": rows.iter().filter(|r| r.is_object()).collect::<Vec<_>>()}),
            );
            Some(picker)
        })
        .collect()
}

/// The user's agents (each `--agents` in order) with our worker added; a user agent named
/// [`WORKER_TYPE`] is refused.
pub(crate) fn merge_agents(
    user: Vec<Map<String, Value>>,
    ours: Value,
) -> Result<Value, LaunchError> {
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

/// Claude Code's status-line refresh the launcher asks for, in seconds: the Cursor segment
/// shows a live run's time, and Claude Code's own triggers go quiet while a run works.
pub(crate) const STATUSLINE_REFRESH_SECS: u64 = 1;

/// The `statusLine` the launcher installs, or `None` to leave the user's as it is.
///
/// Claude Code draws one status line, and the `--settings` layer's `statusLine` replaces every
/// lower layer's (nothing merges), so ours carries the user's with it. The user's is the one
/// Claude Code would use from `layers`: the last `--settings` value that has one, else the
/// local, project, then user settings file (the command's form per system:
/// [`statusline_command`]). With none, ours is `<exe> statusline` refreshed
/// every [`STATUSLINE_REFRESH_SECS`]; with a command of theirs, ours is
/// `<exe> statusline --chain '<their command>'`, their other keys (`padding`, …) kept and their
/// `refreshInterval` lowered to [`STATUSLINE_REFRESH_SECS`] when larger or absent. `None` when
/// `enabled` is false (`MULTI_CURSOR_STATUSLINE=0`) or a managed settings file sets one (it
/// would win over ours anyway).
pub(crate) fn status_line(layers: &[Layer], exe: &Path, enabled: bool) -> Option<Value> {
    let has_line = |layer: &&Layer| layer.settings.contains_key("statusLine");
    if !enabled
        || layers
            .iter()
            .filter(|l| l.scope == Scope::Managed)
            .any(|l| has_line(&l))
    {
        return None;
    }
    let ranked = [Scope::Local, Scope::Project, Scope::User];
    let theirs = layers
        .iter()
        .filter(|l| l.scope == Scope::Flag)
        .rfind(has_line)
        .or_else(|| {
            ranked
                .iter()
                .find_map(|scope| layers.iter().filter(|l| l.scope == *scope).find(has_line))
        })
        .and_then(|layer| layer.settings.get("statusLine"));
    let their_command = theirs
        .and_then(|line| line.get("command"))
        .and_then(Value::as_str)
        .filter(|command| !command.trim().is_empty());
    let (Some(Value::Object(theirs)), Some(command)) = (theirs, their_command) else {
        return Some(json!({
            "type": "command",
            "command": statusline_command(exe, None),
            "refreshInterval": STATUSLINE_REFRESH_SECS,
        }));
    };
    let mut line = theirs.clone();
    line.insert("type".into(), json!("command"));
    line.insert(
        "command".into(),
        json!(statusline_command(exe, Some(command))),
    );
    let refresh = line.get("refreshInterval").and_then(Value::as_f64);
    if !refresh.is_some_and(|secs| secs > 0.0 && secs <= STATUSLINE_REFRESH_SECS as f64) {
        line.insert("refreshInterval".into(), json!(STATUSLINE_REFRESH_SECS));
    }
    Some(Value::Object(line))
}

/// Puts `line` (from [`status_line`]) in the merged settings; `None` leaves them as they are.
pub(crate) fn install_status_line(settings: &mut Value, line: Option<Value>) {
    if let (Value::Object(settings), Some(line)) = (settings, line) {
        settings.insert("statusLine".into(), line);
    }
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
    fn the_interrupt_hook_is_registered_only_from_2_1_335() {
        let registered = |version: Version| {
            let picker = Picker {
                rows: Vec::new(),
                unavailable: Vec::new(),
            };
            let events = hook_events(version);
            let ours = our_settings(&picker, None, false, Path::new("/mc"), &events);
            ours["hooks"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        for old in [Version(2, 1, 328), Version(2, 1, 332), Version(2, 1, 334)] {
            let events = registered(old);
            assert!(
                !events.iter().any(|e| e == "Interrupt"),
                "{old:?}: {events:?}"
            );
            // Ours on every build, and plan approval's PostToolUse.
            assert_eq!(events.len(), HOOK_EVENTS.len() + 1, "{events:?}");
            assert!(events.iter().any(|e| e == "PostToolUse"), "{events:?}");
        }
        for new in [Version(2, 1, 335), Version(2, 1, 337), Version(2, 2, 0)] {
            let events = registered(new);
            assert!(
                events.iter().any(|e| e == "Interrupt"),
                "{new:?}: {events:?}"
            );
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
    fn rows_of_the_settings_files_come_before_ours() {
        let layer = |scope, settings: Value| Layer {
            scope,
            file: String::new(),
            settings: obj(settings),
        };
        let layers = [
            layer(
                Scope::Flag,
                json!({"modelPicker": {"options": [{"model": "flag"}]}}),
            ),
            layer(
                Scope::Project,
                json!({"modelPicker": {"options": [{"model": "project"}, 7]}}),
            ),
            layer(
                Scope::User,
                json!({"modelPicker": {"options": [{"model": "user"}]}}),
            ),
            layer(Scope::Local, json!({"modelPicker": "bad"})),
        ];
        let mut user = vec![obj(
            json!({"modelPicker": {"options": [{"model": "flag"}]}}),
        )];
        user.extend(file_pickers(&layers));
        let ours = json!({"modelPicker": {"options": [{"model": "multi/cursor/default"}]}});
        let merged = merge_settings(user, ours).unwrap();
        let models: Vec<&str> = merged["modelPicker"]["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["model"].as_str().unwrap())
            .collect();
        assert_eq!(models, ["flag", "project", "user", "multi/cursor/default"]);
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

    fn layer(scope: Scope, settings: Value) -> Layer {
        Layer {
            scope,
            file: String::new(),
            settings: obj(settings),
        }
    }

    #[test]
    fn without_a_status_line_of_theirs_ours_is_installed() {
        let exe = Path::new("/opt/mc/multi-cursor");
        let layers = [layer(Scope::User, json!({"theme": "dark"}))];
        let line = status_line(&layers, exe, true).unwrap();
        assert_eq!(
            line,
            json!({"type": "command", "command": statusline_command(exe, None), "refreshInterval": 1})
        );
        let mut merged = json!({"theme": "dark"});
        install_status_line(&mut merged, Some(line.clone()));
        assert_eq!(merged["statusLine"], line);
        // A status line without a command draws nothing: ours replaces it.
        let layers = [layer(
            Scope::User,
            json!({"statusLine": {"type": "command"}}),
        )];
        assert_eq!(
            status_line(&layers, exe, true).unwrap()["command"],
            line["command"]
        );
    }

    #[test]
    fn theirs_is_chained_with_its_keys_and_a_faster_refresh() {
        let exe = Path::new("/a b/multi-cursor");
        let layers = [
            layer(
                Scope::Project,
                json!({"statusLine": {"type": "command", "command": "project.sh"}}),
            ),
            layer(
                Scope::User,
                json!({"statusLine": {"type": "command", "command": "~/bin/line.sh 'x'", "padding": 2, "refreshInterval": 5}}),
            ),
        ];
        let line = status_line(&layers[1..], exe, true).unwrap();
        assert_eq!(
            line,
            json!({
                "type": "command",
                "command": statusline_command(exe, Some("~/bin/line.sh 'x'")),
                "padding": 2,
                "refreshInterval": 1,
            })
        );
        // The project file outranks the user file; a smaller refresh of theirs is kept.
        let line = status_line(&layers, exe, true).unwrap();
        assert_eq!(line["command"], statusline_command(exe, Some("project.sh")));
        let fast = [layer(
            Scope::Local,
            json!({"statusLine": {"type": "command", "command": "x", "refreshInterval": 0.5}}),
        )];
        assert_eq!(
            status_line(&fast, exe, true).unwrap()["refreshInterval"],
            0.5
        );
    }

    #[test]
    fn the_last_settings_flag_outranks_the_files() {
        let exe = Path::new("/mc");
        let layers = [
            layer(
                Scope::Flag,
                json!({"statusLine": {"type": "command", "command": "one"}}),
            ),
            layer(
                Scope::Flag,
                json!({"statusLine": {"type": "command", "command": "two"}}),
            ),
            layer(
                Scope::Local,
                json!({"statusLine": {"type": "command", "command": "local"}}),
            ),
        ];
        assert_eq!(
            status_line(&layers, exe, true).unwrap()["command"],
            statusline_command(exe, Some("two"))
        );
    }

    #[test]
    fn off_or_managed_installs_none() {
        let exe = Path::new("/mc");
        let mut merged = json!({"statusLine": {"type": "command", "command": "theirs"}});
        let layers = [layer(
            Scope::Flag,
            json!({"statusLine": {"type": "command", "command": "theirs"}}),
        )];
        install_status_line(&mut merged, status_line(&layers, exe, false));
        assert_eq!(merged["statusLine"]["command"], "theirs");
        let managed = [layer(
            Scope::Managed,
            json!({"statusLine": {"type": "command", "command": "corp"}}),
        )];
        assert_eq!(status_line(&managed, exe, true), None);
    }
}
