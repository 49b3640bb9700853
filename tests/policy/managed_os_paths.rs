//! Managed settings come from each OS's own folder — Linux `/etc/claude-code`, macOS
//! `/Library/Application Support/ClaudeCode`, Windows `C:\Program Files\ClaudeCode` — with
//! `managed-settings.json` and `managed-settings.d/`. Each layout is built as a fixture under a
//! temporary root (never the machine's folders) and admitted through the library.

use multi_cursor_test_support::policy;

use std::path::PathBuf;

use multi_cursor::policy::ClaudeMode;
use multi_cursor::policy::PolicyInputs;
use multi_cursor::policy::admit;
use multi_cursor::policy::settings::TargetOs;

/// `/etc/claude-code` → `<root>/etc/claude-code`; `C:\Program Files\ClaudeCode` →
/// `<root>/C/Program Files/ClaudeCode`.
fn under(root: &std::path::Path, os_path: PathBuf) -> PathBuf {
    let text = os_path
        .to_string_lossy()
        .replace(":\\", "/")
        .replace('\\', "/");
    root.join(text.trim_start_matches('/'))
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
        assert_eq!(managed_dir, root.path().join(relative), "{os:?}");
        let main = managed_dir.join("managed-settings.json");
        let drop_in = managed_dir.join("managed-settings.d/50-team.json");
        policy::write_json(&main, &policy::deny(&["Bash(shutdown)"]));
        policy::write_json(&drop_in, &policy::deny(&["Read(//etc/shadow)"]));
        let inputs = PolicyInputs {
            home: Some(root.path().join("home")),
            managed_dir,
            ..PolicyInputs::default()
        };
        let refusal = admit(&inputs, ClaudeMode::BypassPermissions, &workspace).unwrap_err();
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
