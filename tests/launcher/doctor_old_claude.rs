//! `multi-cursor doctor` with a Claude Code older than 2.1.328 (the version our facts were
//! measured on) fails that check with how to update; a missing one names how to install it.

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
    assert!(
        output.fix("Claude Code").contains("claude update"),
        "{output:?}"
    );

    let check = doctor::Doctor::new();
    let (output, _dir) = check.env("MULTI_CURSOR_CLAUDE", "no-such-claude").run();
    assert_eq!(output.code, Some(1), "{output:?}");
    assert!(
        output
            .line("Claude Code")
            .contains("was not found (looked for MULTI_CURSOR_CLAUDE=no-such-claude)"),
        "{output:?}"
    );
    assert!(
        output
            .fix("Claude Code")
            .contains("npm install -g @anthropic-ai/claude-code"),
        "{output:?}"
    );
}
