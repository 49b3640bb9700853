//! A turn whose stdout exceeds `max_output` is ended with `OutputTooLarge`.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunLimits;
use process_support::INIT;
use process_support::RESULT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::events;
use process_support::limits;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn output_over_the_cap_ends_the_run() {
    // The init line fits; 64 KiB more does not. The fake would otherwise stay alive.
    let scenario = format!(
        "{INIT}\n#!sleep 100\n#!huge-line 65536 assistant\n{RESULT}\n#!keep-alive forever\n"
    );
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let limits = RunLimits {
        max_output: 16 * 1024,
        ..limits()
    };
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    match error {
        Some(RunError::OutputTooLarge { limit }) => assert_eq!(limit, 16 * 1024),
        other => panic!("expected OutputTooLarge, got {other:?}"),
    }
    let events = events(&outputs);
    assert!(
        matches!(events.first(), Some(RunEvent::Init { .. })),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, RunEvent::Result(_))));
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
