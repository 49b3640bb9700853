//! A turn's record (the session record a gateway keeps per identity): before Cursor can act it says `interrupted` with the process
//! group in `pendingRun`; once the answer lands it holds the chat, the response and the replay,
//! `lastOutcome` "completed", no pending run — in a 0600 file inside a 0700 folder, locked by
//! the gateway that owns it.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

#[test]
fn the_record_follows_the_turn() {
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(
        scenarios.path(),
        "slow.scenario",
        "working",
        "1500ms",
        " done",
    );
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_SCENARIO".into(), slow.display().to_string()),
            ("FAKE_AGENT_CHAT_ID".into(), "chat-life".into()),
        ],
        ..GatewayOptions::default()
    });
    let url = gw.url.clone();
    let token = gw.token.clone();
    let request = std::thread::spawn(move || {
        reqwest::blocking::Client::new()
            .post(format!("{url}/v1/messages"))
            .header("x-multi-cursor-token", token)
            .header("x-claude-code-session-id", "s-life")
            .header("content-type", "application/json")
            .body(cursor_request("multi/cursor/composer-2.5", "do it", true).to_string())
            .send()
            .unwrap()
            .text()
            .unwrap()
    });

    // While Cursor works: interrupted, with the agent's process group recorded.
    let path = gw.record_path("s-life", "main");
    assert!(scenario::wait_for(10, || gw.turns().len() == 1 && path.exists()));
    let running = gw.record("s-life", "main");
    assert_eq!(running["version"], 3);
    assert_eq!(running["provider"], "cursor");
    assert_eq!(
        running["identity"],
        serde_json::json!([gw.workspace(), "s-life", "main"])
    );
    assert_eq!(running["interrupted"], true);
    let pending = &running["pendingRun"];
    assert_eq!(pending["pgid"], gw.turns()[0]["pgid"], "{running:#}");
    assert_eq!(pending["model"], "composer-2.5");
    assert_eq!(pending["key"].as_str().unwrap().len(), 64);
    assert!(pending["processStart"].as_u64().is_some());
    assert!(pending["startedAt"].as_str().unwrap().ends_with('Z'));
    // The chat id is saved as soon as init arrives, before the answer.
    assert!(scenario::wait_for(
        5,
        || gw.record("s-life", "main")["chatId"] == "chat-life"
    ));
    assert!(gw.record("s-life", "main")["response"].is_null());

    let body = request.join().unwrap();
    assert_eq!(without_tokens(&sse_text(&body)), "working done");
    let done = gw.record("s-life", "main");
    assert_eq!(done["interrupted"], false);
    assert!(done["pendingRun"].is_null());
    assert_eq!(done["lastOutcome"], "completed");
    assert_eq!(done["chatId"], "chat-life");
    assert_eq!(
        without_tokens(done["response"]["content"][0]["text"].as_str().unwrap()),
        "working done"
    );
    assert_eq!(done["response"]["stop_reason"], "end_turn");
    let replay = &done["replay"];
    assert_eq!(replay["key"], pending["key"]);
    let names: Vec<&str> = replay["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[0].as_str().unwrap())
        .collect();
    assert_eq!(names.first(), Some(&"message_start"));
    assert_eq!(names.last(), Some(&"message_stop"));
    assert!(
        done["policy"]
            .as_str()
            .unwrap()
            .contains("bypassPermissions")
    );

    let folder = path.parent().unwrap();
    let mode = |p: &std::path::Path| {
        multi_cursor::platform::mode(&std::fs::metadata(p).unwrap()).map(|m| m & 0o777)
    };
    match (mode(folder), mode(&path)) {
        (Some(folder), Some(file)) => assert_eq!((folder, file), (0o700, 0o600)),
        _ => eprintln!("modes not checked: this system has no permission bits"),
    }
    // The gateway holds the record's lock while it owns the identity.
    let lock = std::fs::File::open(format!("{}.lock", path.display())).unwrap();
    assert!(lock.try_lock().is_err(), "the gateway holds the lock");
    assert_eq!(
        std::fs::read_to_string(format!("{}.lock", path.display()))
            .unwrap()
            .trim(),
        gw.pid.to_string()
    );
}
