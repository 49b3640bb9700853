//! Claude Code's `/compact` request is recognised by how its last user message begins.

use super::support::multi_turn_body;
use super::support::parse;
use super::support::push;
use crate::session::conversation::is_compaction_request;
use serde_json::json;

#[test]
fn compaction_request_is_recognised() {
    let mut body = multi_turn_body();
    assert!(!is_compaction_request(&parse(&body)));
    push(&mut body, "assistant", json!("Two."));
    push(
        &mut body,
        "user",
        json!([{"type": "text", "text": "<system-reminder>ctx</system-reminder>\nCRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary… <analysis> … <summary>"}]),
    );
    assert!(is_compaction_request(&parse(&body)));
}

#[test]
fn the_phrase_elsewhere_is_not_compaction() {
    let mut body = multi_turn_body();
    push(&mut body, "assistant", json!("Two."));
    push(
        &mut body,
        "user",
        json!("Please quote: CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."),
    );
    assert!(!is_compaction_request(&parse(&body)));
}
