//! A worker's first line `model: <id>` is taken off the newest turn (and never reaches
//! Cursor); anywhere else it is ordinary text.

use super::support::parse;
use super::support::set_first_prompt;
use super::support::subagent_body;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::classify::take_worker_model_line;
use crate::session::conversation::first_turn_prompt;

#[test]
fn first_line_is_stripped_from_the_worker_prompt() {
    let mut body = subagent_body();
    set_first_prompt(
        &mut body,
        "model: grok-4.7\nSay WORKER_OK and nothing else.",
    );
    let images = tempfile::tempdir().unwrap();
    let mut prompt =
        first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(prompt.take_worker_model_line().as_deref(), Some("grok-4.7"));
    assert_eq!(prompt.text(), "Say WORKER_OK and nothing else.");
}

#[test]
fn not_stripped_when_not_the_first_line() {
    let mut body = subagent_body();
    set_first_prompt(&mut body, "Say WORKER_OK.\nmodel: grok-4.7");
    let images = tempfile::tempdir().unwrap();
    let mut prompt =
        first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(prompt.take_worker_model_line(), None);
    assert_eq!(prompt.text(), "Say WORKER_OK.\nmodel: grok-4.7");
}

#[test]
fn spelling_variants() {
    let take = |t: &str| take_worker_model_line(t);
    assert_eq!(
        take("MODEL :  gpt-5.3-codex \r\n\r\nDo it"),
        Some(("gpt-5.3-codex".to_string(), "Do it".to_string()))
    );
    assert_eq!(
        take("\n  \nModel:composer-2.5\nDo it\n  indented"),
        Some(("composer-2.5".to_string(), "Do it\n  indented".to_string()))
    );
    assert_eq!(
        take("model: auto"),
        Some(("auto".to_string(), String::new()))
    );
    assert_eq!(take("model: the fastest one please\nDo it"), None);
    assert_eq!(take("model:\nDo it"), None);
    assert_eq!(take("models: x\nDo it"), None);
    assert_eq!(take("Use model: x"), None);
}
