//! `multi-cursor doctor` says what Cursor 2026.10 would import from Claude Code: with Claude
//! hooks in the project's settings it warns, naming the file and the hook events and the
//! Cursor setting to look at (multi-cursor cannot read it); an older Cursor loads none of it.

use multi_cursor_test_support::doctor;

fn with_hooks(check: &doctor::Doctor) -> std::path::PathBuf {
    let file = check.project().join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}"#,
    )
    .unwrap();
    file
}

#[test]
fn claude_hooks_cursor_2026_10_may_run_are_named() {
    let check = doctor::Doctor::new();
    let file = with_hooks(&check);
    let (output, _dir) = check.env("FAKE_AGENT_VERSION", "2026.10.01-4d2c1b7").run();
    let line = output.line("Claude in Cursor");
    assert!(line.starts_with("[warn]"), "{output:?}");
    assert!(line.contains(&file.display().to_string()), "{line}");
    assert!(line.contains("(PreToolUse)"), "{line}");
    assert!(
        line.contains("“Include third-party Plugins, Skills, and other configs”"),
        "{line}"
    );
    assert!(
        output
            .fix("Claude in Cursor")
            .contains("Cursor's own deny rules bind either way"),
        "{output:?}"
    );

    let check = doctor::Doctor::new();
    with_hooks(&check);
    let (output, _dir) = check.env("FAKE_AGENT_VERSION", "2026.09.18-9a7762b").run();
    let line = output.line("Claude in Cursor");
    assert!(
        line.contains("does not load Claude Code's hooks, plugins or skills"),
        "{line}"
    );
}
