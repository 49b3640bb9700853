//! Managed settings come from each OS's own folder — Linux `/etc/claude-code`, macOS
//! `/Library/Application Support/ClaudeCode`, Windows `C:\Program Files\ClaudeCode` — with
//! `managed-settings.json` and `managed-settings.d/`. Each layout is built as a fixture under a
//! temporary root (never the machine's folders) and admitted through the library.

use std::path::PathBuf;

use crate::platform::paths::joined;
use crate::policy::ClaudeMode;
use crate::policy::PolicyInputs;
use crate::policy::admission::admit_settings;
use crate::policy::settings::TargetOs;

/// Writes `value` as JSON to `path`, creating its folders.
fn write_json(path: &std::path::Path, value: &serde_json::Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

/// `{"permissions": {"deny": [rules…]}}`.
fn deny(rules: &[&str]) -> serde_json::Value {
    serde_json::json!({"permissions": {"deny": rules}})
}

/// `/etc/claude-code` → `<root>/etc/claude-code`; `C:\Program Files\ClaudeCode` →
/// `<root>/C/Program Files/ClaudeCode`.
fn under(root: &std::path::Path, os_path: PathBuf) -> PathBuf {
    let text = os_path
        .to_string_lossy()
        .replace(":\\", "/")
        .replace('\\', "/");
    joined(root, &text)
}

#[test]
fn each_os_managed_folder_is_read() {
    let expected = [
        (TargetOs::Linux, "etc/claude-code"),
        (TargetOs::MacOs, "Library/Application Support/ClaudeCode"),
        (TargetOs::Windows, "C/Program Files/ClaudeCode"),
    ];
    for (os, relative) in expected {
        let root = tempfile::tempdir().unwrap();
        let workspace = root.path().join("ws");
        std::fs::create_dir_all(&workspace).unwrap();
        let managed_dir = under(root.path(), os.managed_dir());
        assert_eq!(managed_dir, joined(root.path(), relative), "{os:?}");
        let main = managed_dir.join("managed-settings.json");
        let drop_in = joined(&managed_dir, "managed-settings.d/50-team.json");
        write_json(&main, &deny(&["Bash(shutdown)"]));
        write_json(&drop_in, &deny(&["Read(//etc/shadow)"]));
        let inputs = PolicyInputs {
            home: Some(root.path().join("home")),
            managed_dir,
            ..PolicyInputs::default()
        };
        let refusal =
            admit_settings(&inputs, Some(ClaudeMode::BypassPermissions), &workspace).unwrap_err();
        let message = refusal.to_string();
        for line in [
            format!("deny rule `Bash(shutdown)` in {}", main.display()),
            format!("deny rule `Read(//etc/shadow)` in {}", drop_in.display()),
        ] {
            assert!(message.contains(&line), "{os:?}: {message}");
        }
        assert_eq!(refusal.tokens(), ["Shell(shutdown)", "Read(/etc/shadow)"]);
    }
}
