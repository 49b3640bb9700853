//! The launcher gives Claude Code one private `--settings` file (0600 in a 0700 folder) with a
//! `/model` picker row per Cursor picker model and the three hooks running `multi-cursor hook`,
//! and `--agents` with the `multi-cursor` worker on Cursor Auto.

use std::path::Path;

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn settings_file_has_picker_rows_and_hooks_and_is_private() {
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");

    assert_eq!(launch.dumped("settings.mode").unwrap().trim(), "600");
    assert_eq!(launch.dumped("dir.mode").unwrap().trim(), "700");
    let argv = launch.claude_argv().unwrap();
    assert_eq!(argv.iter().filter(|a| *a == "--settings").count(), 1);
    assert_eq!(
        &argv[argv.len() - 2..],
        ["-p", "hi"],
        "user args last: {argv:?}"
    );

    let settings = launch.claude_settings();
    let rows = settings["modelPicker"]["options"].as_array().unwrap();
    let models: Vec<&str> = rows.iter().map(|r| r["model"].as_str().unwrap()).collect();
    assert_eq!(
        models,
        [
            "multi/cursor/default",
            "multi/cursor/cursor-grok-4.7",
            "multi/cursor/composer-2.5"
        ]
    );
    let composer = &rows[2];
    assert_eq!(composer["label"], "Composer 2.5 via Cursor");
    // The fake agent lists `--auto-review`: every row may run Claude's auto mode.
    assert_eq!(composer["behavesAs"], "claude-sonnet-4-6");
    assert!(
        composer["description"]
            .as_str()
            .unwrap()
            .contains("Composer 2.5"),
        "{composer}"
    );
    assert_eq!(rows[0]["label"], "Auto via Cursor");

    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_multi-cursor")).unwrap();
    for event in ["SessionStart", "UserPromptSubmit", "SubagentStart"] {
        let hooks = settings["hooks"][event].as_array().unwrap();
        assert_eq!(hooks.len(), 1, "{event}: {hooks:?}");
        let hook = &hooks[0]["hooks"][0];
        assert_eq!(hook["type"], "command");
        assert_eq!(
            Path::new(hook["command"].as_str().unwrap()),
            exe,
            "{event}: exec form, no shell"
        );
        assert_eq!(hook["args"], serde_json::json!(["hook"]), "{event}");
    }

    let agents = launch.claude_agents();
    let worker = &agents["multi-cursor"];
    assert_eq!(worker["model"], "multi/cursor/default");
    let description = worker["description"].as_str().unwrap();
    for id in [
        "`default`",
        "`cursor-grok-4.7`",
        "`composer-2.5`",
        "`model: <id>`",
    ] {
        assert!(description.contains(id), "{id} missing from {description}");
    }
    assert!(!worker["prompt"].as_str().unwrap().is_empty());
}

/// Without `--auto-review` in the installed CLI, rows borrow a profile Claude Code refuses auto
/// mode for ("auto mode unavailable for this model"), so no session starts in a mode Cursor
/// cannot run as asked; `--permission-mode auto` gets a line saying manual mode it will be.
#[test]
fn rows_are_auto_capable_only_with_auto_review() {
    let dir = tempfile::tempdir().unwrap();
    let help = multi_cursor_test_support::fake_agent::help_without_auto_review(dir.path());
    let mut launch = Launch::scripted().env("FAKE_AGENT_HELP_FILE", &help).args([
        "--permission-mode",
        "auto",
        "-p",
        "hi",
    ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    // Claude Code would turn auto into manual mode silently: the launcher says so first.
    assert!(
        output
            .stderr
            .contains("Claude Code starts in manual mode, not auto"),
        "{output:?}"
    );
    let settings = launch.claude_settings();
    let rows = settings["modelPicker"]["options"].as_array().unwrap();
    for row in rows {
        assert_eq!(row["behavesAs"], "claude-haiku-4-5", "{row}");
    }
}
