//! `multi-cursor hook` and `multi-cursor status`, the binaries Claude Code's hooks and the user
//! run, against a real gateway (or none).

use multi_cursor_test_support::gateway;

use std::process::Command;
use std::time::Duration;
use std::time::Instant;

use gateway::GatewayOptions;
use gateway::TestGateway;

fn bin() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_multi-cursor"));
    command
        .env_remove("MULTI_CURSOR_GATEWAY_URL")
        .env_remove("MULTI_CURSOR_GATEWAY_TOKEN");
    command
}

fn hook(command: &mut Command, payload: &serde_json::Value) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let output = multi_cursor_test_support::output_with_stdin(
        command.arg("hook"),
        payload.to_string().as_bytes(),
    );
    (output, started.elapsed())
}

fn status(gw: &TestGateway) -> serde_json::Value {
    let response = gw
        .client()
        .get(format!("{}/multi-cursor/status", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    serde_json::from_str(&response.text().unwrap()).unwrap()
}

#[test]
fn hook_without_gateway_is_silent_and_quick() {
    let payload =
        serde_json::json!({"session_id": "s", "hook_event_name": "SessionStart", "cwd": "/tmp"});
    let (output, elapsed) = hook(&mut bin(), &payload);
    println!("multi-cursor hook without a gateway took {elapsed:?}");
    assert!(output.status.success(), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
}

#[test]
fn hook_delivers_payloads_to_the_gateway() {
    let gw = TestGateway::start(GatewayOptions::default());
    let ws = gw.workspace();
    for payload in [
        serde_json::json!({"session_id": "cli-session", "hook_event_name": "SessionStart", "cwd": ws, "source": "startup"}),
        serde_json::json!({"session_id": "cli-session", "hook_event_name": "UserPromptSubmit", "cwd": ws, "permission_mode": "dontAsk", "prompt": "hi"}),
    ] {
        let mut command = bin();
        command
            .env("MULTI_CURSOR_GATEWAY_URL", &gw.url)
            .env("MULTI_CURSOR_GATEWAY_TOKEN", &gw.token);
        let (output, elapsed) = hook(&mut command, &payload);
        println!("multi-cursor hook with a gateway took {elapsed:?}");
        assert!(output.status.success(), "{output:?}");
        assert!(
            output.stdout.is_empty(),
            "hook stdout reaches the prompt: {output:?}"
        );
        let status = status(&gw);
        let session = status["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["session"] == "cli-session")
            .unwrap_or_else(|| panic!("session listed: {status}"))
            .clone();
        // Claude Code's SessionStart hook input carries no permission mode; UserPromptSubmit's does.
        assert_eq!(session["mode"], payload["permission_mode"], "{status}");
        assert_eq!(session["workspace"], ws.to_str().unwrap(), "{status}");
    }
}

#[test]
fn status_outside_a_session_says_so() {
    let output = bin().arg("status").output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("MULTI_CURSOR_GATEWAY_URL") || text.to_lowercase().contains("session"),
        "{text}"
    );
}
