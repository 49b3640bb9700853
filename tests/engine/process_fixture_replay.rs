//! Every recorded Cursor stream, replayed by the fake agent through the supervisor (7 bytes per
//! write), yields exactly its reviewed events (the insta snapshot `stream_fixtures` checks the
//! parser against) and ends with a successful result; the group is
//! gone afterwards.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::failure::Reached;
use multi_cursor::cursor::failure::RunFailure;
use multi_cursor::cursor::process::RunError;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::cursor_fixture;
use process_support::drain;
use process_support::events;
use process_support::limits;
use process_support::spawn;

async fn replay(name: &str) {
    let stream =
        std::fs::read_to_string(cursor_fixture(&format!("{name}.ndjson"))).expect("test step");
    let sandbox = Sandbox::new(Some(&format!("#!chunk 7\n{stream}")), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).expect("test step");
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{name}: {error:?}");
    let events = events(&outputs);
    assert_eq!(events.len(), outputs.len(), "{name}: no chat replacement");
    let got = serde_json::to_value(&events).expect("test step");
    insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_json_snapshot!(format!("stream_items__{name}"), got);
    });
    match events.last() {
        Some(RunEvent::Result(result)) => {
            assert!(result.success, "{name}");
            let text: String = events
                .iter()
                .filter_map(|e| match e {
                    RunEvent::Text { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(
                text, result.text,
                "{name}: streamed text is the result text"
            );
        }
        other => panic!("{name}: last event is not the result: {other:?}"),
    }
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn maestro_02_shell_tool_call() {
    replay("maestro-02_shell_tool_call").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn maestro_04_partial_output() {
    replay("maestro-04_partial_output").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn maestro_05_rejected_shell() {
    replay("maestro-05_rejected_shell").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn golembot_shell_pwd() {
    replay("golembot-shell-pwd").await;
}

/// The one capture without a result: the CLI's plain-text model refusal (exit 0) is a failure.
#[tokio::test(flavor = "multi_thread")]
async fn golembot_model_error_is_a_cli_failure() {
    let sandbox = Sandbox::from_file(&cursor_fixture("golembot-model-error.ndjson"), &[]);
    let mut run = spawn(&sandbox.agent, &sandbox.spec(None), limits()).expect("test step");
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(outputs.is_empty(), "{outputs:?}");
    match error {
        Some(RunError::Failed(RunFailure::BadModel { said, reached })) => {
            assert!(
                said.starts_with("Cannot use this model: claude-4.6-sonnet."),
                "{said}"
            );
            assert_eq!(reached, Reached::NotStarted);
        }
        other => panic!("expected BadModel, got {other:?}"),
    }
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
