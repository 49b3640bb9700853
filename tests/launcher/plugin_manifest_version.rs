//! The plugin manifest and the marketplace describe this release: name `multi-cursor`, the
//! version in Cargo.toml, the metadata a marketplace shows, and the plugin root `./plugin`
//! whose commands and skills are reachable from the repository root as well.

use std::path::Path;
use std::path::PathBuf;

fn read_json(relative: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn manifest_and_marketplace_match_cargo_toml() {
    let version = env!("CARGO_PKG_VERSION");
    let plugin = read_json("plugin/.claude-plugin/plugin.json");
    assert_eq!(plugin["name"], "multi-cursor");
    assert_eq!(
        plugin["version"], version,
        "plugin.json version = Cargo.toml's"
    );
    assert_eq!(plugin["license"], env!("CARGO_PKG_LICENSE"));
    // The oldest Claude Code the plugin works with, the launcher's own floor: a manifest key
    // 2.1.328 already reads (an older Claude Code does not install the plugin).
    assert_eq!(
        plugin["engines"]["claude-code"],
        format!(">={}", multi_cursor::launch::claude::MIN_VERSION)
    );
    assert!(plugin["description"].as_str().unwrap().len() > 20);
    assert!(
        plugin["author"]["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    );
    assert!(
        plugin["keywords"]
            .as_array()
            .is_some_and(|k| k.iter().any(|w| w == "cursor"))
    );

    let market = read_json(".claude-plugin/marketplace.json");
    assert_eq!(market["name"], "multi-cursor");
    assert_eq!(market["metadata"]["version"], version);
    let entries = market["plugins"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["name"], "multi-cursor");
    assert_eq!(entries[0]["source"], "./plugin");
    assert_eq!(
        entries[0]["version"], version,
        "marketplace version = Cargo.toml's"
    );
}

#[test]
fn commands_and_skills_live_in_the_plugin_root() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["commands", "skills"] {
        let inside = root.join("plugin").join(name);
        assert!(
            std::fs::symlink_metadata(&inside).unwrap().is_dir(),
            "plugin/{name} is a real folder (the validator reads nothing behind a symlink)"
        );
        assert_eq!(
            std::fs::read_link(root.join(name)).unwrap(),
            PathBuf::from("plugin").join(name),
            "{name} at the repository root points into the plugin root"
        );
    }
    for command in ["login", "models", "status", "rules"] {
        assert!(root.join(format!("commands/{command}.md")).is_file());
    }
    assert!(root.join("skills/multi-cursor/SKILL.md").is_file());
}
