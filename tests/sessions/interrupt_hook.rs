//! Claude Code's `Interrupt` hook (2.1.335+) ends the session's live Cursor run at once while
//! the client still holds the turn's connection open: the payload Claude Code 2.1.337 sent when
//! Esc stopped a turn (`tests/fixtures/claude/interrupt-hook-2.1.337.json`, its session id
//! and folder replaced) goes through `multi-cursor hook` as Claude Code runs it; the fake agent, which would
//! work for a minute more, is gone with its process group, the run's ledger line says
//! "stopped by the user", and a hook for another session ends nothing.

use std::io::Read;
use std::io::Write;
use std::process::Command;
use std::process::Stdio;

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::ledger::ledger_lines;
use multi_cursor_test_support::repo_root;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

/// Runs `multi-cursor hook` with `payload` on stdin, pointed at `gw`, as Claude Code does.
fn run_hook(gw: &TestGateway, payload: &serde_json::Value) {
    let mut child = Command::new(multi_cursor_test_support::multi_cursor_bin())
        .arg("hook")
        .env("MULTI_CURSOR_GATEWAY_URL", &gw.url)
        .env("MULTI_CURSOR_GATEWAY_TOKEN", &gw.token)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
}

fn measured_payload(gw: &TestGateway, session: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(
        repo_root().join("tests/fixtures/claude/interrupt-hook-2.1.337.json"),
    )
    .unwrap();
    let mut payload: serde_json::Value = serde_json::from_str(&text).unwrap();
    payload["session_id"] = session.into();
    payload["cwd"] = gw.workspace().display().to_string().into();
    payload
}

#[test]
fn the_interrupt_hook_ends_the_run_while_the_client_stays_open() {
    let scenarios = tempfile::tempdir().unwrap();
    let dir = scenarios.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    scenario::write(
        &dir,
        "01-long.scenario",
        &[
            scenario::INIT,
            &scenario::delta("starting"),
            "#!sleep 60s",
            &scenario::result("starting"),
        ],
    );
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_SCENARIO".into(), dir.display().to_string())],
        ..GatewayOptions::default()
    });
    let mut response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "long job", true),
        &[("x-claude-code-session-id", "s-int")],
    );
    assert_eq!(response.status(), 200);
    gateway::read_until(&mut response, "starting");
    let pid = gw.turns()[0]["pid"].as_u64().unwrap() as u32;

    // Another session's interrupt leaves this run alone.
    run_hook(&gw, &measured_payload(&gw, "s-other"));
    assert!(
        !scenario::process_gone(pid),
        "another session's hook ended the run"
    );

    // The client keeps reading: only the hook can end the run now.
    run_hook(&gw, &measured_payload(&gw, "s-int"));
    assert!(
        scenario::wait_for(10, || scenario::process_gone(pid)),
        "Cursor's process outlived the Interrupt hook"
    );
    assert!(scenario::wait_for(5, || !ledger_lines(&gw.state_view).is_empty()));
    let lines = ledger_lines(&gw.state_view);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert_eq!(lines[0]["outcome"], "cancelled", "{lines:#?}");
    assert_eq!(lines[0]["stopped"], "stopped by the user", "{lines:#?}");
    assert!(scenario::wait_for(
        5,
        || gw.record("s-int", "main")["lastOutcome"] == "cancelled"
    ));
    // The held stream ends (with the failure), not with Cursor's answer.
    let mut rest = String::new();
    let _ = response.read_to_string(&mut rest);
    assert!(!rest.contains("message_stop"), "{rest}");
}
