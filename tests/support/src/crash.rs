//! What must hold after a gateway was SIGKILLed during a turn of session `s-crash` (chat
//! `chat-crash`, request "migrate the database"), whatever phase the turn was in: a restarted
//! gateway ends the recorded process group if it survived, refuses to run the interrupted
//! request again, and the next message runs in the same chat with the interruption notice,
//! which is cleared once that turn completes.

use std::thread::JoinHandle;

use crate::display::without_tokens;
use crate::gateway::GatewayOptions;
use crate::gateway::TestGateway;
use crate::gateway::cursor_request;
use crate::gateway::resumed_chat;
use crate::gateway::sse_text;
use crate::scenario;

pub const SESSION: &str = "s-crash";
pub const CHAT: &str = "chat-crash";
pub const NOTICE: &str = "[Cursor] The previous turn was interrupted. Report its state and do not repeat completed actions.";

/// A gateway running the turn that will crash, and how to start another on its state.
pub struct Crashing {
    /// Holds the scenarios, the state folder, the workspace and the agent log.
    pub root: tempfile::TempDir,
    /// The options of both gateways (the same state, workspace and agent log).
    pub options: GatewayOptions,
    pub gateway: TestGateway,
    client: Option<JoinHandle<()>>,
}

impl Crashing {
    /// [`Crashing::start`] with a first turn that streamed "halfway" and then hangs, SIGKILLs
    /// that gateway and its watchdogs mid-turn and returns the Cursor process it left running
    /// (the orphan).
    pub fn killed_halfway() -> (Crashing, u32) {
        let mut crashing = Crashing::start(&[
            scenario::INIT,
            &scenario::delta("halfway"),
            "#!sleep 120s",
            &scenario::result("halfway"),
        ]);
        let orphan = crashing.agent_pid();
        crashing.kill_gateway();
        (crashing, orphan)
    }

    /// Starts a gateway whose first Cursor turn replays `first_turn` (the second answers
    /// "recovered"), sends it the request and waits until the turn's chat id is recorded.
    pub fn start(first_turn: &[&str]) -> Crashing {
        let root = tempfile::tempdir().unwrap();
        let dir = turns(root.path(), first_turn);
        let workspace = root.path().join("workspace");
        std::fs::create_dir(&workspace).unwrap();
        let options = GatewayOptions {
            permission_mode: Some("bypassPermissions".into()),
            env: vec![
                ("FAKE_AGENT_SCENARIO".into(), dir.display().to_string()),
                ("FAKE_AGENT_CHAT_ID".into(), CHAT.into()),
            ],
            state_dir: Some(root.path().join("state")),
            workspace: Some(workspace),
            agent_log: Some(root.path().join("agent.jsonl")),
            ..GatewayOptions::default()
        };
        let gateway = TestGateway::start(options.clone());
        let (url, token, body) = (
            gateway.url.clone(),
            gateway.token.clone(),
            interrupted_request().to_string(),
        );
        // The client gets no answer: the gateway dies under it.
        let client = std::thread::spawn(move || {
            let _ = reqwest::blocking::Client::new()
                .post(format!("{url}/v1/messages"))
                .header("x-multi-cursor-token", token)
                .header("x-claude-code-session-id", SESSION)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .and_then(reqwest::blocking::Response::text);
        });
        assert!(scenario::wait_for(10, || gateway
            .record_path(SESSION, "main")
            .exists()
            && gateway.record(SESSION, "main")["chatId"] == CHAT));
        Crashing {
            root,
            options,
            gateway,
            client: Some(client),
        }
    }

    /// The pid of the crashing turn's agent.
    pub fn agent_pid(&self) -> u32 {
        self.gateway.turns()[0]["pid"].as_u64().unwrap() as u32
    }

    /// SIGKILLs the gateway and the watchdogs of its Cursor runs (as if they died with it:
    /// a restarted gateway must then end the orphan itself): nothing of ours runs after this.
    pub fn kill_gateway(&mut self) {
        crate::process::kill_watchdogs_of(self.gateway.pid);
        self.gateway.kill();
        if let Some(client) = self.client.take() {
            client.join().unwrap();
        }
    }
}

/// `<root>/turns`, the scenario folder of the crashing session: the first turn replays
/// `first_turn`, the second answers "recovered".
pub fn turns(root: &std::path::Path, first_turn: &[&str]) -> std::path::PathBuf {
    let dir = root.join("turns");
    std::fs::create_dir(&dir).unwrap();
    scenario::write(&dir, "01-crashing.scenario", first_turn);
    scenario::reply(&dir, "02-ok.scenario", "recovered");
    dir
}

/// The request the crash interrupted.
pub fn interrupted_request() -> serde_json::Value {
    cursor_request("multi/cursor/composer-2.5", "migrate the database", true)
}

/// Restarts on `options` (the crashed gateway's state) and checks the recovery; `orphan` is
/// the pid of the crashed turn's agent; the next turn's scenario answers "recovered".
pub fn a_restarted_gateway_continues(options: GatewayOptions, orphan: u32) {
    let interrupted = interrupted_request();
    let second = TestGateway::start(options);
    // Claude Code re-sending the interrupted request gets a failure, not a second run.
    let (status, body) = second.ask(SESSION, &interrupted);
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
    let (status, body) = second.ask(SESSION, &next);
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    assert!(text.starts_with(NOTICE), "{text}");
    assert!(without_tokens(&text).ends_with("recovered"), "{text}");
    let turns = second.turns();
    assert_eq!(turns.len(), 2);
    assert!(turns[1]["stdin"].as_str().unwrap().starts_with(NOTICE));
    assert_eq!(resumed_chat(&turns[1]).as_deref(), Some(CHAT));
    let record = second.record(SESSION, "main");
    assert_eq!(record["interrupted"], false);
    assert!(record["pendingRun"].is_null());
    assert_eq!(record["lastOutcome"], "completed");
}
