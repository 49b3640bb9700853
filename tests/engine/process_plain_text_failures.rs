//! Every failure the CLI prints as plain text instead of stream-json becomes its `RunFailure`,
//! in Cursor's own words, and the group is gone afterwards.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::failure::Reached;
use multi_cursor::cursor::failure::RunFailure;
use multi_cursor::cursor::process::RunError;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::limits;
use process_support::spawn;

async fn failure_of(sandbox: &Sandbox, model: &str) -> RunFailure {
    let mut spec = sandbox.spec(None);
    spec.model = model.into();
    let mut run = spawn(&sandbox.agent, &spec, limits()).expect("test step");
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(outputs.is_empty(), "no events: {outputs:?}");
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
    match error {
        Some(RunError::Failed(failure)) => failure,
        other => panic!("expected a CLI failure, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn logged_out() {
    let sandbox = Sandbox::new(None, &[("FAKE_AGENT_LOGGED_OUT", "1")]);
    match failure_of(&sandbox, "auto").await {
        RunFailure::LoggedOut { said, .. } => {
            assert!(
                said.starts_with("Error: Authentication required."),
                "{said}"
            );
        }
        other => panic!("expected AuthRequired, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_model() {
    let sandbox = Sandbox::new(None, &[("FAKE_AGENT_STRICT_MODELS", "1")]);
    match failure_of(&sandbox, "no-such-model").await {
        RunFailure::BadModel { said, .. } => {
            assert!(
                said.starts_with("Cannot use this model: no-such-model."),
                "{said}"
            );
        }
        other => panic!("expected BadModel, got {other:?}"),
    }
}

/// `spawn_turn` always passes `--trust`, so the gate is simulated with its text and exit 0.
#[tokio::test(flavor = "multi_thread")]
async fn workspace_trust_gate() {
    let scenario = "⚠ Workspace Trust Required\n  Cursor Agent can execute code and access files in this directory.\n  To proceed, you can either:\n    • Run 'agent' interactively to decide\n    • Pass --trust, --yolo, or -f if you trust this directory\n#!exit 0\n";
    let sandbox = Sandbox::new(Some(scenario), &[]);
    match failure_of(&sandbox, "auto").await {
        RunFailure::WorkspaceTrust { said, .. } => {
            assert!(said.contains("Workspace Trust Required"), "{said}");
        }
        other => panic!("expected WorkspaceTrust, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_limit_on_stdout() {
    let sandbox = Sandbox::new(
        Some("Rate limit exceeded, try again later\n#!exit 1\n"),
        &[],
    );
    assert_eq!(
        failure_of(&sandbox, "auto").await,
        RunFailure::Capacity {
            said: "Rate limit exceeded, try again later".into(),
            reached: Reached::NotStarted,
        }
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_limit_on_stderr() {
    let sandbox = Sandbox::new(
        Some("#!stderr Rate limit exceeded, try again later\n#!exit 1\n"),
        &[],
    );
    assert_eq!(
        failure_of(&sandbox, "auto").await,
        RunFailure::Capacity {
            said: "Rate limit exceeded, try again later".into(),
            reached: Reached::NotStarted,
        }
    );
}
