//! `multi-cursor doctor` when the `agent` found is xAI's Grok CLI, not Cursor's: the agent
//! check fails naming what it looks like and how to get Cursor's CLI first on PATH.

use multi_cursor_test_support::doctor;

#[test]
fn grok_is_not_taken_for_cursor() {
    let check = doctor::Doctor::new();
    let help = check.dir.path().join("grok-help.txt");
    std::fs::write(&help, "Grok CLI by xAI\nUsage: agent [prompt]\n").unwrap();
    let (output, _dir) = check
        .env("FAKE_AGENT_HELP_FILE", &help)
        .env("FAKE_AGENT_VERSION", "1.4.0")
        .run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let agent = output.line("Cursor agent");
    assert!(agent.starts_with("[FAIL]"), "{agent}");
    assert!(
        agent.contains("is not Cursor's agent CLI (it looks like xAI's Grok CLI)"),
        "{agent}"
    );
    let fix = output.fix("Cursor agent");
    assert!(fix.contains("cursor.com/install"), "{fix}");
    assert!(fix.contains("before the other `agent` on PATH"), "{fix}");
}
