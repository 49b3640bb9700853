//! A grandchild the CLI leaves behind in its group is killed with the group, whether it keeps
//! the stdout pipe open (the reader never sees end-of-file) or not.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::platform::process_ended;
use process_support::INIT;
use process_support::RESULT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::events;
use process_support::limits;
use process_support::proc_state;
use process_support::read_pidfile;
use process_support::spawn;

async fn lingerer_is_killed(stdio: &str) {
    let placeholder = Sandbox::new(None, &[]);
    let pidfile = placeholder.path("lingerer.pid");
    let scenario = format!(
        "{INIT}\n#!spawn-lingerer {} ms=forever stdio={stdio}\n{RESULT}\n",
        pidfile.display()
    );
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).expect("test step");
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{error:?}");
    match events(&outputs).last() {
        Some(RunEvent::Result(result)) => assert!(result.success),
        other => panic!("expected the result last, got {other:?}"),
    }
    let lingerer = read_pidfile(&pidfile).await;
    assert_ne!(lingerer, run.pgid);
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
    assert!(
        process_ended(lingerer),
        "lingerer {lingerer} survived: {:?}",
        proc_state(lingerer)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn lingerer_holding_the_pipes_is_killed() {
    lingerer_is_killed("inherit").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn lingerer_without_the_pipes_is_killed() {
    lingerer_is_killed("null").await;
}
