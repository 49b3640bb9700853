//! The plugin installs offline from this checkout (`claude plugin marketplace add <checkout>`,
//! `claude plugin install multi-cursor@multi-cursor`) into an isolated HOME: the installed copy
//! is the plugin root only (no `target/`, no sources), with real command and skill files, the
//! hook and an executable shim, and Claude Code lists it as enabled.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::plugin;

use std::os::unix::fs::PermissionsExt;

use claude::ClaudeRun;

#[test]
fn installs_offline_without_target() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    let installed = plugin::install(&home, &project);

    assert!(
        installed.starts_with(home.join(".claude/plugins/cache")),
        "{}",
        installed.display()
    );
    for absent in ["target", "Cargo.toml", "src", ".git"] {
        assert!(
            !installed.join(absent).exists(),
            "{absent} was copied into {}",
            installed.display()
        );
    }
    for file in [
        ".claude-plugin/plugin.json",
        "commands/login.md",
        "commands/models.md",
        "commands/status.md",
        "commands/rules.md",
        "skills/multi-cursor/SKILL.md",
        "hooks/hooks.json",
    ] {
        let path = installed.join(file);
        assert!(
            std::fs::symlink_metadata(&path).unwrap().is_file(),
            "{file} is a real file in the installed copy"
        );
    }
    for script in ["scripts/multi-cursor", "hooks/session-start"] {
        let mode = std::fs::metadata(installed.join(script))
            .unwrap()
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "{script} is executable");
    }

    let list = ClaudeRun::new(&home, &project)
        .env_remove("ANTHROPIC_API_KEY")
        .args(["plugin", "list", "--json"])
        .run();
    assert_eq!(list.status, Some(0), "{list:?}");
    let plugins: serde_json::Value = serde_json::from_str(&list.stdout).unwrap();
    let entry = plugins
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "multi-cursor@multi-cursor")
        .unwrap_or_else(|| panic!("not listed: {list:?}"));
    assert_eq!(entry["enabled"], true);
    assert_eq!(entry["version"], env!("CARGO_PKG_VERSION"));
}
