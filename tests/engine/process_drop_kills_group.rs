//! Dropping a `CursorRun` in the middle of a turn ends its whole process group.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunOutput;
use multi_cursor::platform::process_ended;
use process_support::INIT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::group_gone;
use process_support::limits;
use process_support::read_pidfile;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn dropping_the_run_kills_the_group() {
    let placeholder = Sandbox::new(None, &[]);
    let pidfile = placeholder.path("lingerer.pid");
    let scenario = format!(
        "{INIT}\n#!spawn-lingerer {} ms=forever\n#!stall\n",
        pidfile.display()
    );
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    match tokio::time::timeout(Duration::from_secs(5), run.next()).await {
        Ok(Some(Ok(RunOutput::Event(RunEvent::Init { .. })))) => {}
        other => panic!("expected init, got {other:?}"),
    }
    let lingerer = read_pidfile(&pidfile).await;
    let pgid = run.pgid;
    assert!(!group_gone(pgid), "the group runs until the drop");
    drop(run);
    // The fake obeys SIGINT, so the first step ends it.
    assert_group_gone(pgid, Duration::from_secs(5)).await;
    assert!(process_ended(lingerer), "lingerer {lingerer} survived");
}
