//! Every Cursor run of a turn is its own line: a resume Cursor refuses is `restarted` and the
//! fresh chat after it a `fallback`; a `/compact` summary run is a `compaction` line in `ask`
//! mode. Cursor's own token counts are kept with `token_source: "provider"`.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;
use multi_cursor_test_support::stream_lines as lines;

use super::common::MODEL;
use super::common::ask;
use super::common::ledger;
use super::common::request;

const CHAT: &str = "7a3f1c2e-0000-4000-8000-00000000c4a7";

fn with_usage(text: &str, input: u64) -> Vec<String> {
    vec![
        lines::init(),
        lines::whole(text),
        lines::result(
            text,
            Some(
                serde_json::json!({"inputTokens": input, "outputTokens": 56, "cacheReadTokens": 7, "cacheWriteTokens": 0}),
            ),
        ),
    ]
}

#[test]
fn a_fallback_is_a_second_line_of_the_turn() {
    let scenarios = tempfile::tempdir().unwrap();
    lines::write(
        scenarios.path(),
        "01-first.ndjson",
        &with_usage("First.", 1234),
    );
    std::fs::write(
        scenarios.path().join("02-in-use.scenario"),
        format!("#!stderr Error: Session ID \"{CHAT}\" is already in use.\n#!exit 1\n"),
    )
    .unwrap();
    lines::write(
        scenarios.path(),
        "03-fresh.ndjson",
        &with_usage("Fresh.", 2000),
    );
    let mut options = GatewayOptions::replaying(scenarios.path());
    options.env.push(("FAKE_AGENT_CHAT_ID".into(), CHAT.into()));
    let gw = TestGateway::start(options);
    assert_eq!(
        ask(&gw, "purposes", None, &request("First question")).0,
        200
    );
    gw.wait_idle();
    let second = serde_json::json!({
        "model": MODEL, "max_tokens": 1000, "stream": false,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "First question"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "First."}]},
            {"role": "user", "content": [{"type": "text", "text": "Second question"}]}
        ]
    });
    let (status, _, body) = ask(&gw, "purposes", None, &second);
    assert_eq!(status, 200, "{body}");
    gw.wait_idle();
    let lines = ledger(&gw);
    let kinds: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                l["purpose"].as_str().unwrap(),
                l["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("turn", "completed"),
            ("turn", "restarted"),
            ("fallback", "completed")
        ],
        "{lines:?}"
    );
    assert_eq!(lines[0]["input_tokens"], 1234);
    assert_eq!(lines[0]["output_tokens"], 56);
    assert_eq!(lines[0]["cache_read_tokens"], 7);
    assert_eq!(lines[0]["token_source"], "provider");
    assert_eq!(lines[1]["input_tokens"], 0, "a refused resume read nothing");
    assert_eq!(lines[1]["token_source"], "estimate");
    assert_eq!(lines[2]["input_tokens"], 2000);
}

#[test]
fn a_compaction_run_is_a_line() {
    let scenarios = tempfile::tempdir().unwrap();
    lines::write(
        scenarios.path(),
        "01-summary.ndjson",
        &with_usage("<summary>\n1. Did the task.\n</summary>", 900),
    );
    let gw = TestGateway::start(GatewayOptions::replaying(scenarios.path()));
    let compact = serde_json::json!({
        "model": MODEL, "max_tokens": 1000, "stream": false,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Do the task"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
            {"role": "user", "content": [{"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary of the conversation so far."}]}
        ]
    });
    let (status, _, body) = ask(&gw, "compacting", None, &compact);
    assert_eq!(status, 200, "{body}");
    let lines = ledger(&gw);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["purpose"], "compaction");
    assert_eq!(lines[0]["mode"], "ask");
    assert_eq!(lines[0]["model"], "composer-2.5");
    assert_eq!(lines[0]["session"], "compacting");
    assert_eq!(lines[0]["input_tokens"], 900);
    assert_eq!(lines[0]["outcome"], "completed");
}
