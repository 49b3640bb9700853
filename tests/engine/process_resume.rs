//! `--resume` outcomes: an unknown chat refused by the CLI is `RunFailure::ResumeRefused`; one the CLI
//! silently replaced with a new chat is reported as `ChatReplaced` before the init event; a
//! known chat is resumed without remark.

use multi_cursor_test_support::process as process_support;

use std::time::Duration;

use multi_cursor::cursor::events::RunEvent;
use multi_cursor::cursor::failure::Recovery;
use multi_cursor::cursor::failure::RunFailure;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunOutput;
use process_support::Sandbox;
use process_support::assert_group_gone;
use process_support::drain;
use process_support::limits;
use process_support::spawn;

#[tokio::test(flavor = "multi_thread")]
async fn unknown_chat_is_rejected() {
    let sandbox = Sandbox::new(
        None,
        &[
            ("FAKE_AGENT_KNOWN_CHATS", "chat-known"),
            ("FAKE_AGENT_UNKNOWN_RESUME", "fail"),
        ],
    );
    let mut run = spawn(&sandbox.agent, &sandbox.spec(Some("chat-gone")), limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(outputs.is_empty(), "{outputs:?}");
    match error {
        Some(RunError::Failed(failure)) => {
            assert_eq!(failure.recovery(), Recovery::FreshChat);
            let RunFailure::ResumeRefused { chat_id, said, .. } = failure else {
                panic!("expected ResumeRefused, got {failure:?}");
            };
            assert_eq!(chat_id.as_deref(), Some("chat-gone"));
            // The 2026.09 CLI's words for an id that is not a UUID.
            assert_eq!(
                said,
                "Failed to claim persistent session for chat \"chat-gone\": Persistent-session chat ID must be a UUID"
            );
        }
        other => panic!("expected ResumeRefused, got {other:?}"),
    }
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_chat_silently_replaced() {
    let sandbox = Sandbox::new(
        None,
        &[
            ("FAKE_AGENT_KNOWN_CHATS", "chat-known"),
            ("FAKE_AGENT_UNKNOWN_RESUME", "new"),
            ("FAKE_AGENT_CHAT_ID", "chat-fresh"),
        ],
    );
    let mut run = spawn(&sandbox.agent, &sandbox.spec(Some("chat-gone")), limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(
        outputs.first(),
        Some(&RunOutput::ChatReplaced {
            requested: "chat-gone".into(),
            actual: "chat-fresh".into(),
        })
    );
    assert!(
        matches!(outputs.get(1), Some(RunOutput::Event(RunEvent::Init { chat_id, .. })) if chat_id == "chat-fresh"),
        "{outputs:?}"
    );
    match outputs.last() {
        Some(RunOutput::Event(RunEvent::Result(result))) => assert!(result.success),
        other => panic!("expected the result last, got {other:?}"),
    }
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn known_chat_is_resumed_without_remark() {
    let sandbox = Sandbox::new(
        None,
        &[
            ("FAKE_AGENT_KNOWN_CHATS", "chat-known"),
            ("FAKE_AGENT_UNKNOWN_RESUME", "fail"),
        ],
    );
    let mut run = spawn(&sandbox.agent, &sandbox.spec(Some("chat-known")), limits()).unwrap();
    let (outputs, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{error:?}");
    assert!(
        !outputs
            .iter()
            .any(|o| matches!(o, RunOutput::ChatReplaced { .. })),
        "{outputs:?}"
    );
    assert!(
        matches!(outputs.first(), Some(RunOutput::Event(RunEvent::Init { chat_id, .. })) if chat_id == "chat-known")
    );
    assert_group_gone(run.pgid, Duration::from_secs(1)).await;
}
