//! `multi-cursor doctor` without any Cursor agent: the agent check fails with the install
//! command, the checks that need the agent say so instead of running, the others still run,
//! and it exits 1.

use multi_cursor_test_support::doctor;

#[test]
fn a_missing_agent_fails_with_the_install_command() {
    let check = doctor::Doctor::new();
    let missing = check.dir.path().join("no-agent-here");
    let (output, _dir) = check.env("MULTI_CURSOR_AGENT", &missing).run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let agent = output.line("Cursor agent");
    assert!(agent.starts_with("[FAIL]"), "{agent}");
    assert!(
        agent.contains(&format!("MULTI_CURSOR_AGENT={}", missing.display())),
        "{agent}"
    );
    assert!(
        output
            .fix("Cursor agent")
            .contains("curl https://cursor.com/install -fsS | bash"),
        "{output:?}"
    );
    for dependent in ["Cursor login", "Cursor models"] {
        assert!(output.line(dependent).starts_with("[FAIL]"), "{output:?}");
        assert!(output.line(dependent).contains("not checked"), "{output:?}");
    }
    assert!(
        output.line("Claude Code").starts_with("[pass]"),
        "{output:?}"
    );
    assert!(
        output.line("State folder").starts_with("[pass]"),
        "{output:?}"
    );
    assert!(
        output
            .stdout
            .ends_with("3 of 12 checks failed; each fix is under it.\n"),
        "{output:?}"
    );
}
