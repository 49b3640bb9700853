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

/// Grok Build installs `agent` too: an `agent` on PATH that is not Cursor's is skipped for the
/// next candidate (here Cursor's own `~/.local/bin/agent`), and `cursor-agent`, which only
/// Cursor installs, is tried before any `agent`.
/// `multi-cursor doctor` with no `MULTI_CURSOR_AGENT`: `bin` first on PATH, set up by `setup`
/// (it gets the doctor, to reach its HOME, and `bin`); the agent check's line and `bin`.
fn agent_line(
    setup: impl FnOnce(&doctor::Doctor, &std::path::Path),
) -> (String, std::path::PathBuf) {
    let check = doctor::Doctor::new();
    let bin = check.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    setup(&check, &bin);
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let (output, _dir) = check
        .env_remove("MULTI_CURSOR_AGENT")
        .env("PATH", &path)
        .run();
    (output.line("Cursor agent").to_string(), bin)
}

fn link_fake_agent(to: &std::path::Path) {
    std::os::unix::fs::symlink(multi_cursor_test_support::fake_agent::fake_agent(), to).unwrap();
}

#[test]
fn another_vendors_agent_is_skipped_for_cursors() {
    let (agent, bin) = agent_line(|check, bin| {
        multi_cursor_test_support::write_script(
            &bin.join("agent"),
            "case \"$1\" in --version) echo 1.4.0 ;; *) echo 'Grok Build by xAI'; echo 'Usage: agent [prompt]' ;; esac",
        );
        let local = check.home().join(".local/bin");
        std::fs::create_dir_all(&local).unwrap();
        link_fake_agent(&local.join("agent"));
    });
    assert!(agent.starts_with("[pass]"), "{agent}");
    assert!(agent.contains(".local/bin/agent"), "{agent}");
    assert!(
        agent.contains(&format!(
            "(skipped {}: not Cursor's CLI)",
            bin.join("agent").display()
        )),
        "names what was skipped: {agent}"
    );

    // `cursor-agent` on PATH comes before both.
    let (agent, _) = agent_line(|_, bin| {
        link_fake_agent(&bin.join("cursor-agent"));
        multi_cursor_test_support::write_script(&bin.join("agent"), "echo 'Grok Build by xAI'");
    });
    assert!(agent.contains("bin/cursor-agent"), "{agent}");
}
