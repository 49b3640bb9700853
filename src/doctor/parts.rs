//! Whether multi-cursor's own parts are in force in the sessions it starts: the hooks the
//! launcher registers (they tell the gateway each session's permission mode and folder) and
//! its status line (the Cursor spend segment). Claude Code's settings can turn both off:
//! `"disableAllHooks": true` in any settings file stops the launcher's `--settings` hooks too
//! (measured on 2.1.328 and 2.1.337), and a managed settings file's `statusLine` wins over the
//! launcher's (which then leaves it; organisations can push settings from Anthropic's admin
//! console since 2.1.336). Each is a warning naming the file and the fix.

use super::Check;
use super::DoctorOptions;
use crate::policy::PolicyInputs;
use crate::policy::settings::Scope;
use crate::policy::settings::read_layers;

const HOOKS: &str = "Claude hooks";
const STATUS_LINE: &str = "Status line";
const PLUGIN: &str = "Plugin fetched";

/// Largest `installed_plugins.json` read.
const MAX_INSTALLED_BYTES: u64 = 1024 * 1024;

/// The plugin's name before `@<marketplace>` in Claude Code's plugin keys.
const PLUGIN_KEY: &str = "multi-cursor@";

/// The settings Claude Code reads for `options.workspace`, as the gateway reads them.
fn inputs(options: &DoctorOptions) -> PolicyInputs {
    PolicyInputs {
        home: options.home.clone(),
        claude_config_dir: options.claude_config_dir.clone(),
        ..PolicyInputs::from_env()
    }
}

/// `disableAllHooks` in any settings file: the launcher's hooks do not run.
pub(super) fn check_hooks(options: &DoctorOptions) -> Check {
    let (layers, _) = read_layers(&inputs(options), &options.workspace);
    let off: Vec<String> = layers
        .iter()
        .filter(|layer| {
            layer.settings.get("disableAllHooks") == Some(&serde_json::Value::Bool(true))
        })
        .map(|layer| layer.file.clone())
        .collect();
    if off.is_empty() {
        return Check::pass(HOOKS, "no settings file turns hooks off");
    }
    Check::warn(
        HOOKS,
        format!(
            "{} sets \"disableAllHooks\": true: Claude Code then runs none of multi-cursor's hooks, so the gateway cannot see a session's permission mode and Cursor answers read-only",
            off.join(", ")
        ),
        "remove \"disableAllHooks\" from that file (a managed file: ask whoever manages it), then start a new session",
    )
}

/// A managed `statusLine`: the launcher leaves it, so the Cursor spend segment is not shown.
pub(super) fn check_status_line(options: &DoctorOptions) -> Check {
    let (layers, _) = read_layers(&inputs(options), &options.workspace);
    let managed: Vec<String> = layers
        .iter()
        .filter(|layer| layer.scope == Scope::Managed && layer.settings.contains_key("statusLine"))
        .map(|layer| layer.file.clone())
        .collect();
    if managed.is_empty() {
        return Check::pass(
            STATUS_LINE,
            "multi-cursor's status line (Cursor spend) is shown, after yours if you have one",
        );
    }
    Check::warn(
        STATUS_LINE,
        format!(
            "your organisation's managed settings set the status line ({}): it wins over multi-cursor's, so the Cursor spend segment is not shown",
            managed.join(", ")
        ),
        "see Cursor spend with `multi-cursor usage` or `/multi-cursor:usage`; whoever manages that file can chain `multi-cursor statusline` into theirs",
    )
}

