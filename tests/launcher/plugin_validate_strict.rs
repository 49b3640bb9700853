//! `claude plugin validate --strict` (the real Claude Code 2.1.328) passes on the plugin root
//! and on the marketplace at the repository root, and the plugin provides the four commands,
//! the skill, the SessionStart hook and the shim.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::plugin;

use claude::ClaudeRun;

fn validate(target: &std::path::Path) -> claude::ClaudeOutput {
    let dir = tempfile::tempdir().unwrap();
    ClaudeRun::new(&dir.path().join("home"), &dir.path().join("project"))
        .args(["plugin", "validate"])
        .arg(target)
        .arg("--strict")
        .run()
}

#[test]
fn the_plugin_passes_strict_validation() {
    let output = validate(&plugin::checkout().join("plugin"));
    assert_eq!(output.status, Some(0), "{output:?}");
    assert!(output.stdout.contains("Validation passed"), "{output:?}");
    for provided in [
        "skills: multi-cursor:multi-cursor",
        "commands: multi-cursor:login",
        "commands: multi-cursor:models",
        "commands: multi-cursor:rules",
        "commands: multi-cursor:status",
        "hooks: SessionStart",
        "bin: multi-cursor",
    ] {
        assert!(
            output.stdout.contains(provided),
            "{provided} missing: {output:?}"
        );
    }
}

#[test]
fn the_marketplace_passes_strict_validation() {
    let output = validate(&plugin::checkout());
    assert_eq!(output.status, Some(0), "{output:?}");
    assert!(
        output.stdout.contains("Validating marketplace manifest"),
        "{output:?}"
    );
    assert!(output.stdout.contains("Validation passed"), "{output:?}");
}
