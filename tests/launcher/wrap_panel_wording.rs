//! A Cursor turn in Claude's manual mode (`default`) answers read-only, and its first line says
//! how to let Cursor edit in the words of where the user is: behind `multi-cursor-claude` started
//! by the VS Code panel (driven here as its Agent SDK drives it) the panel's mode menu and
//! `claudeCode.initialPermissionMode`; started by the Agent SDK (`CLAUDE_CODE_ENTRYPOINT=sdk-ts`)
//! its `permissionMode`; through the `multi-cursor` launcher with `-p`, `--permission-mode
//! acceptEdits` (Shift+Tab, the interactive session's switch, is `first_contact_tui`'s). Cursor
//! runs read-only (`--mode ask`) in each.

use std::ffi::OsString;
use std::time::Duration;

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::wrapper;

use launcher::Launch;
use wrapper::SDK_FLAGS;
use wrapper::Wrapped;

/// The note's line, from where it starts in what Claude Code shows.
fn note(shown: &str) -> String {
    let start = shown
        .find("[Cursor] Cursor answered read-only")
        .unwrap_or_else(|| panic!("no note in {shown}"));
    shown[start..]
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The one turn ran read-only.
fn ran_read_only(launch: &Launch) {
    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
    assert_eq!(argv[argv.len() - 2..], ["--mode", "ask"], "{argv:?}");
}

/// The note of a manual-mode turn behind `multi-cursor-claude` started as `entrypoint`.
fn wrapped_note(entrypoint: &str) -> String {
    let launch = Launch::real();
    let args: Vec<OsString> = SDK_FLAGS
        .iter()
        .chain(&["--permission-mode=default"])
        .map(OsString::from)
        .collect();
    let mut wrapped = Wrapped::start_from(&launch, &args, entrypoint);
    wrapped.initialize();
    wrapped.user("explain the build script");
    let result = wrapped.until(|v| v["type"] == "result");
    wrapped.close_stdin();
    assert_eq!(wrapped.wait(Duration::from_secs(10)), Some(0), "{result}");
    ran_read_only(&launch);
    note(result["result"].as_str().unwrap_or_default())
}

#[test]
fn the_sdk_gets_its_permission_mode_option() {
    insta::assert_snapshot!("sdk", wrapped_note("sdk-ts"));
}

#[test]
fn the_panel_gets_the_panels_switches() {
    let launch = Launch::real();
    let args: Vec<OsString> = SDK_FLAGS
        .iter()
        .chain(&["--permission-mode=default"])
        .map(OsString::from)
        .collect();
    let mut wrapped = Wrapped::start(&launch, &args);
    wrapped.initialize();
    wrapped.user("explain the build script");
    let result = wrapped.until(|v| v["type"] == "result");
    wrapped.close_stdin();
    assert_eq!(wrapped.wait(Duration::from_secs(10)), Some(0), "{result}");
    ran_read_only(&launch);
    insta::assert_snapshot!("panel", note(result["result"].as_str().unwrap_or_default()));
}

#[test]
fn print_mode_names_its_flag() {
    let mut launch = Launch::real().args([
        "-p",
        "explain the build script",
        "--model",
        "multi/cursor/composer-2.5",
    ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    ran_read_only(&launch);
    insta::assert_snapshot!("print", note(&output.stdout));
}
