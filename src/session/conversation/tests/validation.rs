//! What Cursor cannot honour is refused before anything runs, each with a message that says
//! what to do.

use super::support::main_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::RequestError;
use crate::session::conversation::validate_for_cursor;
use serde_json::Value;
use serde_json::json;

fn refusal(body: &Value) -> RequestError {
    validate_for_cursor(&parse(body)).expect_err("refused")
}

fn with(field: &str, value: Value) -> Value {
    let mut body = main_body();
    body[field] = value;
    body
}

#[test]
fn auto_tool_choice_and_empty_lists_are_fine() {
    assert!(validate_for_cursor(&parse(&with("tool_choice", json!({"type": "auto"})))).is_ok());
    assert!(validate_for_cursor(&parse(&with("stop_sequences", json!([])))).is_ok());
    assert!(validate_for_cursor(&parse(&with("output_format", json!(null)))).is_ok());
}

#[test]
fn forced_tool_choice_is_refused() {
    let err = refusal(&with(
        "tool_choice",
        json!({"type": "tool", "name": "Bash"}),
    ));
    assert_eq!(
        err.to_string(),
        "multi-cursor: Cursor chooses its own tools; a forced tool_choice (\"tool\") is unsupported. Use tool_choice \"auto\" or leave it out"
    );
    let err = refusal(&with("tool_choice", json!({"type": "any"})));
    assert!(
        matches!(err, RequestError::ForcedToolChoice(ref k) if k == "any"),
        "{err:?}"
    );
}

#[test]
fn tool_choice_none_is_refused() {
    let err = refusal(&with("tool_choice", json!({"type": "none"})));
    assert_eq!(
        err.to_string(),
        "multi-cursor: Cursor cannot be kept from its tools for one request; tool_choice \"none\" is unsupported. Leave tool_choice out"
    );
}

#[test]
fn stop_sequences_are_refused() {
    let err = refusal(&with("stop_sequences", json!(["END"])));
    assert_eq!(
        err.to_string(),
        "multi-cursor: Cursor does not support stop sequences. Remove stop_sequences from the request"
    );
}

#[test]
fn strict_output_schemas_are_refused() {
    let schema = json!({"type": "json_schema", "schema": {"type": "object"}});
    let err = refusal(&with(
        "output_config",
        json!({"effort": "high", "format": schema}),
    ));
    assert_eq!(
        err.to_string(),
        "multi-cursor: Cursor cannot enforce a strict output schema (output_config.format / output_format). Remove it and describe the format in the prompt"
    );
    let err = refusal(&with("output_format", schema));
    assert!(matches!(err, RequestError::OutputFormat), "{err:?}");
}

#[test]
fn pdf_in_the_newest_turn_is_refused_but_not_in_history() {
    let pdf = json!({"type": "document", "source":
        {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}});
    let mut body = main_body();
    push(&mut body, "assistant", json!("ok"));
    push(
        &mut body,
        "user",
        json!([pdf, {"type": "text", "text": "summarise"}]),
    );
    let err = refusal(&body);
    assert_eq!(
        err.to_string(),
        "multi-cursor: Cursor does not accept PDF or other document attachments. Provide the extracted text instead"
    );

    push(&mut body, "assistant", json!("It is a report."));
    push(&mut body, "user", json!("thanks"));
    assert!(validate_for_cursor(&parse(&body)).is_ok());

    let mut plain = main_body();
    push(&mut plain, "assistant", json!("ok"));
    push(
        &mut plain,
        "user",
        json!([{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "notes"}}]),
    );
    assert!(validate_for_cursor(&parse(&plain)).is_ok());
}

#[test]
fn a_request_without_user_messages_is_refused() {
    let mut body = main_body();
    body["messages"] = json!([{"role": "system", "content": "env"}]);
    let err = refusal(&body);
    assert_eq!(
        err.to_string(),
        "multi-cursor: the request has no user message. Send at least one user message"
    );
    body["messages"] = json!([]);
    assert!(matches!(refusal(&body), RequestError::NoUserMessage));
}
