//! A shell call Cursor's permissions refused: its row says so (with the reason when Cursor
//! gave one), it is listed under `Not completed`, and the run still finishes normally.

use multi_cursor_test_support::display;
use multi_cursor_test_support::stream_lines as lines;

use serde_json::json;
use std::path::Path;

#[test]
fn a_rejected_shell_is_shown_and_summarised() {
    let stream = [
        lines::init(),
        lines::whole("I'll run it."),
        lines::started("c1", "shellToolCall", json!({"command": "rm -rf build"})),
        // The CLI leaves `args` out of a rejected call's completed event.
        lines::completed(
            "c1",
            "shellToolCall",
            serde_json::Value::Null,
            json!({"rejected": {"command": "rm -rf build", "workingDirectory": "/w", "reason": "", "isReadonly": false}}),
        ),
        lines::started(
            "c2",
            "shellToolCall",
            json!({"command": "curl example.com"}),
        ),
        lines::completed(
            "c2",
            "shellToolCall",
            serde_json::Value::Null,
            json!({"rejected": {"command": "curl example.com", "reason": "Shell(curl) is denied"}}),
        ),
        lines::whole("Both were blocked."),
        lines::result("I'll run it.Both were blocked.", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert!(rendered.finished);
    assert_eq!(
        rendered.text,
        "I'll run it.\n\n\
         ⎿ shell `rm -rf build` · denied by Cursor permissions\n\
         ⎿ shell `curl example.com` · denied by Cursor permissions: Shell(curl) is denied\n\n\
         Both were blocked.\n\n\
         [Cursor] 2 native actions: 2 shell.\n\
         [Cursor] Not completed: shell `rm -rf build` (denied by Cursor permissions); shell `curl example.com` (denied by Cursor permissions: Shell(curl) is denied)."
    );
}

#[test]
fn a_non_zero_exit_counts_as_failed() {
    let stream = [
        lines::init(),
        lines::started("c1", "shellToolCall", json!({"command": "cargo test"})),
        lines::completed(
            "c1",
            "shellToolCall",
            json!({"command": "cargo test"}),
            json!({"success": {"command": "cargo test", "exitCode": 101, "signal": "", "stdout": "running 3 tests\n\u{1b}[31mtest result: FAILED\u{1b}[0m. 2 passed; 1 failed\n", "stderr": "", "executionTime": 12500}}),
        ),
        lines::result("", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert_eq!(
        rendered.text,
        "⎿ shell `cargo test` · exit 101 · 12 s · test result: FAILED. 2 passed; 1 failed\n\n\
         [Cursor] 1 native action: 1 shell.\n\
         [Cursor] Not completed: shell `cargo test` (exit 101)."
    );
}

#[test]
fn a_permission_denied_result_is_a_denied_row_in_cursors_words() {
    // Cursor 2026.10.01's shape: `permissionDenied {command, workingDirectory, error,
    // isReadonly}`, and `hookAdditionalContexts` on every `tool_call` event.
    let mut started: serde_json::Value = serde_json::from_str(&lines::started(
        "c1",
        "shellToolCall",
        json!({"command": "git push"}),
    ))
    .unwrap();
    started["hookAdditionalContexts"] = json!([]);
    let mut completed: serde_json::Value = serde_json::from_str(&lines::completed(
        "c1",
        "shellToolCall",
        json!({"command": "git push"}),
        json!({"permissionDenied": {"command": "git push", "workingDirectory": "/w", "error": "Shell command blocked by permissions: git push", "isReadonly": false}}),
    ))
    .unwrap();
    completed["hookAdditionalContexts"] = json!(["from a Claude hook"]);
    let stream = [
        lines::init(),
        started.to_string(),
        completed.to_string(),
        lines::whole("Not pushed."),
        lines::result("Not pushed.", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert!(rendered.finished);
    assert_eq!(
        rendered.text,
        "⎿ shell `git push` · denied by Cursor permissions: Shell command blocked by permissions: git push\n\n\
         Not pushed.\n\n\
         [Cursor] 1 native action: 1 shell.\n\
         [Cursor] Not completed: shell `git push` (denied by Cursor permissions: Shell command blocked by permissions: git push)."
    );
}
