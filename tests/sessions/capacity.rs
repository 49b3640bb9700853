//! A gateway keeps at most `MULTI_CURSOR_MAX_SESSIONS` identities open (32 by default). The
//! 33rd closes an idle one — its lock is released, its record kept — and that identity later
//! resumes its chat. When every open identity is busy, a new one is refused clearly.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

#[test]
fn thirty_three_identities_with_a_budget_of_thirty_two() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_MAX_SESSIONS".into(), "32".into())],
        ..GatewayOptions::default()
    });
    for n in 0..33 {
        let (status, body) = gw.ask(
            &format!("s-{n}"),
            &cursor_request("multi/cursor/composer-2.5", "hi", false),
        );
        assert_eq!(status, 200, "identity {n}: {body}");
    }
    let lock = |n: usize| {
        format!(
            "{}.lock",
            gw.record_path(&format!("s-{n}"), "main").display()
        )
    };
    let first = std::fs::File::open(lock(0)).unwrap();
    assert!(
        first.try_lock().is_ok(),
        "the idle first identity was closed: its lock is free"
    );
    first.unlock().unwrap();
    let last = std::fs::File::open(lock(32)).unwrap();
    assert!(last.try_lock().is_err(), "the newest identity is open");
    assert!(gw.record_path("s-0", "main").exists(), "the record is kept");

    let chat = gw.record("s-0", "main")["chatId"]
        .as_str()
        .unwrap()
        .to_string();
    let mut follow = cursor_request("multi/cursor/composer-2.5", "", false);
    follow["messages"] = serde_json::json!([
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "fake agent reply"},
        {"role": "user", "content": "again"}
    ]);
    let (status, body) = gw.ask("s-0", &follow);
    assert_eq!(status, 200, "{body}");
    let turns = gw.turns();
    assert!(
        turns.last().unwrap()["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| *a == format!("--resume={chat}")),
        "resumed its chat"
    );
}

#[test]
fn a_new_identity_is_refused_when_every_open_one_is_busy() {
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(scenarios.path(), "slow.scenario", "busy", "2s", " done");
    let gw = std::sync::Arc::new(TestGateway::start(
        GatewayOptions::single_session_replaying(&slow),
    ));
    let busy = {
        let gw = std::sync::Arc::clone(&gw);
        std::thread::spawn(move || {
            gw.ask(
                "s-busy",
                &cursor_request("multi/cursor/composer-2.5", "work", true),
            )
        })
    };
    assert!(scenario::wait_for(10, || gw.turns().len() == 1));
    let (status, body) = gw.ask(
        "s-other",
        &cursor_request("multi/cursor/composer-2.5", "hi", true),
    );
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("MULTI_CURSOR_MAX_SESSIONS"), "{body}");
    assert_eq!(busy.join().unwrap().0, 200);
    assert_eq!(gw.turns().len(), 1);
}
