//! A group that ignores SIGINT and SIGTERM (leader and grandchild) ends on cancel through the
//! escalation SIGINT → SIGTERM → SIGKILL, 1.5 s apart; the run's last item is `Cancelled`.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;
use std::time::Instant;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunOutput;
use multi_cursor::platform::process_ended;
use process_support::INIT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::limits;
use process_support::read_pidfile;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn cancel_escalates_to_sigkill() {
    let placeholder = Sandbox::new(None, &[]);
    let pidfile = placeholder.path("lingerer.pid");
    let scenario = format!(
        "#!ignore-signals\n#!spawn-lingerer {} ms=forever\n{INIT}\n#!stall\n",
        pidfile.display()
    );
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    // Signals are ignored from before the init line on.
    match tokio::time::timeout(Duration::from_secs(5), run.next()).await {
        Ok(Some(Ok(RunOutput::Event(RunEvent::Init { .. })))) => {}
        other => panic!("expected init, got {other:?}"),
    }
    let lingerer = read_pidfile(&pidfile).await;
    let started = Instant::now();
    run.cancel();
    let (outputs, error) = drain(&mut run, Duration::from_secs(8)).await;
    let elapsed = started.elapsed();
    assert!(outputs.is_empty(), "{outputs:?}");
    assert!(matches!(error, Some(RunError::Cancelled)), "{error:?}");
    // Only SIGKILL ends this group, and it comes after two 1.5 s steps.
    assert!(
        elapsed >= Duration::from_millis(2500),
        "ended too soon: {elapsed:?}"
    );
    assert!(
        elapsed < Duration::from_secs(6),
        "ended too late: {elapsed:?}"
    );
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
    assert!(process_ended(lingerer), "lingerer {lingerer} survived");
}
