//! An account whose plan runs only Auto (2026.10.01: `ActionRequiredError: Named models
//! unavailable Free plans can only use Auto.`): after Cursor refuses a named model once, the
//! next launch offers only Auto in `/model` and to workers, and says why in Cursor's words;
//! once a named model answers again (the plan changed), every row comes back.

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::repo_root;

use launcher::Launch;
use multi_cursor_test_support::tmux::Tmux;

fn picker_models(launch: &Launch) -> Vec<String> {
    launch.claude_settings()["modelPicker"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["model"].as_str().unwrap().to_string())
        .collect()
}

/// A scripted Claude Code started by the launcher on `state`: its picker rows and stderr.
fn scripted_start(state: &std::path::Path) -> (Vec<String>, String) {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_STATE_DIR", state)
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    (picker_models(&launch), output.stderr)
}

/// `claude -p` on a named Cursor model through the launcher, on `launch`'s folders.
fn named_model_turn(launch: Launch) -> Launch {
    launch.args([
        "-p",
        "hello",
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        "bypassPermissions",
    ])
}

#[test]
fn an_auto_only_refusal_leaves_only_auto_in_the_picker_until_a_named_model_answers() {
    let scenario = repo_root().join("tests/fake-agent/scenarios/free-plan-named-model.scenario");
    let mut refused = named_model_turn(Launch::real().env("FAKE_AGENT_SCENARIO", &scenario));
    let output = refused.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    assert!(
        output.stdout.contains("can only run Auto") || output.stderr.contains("can only run Auto"),
        "{output:?}"
    );
    let state = refused.state.clone();
    assert!(
        state.join("plan.json").is_file(),
        "the refusal was not noted"
    );

    let (rows, stderr) = scripted_start(&state);
    assert_eq!(rows, ["multi/cursor/default"]);
    assert!(
        stderr.contains("/model offers only Auto via Cursor")
            && stderr.contains(
                "“ActionRequiredError: Named models unavailable Free plans can only use Auto.”"
            ),
        "{stderr}"
    );

    // The plan changed: a named model typed into /model answers, and the note goes.
    let mut answered = named_model_turn(Launch::real().env("MULTI_CURSOR_STATE_DIR", &state));
    let output = answered.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert!(
        !state.join("plan.json").exists(),
        "a named answer kept the note"
    );
    let (rows, stderr) = scripted_start(&state);
    assert!(rows.len() > 1, "{rows:?}");
    assert!(
        rows.contains(&"multi/cursor/composer-2.5".to_string()),
        "{rows:?}"
    );
    assert!(!stderr.contains("offers only Auto"), "{stderr}");
}

/// In the real TUI, which clears the screen the launcher printed on, the Auto-only line comes
/// back inside the session (the first SessionStart hook's `systemMessage`), and `/model`
/// offers Auto alone among the Cursor rows.
#[test]
fn the_tui_shows_why_only_auto_is_offered_and_the_picker_agrees() {
    let launch = Launch::real();
    std::fs::create_dir_all(&launch.state).unwrap();
    multi_cursor_test_support::set_mode(&launch.state, 0o700);
    std::fs::write(
        launch.state.join("plan.json"),
        r#"{"autoOnly":true,"seenAtMs":1764890000000,"said":"ActionRequiredError: Named models unavailable Free plans can only use Auto."}"#,
    )
    .unwrap();
    let tmux = Tmux::start(launch.dir.path(), &launch.script());
    let wait = std::time::Duration::from_secs(60);
    tmux.wait_for("the start-up notice", wait, |pane| {
        pane.contains("SessionStart:startup says: multi-cursor: /model offers only Auto via Cursor")
    });
    tmux.type_line("/model");
    let pane = tmux.wait_for("the model picker", wait, |pane| {
        pane.contains("Select model")
    });
    let picker = &pane[pane.find("Select model").unwrap()..];
    let cursor_rows: Vec<&str> = picker
        .lines()
        .filter(|l| l.contains("via Cursor"))
        .collect();
    assert_eq!(cursor_rows.len(), 1, "{picker}");
    assert!(cursor_rows[0].contains("Auto via Cursor"), "{picker}");
}
