//! `multi-cursor-claude` driven as the VS Code extension's Agent SDK drives it (the real Claude
//! Code as the first argument, the SDK's stream-json flags, an `initialize` control request,
//! one user message, stdin closed): the initialize answer lists the Cursor rows, a host
//! `--settings` row (inline JSON, and a file given as `--settings=`), the user's own row and
//! the `multi-cursor` agent; a Cursor turn is answered by the fake agent in
//! `bypassPermissions` and refused in `default`; the gateway token is in no argv; the wrapper
//! exits with Claude Code's code on stdin EOF, leaving no Claude Code and no temporary folder,
//! having written nothing of its own to stderr. The first runs on the pinned and on the newest
//! Claude Code.

use std::ffi::OsString;
use std::time::Duration;

use multi_cursor_test_support::claude;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::wrapper;

use launcher::Launch;
use wrapper::SDK_FLAGS;
use wrapper::Wrapped;

fn launch_with_user_row() -> Launch {
    launch_with_user_row_on(&claude::claude_binary())
}

fn launch_with_user_row_on(claude: &std::path::Path) -> Launch {
    let launch = Launch::real_on(claude);
    std::fs::write(
        launch.home.join(".claude/settings.json"),
        r#"{"modelPicker":{"options":[{"model":"user-row"}]}}"#,
    )
    .unwrap();
    launch
}

fn args(extra: &[&str]) -> Vec<OsString> {
    SDK_FLAGS.iter().chain(extra).map(OsString::from).collect()
}

fn values(init: &serde_json::Value, list: &str, key: &str) -> Vec<String> {
    init["response"]["response"][list]
        .as_array()
        .or_else(|| init["response"][list].as_array())
        .unwrap_or_else(|| panic!("no {list} in {init}"))
        .iter()
        .map(|m| m[key].as_str().unwrap_or_default().to_string())
        .collect()
}

fn cmdline(pid: i32) -> String {
    String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default())
        .into_owned()
}

fn gateway_token(pid: i32) -> String {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap();
    environ
        .split(|b| *b == 0)
        .filter_map(|e| std::str::from_utf8(e).ok())
        .find_map(|e| e.strip_prefix("MULTI_CURSOR_GATEWAY_TOKEN="))
        .expect("Claude Code has the token in its environment")
        .to_string()
}

/// Closes stdin and checks the wrapper exits with `code` (Claude Code's), leaving nothing.
fn finish(mut wrapped: Wrapped, launch: &Launch, claude: i32, code: i32) {
    wrapped.close_stdin();
    let exited = wrapped.wait(Duration::from_secs(10));
    assert_eq!(exited, Some(code), "exit on stdin EOF");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut wrapped.child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        !stderr.contains("multi-cursor"),
        "the wrapper wrote to the host's stderr: {stderr}"
    );
    assert!(!wrapper::alive(claude), "Claude Code is gone");
    let ours: Vec<_> = launch
        .tmp_entries()
        .into_iter()
        .filter(|e| e.starts_with("multi-cursor-"))
        .collect();
    assert!(ours.is_empty(), "temporary folder removed: {ours:?}");
}

#[test]
fn the_sdk_sees_our_rows_and_agent_and_a_cursor_turn_answers() {
    for claude in claude::builds() {
        the_sdk_sees_our_rows_and_agent_and_a_cursor_turn_answers_on(&claude);
    }
}

fn the_sdk_sees_our_rows_and_agent_and_a_cursor_turn_answers_on(claude_binary: &std::path::Path) {
    let launch = launch_with_user_row_on(claude_binary);
    let host = r#"{"modelPicker":{"options":[{"model":"host-row"}]}}"#;
    let mut wrapped = Wrapped::start_on(
        &launch,
        claude_binary,
        &args(&["--permission-mode=bypassPermissions", "--settings", host]),
    );
    let init = wrapped.initialize();
    let models = values(&init, "models", "value");
    for want in ["multi/cursor/default", "host-row", "user-row"] {
        assert!(models.iter().any(|m| m == want), "{want} in {models:?}");
    }
    let agents = values(&init, "agents", "name");
    assert!(agents.iter().any(|a| a == "multi-cursor"), "{agents:?}");
    // The plugin of the helper's version, as the launcher gives it (`--plugin-dir`).
    let commands = values(&init, "commands", "name");
    assert!(
        commands.iter().any(|c| c == "multi-cursor:status"),
        "{commands:?}"
    );

    let claude = wrapped.children();
    assert_eq!(claude.len(), 1, "one Claude Code child: {claude:?}");
    let token = gateway_token(claude[0]);
    for pid in [wrapped.child.id() as i32, claude[0]] {
        assert!(
            !cmdline(pid).contains(&token),
            "the token is in {pid}'s argv"
        );
    }

    wrapped.user("explain the build script");
    let result = wrapped.until(|v| v["type"] == "result");
    assert_eq!(result["is_error"], false, "{result}");
    assert_eq!(
        without_tokens(result["result"].as_str().unwrap()),
        "fake agent reply",
        "{result}"
    );
    assert_eq!(launch.turns().len(), 1);
    finish(wrapped, &launch, claude[0], 0);
}

#[test]
fn default_mode_answers_read_only_and_a_settings_file_merges() {
    let launch = launch_with_user_row();
    let file = launch.dir.path().join("host-settings.json");
    std::fs::write(
        &file,
        r#"{"modelPicker":{"options":[{"model":"host-file-row"}]}}"#,
    )
    .unwrap();
    let mut wrapped = Wrapped::start(
        &launch,
        &args(&[
            "--permission-mode=default",
            &format!("--settings={}", file.display()),
        ]),
    );
    let init = wrapped.initialize();
    let models = values(&init, "models", "value");
    for want in ["multi/cursor/default", "host-file-row", "user-row"] {
        assert!(models.iter().any(|m| m == want), "{want} in {models:?}");
    }
    let claude = wrapped.children();
    wrapped.user("explain the build script");
    let result = wrapped.until(|v| v["type"] == "result");
    let text = result["result"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("[Cursor] Cursor answered read-only: in manual mode"),
        "{result}"
    );
    assert_eq!(launch.turns().len(), 1, "Cursor ran once, read-only");
    finish(wrapped, &launch, claude[0], 0);
}
