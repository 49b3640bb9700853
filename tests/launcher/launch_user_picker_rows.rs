//! The user's own `modelPicker` rows in their settings files (user, project and local) are not
//! hidden by ours: the launcher's single `--settings` lists theirs first (a `--settings` row,
//! then local, project, user), then ours. With `--setting-sources project`, Claude Code reads
//! no user settings, and their rows are not added either.

use multi_cursor_test_support::launcher;

use launcher::Launch;

fn write(path: std::path::PathBuf, model: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let settings =
        serde_json::json!({"modelPicker": {"options": [{"model": model, "label": model}]}});
    std::fs::write(path, settings.to_string()).unwrap();
}

fn models(launch: &Launch) -> Vec<String> {
    launch.claude_settings()["modelPicker"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["model"].as_str().unwrap().to_string())
        .collect()
}

fn prepared() -> Launch {
    let launch = Launch::scripted();
    write(launch.home.join(".claude/settings.json"), "user-row");
    write(launch.project.join(".claude/settings.json"), "project-row");
    write(
        launch.project.join(".claude/settings.local.json"),
        "local-row",
    );
    launch
}

#[test]
fn their_rows_come_first_then_ours() {
    let inline = r#"{"modelPicker":{"options":[{"model":"flag-row"}]}}"#;
    let mut launch = prepared().args(["--settings", inline, "-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let models = models(&launch);
    assert_eq!(
        models[..4],
        ["flag-row", "local-row", "project-row", "user-row"],
        "{models:?}"
    );
    assert_eq!(models[4], "multi/cursor/default", "{models:?}");
}

#[test]
fn unread_sources_add_no_rows() {
    let mut launch = prepared().args(["--setting-sources=project", "-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let models = models(&launch);
    assert_eq!(models[0], "project-row", "{models:?}");
    assert!(
        !models.iter().any(|m| m == "user-row" || m == "local-row"),
        "{models:?}"
    );
}
