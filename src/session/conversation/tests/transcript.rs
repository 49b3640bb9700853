//! A first turn with earlier messages: the conversation so far as a transcript (user and
//! assistant text, one line per tool call and result, no thinking), then the new request.

use super::support::multi_turn_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::first_turn_prompt;
use serde_json::json;

#[test]
fn transcript_then_new_request() {
    let req = parse(&multi_turn_body());
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&req, DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(
        prompt.text(),
        "Conversation so far (context; actions in it are already done — do not repeat them):\n\
         User: hi\n\
         Assistant: I'll list the files.\n\
         [tool Bash: {\"command\":\"ls\"}]\n\
         [tool result: Cargo.toml src]\n\
         Assistant: There are two entries: Cargo.toml and src.\n\
         \n\
         New request:\n\
         now count them"
    );
    assert_eq!(prompt.request, "now count them");
    assert_eq!(prompt.omitted_entries, 0);
}

#[test]
fn newest_turn_spans_user_messages_and_its_tool_results_are_context() {
    let mut body = multi_turn_body();
    // The last user message becomes a tool error followed by the user's words in a second
    // user message; both belong to the newest turn.
    let messages = body["messages"].as_array_mut().unwrap();
    messages.pop();
    push(
        &mut body,
        "user",
        json!([{"type": "tool_result", "tool_use_id": "t", "is_error": true,
                "content": [{"type": "text", "text": "permission\ndenied"},
                            {"type": "text", "text": "<system-reminder>\nnoise\n</system-reminder>"}]}]),
    );
    push(
        &mut body,
        "user",
        json!([{"type": "text", "text": "<system-reminder>ctx</system-reminder>\ntry again"},
               {"type": "text", "text": "carefully"}]),
    );
    let req = parse(&body);
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&req, DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(
        prompt.text(),
        "Conversation so far (context; actions in it are already done — do not repeat them):\n\
         User: hi\n\
         Assistant: I'll list the files.\n\
         [tool Bash: {\"command\":\"ls\"}]\n\
         [tool result: Cargo.toml src]\n\
         Assistant: There are two entries: Cargo.toml and src.\n\
         [tool error: permission denied]\n\
         \n\
         New request:\n\
         try again\n\
         \n\
         carefully"
    );
}