/// The marketplace plugin, when a settings file enables it: fetched to where Claude Code's
/// `plugins/installed_plugins.json` says, or not yet. From 2.1.335 a first headless start on a
/// new machine may run before Claude Code has fetched it (its release notes), and then runs
/// without the plugin's commands and start-up notice. Sessions the launcher starts never depend
/// on it: they get the launcher's own copy with `--plugin-dir`.
pub(super) fn check_plugin_fetched(options: &DoctorOptions) -> Check {
    let (layers, _) = read_layers(&inputs(options), &options.workspace);
    let enabled: Vec<(String, String)> = layers
        .iter()
        .filter_map(|layer| {
            let plugins = layer.settings.get("enabledPlugins")?.as_object()?;
            let key = plugins
                .iter()
                .find(|(key, on)| key.starts_with(PLUGIN_KEY) && on.as_bool() == Some(true))?
                .0;
            Some((key.clone(), layer.file.clone()))
        })
        .collect();
    let claude_dir = options
        .claude_config_dir
        .clone()
        .or_else(|| options.home.as_ref().map(|home| home.join(".claude")));
    let installed: Vec<(String, Option<std::path::PathBuf>)> = claude_dir
        .map(|dir| dir.join("plugins").join("installed_plugins.json"))
        .and_then(|file| crate::state::read_regular_file(&file, MAX_INSTALLED_BYTES).ok())
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .and_then(|json| json.get("plugins")?.as_object().cloned())
        .map(|plugins| {
            plugins
                .into_iter()
                .filter(|(key, _)| key.starts_with(PLUGIN_KEY))
                .map(|(key, entries)| {
                    let path = entries
                        .get(0)
                        .and_then(|entry| entry.get("installPath")?.as_str())
                        .map(std::path::PathBuf::from);
                    (key, path)
                })
                .collect()
        })
        .unwrap_or_default();
    let fetched = |key: &str| {
        installed
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, path)| path.clone())
            .filter(|path| path.join(".claude-plugin").join("plugin.json").is_file())
    };
    let missing: Vec<String> = enabled
        .iter()
        .filter(|(key, _)| fetched(key).is_none())
        .map(|(key, file)| format!("{} (enabled in {file})", crate::text::one_line(key)))
        .chain(
            installed
                .iter()
                .filter(|(key, _)| !enabled.iter().any(|(k, _)| k == key) && fetched(key).is_none())
                .map(|(key, _)| format!("{} (listed as installed)", crate::text::one_line(key))),
        )
        .collect();
    if missing.is_empty() {
        let detail = match installed.iter().find_map(|(key, _)| fetched(key)) {
            Some(path) => format!("the marketplace copy is at {}", path.display()),
            None => {
                "not installed from a marketplace; sessions multi-cursor starts use its own copy"
                    .to_string()
            }
        };
        return Check::pass(PLUGIN, detail);
    }
    let key = enabled
        .first()
        .map_or_else(|| installed[0].0.clone(), |(key, _)| key.clone());
    Check::warn(
        PLUGIN,
        format!(
            "Claude Code has not fetched the plugin yet: {}. A first headless `claude -p` on this machine (Claude Code 2.1.335 and newer) may run without it: no /multi-cursor: commands, no start-up notice",
            missing.join(", ")
        ),
        format!(
            "run `claude` once in a terminal, or `claude plugin install {}`; sessions started with `multi-cursor` are not affected (they get its own copy)",
            crate::text::one_line(&key)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(dir: &std::path::Path) -> DoctorOptions {
        let home = dir.join("home");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(dir.join("work")).unwrap();
        DoctorOptions {
            live: false,
            workspace: dir.join("work"),
            home: Some(home),
            approve_mcps: false,
            claude_config_dir: None,
            config_home: None,
        }
    }

    #[test]
    fn hooks_turned_off_are_a_warning_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let options = options(dir.path());
        assert!(check_hooks(&options).fix.is_none());
        let file = dir.path().join("home/.claude/settings.json");
        std::fs::write(&file, r#"{"disableAllHooks": true}"#).unwrap();
        let check = check_hooks(&options);
        assert!(check.passed && check.fix.is_some(), "{check:?}");
        assert!(
            check.detail.contains(&file.display().to_string()),
            "{check:?}"
        );
        std::fs::write(&file, r#"{"disableAllHooks": false}"#).unwrap();
        assert!(check_hooks(&options).fix.is_none());
    }

    #[test]
    fn an_enabled_plugin_claude_code_has_not_fetched_is_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let options = options(dir.path());
        let check = check_plugin_fetched(&options);
        assert!(check.passed && check.fix.is_none(), "{check:?}");
        assert!(
            check.detail.contains("not installed from a marketplace"),
            "{check:?}"
        );

        let settings = dir.path().join("home/.claude/settings.json");
        std::fs::write(
            &settings,
            r#"{"enabledPlugins": {"multi-cursor@team": true}}"#,
        )
        .unwrap();
        let check = check_plugin_fetched(&options);
        assert!(check.passed && check.fix.is_some(), "{check:?}");
        assert!(
            check.detail.contains("multi-cursor@team (enabled in"),
            "{check:?}"
        );
        assert!(
            check
                .fix
                .as_deref()
                .unwrap()
                .contains("claude plugin install multi-cursor@team"),
            "{check:?}"
        );

        // Listed, but its copy is not there: still not fetched.
        let plugins = dir.path().join("home/.claude/plugins");
        let copy = plugins.join("cache/team/multi-cursor/0.1.0");
        std::fs::create_dir_all(&plugins).unwrap();
        let installed = serde_json::json!({"version": 2, "plugins": {"multi-cursor@team": [{"installPath": copy}]}});
        std::fs::write(
            plugins.join("installed_plugins.json"),
            installed.to_string(),
        )
        .unwrap();
        assert!(check_plugin_fetched(&options).fix.is_some());

        // Fetched.
        std::fs::create_dir_all(copy.join(".claude-plugin")).unwrap();
        std::fs::write(copy.join(".claude-plugin/plugin.json"), "{}").unwrap();
        let check = check_plugin_fetched(&options);
        assert!(check.fix.is_none(), "{check:?}");
        assert!(
            check.detail.contains(&copy.display().to_string()),
            "{check:?}"
        );
    }
}
