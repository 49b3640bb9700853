//! A Cursor route chosen in `/model` of a launched session is saved as `"model":
//! "multi/cursor/…"` in the user's settings; the next plain `claude` starts on a route nothing
//! answers. The plugin's SessionStart notice names the file, the saved route and the fix, and
//! the settings file is left exactly as it was.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::plugin;

use claude::ClaudeRun;
use multi_cursor_test_support::fake_upstream::FakeUpstream;
use multi_cursor_test_support::fake_upstream::ScriptedResponse;

#[test]
fn the_start_up_notice_names_a_saved_cursor_model() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    let project = root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    plugin::install(&home, &project);

    let settings_path = home.join(".claude/settings.json");
    let mut settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_path).unwrap()).unwrap();
    settings["model"] = serde_json::json!("multi/cursor/composer-2.5");
    settings["modelPicker"] = serde_json::json!({"options": [{"model": "multi/cursor/other"}]});
    // As Claude Code writes it: two-space indent.
    let saved = serde_json::to_string_pretty(&settings).unwrap();
    std::fs::write(&settings_path, &saved).unwrap();

    // Anthropic, which knows no such model.
    let anthropic = FakeUpstream::start();
    anthropic.respond_with(|_| {
        ScriptedResponse::anthropic_error(
            404,
            "not_found_error",
            "model: multi/cursor/composer-2.5",
        )
        .header("x-should-retry", "false")
    });
    let output = ClaudeRun::new(&home, &project)
        .env("PATH", plugin::path_with_helper())
        .env("ANTHROPIC_BASE_URL", anthropic.url())
        .args([
            "-p",
            "say hello",
            "--output-format",
            "stream-json",
            "--verbose",
        ])
        .run();
    let hook = output
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| e["subtype"] == "hook_response" && e["hook_event"] == "SessionStart")
        .unwrap_or_else(|| panic!("no SessionStart response: {output:?}"));
    let said: serde_json::Value = serde_json::from_str(hook["stdout"].as_str().unwrap()).unwrap();
    let message = said["systemMessage"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "multi-cursor: {} saves \"model\": \"multi/cursor/composer-2.5\"",
            settings_path.display()
        )),
        "{message}"
    );
    assert!(
        message.contains("choose a Claude model with /model"),
        "{message}"
    );
    assert!(
        message.contains("start Claude Code with `multi-cursor`"),
        "{message}"
    );
    assert_eq!(
        std::fs::read_to_string(&settings_path).unwrap(),
        saved,
        "their settings are never edited"
    );
}
