//! While a run goes on, the spend route shows it live with its model, running seconds and the
//! last action row; once it ends, `live` is gone and the run is counted.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;
use multi_cursor_test_support::stream_lines as lines;

use super::common::ask;
use super::common::get;
use super::common::request;

#[test]
fn a_running_turn_is_live_with_its_last_action() {
    let scenarios = tempfile::tempdir().unwrap();
    let path = serde_json::json!({"path": "src/lib.rs"});
    lines::write(
        scenarios.path(),
        "01-slow.scenario",
        &[
            lines::init(),
            lines::started("r1", "readToolCall", path.clone()),
            lines::completed(
                "r1",
                "readToolCall",
                path,
                serde_json::json!({"success": {"content": "x", "totalLines": 1}}),
            ),
            "#!sleep 3s".to_string(),
            lines::whole("Read it."),
            lines::result("Read it.", None),
        ],
    );
    let gw = std::sync::Arc::new(TestGateway::start(GatewayOptions::replaying(
        scenarios.path(),
    )));
    let asking = {
        let gw = std::sync::Arc::clone(&gw);
        std::thread::spawn(move || ask(&gw, "live-session", None, &request("read the lib")).0)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let live = loop {
        let (_, spend) = get(&gw, "/multi-cursor/spend/live-session");
        if spend["live"]["last_action"].is_string() {
            break spend["live"].clone();
        }
        assert!(std::time::Instant::now() < deadline, "never live: {spend}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(live["model"], "composer-2.5");
    assert!(live["running_secs"].as_u64().is_some(), "{live}");
    assert!(
        live["last_action"].as_str().unwrap().contains("src/lib.rs"),
        "{live}"
    );
    assert_eq!(asking.join().unwrap(), 200);
    gw.wait_idle();
    let (_, spend) = get(&gw, "/multi-cursor/spend/live-session");
    assert!(spend.get("live").is_none(), "{spend}");
    assert_eq!(spend["runs"], 1);
    assert_eq!(spend["estimated"], true, "no usage from Cursor: {spend}");
}
