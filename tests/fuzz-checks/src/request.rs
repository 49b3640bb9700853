//! The Anthropic request parser and the conversation slicing (`session::conversation`).
//!
//! Input: a Messages request body (a seed is a real Claude Code request from
//! `tests/fixtures/claude`). Every body goes through `parse_request`; a parsed one through
//! validation, the detection helpers, the exchange digest, and the first-turn and continuation
//! prompts with the default and a small transcript limit. Checked besides "no panic":
//! - the exchange digest ignores `stream`;
//! - the transcript context never exceeds its header plus the limit;
//! - the prompt text ends with the newest turn, which is never cut;
//! - continuing from the newest assistant answer continues (never "history changed"), and
//!   continuing from an answer that is not in the history never continues.

use std::path::Path;
use std::sync::OnceLock;

use multi_cursor::anthropic::request::Role;
use multi_cursor::session::conversation::CONTINUATION_HEADER;
use multi_cursor::session::conversation::Continuation;
use multi_cursor::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use multi_cursor::session::conversation::FIRST_TURN_HEADER;
use multi_cursor::session::conversation::Prompt;
use multi_cursor::session::conversation::answer_text;
use multi_cursor::session::conversation::continuation_prompt;
use multi_cursor::session::conversation::estimate_tokens;
use multi_cursor::session::conversation::exchange_body_digest_bytes;
use multi_cursor::session::conversation::first_turn_prompt;
use multi_cursor::session::conversation::is_compaction_request;
use multi_cursor::session::conversation::is_subagent;
use multi_cursor::session::conversation::parse_request;
use multi_cursor::session::conversation::plugin_command;
use multi_cursor::session::conversation::session_id_from_metadata;
use multi_cursor::session::conversation::validate_for_cursor;

/// Where images of the newest turn are written (tmpfs when there is one); emptied after each
/// input.
fn images_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(crate::scratch_dir).path()
}

/// A recorded answer a request is unlikely to hold.
const ABSENT: &str = "\u{0}an answer no request holds\u{0}";

fn check_prompt(prompt: &Prompt, header: &str, limit: usize) {
    if let Some(context) = &prompt.context {
        assert!(
            context.len() <= header.len() + limit,
            "context of {} bytes over the {limit}-byte limit",
            context.len()
        );
    }
    assert!(
        prompt.text().ends_with(&prompt.request),
        "the newest turn is not last"
    );
    let mut worker = prompt.clone();
    if let Some(id) = worker.take_worker_model_line() {
        assert!(
            !id.is_empty() && !id.contains(char::is_whitespace),
            "model id {id:?}"
        );
    }
}

/// One input: panics when a property above does not hold.
pub fn check(data: &[u8]) {
    // Claude Code re-sends a failed streamed request with `stream:false`: both must be the
    // same exchange. Both bodies are compared after one serde_json round trip, as the digest's
    // own parse is: serde_json's default float parsing is not exact, so a number may read back
    // one unit in the last place off after re-encoding (Claude Code re-sends its own text, so
    // the original bytes never go through that).
    if exchange_body_digest_bytes(data).is_ok()
        && let Ok(serde_json::Value::Object(body)) = serde_json::from_slice(data)
    {
        let as_sent = serde_json::to_vec(&body).expect("re-encoding a parsed body");
        let mut resent = body;
        resent.insert("stream".into(), serde_json::Value::Bool(false));
        let resent = serde_json::to_vec(&resent).expect("re-encoding a parsed body");
        assert_eq!(
            exchange_body_digest_bytes(&resent).ok(),
            exchange_body_digest_bytes(&as_sent).ok(),
            "stream:false is another exchange"
        );
    }
    let Ok(req) = parse_request(data) else {
        return;
    };
    let _ = validate_for_cursor(&req);
    let _ = is_subagent(&req);
    let _ = is_compaction_request(&req);
    let _ = plugin_command(&req);
    let _ = session_id_from_metadata(&req);
    let _ = estimate_tokens(&req);

    let dir = images_dir();
    let newest_answer = req
        .messages
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant)
        .map(|m| answer_text(&m.content));
    for limit in [DEFAULT_TRANSCRIPT_LIMIT, 256] {
        if let Ok(prompt) = first_turn_prompt(&req, limit, dir) {
            check_prompt(&prompt, FIRST_TURN_HEADER, limit);
        }
        if let Some(answer) = &newest_answer {
            match continuation_prompt(&req, answer, limit, dir) {
                Ok(Continuation::Continue(prompt)) => {
                    check_prompt(&prompt, CONTINUATION_HEADER, limit)
                }
                Ok(Continuation::HistoryChanged(_)) => {
                    panic!("the newest assistant answer was not found in the history")
                }
                Err(_) => {}
            }
        }
        match continuation_prompt(&req, ABSENT, limit, dir) {
            Ok(Continuation::HistoryChanged(prompt)) => {
                check_prompt(&prompt, FIRST_TURN_HEADER, limit)
            }
            Ok(Continuation::Continue(_)) => {
                let held = req
                    .messages
                    .iter()
                    .any(|m| m.role == Role::Assistant && answer_text(&m.content) == ABSENT);
                assert!(held, "continued from an answer not in the history");
            }
            Err(_) => {}
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
