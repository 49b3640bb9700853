//! Worker hand-backs reach Cursor: a foreground worker's tool result is a context line without
//! its reminder, and a background worker's notification (a reminder that is the whole
//! message) is kept as the new request.

use super::support::fixture;
use super::support::main_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::first_turn_prompt;
use serde_json::json;

#[test]
fn background_notification_is_the_new_request() {
    let mut body = main_body();
    push(
        &mut body,
        "assistant",
        json!([{"type": "tool_use", "id": "toolu_mock_agent_1", "name": "Agent",
                "input": {"description": "Worker task", "prompt": "work"}}]),
    );
    for message in fixture("parent-messages-after-background-agent.json")
        .as_array()
        .unwrap()
    {
        body["messages"]
            .as_array_mut()
            .unwrap()
            .push(message.clone());
    }
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert!(
        prompt
            .request
            .starts_with("[SYSTEM NOTIFICATION - NOT USER INPUT]\n"),
        "{}",
        prompt.request
    );
    assert!(
        prompt
            .request
            .contains("<result>WORKER_OK from multi/cursor/composer-2.5</result>")
    );
    assert!(!prompt.request.contains("system-reminder"));
    let context = prompt.context.unwrap();
    assert!(
        context.contains("\nAssistant: PARENT_FINAL done"),
        "{context}"
    );
    assert!(context.contains("\n[tool result: Async agent launched successfully."));
}

#[test]
fn foreground_hand_back_is_a_context_line() {
    let mut body = main_body();
    push(
        &mut body,
        "assistant",
        json!([{"type": "tool_use", "id": "toolu_mock_agent_1", "name": "Agent",
                "input": {"prompt": "work"}}]),
    );
    let mut handback = fixture("parent-messages-after-sync-agent.json")[0].clone();
    handback["content"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "text", "text": "what did it say?"}));
    body["messages"].as_array_mut().unwrap().push(handback);
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(&parse(&body), DEFAULT_TRANSCRIPT_LIMIT, images.path()).unwrap();
    assert_eq!(prompt.request, "what did it say?");
    let context = prompt.context.unwrap();
    let last = context.lines().last().unwrap();
    assert!(
        last.starts_with("[tool result: [Subagent hand-back]"),
        "{last}"
    );
    assert!(last.contains("WORKER_OK from multi/cursor/composer-2.5"));
    assert!(!last.contains("total_tokens"));
}
