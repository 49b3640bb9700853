//! A user's own `--settings` (a file and inline JSON) is merged into the launcher's single
//! settings file: their keys stay, their picker rows and hooks come first and ours are
//! appended, and Claude Code receives exactly one `--settings`.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn user_settings_are_merged_with_ours() {
    let launch = Launch::scripted();
    let file = launch.dir.path().join("user-settings.json");
    std::fs::write(
        &file,
        serde_json::json!({
            "theme": "dark",
            "modelPicker": {"options": [{"model": "my-proxy/model", "label": "Mine"}]},
            "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo theirs"}]}]},
        })
        .to_string(),
    )
    .unwrap();
    let inline = serde_json::json!({"includeCoAuthoredBy": false}).to_string();
    let mut launch = launch
        .arg("--settings")
        .arg(&file)
        .arg(format!("--settings={inline}"))
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");

    let argv = launch.claude_argv().unwrap();
    assert_eq!(
        argv.iter().filter(|a| a.starts_with("--settings")).count(),
        1,
        "{argv:?}"
    );
    let settings = launch.claude_settings();
    assert_eq!(settings["theme"], "dark");
    assert_eq!(settings["includeCoAuthoredBy"], false);
    let rows = settings["modelPicker"]["options"].as_array().unwrap();
    assert_eq!(rows[0]["model"], "my-proxy/model");
    assert_eq!(rows[1]["model"], "multi/cursor/default");
    assert_eq!(rows.len(), 4);
    let start = settings["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(start.len(), 2);
    assert_eq!(start[0]["hooks"][0]["command"], "echo theirs");
    assert_eq!(start[1]["hooks"][0]["args"], serde_json::json!(["hook"]));
    assert_eq!(
        settings["hooks"]["UserPromptSubmit"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn unreadable_user_settings_stop_the_launch() {
    let mut launch = Launch::scripted().args(["--settings", "missing.json", "-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(1), "{output:?}");
    assert!(
        output.stderr.contains("--settings missing.json"),
        "{}",
        output.stderr
    );
    assert!(launch.claude_argv().is_none(), "claude must not start");
}
