//! `multi-cursor doctor` with the real Claude Code and the fake agent as Cursor: every check
//! passes with what it found (Claude's version, the agent's version, the account, the catalog,
//! no MCP servers, a private writable state folder, no locked session), and it exits 0.

use multi_cursor_test_support::doctor;

use std::os::unix::fs::PermissionsExt;

#[test]
fn every_check_passes_with_the_fake_agent() {
    let (output, dir) = doctor::Doctor::new().run();
    assert_eq!(output.code, Some(0), "{output:?}");
    assert!(
        output.stdout.ends_with("All checks passed.\n"),
        "{output:?}"
    );
    assert!(output.line("Claude Code").starts_with("[pass]"));
    // The version of the Claude Code under test (2.1.328 pinned; the newest works too).
    let printed = std::process::Command::new(multi_cursor_test_support::claude::claude_binary())
        .arg("--version")
        .output()
        .unwrap();
    let version = String::from_utf8_lossy(&printed.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    assert!(output.line("Claude Code").contains(&version), "{output:?}");
    let agent = output.line("Cursor agent");
    assert!(agent.starts_with("[pass]"), "{agent}");
    assert!(agent.contains("2026.09.18-9a7762b"), "{agent}");
    assert!(
        output
            .line("Cursor login")
            .contains("logged in as fake@example.com"),
        "{output:?}"
    );
    assert!(
        output
            .line("Cursor models")
            .contains("12 models, 18 routes; /model rows: default, cursor-grok-4.7, composer-2.5"),
        "{output:?}"
    );
    assert!(
        output.line("MCP servers").contains("none configured"),
        "{output:?}"
    );
    assert!(
        output.line("State folder").contains("0700, writable"),
        "{output:?}"
    );
    assert!(
        output.line("Session locks").starts_with("[pass]"),
        "{output:?}"
    );
    assert!(
        !output.stdout.contains("Live round trip"),
        "only with --live"
    );

    let state = dir.path().join("state");
    let mode = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let leftovers: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with(".doctor"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "the write probe is removed: {leftovers:?}"
    );
}
