//! `/compact` through the real Claude Code (2.1.328) on a Cursor route: a separate read-only
//! Cursor run (`--mode ask`, no `--resume`) writes the summary, Claude Code accepts it and puts
//! it in its history, the user's Cursor chat and record are untouched, and the next turn
//! resumes that chat with the outer-history notice and a note in place of Claude Code's
//! summary (the chat has the history itself).

use multi_cursor_test_support::claude;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::resumed_chat;
use multi_cursor::session::conversation::COMPACTED_NOTE;
use multi_cursor::session::conversation::OUTER_HISTORY_NOTICE;

const SESSION: &str = "0c0e7a43-55b1-4f7e-9d2c-7a1e3f5b9c11";
const SUMMARY_LINE: &str = "SUMMARY-7Q: the user asked for the first task; it is done.";

#[test]
fn compact_on_a_cursor_route() {
    let scenarios = tempfile::tempdir().unwrap();
    let first = "Done with the first task.";
    lines::reply(scenarios.path(), "01-first.ndjson", first);
    let summary = format!(
        "<analysis>\nThe user asked for one task.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   {SUMMARY_LINE}\n</summary>"
    );
    lines::reply(scenarios.path(), "02-summary.ndjson", &summary);
    let next = "Next task done.";
    lines::reply(scenarios.path(), "03-next.ndjson", next);
    let gw = TestGateway::start(GatewayOptions::replaying(scenarios.path()));
    let home = gw.dir.path().join("claude-home");
    let claude = |args: &[&str]| {
        ClaudeRun::new(&home, &gw.workspace())
            .gateway(&gw.url, &gw.token)
            .args(args)
            .args(["--model", "multi/cursor/composer-2.5"])
            .run()
    };

    let output = claude(&["-p", "do the first task", "--session-id", SESSION]);
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(without_tokens(output.stdout.trim()), first, "{output:?}");
    let before = gw.record(SESSION, "main");
    let chat = before["chatId"].as_str().unwrap().to_string();

    let output = claude(&["-p", "/compact", "--resume", SESSION]);
    assert_eq!(output.status, Some(0), "{output:?}");
    assert!(
        !output.stdout.contains("Error during compaction"),
        "{output:?}"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 2, "one summary run");
    let argv: Vec<String> = serde_json::from_value(turns[1]["argv"].clone()).unwrap();
    assert!(
        argv.windows(2).any(|w| w == ["--mode", "ask"]),
        "read-only: {argv:?}"
    );
    assert_eq!(resumed_chat(&turns[1]), None, "fresh chat: {argv:?}");
    assert!(!argv.iter().any(|a| a == "--force"), "no --force: {argv:?}");
    let stdin = turns[1]["stdin"].as_str().unwrap();
    assert!(stdin.starts_with(multi_cursor::compaction::COMPACTION_PREAMBLE));
    assert!(stdin.contains("User: do the first task"), "{stdin}");
    assert!(stdin.contains(&format!("Assistant: {first}")), "{stdin}");
    assert!(
        stdin.contains("CRITICAL: Respond with TEXT ONLY."),
        "Claude's instructions: {stdin}"
    );
    let after = gw.record(SESSION, "main");
    assert_eq!(
        after["chatId"], before["chatId"],
        "the user's chat id is unchanged"
    );
    assert_eq!(
        after["response"], before["response"],
        "the record is untouched"
    );

    let output = claude(&["-p", "now the next task", "--resume", SESSION]);
    assert_eq!(output.status, Some(0), "{output:?}");
    assert!(output.stdout.contains(OUTER_HISTORY_NOTICE), "{output:?}");
    assert!(output.stdout.contains(next), "{output:?}");
    let turns = gw.turns();
    assert_eq!(turns.len(), 3);
    assert_eq!(
        resumed_chat(&turns[2]).as_deref(),
        Some(chat.as_str()),
        "the user's chat continues"
    );
    let stdin = turns[2]["stdin"].as_str().unwrap();
    // The chat itself was never compacted: Claude Code's summary is replaced with a note.
    assert!(!stdin.contains(SUMMARY_LINE), "{stdin}");
    assert!(stdin.starts_with(COMPACTED_NOTE), "{stdin}");
    assert!(stdin.ends_with("now the next task"), "{stdin}");
    assert_eq!(gw.record(SESSION, "main")["chatId"], chat.as_str());
}
