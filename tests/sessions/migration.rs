//! A v2 record written by an earlier release becomes a v3 record on first use: the chat is its
//! `agentId`, a `pending` turn becomes an interruption (notice streamed and sent to Cursor),
//! `migratedFrom` names the v2 file, and the v2 file is left byte for byte as it was. A resume
//! fallback after the migration changes the v3 chat without being taken for two owners.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

const NOTICE: &str = "[Cursor] The previous turn was interrupted. Report its state and do not repeat completed actions.";

/// Writes a v2 record for (workspace, session, "main") and returns its path and bytes.
fn write_v2(gw: &TestGateway, session: &str, pending: bool) -> (std::path::PathBuf, Vec<u8>) {
    let v3 = gw.record_path(session, "main");
    let v2 = v3.with_file_name(
        v3.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace(".v3.json", ".json"),
    );
    std::fs::create_dir_all(v2.parent().unwrap()).unwrap();
    let legacy = serde_json::json!({
        "version": 2,
        "identity": [gw.workspace(), session, "main"],
        "agentId": "chat-legacy",
        "pending": pending,
        "response": {"id": "msg_old", "type": "message", "role": "assistant", "model": "multi/cursor/composer-2.5",
                      "content": [{"type": "text", "text": "old answer"}], "stop_reason": "end_turn",
                      "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}}
    });
    let bytes = serde_json::to_vec_pretty(&legacy).unwrap();
    std::fs::write(&v2, &bytes).unwrap();
    (v2, bytes)
}

fn follow_up() -> serde_json::Value {
    let mut request = cursor_request("multi/cursor/composer-2.5", "", true);
    request["messages"] = serde_json::json!([
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "old answer"},
        {"role": "user", "content": "next step"}
    ]);
    request
}

fn gateway(extra: &[(&str, &str)]) -> TestGateway {
    let mut env = vec![(
        "FAKE_AGENT_KNOWN_CHATS".to_string(),
        "chat-legacy".to_string(),
    )];
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env,
        ..GatewayOptions::default()
    })
}

#[test]
fn a_v2_record_without_pending_continues_its_chat() {
    let gw = gateway(&[]);
    let (v2, bytes) = write_v2(&gw, "s-v2", false);
    let (status, body) = gw.ask("s-v2", &follow_up());
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        without_tokens(&sse_text(&body)),
        "fake agent reply",
        "no notice"
    );
    let turn = &gw.turns()[0];
    assert!(
        turn["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "--resume=chat-legacy")
    );
    assert!(turn["stdin"].as_str().unwrap().contains("next step"));
    assert!(
        !turn["stdin"].as_str().unwrap().contains("first"),
        "only what follows the recorded answer"
    );
    let record = gw.record("s-v2", "main");
    assert_eq!(record["version"], 3);
    assert_eq!(record["chatId"], "chat-legacy");
    assert_eq!(record["migratedFrom"]["path"], v2.display().to_string());
    assert_eq!(record["migratedFrom"]["agentId"], "chat-legacy");
    assert_eq!(
        std::fs::read(&v2).unwrap(),
        bytes,
        "the v2 file is untouched"
    );
}

#[test]
fn a_pending_v2_turn_becomes_an_interruption() {
    let gw = gateway(&[]);
    let (v2, bytes) = write_v2(&gw, "s-v2p", true);
    let (status, body) = gw.ask("s-v2p", &follow_up());
    assert_eq!(status, 200, "{body}");
    assert!(sse_text(&body).starts_with(NOTICE));
    assert!(gw.turns()[0]["stdin"].as_str().unwrap().starts_with(NOTICE));
    let record = gw.record("s-v2p", "main");
    assert_eq!(
        record["interrupted"], false,
        "cleared by the completed turn"
    );
    assert_eq!(std::fs::read(&v2).unwrap(), bytes);
}

#[test]
fn a_resume_fallback_after_migration_is_not_refused_later() {
    // Cursor has lost the legacy chat: the resume fails, a fresh chat starts.
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("workspace");
    std::fs::create_dir(&workspace).unwrap();
    let options = GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_KNOWN_CHATS".into(), "chat-fresh".into()),
            ("FAKE_AGENT_CHAT_ID".into(), "chat-fresh".into()),
        ],
        state_dir: Some(root.path().join("state")),
        workspace: Some(workspace),
        agent_log: Some(root.path().join("agent.jsonl")),
        ..GatewayOptions::default()
    };
    let mut gw = TestGateway::start(options.clone());
    write_v2(&gw, "s-v2f", false);
    let (status, body) = gw.ask("s-v2f", &follow_up());
    assert_eq!(status, 200, "{body}");
    assert!(
        sse_text(&body).starts_with("[Cursor] Cursor could not resume"),
        "{body}"
    );
    assert_eq!(gw.record("s-v2f", "main")["chatId"], "chat-fresh");

    // A later gateway loads both files, which now name different chats: not ambiguous,
    // because the v3 record says it was migrated from that v2 file.
    gw.kill();
    let gw = TestGateway::start(options);
    let mut later = follow_up();
    later["messages"].as_array_mut().unwrap().extend([
        serde_json::json!({"role": "assistant", "content": sse_text(&body)}),
        serde_json::json!({"role": "user", "content": "and then"}),
    ]);
    let (status, body) = gw.ask("s-v2f", &later);
    assert_eq!(status, 200, "{body}");
    let turns: Vec<_> = gw.turns();
    assert!(
        turns.last().unwrap()["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "--resume=chat-fresh")
    );
}
