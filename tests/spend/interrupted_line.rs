//! A gateway killed mid-run leaves no line for that run; the gateway that recovers the run
//! appends an `interrupted` line for it (tokens unknown), and the interrupted request's re-send
//! (refused, never rerun) adds no run.

use multi_cursor_test_support::crash;
use multi_cursor_test_support::gateway::TestGateway;
use multi_cursor_test_support::scenario;

use crash::Crashing;

use super::common::ledger;

#[test]
fn a_recovered_run_is_an_interrupted_line() {
    let (crashing, orphan) = Crashing::killed_halfway();
    assert!(
        ledger(&crashing.gateway).is_empty(),
        "the killed gateway wrote nothing"
    );
    let second = TestGateway::start(crashing.options);
    let (status, body) = second.ask(crash::SESSION, &crash::interrupted_request());
    assert_eq!(status, 502, "{body}");
    assert!(scenario::wait_for(10, || scenario::process_gone(orphan)));
    let lines = ledger(&second);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert_eq!(line["purpose"], "interrupted");
    assert_eq!(line["outcome"], "interrupted");
    assert_eq!(line["token_source"], "unknown");
    assert!(line["input_tokens"].is_null(), "{line}");
    assert_eq!(line["session"], crash::SESSION);
    assert_eq!(line["model"], "composer-2.5");
}
