//! Each captured Cursor stream renders to exactly the rows, prose and closing summary (ending
//! with the turn's tokens) in its insta snapshot `snapshots/display__<name>.snap` (the capture's own
//! workspace as the turn's workspace); `gateway/fixtures.rs` checks the gateway's answers against
//! the same snapshots.

use multi_cursor_test_support::display;

fn check(name: &str) {
    let path = display::fixtures().join(name);
    let stream = std::fs::read_to_string(&path).unwrap();
    let workspace = display::capture_workspace(&stream);
    let rendered = display::render_answer(stream.as_bytes(), &workspace);
    let stem = name.trim_end_matches(".ndjson");
    insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_snapshot!(format!("display__{stem}"), rendered.text);
    });
}

#[test]
fn maestro_02_shell_tool_call() {
    check("maestro-02_shell_tool_call.ndjson");
}

#[test]
fn maestro_04_partial_output() {
    check("maestro-04_partial_output.ndjson");
}

#[test]
fn maestro_05_rejected_shell() {
    check("maestro-05_rejected_shell.ndjson");
}

#[test]
fn golembot_shell_pwd() {
    check("golembot-shell-pwd.ndjson");
}

#[test]
fn golembot_model_error_shows_nothing() {
    check("golembot-model-error.ndjson");
}
