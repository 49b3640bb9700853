//! Unit tests of the stream parser: the accumulator and payload forms here, one module per
//! behaviour below (recorded fixtures, byte splits, line endings, long lines, plain text).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests: a panic is the failure report"
)]

mod byte_splits;
mod captures_without_result;
mod fixtures;
mod late_flush;
mod line_endings;
mod long_lines;
mod no_partial_final_segment;
mod plain_text;
mod random_splits;
mod support;

use super::*;
use crate::cursor::events::QueryKind;
use crate::cursor::events::ToolCall;
use crate::cursor::events::ToolOutcome;

fn parse(input: &str) -> Vec<StreamItem> {
    parse_all(input.as_bytes()).expect("parse")
}

fn texts(items: &[StreamItem]) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| match item {
            StreamItem::Event(RunEvent::Text { text }) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn delta(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"text","text":{}}}]}},"session_id":"s","timestamp_ms":1}}"#,
        Value::String(text.to_owned())
    )
}

fn flush_before_tool(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"content":[{{"type":"text","text":{}}}]}},"model_call_id":"m","timestamp_ms":2}}"#,
        Value::String(text.to_owned())
    )
}

fn whole(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"content":[{{"type":"text","text":{}}}]}}}}"#,
        Value::String(text.to_owned())
    )
}

const STARTED: &str = r#"{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"readToolCall":{"args":{"path":"a"}}}}"#;
const COMPLETED: &str = r#"{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":{"args":{"path":"a"},"result":{"success":{"content":"x"}}}}}"#;

#[test]
fn find_newline_matches_a_plain_scan() {
    let mut data = vec![b'a'; 40];
    assert_eq!(find_newline(&data), None);
    for at in 0..data.len() {
        data[at] = b'\n';
        assert_eq!(find_newline(&data), Some(at));
        assert_eq!(find_newline(&data[..at]), None);
        data[at] = 0x8a; // a byte whose low bits equal '\n' must not match
        assert_eq!(find_newline(&data), None);
        data[at] = b'a';
    }
    assert_eq!(find_newline(b"\x0b\x09\n"), Some(2));
}

#[test]
fn deltas_then_flushes_give_each_text_once() {
    let stream = [
        delta("Check"),
        delta("ing."),
        flush_before_tool("Checking."),
        STARTED.to_owned(),
        COMPLETED.to_owned(),
        delta("Do"),
        delta("ne."),
        whole("Done."),
    ]
    .join("\n");
    assert_eq!(texts(&parse(&stream)), ["Check", "ing.", "Do", "ne."]);
}

#[test]
fn segments_without_partial_output_are_kept() {
    let stream = [
        flush_before_tool("First."),
        STARTED.to_owned(),
        COMPLETED.to_owned(),
        whole("Second."),
    ]
    .join("\n");
    assert_eq!(texts(&parse(&stream)), ["First.", "Second."]);
}

#[test]
fn a_pre_tool_flush_arriving_after_the_tool_started_is_skipped() {
    let stream = [
        delta("Look"),
        delta("ing."),
        STARTED.to_owned(),
        flush_before_tool("Looking."),
        COMPLETED.to_owned(),
        delta("Ok"),
    ]
    .join("\n");
    assert_eq!(texts(&parse(&stream)), ["Look", "ing.", "Ok"]);
}

#[test]
fn a_late_flush_after_the_tool_completed_is_skipped() {
    let stream = [
        delta("Look"),
        delta("ing."),
        STARTED.to_owned(),
        COMPLETED.to_owned(),
        flush_before_tool("Looking."),
    ]
    .join("\n");
    assert_eq!(texts(&parse(&stream)), ["Look", "ing."]);
}

#[test]
fn the_same_whole_segment_after_a_tool_without_partial_output_is_new_text() {
    let stream = [
        flush_before_tool("Again."),
        STARTED.to_owned(),
        COMPLETED.to_owned(),
        flush_before_tool("Again."),
    ]
    .join("\n");
    assert_eq!(texts(&parse(&stream)), ["Again.", "Again."]);
}

