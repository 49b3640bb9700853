//! An id in `MULTI_CURSOR_EXTRA_MODELS` that the Cursor catalog lacks stops the launch with
//! `MULTI_CURSOR_EXTRA_MODELS: model "<id>" is unavailable. Use --cursor-models …`; a known one
//! becomes a picker row.

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn an_unknown_extra_model_stops_the_launch() {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_EXTRA_MODELS", "gpt-5.3-codex,no-such-model")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(1), "{output:?}");
    assert!(
        output.stderr.contains(
            "MULTI_CURSOR_EXTRA_MODELS: model \"no-such-model\" is unavailable. Use --cursor-models"
        ),
        "{}",
        output.stderr
    );
    assert!(launch.claude_argv().is_none(), "claude must not start");
}

#[test]
fn a_known_extra_model_is_a_picker_row() {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_EXTRA_MODELS", "gpt-5.3-codex")
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let settings = launch.claude_settings();
    let rows = settings["modelPicker"]["options"].as_array().unwrap();
    let codex = rows.last().unwrap();
    assert_eq!(codex["model"], "multi/cursor/gpt-5.3-codex");
    assert_eq!(
        codex["behavesAs"], "claude-sonnet-4-6",
        "a row with effort variants lets Claude Code choose the effort"
    );
    let description = launch.claude_agents()["multi-cursor"]["description"].clone();
    assert!(description.as_str().unwrap().contains("`gpt-5.3-codex`"));
}
