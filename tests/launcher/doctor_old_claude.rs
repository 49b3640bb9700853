//! `multi-cursor doctor` with a Claude Code older than 2.1.328 (the version our facts were
//! measured on) fails that check with how to update it where it lives, naming the version; a
//! missing one names how to install it.

use multi_cursor_test_support::doctor;

#[test]
fn old_or_missing_claude_code_fails() {
    let check = doctor::Doctor::new();
    let old = check.dir.path().join("claude");
    multi_cursor_test_support::write_script(&old, "echo '2.1.99 (Claude Code)'");
    let (output, _dir) = check.env("MULTI_CURSOR_CLAUDE", &old).run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let claude = output.line("Claude Code");
    assert!(claude.starts_with("[FAIL]"), "{claude}");
    assert!(claude.contains("2.1.99"), "{claude}");
    assert!(claude.contains("older than 2.1.328"), "{claude}");
    // Not an npm install: its own installer, to a named version.
    assert!(
        output
            .fix("Claude Code")
            .contains(&format!("`{} install latest`", old.display())),
        "{output:?}"
    );

    // npm-installed (2.1.197 is what npm picks on Node 20 without a version): updated in the
    // prefix it lives in, never through npm's own global prefix or `claude update`.
    let check = doctor::Doctor::new();
    let prefix = check.dir.path().join("npm-prefix");
    let package = prefix.join("lib/node_modules/@anthropic-ai/claude-code/bin");
    std::fs::create_dir_all(&package).unwrap();
    multi_cursor_test_support::write_script(
        &package.join("claude.exe"),
        "echo '2.1.197 (Claude Code)'",
    );
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    let link = prefix.join("bin/claude");
    std::os::unix::fs::symlink(package.join("claude.exe"), &link).unwrap();
    let (output, _dir) = check.env("MULTI_CURSOR_CLAUDE", &link).run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let fix = output.fix("Claude Code");
    assert!(
        fix.contains(&format!(
            "`npm install -g --prefix {} @anthropic-ai/claude-code@latest`",
            prefix.display()
        )),
        "{output:?}"
    );
    assert!(!fix.contains("claude update"), "{fix}");

    let check = doctor::Doctor::new();
    let (output, _dir) = check.env("MULTI_CURSOR_CLAUDE", "no-such-claude").run();
    assert_eq!(output.code, Some(1), "{output:?}");
    assert!(
        output
            .line("Claude Code")
            .contains("not found (looked for MULTI_CURSOR_CLAUDE=no-such-claude)"),
        "{output:?}"
    );
    assert!(
        output
            .fix("Claude Code")
            .contains("npm install -g @anthropic-ai/claude-code@latest"),
        "{output:?}"
    );
}
