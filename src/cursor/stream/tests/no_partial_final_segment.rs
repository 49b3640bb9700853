//! Without `--stream-partial-output` each segment arrives once; the final one carries neither
//! `model_call_id` nor `timestamp_ms` and is the only copy, so it must never be taken for a flush.

use super::support as stream_support;

use stream_support::answer;
use stream_support::parse;
use stream_support::result;

const INIT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"chat-1","model":"Auto","permissionMode":"default"}"#;
const STARTED: &str = r#"{"type":"tool_call","subtype":"started","call_id":"t1","tool_call":{"readToolCall":{"args":{"path":"a.txt"}}},"model_call_id":"m-0","session_id":"chat-1","timestamp_ms":2}"#;
const COMPLETED: &str = r#"{"type":"tool_call","subtype":"completed","call_id":"t1","tool_call":{"readToolCall":{"args":{"path":"a.txt"},"result":{"success":{"content":"hi"}}}},"model_call_id":"m-0","session_id":"chat-1","timestamp_ms":3}"#;

fn pre_tool_segment(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"text","text":"{text}"}}]}},"session_id":"chat-1","model_call_id":"m-0","timestamp_ms":1}}"#
    )
}

fn final_segment(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"text","text":"{text}"}}]}},"session_id":"chat-1"}}"#
    )
}

fn result_line(text: &str) -> String {
    format!(
        r#"{{"type":"result","subtype":"success","duration_ms":0,"is_error":false,"result":"{text}","session_id":"chat-1"}}"#
    )
}

fn stream(lines: &[&str]) -> Vec<u8> {
    let mut bytes = lines.join("\n").into_bytes();
    bytes.push(b'\n');
    bytes
}

#[test]
fn the_final_segment_is_kept_after_a_tool() {
    let items = parse(&stream(&[
        INIT,
        &pre_tool_segment("Reading a.txt."),
        STARTED,
        COMPLETED,
        &final_segment("It says hi."),
        &result_line("Reading a.txt.It says hi."),
    ]));
    assert_eq!(answer(&items), "Reading a.txt.It says hi.");
    let result = result(&items).expect("result");
    assert_eq!(answer(&items), result.text);
    assert_eq!(result.duration_ms, Some(0), "0 is a value, not absent");
    assert_eq!(result.usage, None);
}

#[test]
fn a_lone_final_segment_is_the_answer() {
    let items = parse(&stream(&[
        INIT,
        &final_segment("PONG"),
        &result_line("PONG"),
    ]));
    assert_eq!(answer(&items), "PONG");
}

#[test]
fn a_final_segment_equal_to_the_pre_tool_segment_is_still_kept() {
    let items = parse(&stream(&[
        INIT,
        &pre_tool_segment("Done."),
        STARTED,
        COMPLETED,
        &final_segment("Done."),
        &result_line("Done.Done."),
    ]));
    assert_eq!(answer(&items), "Done.Done.");
}
