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

/// The platforms a `multi-cursor-<os>-<cpu>` npm package is made for, as npm spells them.
const NPM_PLATFORMS: [&str; 5] = [
    "darwin-arm64",
    "darwin-x64",
    "linux-arm64",
    "linux-x64",
    "win32-x64",
];

/// One version everywhere npm is involved: the `multi-cursor` package, its pins on the platform
/// packages, and the plugin's package.json and lockfile (through which Claude Code's `npm ci`
/// brings the binary into an installed plugin) all name Cargo.toml's version, for the same
/// platforms scripts/dist builds and the launcher looks for.
#[test]
fn npm_packages_match_cargo_toml() {
    let version = env!("CARGO_PKG_VERSION");
    let expected: Vec<String> = NPM_PLATFORMS
        .iter()
        .map(|platform| format!("multi-cursor-{platform}"))
        .collect();

    let launcher = read_json("npm/multi-cursor/package.json");
    assert_eq!(launcher["name"], "multi-cursor");
    assert_eq!(
        launcher["version"], version,
        "npm/multi-cursor/package.json version = Cargo.toml's"
    );
    let plugin = read_json("plugin/package.json");
    assert_eq!(
        plugin["version"], version,
        "plugin/package.json version = Cargo.toml's"
    );
    let lock = read_json("plugin/package-lock.json");
    assert_eq!(lock["lockfileVersion"], 3);
    assert_eq!(lock["version"], version, "plugin/package-lock.json");
    assert_eq!(lock["packages"][""]["version"], version);

    for (file, pins) in [
        (
            "npm/multi-cursor/package.json",
            &launcher["optionalDependencies"],
        ),
        ("plugin/package.json", &plugin["optionalDependencies"]),
        (
            "plugin/package-lock.json",
            &lock["packages"][""]["optionalDependencies"],
        ),
    ] {
        let names: Vec<&String> = pins.as_object().unwrap().keys().collect();
        assert_eq!(names, expected.iter().collect::<Vec<_>>(), "{file}");
        for name in &expected {
            assert_eq!(
                pins[name], version,
                "{file}: {name} at Cargo.toml's version"
            );
        }
    }
    for platform in NPM_PLATFORMS {
        let (os, cpu) = platform.split_once('-').unwrap();
        let entry = &lock["packages"][format!("node_modules/multi-cursor-{platform}")];
        assert_eq!(entry["version"], version, "lockfile entry of {platform}");
        assert_eq!(entry["os"], serde_json::json!([os]), "{platform}");
        assert_eq!(entry["cpu"], serde_json::json!([cpu]), "{platform}");
        assert_eq!(entry["optional"], true, "{platform}");
    }

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dist = std::fs::read_to_string(root.join("scripts/dist")).unwrap();
    let launcher_js =
        std::fs::read_to_string(root.join("npm/multi-cursor/lib/platform.cjs")).unwrap();
    for platform in NPM_PLATFORMS {
        assert!(
            dist.contains(&format!("    {platform}) ")),
            "scripts/dist builds {platform}"
        );
        assert!(
            launcher_js.contains(&format!("\"{platform}\"")),
            "npm/multi-cursor/lib/platform.cjs lists {platform}"
        );
    }
}

/// Nothing in the plugin needs a shell (Claude Code on Windows runs shell-form commands under
/// Git Bash or PowerShell): every hook is exec form, `node` with a script of the plugin, and
/// every slash command's `!` line is `node "<plugin>/scripts/multi-cursor" --report …`, words that
/// read the same in sh, PowerShell and cmd.
#[test]
fn the_plugin_runs_without_a_shell() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin");
    let hooks = read_json("plugin/hooks/hooks.json");
    let mut seen = 0;
    for (event, groups) in hooks["hooks"].as_object().unwrap() {
        for hook in groups
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["hooks"].as_array().unwrap().iter())
        {
            assert_eq!(hook["type"], "command", "{event}");
            assert_eq!(hook["command"], "node", "{event}: exec form");
            let args = hook["args"].as_array().unwrap();
            let script = args[0].as_str().unwrap();
            let relative = script.strip_prefix("${CLAUDE_PLUGIN_ROOT}/").unwrap();
            assert!(root.join(relative).is_file(), "{event}: {script}");
            seen += 1;
        }
    }
    assert_eq!(seen, 2, "SessionStart and PreModelSwitch");

    for entry in std::fs::read_dir(root.join("commands")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("!`")).collect();
        assert_eq!(lines.len(), 1, "{}", path.display());
        assert!(
            lines[0]
                .starts_with(r#"!`node "${CLAUDE_PLUGIN_ROOT}/scripts/multi-cursor" --report "#),
            "{}: {}",
            path.display(),
            lines[0]
        );
        assert!(
            text.contains(
                r#"allowed-tools: Bash(node "${CLAUDE_PLUGIN_ROOT}/scripts/multi-cursor":*)"#
            ),
            "{}",
            path.display()
        );
    }
    let shim = std::fs::read_to_string(root.join("scripts/multi-cursor")).unwrap();
    assert!(
        shim.starts_with("#!/usr/bin/env node\n"),
        "the shim is Node"
    );
}
