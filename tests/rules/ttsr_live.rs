//! A stream rule interrupts a live turn through the gateway: Cursor writes `.unwrap()` across
//! two deltas, the run is ended as soon as the match is complete (its stalled rest is never
//! streamed, its process is gone before the chat is resumed), a row names the rule, the same chat is resumed with the rule as an interruption
//! notice, and Claude Code receives one answer: the text before the match, the row, and the
//! resumed run's text. The record keeps the rule as fired, so the chat's next turn neither
//! fires it again nor sends it again.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::resumed_chat;
use gateway::sse_text;

const RULE_TEXT: &str = "NO-UNWRAP RULE: return errors with `?`.";

#[test]
fn a_rule_matching_the_stream_interrupts_and_the_chat_resumes_with_it() {
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("workspace");
    std::fs::create_dir_all(workspace.join(".git")).unwrap();
    std::fs::create_dir_all(workspace.join(".claude/rules")).unwrap();
    std::fs::write(
        workspace.join(".claude/rules/no-unwrap.md"),
        format!("---\ncondition: '\\.unwrap\\(\\)'\n---\n{RULE_TEXT}\n"),
    )
    .unwrap();
    let dir = root.path().join("turns");
    std::fs::create_dir(&dir).unwrap();
    // Run 1 would never end on its own: only the interrupt ends it.
    scenario::write(
        &dir,
        "01-violation.scenario",
        &[
            scenario::INIT,
            &scenario::delta("Quick fix: let v = opt.unw"),
            &scenario::delta("rap(); done"),
            "#!sleep 200ms",
            &scenario::delta(" AND-THE-REST"),
            "#!stall",
        ],
    );
    scenario::reply(
        &dir,
        "02-resumed.scenario",
        "Fixed with ? as the rule asks.",
    );
    scenario::write(
        &dir,
        "03-next.scenario",
        &[
            scenario::INIT,
            &scenario::delta("A test may call .unwrap() here."),
            &scenario::result("A test may call .unwrap() here."),
        ],
    );
    let gw = TestGateway::start(GatewayOptions {
        workspace: Some(workspace),
        ..GatewayOptions::replaying(&dir)
    });

    let (status, body) = gw.ask(
        "s-ttsr",
        &cursor_request("multi/cursor/composer-2.5", "fix the crash", true),
    );
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    let before = text.find("opt.unwrap(); done").expect(&text);
    let row = text
        .find("[rules] stream rule `no-unwrap` matched Cursor's text: Cursor was interrupted")
        .expect(&text);
    let resumed = text.find("Fixed with ? as the rule asks.").expect(&text);
    assert!(before < row && row < resumed, "{text}");
    assert!(
        !text.contains("AND-THE-REST"),
        "the interrupted run's rest: {text}"
    );
    assert!(body.contains("event: message_stop"), "{body}");

    let turns = gw.turns();
    assert_eq!(turns.len(), 2, "{turns:#?}");
    let stalled = turns[0]["pid"].as_u64().unwrap() as u32;
    assert!(
        scenario::process_gone(stalled),
        "the interrupted run ended before its chat was resumed"
    );
    let record = gw.record("s-ttsr", "main");
    let chat_id = record["chatId"].as_str().unwrap().to_string();
    assert_eq!(
        resumed_chat(&turns[1]).as_deref(),
        Some(chat_id.as_str()),
        "the same chat goes on"
    );
    let resume_prompt = turns[1]["stdin"].as_str().unwrap();
    assert!(
        resume_prompt.contains("<system-interrupt reason=\"project-rule\" rule=\"no-unwrap\""),
        "{resume_prompt}"
    );
    assert!(resume_prompt.contains(RULE_TEXT), "{resume_prompt}");
    assert_eq!(record["firedRules"], serde_json::json!(["no-unwrap"]));
    assert_eq!(record["pendingRules"], serde_json::json!([]));
    assert_eq!(record["lastOutcome"], "completed");

    // The next turn of the chat: the rule fired once and was delivered; it is not repeated.
    let mut next = cursor_request("multi/cursor/composer-2.5", "", false);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "fix the crash"},
        {"role": "assistant", "content": text},
        {"role": "user", "content": "and the tests?"}
    ]);
    let (status, body) = gw.ask("s-ttsr", &next);
    assert_eq!(status, 200, "{body}");
    assert!(!body.contains("[rules]"), "fired once per chat: {body}");
    let turns = gw.turns();
    assert_eq!(turns.len(), 3);
    assert!(!turns[2]["stdin"].as_str().unwrap().contains(RULE_TEXT));
}
