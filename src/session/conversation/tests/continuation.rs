//! A later turn sends everything after Cursor's recorded answer: Claude-model turns in
//! between as a transcript, the newest user turn last; just the new words when nothing else
//! happened.

use super::support::main_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::Continuation;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::Prompt;
use crate::session::conversation::RequestError;
use crate::session::conversation::continuation_prompt;
use serde_json::Value;
use serde_json::json;

const ANSWER: &str = "Cursor answer one";

fn continue_with(body: &Value, recorded: &str) -> Result<Continuation, RequestError> {
    let images = tempfile::tempdir().expect("temp dir");
    continuation_prompt(
        &parse(body),
        recorded,
        DEFAULT_TRANSCRIPT_LIMIT,
        images.path(),
    )
}

fn continued(body: &Value, recorded: &str) -> Prompt {
    match continue_with(body, recorded).expect("a continuation") {
        Continuation::Continue(prompt) => prompt,
        other => panic!("expected Continue, got {other:?}"),
    }
}

#[test]
fn only_the_new_words_after_the_recorded_answer() {
    let mut body = main_body();
    push(
        &mut body,
        "assistant",
        json!([{"type": "text", "text": ANSWER}]),
    );
    push(&mut body, "user", json!("next question"));
    assert_eq!(continued(&body, ANSWER).text(), "next question");
    // Whitespace at the ends of either side does not matter.
    assert_eq!(
        continued(&body, "\n  Cursor answer one \n").text(),
        "next question"
    );
}

#[test]
fn claude_model_turns_in_between_are_sent_as_context() {
    let mut body = main_body();
    push(
        &mut body,
        "assistant",
        json!([{"type": "text", "text": ANSWER}]),
    );
    push(&mut body, "user", json!("ask claude something"));
    push(
        &mut body,
        "assistant",
        json!([{"type": "text", "text": "Claude reply"},
               {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/a"}}]),
    );
    push(
        &mut body,
        "user",
        json!([{"type": "tool_result", "tool_use_id": "t1", "content": "contents"}]),
    );
    push(
        &mut body,
        "assistant",
        json!([{"type": "text", "text": "Claude done"}]),
    );
    push(&mut body, "user", json!("back to cursor: continue"));
    assert_eq!(
        continued(&body, ANSWER).text(),
        "Conversation since your last answer (context; actions in it are already done — do not repeat them):\n\
         User: ask claude something\n\
         Assistant: Claude reply\n\
         [tool Read: {\"file_path\":\"/a\"}]\n\
         [tool result: contents]\n\
         Assistant: Claude done\n\
         \n\
         New request:\n\
         back to cursor: continue"
    );
}

#[test]
fn the_last_matching_answer_counts_and_blocks_are_concatenated() {
    let mut body = main_body();
    push(&mut body, "assistant", json!(ANSWER));
    push(&mut body, "user", json!("first"));
    push(
        &mut body,
        "assistant",
        json!([{"type": "text", "text": "Cursor answer "},
               {"type": "thinking", "thinking": "", "signature": ""},
               {"type": "text", "text": "one\n"}]),
    );
    push(&mut body, "user", json!("second"));
    assert_eq!(continued(&body, ANSWER).text(), "second");
}

#[test]
fn nothing_new_after_the_answer_is_refused() {
    let mut body = main_body();
    push(&mut body, "assistant", json!(ANSWER));
    let err = continue_with(&body, ANSWER).unwrap_err();
    assert!(matches!(err, RequestError::NoNewUserMessage), "{err:?}");
    assert_eq!(
        err.to_string(),
        "multi-cursor: no new user message for Cursor. The conversation must end with a user message that has text, an image or a tool result"
    );
}
