//! Under the real Claude Code: a different message for a Cursor session whose turn is still
//! running is refused with 409 — shown once, verbatim — and never queued or run.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

#[test]
fn a_different_prompt_while_busy_is_refused_under_claude() {
    let scenarios = tempfile::tempdir().unwrap();
    let slow = scenario::slow_reply(scenarios.path(), "slow.scenario", "still", "6s", " working");
    let gw = std::sync::Arc::new(TestGateway::start(GatewayOptions::replaying(&slow)));
    let session = "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b";
    let running = {
        let gw = std::sync::Arc::clone(&gw);
        std::thread::spawn(move || {
            gw.ask(
                session,
                &cursor_request("multi/cursor/composer-2.5", "long task", true),
            )
        })
    };
    assert!(scenario::wait_for(10, || gw.turns().len() == 1));

    let home = gw.dir.path().join("claude-home");
    let output = ClaudeRun::new(&home, &gw.workspace())
        .gateway(&gw.url, &gw.token)
        .args([
            "-p",
            "something else",
            "--model",
            "multi/cursor/composer-2.5",
            "--session-id",
            session,
        ])
        .run();
    assert_ne!(output.status, Some(0), "{output:?}");
    assert!(
        output.stdout.contains(
            "A different request is already running for this Cursor worker; send it again when the answer lands"
        ),
        "{output:?}"
    );
    assert!(output.stdout.contains("409"), "{output:?}");
    let (status, _) = running.join().unwrap();
    assert_eq!(status, 200);
    assert_eq!(gw.turns().len(), 1, "the refused message never ran");
}