#[test]
fn a_delta_repeating_a_single_delta_is_new_text() {
    let stream = [delta("-"), delta("-"), delta("-"), whole("---")].join("\n");
    assert_eq!(texts(&parse(&stream)), ["-", "-", "-"]);
}

#[test]
fn a_delta_shaped_resend_of_several_deltas_is_a_flush() {
    let stream = [delta("Which"), delta(" one?"), delta("Which one?")].join("\n");
    assert_eq!(texts(&parse(&stream)), ["Which", " one?"]);
}

#[test]
fn empty_text_neither_emits_nor_resets() {
    let stream = [whole(""), delta("a"), delta(""), delta("b"), whole("ab")].join("\n");
    assert_eq!(texts(&parse(&stream)), ["a", "b"]);
}

#[test]
fn tool_forms_are_recognised() {
    let function = r#"{"type":"tool_call","subtype":"completed","call_id":"f1","tool_call":{"function":{"name":"AskQuestion","arguments":"{\"q\":1}","result":{"rejected":{"reason":"Questions skipped"}}}}}"#;
    let case = r#"{"type":"tool_call","subtype":"started","tool_call":{"tool":{"case":"grepToolCall","value":{"args":{"pattern":"x","toolCallId":"g1"}}}}}"#;
    let error = r#"{"type":"tool_call","subtype":"completed","tool_call":{"hookAdditionalContexts":[],"toolCallId":"e1","shellToolCall":{"args":{},"result":{"error":{"error":"spawn nope ENOENT"}}}}}"#;
    let items = parse(&[function, case, error].join("\n"));
    let expected = [
        StreamItem::Event(RunEvent::ToolCompleted {
            call: ToolCall {
                call_id: "f1".into(),
                tool: "AskQuestion".into(),
                args: serde_json::json!({"q": 1}),
            },
            outcome: ToolOutcome::Rejected {
                reason: "Questions skipped".into(),
                value: serde_json::json!({"reason": "Questions skipped"}),
            },
        }),
        StreamItem::Event(RunEvent::ToolStarted {
            call: ToolCall {
                call_id: "g1".into(),
                tool: "grep".into(),
                args: serde_json::json!({"pattern": "x", "toolCallId": "g1"}),
            },
        }),
        StreamItem::Event(RunEvent::ToolCompleted {
            call: ToolCall {
                call_id: "e1".into(),
                tool: "shell".into(),
                args: serde_json::json!({}),
            },
            outcome: ToolOutcome::Error {
                message: "spawn nope ENOENT".into(),
            },
        }),
    ];
    assert_eq!(items, expected);
}

#[test]
fn outcomes_cover_every_form() {
    let outcome = |v: Value| tool_outcome(Some(v));
    assert_eq!(
        tool_outcome(None),
        ToolOutcome::Unknown { value: Value::Null }
    );
    assert_eq!(
        outcome(serde_json::json!({"permissionDenied": {}})),
        ToolOutcome::Rejected {
            reason: String::new(),
            value: serde_json::json!({})
        }
    );
    assert_eq!(
        outcome(serde_json::json!({"error": "boom"})),
        ToolOutcome::Error {
            message: "boom".into()
        }
    );
    assert_eq!(
        outcome(serde_json::json!({"weird": 1})),
        ToolOutcome::Unknown {
            value: serde_json::json!({"weird": 1})
        }
    );
}

#[test]
fn fields_of_the_wrong_type_only_lose_themselves() {
    let line = r#"{"type":"result","subtype":"success","duration_ms":1.5,"usage":"n/a","result":"ok","session_id":"s"}"#;
    let items = parse(line);
    let expected = StreamItem::Event(RunEvent::Result(RunResult {
        success: true,
        text: "ok".into(),
        chat_id: Some("s".into()),
        duration_ms: None,
        usage: None,
        request_id: None,
    }));
    assert_eq!(items, [expected]);
}

#[test]
fn malformed_json_is_counted_and_skipped() {
    let mut parser = StreamParser::default();
    let mut out = Vec::new();
    parser
        .feed(
            b"{\"type\":\"user\"\n{\"type\":\"system\",\"subtype\":\"init\"}\n",
            &mut out,
        )
        .expect("feed");
    assert!(out.is_empty());
    assert_eq!(parser.malformed, 2);
}

