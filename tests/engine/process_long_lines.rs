//! Line limits under supervision: a 3 MB line is an ordinary event with the default limits; a
//! line over a small `max_line` ends the run with `Stream(LineTooLong)`, after delivering the
//! events that came before it.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunLimits;
use multi_cursor::cursor::stream::StreamError;
use process_support::INIT;
use process_support::RESULT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::events;
use process_support::limits;
use process_support::spawn;

const HUGE: usize = 3 * 1024 * 1024;

#[tokio::test(flavor = "multi_thread")]
async fn a_three_megabyte_assistant_line_is_accepted() {
    let scenario = format!("{INIT}\n#!huge-line {HUGE} assistant\n{RESULT}\n");
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(20)).await;
    assert!(error.is_none(), "{error:?}");
    let events = events(&outputs);
    let text: usize = events
        .iter()
        .map(|e| match e {
            RunEvent::Text { text } => text.len(),
            _ => 0,
        })
        .sum();
    assert!(text > HUGE - 1024, "the huge text arrived: {text} bytes");
    assert!(matches!(events.last(), Some(RunEvent::Result(r)) if r.success));
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_line_over_max_line_ends_the_run() {
    // One write carries init, the long line and the result, so one read holds them all.
    let scenario = format!(
        "#!chunk 65536\n{INIT}\n#!huge-line 4096 assistant\n{RESULT}\n#!keep-alive forever\n"
    );
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let limits = RunLimits {
        max_line: 1024,
        ..limits()
    };
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    match error {
        Some(RunError::Stream(StreamError::LineTooLong { limit })) => assert_eq!(limit, 1024),
        other => panic!("expected LineTooLong, got {other:?}"),
    }
    let events = events(&outputs);
    assert!(
        matches!(events.first(), Some(RunEvent::Init { .. })),
        "the init before the long line is delivered: {events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, RunEvent::Result(_))));
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
