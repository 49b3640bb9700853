//! When Cursor's recorded answer is no longer in the history, only the newest user turn is
//! sent and the caller is told to show the outer-history notice.

use super::support::multi_turn_body;
use super::support::parse;
use crate::session::conversation::Continuation;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::OUTER_HISTORY_NOTICE;
use crate::session::conversation::continuation_prompt;

#[test]
fn unknown_answer_sends_the_newest_turn_only() {
    let req = parse(&multi_turn_body());
    let images = tempfile::tempdir().unwrap();
    let outcome = continuation_prompt(
        &req,
        "an answer that was rewound away",
        DEFAULT_TRANSCRIPT_LIMIT,
        images.path(),
    )
    .unwrap();
    let Continuation::HistoryChanged(prompt) = outcome else {
        panic!("expected HistoryChanged, got {outcome:?}");
    };
    assert_eq!(prompt.text(), "now count them");
    assert_eq!(prompt.context, None);
    assert_eq!(
        OUTER_HISTORY_NOTICE,
        "[Cursor] Outer history changed; the native conversation continues with its own record."
    );
}
