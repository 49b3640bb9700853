//! A CLI that never exits after its `result`: the result is delivered at once, well before the
//! inactivity limit, and the group is ended after the short grace period.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;
use std::time::Instant;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunLimits;
use multi_cursor::cursor::process::RunOutput;
use process_support::ASSISTANT;
use process_support::INIT;
use process_support::RESULT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn result_is_delivered_and_the_group_ended_after_the_grace() {
    let sandbox = Sandbox::new(
        Some(&format!(
            "{INIT}\n{ASSISTANT}\n{RESULT}\n#!keep-alive forever\n"
        )),
        &[],
    );
    let limits = RunLimits {
        inactivity: Duration::from_secs(10),
        result_grace: Duration::from_millis(200),
        ..RunLimits::default()
    };
    let started = Instant::now();
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits).unwrap();
    let result = loop {
        match run.next().await {
            Some(Ok(RunOutput::Event(RunEvent::Result(result)))) => break result,
            Some(Ok(_)) => {}
            other => panic!("expected events then the result, got {other:?}"),
        }
    };
    assert!(result.success);
    assert_eq!(result.text, "done");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "result took {:?}",
        started.elapsed()
    );
    // Nothing follows the result; the run ends once the group is ended (the fake obeys SIGINT).
    let rest = tokio::time::timeout(Duration::from_secs(5), run.next())
        .await
        .expect("run ends after the grace");
    assert!(rest.is_none(), "nothing after the result: {rest:?}");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "run took {:?}, the inactivity limit was not what ended it",
        started.elapsed()
    );
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
