//! The exchange digest ignores `stream` and key order, and changes with the prompt.

use super::support::main_body;
use super::support::set_first_prompt;
use crate::session::conversation::exchange_body_digest;
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
