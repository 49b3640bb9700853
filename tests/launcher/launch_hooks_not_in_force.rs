//! A launched session whose hooks never reach the gateway (`"disableAllHooks": true` in the
//! user's Claude settings, which turns off the launcher's `--settings` hooks too: measured on
//! 2.1.328 and 2.1.337) is told so in its first answer, with the cause and the fix, and Cursor
//! answers read-only there (`--mode ask`) whatever mode the session shows. On the pinned and
//! the newest Claude Code.

use multi_cursor::orchestrate::HOOKS_MISSING_NOTICE;
use multi_cursor_test_support::claude;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn hooks_turned_off_are_said_in_the_first_answer() {
    for binary in claude::builds() {
        let version = claude::version_of(&binary);
        let mut launch = Launch::real_on(&binary).args([
            "-p",
            "explain the build script",
            "--model",
            "multi/cursor/composer-2.5",
            "--permission-mode",
            "acceptEdits",
            "--output-format",
            "stream-json",
            "--verbose",
        ]);
        std::fs::write(
            launch.home.join(".claude/settings.json"),
            r#"{"disableAllHooks": true}"#,
        )
        .unwrap();
        let output = launch.run();
        assert_eq!(output.status, Some(0), "{version}: {output:?}");
        let result = launcher::stream_result(&output.stdout);
        let text = without_tokens(result["result"].as_str().unwrap());
        assert!(text.contains(HOOKS_MISSING_NOTICE), "{version}: {text}");
        assert!(text.contains("fake agent reply"), "{version}: {text}");
        let turns = launch.turns();
        assert_eq!(turns.len(), 1, "{version}: {turns:#?}");
        let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
        assert!(
            argv.windows(2).any(|w| w == ["--mode", "ask"]),
            "{version}: read-only without the mode: {argv:?}"
        );
    }
}

#[test]
fn doctor_names_the_file_that_turns_hooks_off() {
    let doctor = multi_cursor_test_support::doctor::Doctor::new();
    let settings = doctor.home().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"disableAllHooks": true}"#).unwrap();
    let (output, _dir) = doctor.run();
    let line = output.line("Claude hooks");
    assert!(line.starts_with("[warn]"), "{output:?}");
    assert!(line.contains(&settings.display().to_string()), "{line}");
    assert!(
        output
            .fix("Claude hooks")
            .contains("remove \"disableAllHooks\""),
        "{output:?}"
    );
}
