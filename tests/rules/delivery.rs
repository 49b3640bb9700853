//! The rulebook reaches Cursor through the gateway: a chat's first prompt carries the Always
//! rules Cursor does not load itself; a continued chat is not sent them again; a changed rule
//! is sent again; the record keeps the digest of what the chat was given.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn turn(gw: &TestGateway, messages: serde_json::Value) -> String {
    let mut request = cursor_request("multi/cursor/composer-2.5", "", false);
    request["messages"] = messages;
    let (status, body) = gw.ask("s-rules", &request);
    assert_eq!(status, 200, "{body}");
    gw.turns().last().unwrap()["stdin"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn rules_are_delivered_once_per_chat_and_again_when_changed() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let rules = gw.workspace().join(".claude/rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::create_dir_all(gw.workspace().join(".git")).unwrap();
    std::fs::write(
        rules.join("style.md"),
        "Always write tests first (RULE-TESTS-FIRST).\n",
    )
    .unwrap();

    let first = turn(
        &gw,
        serde_json::json!([{"role": "user", "content": "add a feature"}]),
    );
    assert!(first.contains("RULE-TESTS-FIRST"), "{first}");
    let digest = gw.record("s-rules", "main")["rulebookDigest"].clone();
    assert!(digest.is_string());

    let second = turn(
        &gw,
        serde_json::json!([
            {"role": "user", "content": "add a feature"},
            {"role": "assistant", "content": "fake agent reply"},
            {"role": "user", "content": "and another"}
        ]),
    );
    assert!(
        !second.contains("RULE-TESTS-FIRST"),
        "not sent twice: {second}"
    );

    std::fs::write(
        rules.join("style.md"),
        "Always write tests first (RULE-TESTS-FIRST-V2).\n",
    )
    .unwrap();
    let third = turn(
        &gw,
        serde_json::json!([
            {"role": "user", "content": "add a feature"},
            {"role": "assistant", "content": "fake agent reply"},
            {"role": "user", "content": "and another"},
            {"role": "assistant", "content": "fake agent reply"},
            {"role": "user", "content": "one more"}
        ]),
    );
    assert!(
        third.contains("RULE-TESTS-FIRST-V2"),
        "a changed rule is sent again: {third}"
    );
    assert_ne!(gw.record("s-rules", "main")["rulebookDigest"], digest);
}
