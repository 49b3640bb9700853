//! The exchange digest ignores `stream` and key order, and changes with the prompt.

use super::support::main_body;
use super::support::set_first_prompt;
use crate::session::conversation::digest::exchange_body_digest;
use crate::session::conversation::exchange_body_digest_bytes;
use serde_json::json;

#[test]
fn streamed_and_non_streamed_resends_are_the_same_exchange() {
    let streamed = main_body();
    let mut resent = streamed.clone();
    resent["stream"] = json!(false);
    assert_eq!(
        exchange_body_digest(&streamed),
        exchange_body_digest(&resent)
    );
    resent.as_object_mut().unwrap().remove("stream");
    assert_eq!(
        exchange_body_digest(&streamed),
        exchange_body_digest(&resent)
    );
}

#[test]
fn a_different_prompt_is_a_different_exchange() {
    let body = main_body();
    let mut other = body.clone();
    set_first_prompt(&mut other, "hello");
    assert_ne!(exchange_body_digest(&body), exchange_body_digest(&other));
}

#[test]
fn key_order_and_whitespace_do_not_matter() {
    let a = br#"{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}"#;
    let b =
        br#"{ "messages": [ {"content": "x", "role": "user"} ], "model": "m", "stream": false }"#;
    assert_eq!(
        exchange_body_digest_bytes(a).unwrap(),
        exchange_body_digest_bytes(b).unwrap()
    );
    // A nested "stream" key is part of the content.
    let c = br#"{"model":"m","messages":[{"role":"user","content":"x","stream":1}]}"#;
    assert_ne!(
        exchange_body_digest_bytes(a).unwrap(),
        exchange_body_digest_bytes(c).unwrap()
    );
}

/// A history with a thinking block in Claude's answer, as Claude Code sends it.
fn with_thinking() -> serde_json::Value {
    json!({
        "model": "multi/cursor/auto", "stream": true,
        "thinking": {"type": "enabled", "budget_tokens": 31999},
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hello"}]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Let me think.", "signature": "c2ln"},
                {"type": "redacted_thinking", "data": "abc"},
                {"type": "text", "text": "Hello."}]},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "More.", "signature": "x"}]},
            {"role": "user", "content": [{"type": "text", "text": "again"}]}
        ]
    })
}

#[test]
fn the_resend_without_thinking_is_the_same_exchange() {
    // Claude Code 2.1.334+ re-sends an unknown 400 once with the thinking blocks taken out of
    // the history (measured on 2.1.337: nothing else changes), and may send it with stream:false.
    let sent = with_thinking();
    let mut stripped = sent.clone();
    stripped["stream"] = json!(false);
    let answer = stripped["messages"][1]["content"].as_array_mut().unwrap();
    answer.retain(|b| b["type"] == "text");
    // The message that held only thinking: kept empty, or dropped.
    stripped["messages"][2]["content"] = json!([]);
    assert_eq!(exchange_body_digest(&sent), exchange_body_digest(&stripped));
    stripped.as_object_mut().unwrap()["messages"]
        .as_array_mut()
        .unwrap()
        .remove(2);
    assert_eq!(exchange_body_digest(&sent), exchange_body_digest(&stripped));
    // What Claude said, and the thinking setting, still count.
    let mut other = stripped.clone();
    other["messages"][1]["content"][0]["text"] = json!("Goodbye.");
    assert_ne!(exchange_body_digest(&sent), exchange_body_digest(&other));
    let mut other = stripped.clone();
    other["thinking"] = json!({"type": "disabled"});
    assert_ne!(exchange_body_digest(&sent), exchange_body_digest(&other));
}
