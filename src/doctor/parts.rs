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
}
