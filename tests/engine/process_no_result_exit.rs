//! A CLI that exits without a `result` is never a success: `NoResult` names the exit status and
//! what it said on stderr, after the events it did produce.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::process::RunError;
use process_support::ASSISTANT;
use process_support::INIT;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::events;
use process_support::limits;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn exit_without_result_names_code_and_stderr() {
    let scenario =
        format!("{INIT}\n{ASSISTANT}\n#!stderr internal error: the model went away\n#!exit 3\n");
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    let events = events(&outputs);
    assert!(
        matches!(events.first(), Some(RunEvent::Init { .. })),
        "{events:?}"
    );
    assert!(
        events.contains(&&RunEvent::Text {
            text: "done".into()
        }),
        "{events:?}"
    );
    let error = error.expect("an error");
    let message = error.to_string();
    match error {
        RunError::NoResult { status, stderr } => {
            assert_eq!(status, "exit code 3");
            assert_eq!(stderr, "internal error: the model went away");
        }
        other => panic!("expected NoResult, got {other:?}"),
    }
    assert!(message.contains("exit code 3"), "{message}");
    assert!(message.contains("the model went away"), "{message}");
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn clean_exit_without_result_is_still_a_failure() {
    let sandbox = Sandbox::new(Some(&format!("{INIT}\n{ASSISTANT}\n")), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    let (_, error) = drain(&mut run, Duration::from_secs(10)).await;
    match error {
        Some(RunError::NoResult { status, .. }) => assert_eq!(status, "exit code 0"),
        other => panic!("expected NoResult, got {other:?}"),
    }
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
