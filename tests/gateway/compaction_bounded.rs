//! The summary handed to Claude Code is bounded: a summary longer than `SUMMARY_LIMIT` keeps its
//! beginning and its end (where the pending work and next step are) with a marker line between,
//! and chatter around the blocks is dropped.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::sse_events;
use gateway::sse_text;
use multi_cursor::compaction::SUMMARY_LIMIT;

#[test]
fn a_long_summary_keeps_both_ends() {
    let middle: String = (0..3000).map(|i| format!("- detail {i}\n")).collect();
    assert!(middle.len() > SUMMARY_LIMIT);
    let summary =
        format!("1. Primary Request: FIRST-LINE\n{middle}9. Optional Next Step: LAST-LINE");
    let answer = format!(
        "Sure, here it is.\n<analysis>\nchecked everything\n</analysis>\n\n<summary>\n{summary}\n</summary>\nAnything else?"
    );
    let scenarios = tempfile::tempdir().unwrap();
    let scenario = lines::reply(scenarios.path(), "long-summary.ndjson", &answer);
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    let body = serde_json::json!({
        "model": "multi/cursor/composer-2.5",
        "max_tokens": 20000,
        "stream": true,
        "messages": [
            {"role": "user", "content": "fix the bug"},
            {"role": "assistant", "content": "Fixed."},
            {"role": "user", "content": [{"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nWrite <analysis> then <summary>."}]}
        ]
    });
    let (status, sse) = gw.ask("compact-bounded", &body);
    assert_eq!(status, 200, "{sse}");
    let text = sse_text(&sse);
    assert!(text.starts_with("<analysis>\nchecked everything\n</analysis>\n\n<summary>\n1. Primary Request: FIRST-LINE\n"), "{}", &text[..200]);
    assert!(
        text.ends_with("9. Optional Next Step: LAST-LINE\n</summary>"),
        "{}",
        &text[text.len() - 200..]
    );
    assert!(text.contains("bytes of the summary left out by multi-cursor"));
    assert!(!text.contains("Anything else?") && !text.contains("Sure, here it is."));
    let inner = &text[text.find("<summary>\n").unwrap() + 10..text.rfind("\n</summary>").unwrap()];
    assert!(inner.len() <= SUMMARY_LIMIT + 200, "{} bytes", inner.len());
    let events = sse_events(&sse);
    let (_, delta) = events.iter().find(|(e, _)| e == "message_delta").unwrap();
    assert_eq!(delta["multi_cursor_usage"]["model"], "composer-2.5");
    assert_eq!(delta["multi_cursor_usage"]["source"], "estimate");
    let turns = gw.turns();
    assert_eq!(turns.len(), 1);
    let stdin = turns[0]["stdin"].as_str().unwrap();
    assert!(
        stdin.contains("User: fix the bug\nAssistant: Fixed."),
        "{stdin}"
    );
    assert!(
        !gw.record_path("compact-bounded", "main").exists(),
        "no record for a compaction"
    );
}
