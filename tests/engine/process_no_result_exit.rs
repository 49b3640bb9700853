//! A CLI that exits without a `result` is never a success: `RunFailure::Other` names the exit
//! status and the last lines it said on stderr, after the events it did produce.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::failure::Exit;
use multi_cursor::cursor::failure::Reached;
use multi_cursor::cursor::failure::RunFailure;
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
        RunError::Failed(RunFailure::Other {
            exit,
            last_lines,
            reached,
        }) => {
            assert_eq!(exit, Exit::Code(3));
            assert_eq!(last_lines, "internal error: the model went away");
            assert_eq!(reached, Reached::Started);
        }
        other => panic!("expected Other, got {other:?}"),
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
        Some(RunError::Failed(RunFailure::Other { exit, .. })) => assert_eq!(exit, Exit::Code(0)),
        other => panic!("expected Other, got {other:?}"),
    }
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}

/// Of a long stderr, the LAST lines are quoted (the newest words say why it ended).
#[tokio::test(flavor = "multi_thread")]
async fn the_last_stderr_lines_are_quoted() {
    let mut scenario = format!("{INIT}\n");
    for n in 1..=8 {
        scenario.push_str(&format!("#!stderr line {n}\n"));
    }
    scenario.push_str("#!exit 1\n");
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    let (_, error) = drain(&mut run, Duration::from_secs(10)).await;
    match error {
        Some(RunError::Failed(RunFailure::Other { last_lines, .. })) => {
            assert_eq!(last_lines, "line 4 line 5 line 6 line 7 line 8");
        }
        other => panic!("expected Other, got {other:?}"),
    }
}

/// A tool call reported before the failure is what lets the message say files may have changed.
#[tokio::test(flavor = "multi_thread")]
async fn a_tool_call_makes_the_run_one_that_acted() {
    let tool = r#"{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"readToolCall":{"args":{"path":"a.txt"}}}}"#;
    let scenario = format!("{INIT}\n{tool}\n#!stderr boom\n#!exit 1\n");
    let sandbox = Sandbox::new(Some(&scenario), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).unwrap();
    let (_, error) = drain(&mut run, Duration::from_secs(10)).await;
    match error {
        Some(RunError::Failed(failure)) => {
            assert_eq!(failure.reached(), Reached::Acted);
            assert!(
                failure.to_string().contains("may have changed files"),
                "{failure}"
            );
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}
