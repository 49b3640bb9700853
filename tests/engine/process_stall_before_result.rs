//! A CLI that goes silent before its result is ended as stalled after the inactivity limit.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;
use std::time::Instant;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunLimits;
use process_support::ASSISTANT;
use process_support::INIT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::events;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn silence_before_the_result_is_a_stall() {
    let sandbox = Sandbox::new(Some(&format!("{INIT}\n{ASSISTANT}\n#!stall\n")), &[]);
    let limits = RunLimits {
        inactivity: Duration::from_secs(1),
        result_grace: Duration::from_millis(200),
        ..RunLimits::default()
    };
    let started = Instant::now();
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    let elapsed = started.elapsed();
    let events = events(&outputs);
    assert!(
        matches!(events.first(), Some(RunEvent::Init { .. })),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, RunEvent::Result(_))));
    match error {
        Some(RunError::Stalled { after }) => assert_eq!(after, Duration::from_secs(1)),
        other => panic!("expected Stalled, got {other:?}"),
    }
    assert!(
        elapsed >= Duration::from_millis(900),
        "stalled too early: {elapsed:?}"
    );
    assert!(
        elapsed < Duration::from_secs(6),
        "stalled too late: {elapsed:?}"
    );
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
