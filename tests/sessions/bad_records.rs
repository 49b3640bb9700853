//! Records that cannot be trusted are refused with their paths and never overwritten: a
//! corrupted file, an unknown version, and a v2/v3 pair naming different chats (with the
//! README's recovery steps). Nothing runs for any of them.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn gateway() -> TestGateway {
    TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    })
}

fn refused(gw: &TestGateway, session: &str, status: u16) -> String {
    let (got, body) = gw.ask(
        session,
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_eq!(got, status, "{body}");
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(gw.turns().len(), 0, "nothing ran");
    body["error"]["message"].as_str().unwrap().to_string()
}

fn put(path: &std::path::Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_corrupted_record_is_refused_and_kept() {
    let gw = gateway();
    let path = gw.record_path("s-bad", "main");
    put(
        &path,
        b"{\"version\": 3, \"provider\": \"cursor\", \"chatId\": ",
    );
    let message = refused(&gw, "s-bad", 500);
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(message.contains("will not overwrite"), "{message}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"{\"version\": 3, \"provider\": \"cursor\", \"chatId\": "
    );
}

#[test]
fn an_unknown_version_is_refused_and_kept() {
    let gw = gateway();
    let path = gw.record_path("s-v9", "main");
    let bytes =
        serde_json::to_vec(&serde_json::json!({"version": 9, "provider": "cursor"})).unwrap();
    put(&path, &bytes);
    let message = refused(&gw, "s-v9", 500);
    assert!(message.contains("version 9"), "{message}");
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_v2_and_v3_naming_different_chats_are_refused_with_recovery_steps() {
    let gw = gateway();
    let v3 = gw.record_path("s-amb", "main");
    let v2 = v3.with_file_name(
        v3.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace(".v3.json", ".json"),
    );
    let identity = serde_json::json!([gw.workspace(), "s-amb", "main"]);
    let current = serde_json::json!({
        "version": 3, "provider": "cursor", "identity": identity, "chatId": "chat-new",
        "interrupted": false, "pendingRun": null, "lastOutcome": "completed", "response": null,
        "replay": null, "policy": null, "attachedRules": [], "firedRules": [],
        "rulebookDigest": null, "migratedFrom": null
    });
    let legacy = serde_json::json!({"version": 2, "identity": identity, "agentId": "chat-old", "pending": false});
    let v3_bytes = serde_json::to_vec(&current).unwrap();
    let v2_bytes = serde_json::to_vec(&legacy).unwrap();
    put(&v3, &v3_bytes);
    put(&v2, &v2_bytes);
    let message = refused(&gw, "s-amb", 409);
    assert!(message.contains(&v3.display().to_string()), "{message}");
    assert!(message.contains(&v2.display().to_string()), "{message}");
    assert!(message.contains("back up both files"), "{message}");
    assert!(message.contains("README"), "{message}");
    assert_eq!(std::fs::read(&v3).unwrap(), v3_bytes);
    assert_eq!(std::fs::read(&v2).unwrap(), v2_bytes);
}
