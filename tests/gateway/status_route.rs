//! `GET /multi-cursor/status`: version, agent path and version, login, sessions with mode and
//! workspace.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;

#[test]
fn status_route_reports_the_gateway() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("dontAsk".into()),
        ..Default::default()
    });
    gw.set_mode("status-session", "plan");
    gw.hook(serde_json::json!({
        "session_id": "quiet-session", "hook_event_name": "SessionStart", "cwd": gw.workspace()
    }));
    let response = gw
        .client()
        .get(format!("{}/multi-cursor/status", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let status: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(status["version"], env!("CARGO_PKG_VERSION"), "{status}");
    assert_eq!(status["pid"], gw.pid);
    assert_eq!(status["defaultMode"], "dontAsk");
    assert_eq!(status["agent"]["found"], true, "{status}");
    assert_eq!(
        status["agent"]["path"],
        gateway::fake_agent().to_str().unwrap(),
        "{status}"
    );
    assert_eq!(status["agent"]["version"], "2026.09.18-9a7762b", "{status}");
    assert_eq!(status["login"]["usable"], true, "{status}");
    assert!(
        status["login"]["summary"]
            .as_str()
            .unwrap()
            .contains("fake@example.com"),
        "{status}"
    );
    let sessions = status["sessions"].as_array().unwrap();
    let find = |id: &str| {
        sessions
            .iter()
            .find(|s| s["session"] == id)
            .unwrap_or_else(|| panic!("{id} listed: {status}"))
    };
    let ws = gw.workspace();
    assert_eq!(find("status-session")["mode"], "plan");
    assert_eq!(find("status-session")["workspace"], ws.to_str().unwrap());
    assert_eq!(
        find("quiet-session")["mode"],
        "dontAsk",
        "the default applies"
    );
    assert_eq!(find("quiet-session")["workspace"], ws.to_str().unwrap());
    assert_eq!(status["runs"], serde_json::json!([]));
}

#[test]
fn status_route_reports_logged_out() {
    let gw = TestGateway::start(GatewayOptions {
        env: vec![("FAKE_AGENT_LOGGED_OUT".into(), "1".into())],
        ..Default::default()
    });
    let response = gw
        .client()
        .get(format!("{}/multi-cursor/status", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap();
    let status: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(status["login"]["usable"], false, "{status}");
    assert_eq!(status["sessions"], serde_json::json!([]));
}

/// The `agent status` runs the agent log holds.
fn status_runs(gw: &TestGateway) -> usize {
    gw.agent_calls()
        .iter()
        .filter(|call| call["kind"] == "status")
        .count()
}

#[test]
fn concurrent_status_requests_share_one_agent_status() {
    // `agent status` takes a moment (the real one is a Node process), so every request of the
    // burst arrives while the first one's run is going.
    let gw = TestGateway::start(GatewayOptions {
        env: vec![("FAKE_AGENT_STATUS_DELAY_MS".into(), "700".into())],
        ..Default::default()
    });
    let before = status_runs(&gw);
    let requests = 24;
    let barrier = std::sync::Barrier::new(requests);
    let answers: Vec<serde_json::Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..requests)
            .map(|_| {
                scope.spawn(|| {
                    barrier.wait();
                    let response = gw
                        .client()
                        .get(format!("{}/multi-cursor/status", gw.url))
                        .header("x-multi-cursor-token", &gw.token)
                        .send()
                        .unwrap();
                    assert_eq!(response.status(), 200);
                    serde_json::from_str(&response.text().unwrap()).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for status in &answers {
        assert_eq!(status["login"]["usable"], true, "{status}");
    }
    assert_eq!(
        status_runs(&gw) - before,
        1,
        "{requests} concurrent status requests started one `agent status`"
    );
}
