//! When Cursor's summary run answers without a `<summary>` block, `/compact` fails with a clear
//! error — shown once by the real Claude Code as "Error during compaction" — and nothing is
//! invented: the session record and the user's Cursor chat are unchanged.

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::stream_lines as lines;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

const SESSION: &str = "5d2b9e10-8f4a-4c3e-a1b7-2e9f0c6d4a88";

#[test]
fn no_summary_block_is_a_clear_failure() {
    let scenarios = tempfile::tempdir().unwrap();
    let first = "Done with the first task.";
    lines::reply(scenarios.path(), "01-first.ndjson", first);
    let chatty = "I would rather keep working than summarise.";
    lines::reply(scenarios.path(), "02-no-summary.ndjson", chatty);
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
    let before = gw.record(SESSION, "main");

    let output = claude(&["-p", "/compact", "--resume", SESSION]);
    let shown = format!("{}{}", output.stdout, output.stderr);
    assert!(shown.contains("Error during compaction"), "{output:?}");
    assert!(
        shown.contains("multi-cursor: compaction failed: Cursor's answer had no <summary> block (it said: I would rather keep working than summarise.)"),
        "{output:?}"
    );
    assert!(
        shown.contains("The conversation is unchanged"),
        "{output:?}"
    );
    assert_eq!(gw.turns().len(), 2, "one summary run, not retried");
    assert_eq!(
        gw.record(SESSION, "main"),
        before,
        "the record is untouched"
    );

    // The same failure straight from the gateway: 502, not retried, nothing invented.
    let mut body = gateway::cursor_request("multi/cursor/composer-2.5", "x", false);
    body["messages"] = serde_json::json!([
        {"role": "user", "content": "do the first task"},
        {"role": "assistant", "content": first},
        {"role": "user", "content": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nSummarise with <analysis> and <summary>."}
    ]);
    let response = gw.post_with(
        "/v1/messages",
        &body,
        &[("x-claude-code-session-id", SESSION)],
    );
    assert_eq!(response.status(), 502);
    assert_eq!(response.headers()["x-should-retry"], "false");
    let error: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("multi-cursor: compaction failed:"),
        "{error}"
    );
    assert_eq!(gw.record(SESSION, "main"), before);
}