#[test]
fn ansi_is_stripped() {
    assert_eq!(strip_ansi("\u{1b}[1;33m⚠ Trust\u{1b}[0m"), "⚠ Trust");
    assert_eq!(strip_ansi("\u{1b}]0;title\u{7}x"), "x");
    assert_eq!(strip_ansi("plain"), "plain");
}

#[test]
fn a_rejected_query_makes_its_call_unapproved_with_the_request_arguments() {
    let stream = [
        r#"{"type":"interaction_query","subtype":"request","query_type":"webSearchRequestQuery","query":{"id":1,"webSearchRequestQuery":{"args":{"searchTerm":"rust","toolCallId":"t1"}}}}"#,
        r#"{"type":"interaction_query","subtype":"response","query_type":"webSearchRequestQuery","response":{"id":1,"webSearchRequestResponse":{"rejected":{"reason":"User Rejected"}}}}"#,
        r#"{"type":"tool_call","subtype":"completed","call_id":"t1","tool_call":{"webSearchToolCall":{"result":{"rejected":{"reason":"User Rejected"}}},"toolCallId":"t1"}}"#,
    ]
    .join("\n");
    let items = parse(&stream);
    assert_eq!(
        items,
        [StreamItem::Event(RunEvent::ToolCompleted {
            call: ToolCall {
                call_id: String::from("t1"),
                tool: String::from("webSearch"),
                args: serde_json::json!({"searchTerm": "rust"}),
            },
            outcome: ToolOutcome::Unapproved {
                query: QueryKind::WebSearch,
                reason: String::from("User Rejected"),
            },
        })]
    );
}

#[test]
fn an_approved_query_adds_nothing() {
    let stream = [
        r#"{"type":"tool_call","subtype":"started","call_id":"f1","tool_call":{"webFetchToolCall":{"args":{"url":"https://a.example","toolCallId":"f1"}}}}"#,
        r#"{"type":"interaction_query","subtype":"request","query_type":"webFetchRequestQuery","query":{"id":0,"webFetchRequestQuery":{"args":{"url":"https://a.example","toolCallId":"f1"},"skipApproval":false}}}"#,
        r#"{"type":"interaction_query","subtype":"response","query_type":"webFetchRequestQuery","response":{"id":0,"webFetchRequestResponse":{"approved":{}}}}"#,
        r#"{"type":"tool_call","subtype":"completed","call_id":"f1","tool_call":{"webFetchToolCall":{"result":{"success":{"url":"https://a.example","markdown":"x"}}}}}"#,
    ]
    .join("\n");
    let items = parse(&stream);
    assert_eq!(items.len(), 2);
    assert!(matches!(
        &items[1],
        StreamItem::Event(RunEvent::ToolCompleted { call, outcome: ToolOutcome::Success { .. } })
            if call.args["url"] == "https://a.example"
    ));
}

#[test]
fn reconnects_and_notifications_are_statuses() {
    let stream = [
        r#"{"type":"connection","subtype":"reconnecting","attempt":2,"endpoint_url":"https://x"}"#,
        r#"{"type":"retry","subtype":"starting","attempt":2,"is_resume":false}"#,
        r#"{"type":"connection","subtype":"reconnected"}"#,
        r#"{"type":"system","subtype":"task_notification","message":"build done"}"#,
        r#"{"type":"system","subtype":"background_shell_timeout"}"#,
    ]
    .join("\n");
    let statuses: Vec<CursorStatus> = parse(&stream)
        .into_iter()
        .filter_map(|item| match item {
            StreamItem::Event(RunEvent::Status(status)) => Some(status),
            _ => None,
        })
        .collect();
    assert_eq!(
        statuses,
        [
            CursorStatus::Reconnecting { attempt: Some(2) },
            CursorStatus::Reconnecting { attempt: Some(2) },
            CursorStatus::Reconnected,
            CursorStatus::TaskNotification {
                text: String::from("build done")
            },
            CursorStatus::BackgroundShellTimeout,
        ]
    );
}
