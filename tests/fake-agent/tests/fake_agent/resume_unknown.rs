//! An unknown `--resume` id fails or silently starts a new chat, as `FAKE_AGENT_UNKNOWN_RESUME`
//! says; known ids (listed, or remembered in the chats file) resume.

use crate::common;

use common::Scratch;
use common::fake;
use common::init_session;
use common::run_with_stdin;
use common::turn_args;

#[test]
fn unknown_ids_fail_by_default() {
    let scratch = Scratch::new("resume-fail");
    let output = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .args(["--resume", "gone"])
            .env("FAKE_AGENT_KNOWN_CHATS", "a,b"),
        "hi",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr,
        "Failed to claim persistent session for chat \"gone\": Persistent-session chat ID must be a UUID\n"
    );

    let lost = "0f1e2d3c-4b5a-4697-8877-665544332211";
    let output = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .args(["--resume", lost])
            .env("FAKE_AGENT_KNOWN_CHATS", "a,b"),
        "hi",
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("resume") && stderr.contains(lost),
        "{stderr}"
    );
}

#[test]
fn unknown_ids_can_start_a_new_chat() {
    let scratch = Scratch::new("resume-new");
    let output = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .args(["--resume", "gone"])
            .env("FAKE_AGENT_KNOWN_CHATS", "a")
            .env("FAKE_AGENT_UNKNOWN_RESUME", "new"),
        "hi",
    );
    assert!(output.status.success());
    let session = init_session(&output.stdout);
    assert_ne!(session, "gone");
    assert_eq!(session.len(), 36);
}

#[test]
fn chats_from_earlier_runs_are_known() {
    let scratch = Scratch::new("resume-file");
    let chats = scratch.join("chats");
    let first = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .env("FAKE_AGENT_CHATS_FILE", &chats),
        "one",
    );
    let chat = init_session(&first.stdout);
    let second = run_with_stdin(
        fake()
            .args(turn_args(&scratch.0))
            .args(["--resume", &chat])
            .env("FAKE_AGENT_CHATS_FILE", &chats),
        "two",
    );
    assert!(second.status.success(), "{second:?}");
    assert_eq!(init_session(&second.stdout), chat);
}
