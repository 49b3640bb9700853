//! A gateway killed mid-turn (SIGKILL: nothing of ours runs) leaves Cursor's process group
//! running and the record `interrupted` with `pendingRun`. The restarted gateway ends that
//! group (its leader's start time still matches), refuses to run the interrupted request a
//! second time, and on the next message streams the interruption notice, prepends it to
//! Cursor's prompt, and clears it once that turn completes.

#![allow(clippy::unwrap_used)]

#[path = "support/gateway.rs"]
mod gateway;
#[path = "support/scenario.rs"]
mod scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

const NOTICE: &str = "[Cursor] The previous turn was interrupted. Report its state and do not repeat completed actions.";

#[test]
fn a_restarted_gateway_ends_the_orphan_and_tells_cursor() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    scenario::write(
        &dir,
        "01-long.scenario",
        &[
            scenario::INIT,
            &scenario::delta("halfway"),
            "#!sleep 120s",
            &scenario::result("halfway"),
        ],
    );
    scenario::write(
        &dir,
        "02-ok.scenario",
        &[
            scenario::INIT,
            &scenario::delta("recovered"),
            &scenario::result("recovered"),
        ],
    );
    let state = root.path().join("state");
    let workspace = root.path().join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    let log = root.path().join("agent.jsonl");
    let options = GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_SCENARIO".into(), dir.display().to_string()),
            ("FAKE_AGENT_CHAT_ID".into(), "chat-crash".into()),
        ],
        state_dir: Some(state.clone()),
        workspace: Some(workspace.clone()),
        agent_log: Some(log.clone()),
        ..GatewayOptions::default()
    };
    let mut first = TestGateway::start(options.clone());
    let interrupted = cursor_request("multi/cursor/composer-2.5", "migrate the database", true);
    let (url, token, body) = (
        first.url.clone(),
        first.token.clone(),
        interrupted.to_string(),
    );
    let client = std::thread::spawn(move || {
        let _ = reqwest::blocking::Client::new()
            .post(format!("{url}/v1/messages"))
            .header("x-multi-cursor-token", token)
            .header("x-claude-code-session-id", "s-crash")
            .header("content-type", "application/json")
            .body(body)
            .send()
            .and_then(|r| r.text());
    });
    assert!(scenario::wait_for(10, || first
        .record_path("s-crash", "main")
        .exists()
        && first.record("s-crash", "main")["chatId"] == "chat-crash"));
    let orphan = first.turns()[0]["pid"].as_u64().unwrap() as u32;
    first.kill();
    client.join().unwrap();
    assert!(
        !scenario::process_gone(orphan),
        "SIGKILL left Cursor running"
    );
    let left = first.record("s-crash", "main");
    assert_eq!(left["interrupted"], true);
    assert_eq!(left["pendingRun"]["pgid"].as_u64(), Some(u64::from(orphan)));

    let second = TestGateway::start(options);
    // Claude Code re-sending the interrupted request gets a failure, not a second run.
    let (status, body) = second.ask("s-crash", &interrupted);
    assert_eq!(status, 502, "{body}");
    assert!(body.contains("not run a second time"), "{body}");
    assert!(
        scenario::wait_for(10, || scenario::process_gone(orphan)),
        "the orphan group was ended"
    );
    assert_eq!(second.turns().len(), 1, "no rerun");

    let mut next = cursor_request("multi/cursor/composer-2.5", "", true);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "migrate the database"},
        {"role": "user", "content": "continue"}
    ]);
    let (status, body) = second.ask("s-crash", &next);
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    assert!(text.starts_with(NOTICE), "{text}");
    assert!(text.ends_with("recovered"));
    let turns = second.turns();
    assert_eq!(turns.len(), 2);
    assert!(turns[1]["stdin"].as_str().unwrap().starts_with(NOTICE));
    assert!(
        turns[1]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "chat-crash")
    );
    let record = second.record("s-crash", "main");
    assert_eq!(record["interrupted"], false);
    assert!(record["pendingRun"].is_null());
    assert_eq!(record["lastOutcome"], "completed");
}
