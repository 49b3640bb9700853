//! `claude plugin validate --strict` passes on the plugin root and on the marketplace at the
//! repository root, on the pinned Claude Code (2.1.328) and on the newest (the Agent SDK's
//! 2.1.337, whose validator fails a plugin with any file in `bin/`), and the plugin provides
//! the commands, the skill, the SessionStart hook, and no `bin/` file.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::plugin;

use claude::ClaudeRun;

fn validate(binary: &std::path::Path, target: &std::path::Path) -> claude::ClaudeOutput {
    let dir = tempfile::tempdir().unwrap();
    ClaudeRun::on(
        binary,
        &dir.path().join("home"),
        &dir.path().join("project"),
    )
    .args(["plugin", "validate"])
    .arg(target)
    .arg("--strict")
    .run()
}

#[test]
fn the_plugin_passes_strict_validation() {
    for binary in claude::builds() {
        let version = claude::version_of(&binary);
        let output = validate(&binary, &plugin::checkout().join("plugin"));
        assert_eq!(output.status, Some(0), "{version}: {output:?}");
        assert!(
            output.stdout.contains("Validation passed"),
            "{version}: {output:?}"
        );
        for provided in [
            "skills: multi-cursor:multi-cursor",
            "commands: multi-cursor:login",
            "commands: multi-cursor:models",
            "commands: multi-cursor:rules",
            "commands: multi-cursor:status",
            "hooks: SessionStart",
        ] {
            assert!(
                output.stdout.contains(provided),
                "{version}: {provided} missing: {output:?}"
            );
        }
        // claude.ai refuses a plugin with files in bin/ (2.1.336's validator says so).
        assert!(!output.stdout.contains("bin: "), "{version}: {output:?}");
    }
}

#[test]
fn the_marketplace_passes_strict_validation() {
    for binary in claude::builds() {
        let version = claude::version_of(&binary);
        let output = validate(&binary, &plugin::checkout());
        assert_eq!(output.status, Some(0), "{version}: {output:?}");
        assert!(
            output.stdout.contains("Validating marketplace manifest"),
            "{version}: {output:?}"
        );
        assert!(
            output.stdout.contains("Validation passed"),
            "{version}: {output:?}"
        );
    }
}
