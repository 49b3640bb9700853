//! The launcher installs `multi-cursor statusline` as Claude Code's `statusLine`: alone with a
//! one-second refresh when the user has none; chained in front of theirs (their command kept
//! behind `--chain`, their other keys kept, the refresh lowered to one second unless theirs is
//! smaller) when their settings file or their `--settings` has one; not at all with
//! `MULTI_CURSOR_STATUSLINE=0`; the wrapper (`multi-cursor-claude`) never installs one.

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::wrapper;

use launcher::Launch;

/// The `statusLine` of the settings the scripted `claude` was given.
fn status_line(mut launch: Launch) -> serde_json::Value {
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    launch.claude_settings()["statusLine"].clone()
}

fn ours() -> String {
    multi_cursor_test_support::multi_cursor_bin()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn without_a_status_line_ours_is_installed() {
    let line = status_line(Launch::scripted().args(["-p", "hi"]));
    assert_eq!(
        line,
        serde_json::json!({
            "type": "command",
            "command": format!("{} statusline", ours()),
            "refreshInterval": 1,
        })
    );
}

#[test]
fn the_users_status_line_is_chained() {
    let launch = Launch::scripted().args(["-p", "hi"]);
    std::fs::create_dir_all(launch.home.join(".claude")).unwrap();
    std::fs::write(
        launch.home.join(".claude/settings.json"),
        r#"{"statusLine": {"type": "command", "command": "~/bin/line.sh", "padding": 1, "refreshInterval": 10}}"#,
    )
    .unwrap();
    let line = status_line(launch);
    assert_eq!(
        line,
        serde_json::json!({
            "type": "command",
            "command": format!("{} statusline --chain '~/bin/line.sh'", ours()),
            "padding": 1,
            "refreshInterval": 1,
        })
    );
}

#[test]
fn a_settings_flag_status_line_is_chained_over_the_files() {
    let launch = Launch::scripted();
    std::fs::create_dir_all(launch.project.join(".claude")).unwrap();
    std::fs::write(
        launch.project.join(".claude/settings.json"),
        r#"{"statusLine": {"type": "command", "command": "project-line"}}"#,
    )
    .unwrap();
    let line = status_line(launch.args([
        "--settings",
        r#"{"statusLine": {"type": "command", "command": "echo 'flag line'"}}"#,
        "-p",
        "hi",
    ]));
    assert_eq!(
        line["command"],
        format!(r"{} statusline --chain 'echo '\''flag line'\'''", ours())
    );
    assert_eq!(line["refreshInterval"], 1);
}

#[test]
fn turned_off_nothing_is_installed_and_theirs_stays() {
    let line = status_line(
        Launch::scripted()
            .env("MULTI_CURSOR_STATUSLINE", "0")
            .args(["-p", "hi"]),
    );
    assert!(line.is_null(), "{line}");
    let line = status_line(
        Launch::scripted()
            .env("MULTI_CURSOR_STATUSLINE", "0")
            .args([
                "--settings",
                r#"{"statusLine": {"type": "command", "command": "theirs"}}"#,
                "-p",
                "hi",
            ]),
    );
    assert_eq!(
        line,
        serde_json::json!({"type": "command", "command": "theirs"})
    );
}

#[test]
fn the_wrapper_installs_none() {
    // The VS Code panel and the Agent SDK draw no status line.
    let launch = Launch::scripted();
    let script = launch.dir.path().join("bin/claude");
    let output = wrapper::command(&launch, &wrapper::wrapper_bin())
        .env("FAKE_CLAUDE_DUMP", &launch.dump)
        .arg(&script)
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let settings = launch.claude_settings();
    assert!(settings["modelPicker"].is_object(), "{settings}");
    assert!(settings.get("statusLine").is_none(), "{settings}");
}
