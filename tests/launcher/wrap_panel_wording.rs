//! A Cursor turn in Claude's `default` permission mode is refused with wording for where the
//! user is: behind `multi-cursor-claude` (the VS Code panel, driven here as its Agent SDK drives
//! it) the refusal names the panel's mode menu, `claudeCode.allowDangerouslySkipPermissions`
//! and `claudeCode.initialPermissionMode`; through the `multi-cursor` launcher it keeps naming
//! Shift+Tab and `--permission-mode`. Cursor runs in neither.

use std::ffi::OsString;
use std::time::Duration;

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::wrapper;

use launcher::Launch;
use wrapper::SDK_FLAGS;
use wrapper::Wrapped;

/// The refusal's own sentence, from where it starts in what Claude Code shows.
fn refusal(shown: &str) -> String {
    let start = shown
        .find("Cursor cannot run")
        .unwrap_or_else(|| panic!("no refusal in {shown}"));
    let text = &shown[start..];
    let end = text
        .find("send your message again.")
        .map_or(text.len(), |i| i + "send your message again.".len());
    text[..end].to_string()
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
    assert_eq!(wrapped.wait(Duration::from_secs(10)), Some(1), "{result}");
    assert!(launch.turns().is_empty(), "Cursor never ran");
    insta::assert_snapshot!(
        "panel",
        refusal(result["result"].as_str().unwrap_or_default())
    );
}

#[test]
fn the_terminal_keeps_shift_tab() {
    let mut launch = Launch::real().args([
        "-p",
        "explain the build script",
        "--model",
        "multi/cursor/composer-2.5",
    ]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    assert!(launch.turns().is_empty(), "Cursor never ran");
    insta::assert_snapshot!(
        "terminal",
        refusal(&format!("{}{}", output.stdout, output.stderr))
    );
}
