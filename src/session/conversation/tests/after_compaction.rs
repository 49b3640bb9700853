//! After Claude Code compacted its history, a continuing Cursor chat is not sent Claude Code's
//! summary (nor its instructions around it): the chat holds the full history, so it gets a
//! one-line note instead, then the user's new words; when the summary was all the turn said (an
//! automatic compaction in the middle of a task), it is asked to continue. A new chat, which
//! knows nothing else, still gets the summary as written.

use super::support::parse;
use crate::session::conversation::COMPACTED_CONTINUE;
use crate::session::conversation::COMPACTED_NOTE;
use crate::session::conversation::Continuation;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::continuation_prompt;
use crate::session::conversation::first_turn_prompt;

/// Claude Code 2.1.328's summary message, as captured in a Cursor prompt after `/compact`.
const SUMMARY: &str = "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n   SUMMARY-LINE: the user asked for the first task; it is done.\n\nContinue the conversation from where it left off without asking the user any further questions. Resume directly — do not acknowledge the summary, do not recap what was happening, do not preface with \"I'll continue\" or similar. Pick up the last task as if the break never happened.";

fn body(blocks: &[&str]) -> serde_json::Value {
    let content: Vec<serde_json::Value> = blocks
        .iter()
        .map(|text| serde_json::json!({"type": "text", "text": text}))
        .collect();
    serde_json::json!({
        "model": "multi/cursor/composer-2.5",
        "max_tokens": 32000,
        "messages": [{"role": "user", "content": content}]
    })
}

fn continuing(blocks: &[&str]) -> String {
    let images = tempfile::tempdir().unwrap();
    let outcome = continuation_prompt(
        &parse(&body(blocks)),
        "the answer before the compaction",
        DEFAULT_TRANSCRIPT_LIMIT,
        images.path(),
    )
    .unwrap();
    let Continuation::HistoryChanged(prompt) = outcome else {
        panic!("the recorded answer is gone after a compaction: {outcome:?}");
    };
    prompt.text()
}

#[test]
fn a_continuing_chat_gets_a_note_then_the_new_request() {
    let text = continuing(&[
        SUMMARY,
        "<local-command-caveat>The command below was run directly in Claude Code.</local-command-caveat>",
        "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>",
        "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>",
        "now the next task",
    ]);
    assert!(text.starts_with(COMPACTED_NOTE), "{text}");
    assert!(!text.contains("SUMMARY-LINE"), "{text}");
    assert!(!text.contains("Pick up the last task"), "{text}");
    assert!(text.ends_with("now the next task"), "{text}");
    assert!(!text.contains(COMPACTED_CONTINUE), "{text}");
}

#[test]
fn a_summary_alone_asks_the_chat_to_continue() {
    assert_eq!(
        continuing(&[SUMMARY]),
        format!("{COMPACTED_NOTE}\n\n{COMPACTED_CONTINUE}")
    );
}

#[test]
fn a_new_chat_gets_the_summary_as_written() {
    let images = tempfile::tempdir().unwrap();
    let prompt = first_turn_prompt(
        &parse(&body(&[SUMMARY, "now the next task"])),
        DEFAULT_TRANSCRIPT_LIMIT,
        images.path(),
    )
    .unwrap();
    let text = prompt.text();
    assert!(text.contains("SUMMARY-LINE"), "{text}");
    assert!(!text.contains(COMPACTED_NOTE), "{text}");
}
