//! An estimated input count (Cursor reported no tokens, as for an Esc'd or failed run) counts
//! the prompt Cursor was given for that run: on a resumed chat the newest turn only, never the
//! whole transcript Claude Code sent; the ledger line says which (`estimated_from`).

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;
use serde_json::json;

use super::common::MODEL;
use super::common::ask;
use super::common::ledger;

/// A run that reports no tokens.
const NO_USAGE: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"Composer 2.5","permissionMode":"default"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Noted."}]},"session_id":"{{chat_id}}"}
{"type":"result","subtype":"success","duration_ms":10,"duration_api_ms":10,"is_error":false,"result":"Noted.","session_id":"{{chat_id}}","request_id":"r"}
"#;

#[test]
fn a_resumed_chats_estimate_counts_its_newest_turn() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("no-usage.scenario");
    std::fs::write(&scenario, NO_USAGE).unwrap();
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    // 200 KB of earlier conversation, all on Claude models.
    let mut messages = Vec::new();
    for i in 0..50 {
        messages.push(
            json!({"role": "user", "content": format!("question {i}: {}", "x".repeat(2000))}),
        );
        messages.push(
            json!({"role": "assistant", "content": format!("answer {i}: {}", "y".repeat(2000))}),
        );
    }
    messages.push(json!({"role": "user", "content": "now on Cursor"}));
    let body = json!({"model": MODEL, "max_tokens": 100, "stream": false, "messages": messages});
    let (status, _, answer) = ask(&gw, "s", None, &body);
    assert_eq!(status, 200, "{answer}");
    gw.wait_idle();
    let first = &ledger(&gw)[0];
    assert_eq!(first["token_source"], "estimate", "{first}");
    assert_eq!(first["estimated_from"], "new_chat", "{first}");
    // The new chat's prompt is the bounded transcript (64 KiB) and the turn.
    let first_input = first["input_tokens"].as_u64().unwrap();
    assert!((10_000..=17_000).contains(&first_input), "{first}");

    messages.push(json!({"role": "assistant", "content": answer["content"].clone()}));
    messages.push(json!({"role": "user", "content": "and one more"}));
    let body = json!({"model": MODEL, "max_tokens": 100, "stream": false, "messages": messages});
    let (status, _, answer) = ask(&gw, "s", None, &body);
    assert_eq!(status, 200, "{answer}");
    gw.wait_idle();
    let lines = ledger(&gw);
    let second = &lines[1];
    assert_eq!(second["estimated_from"], "newest_turn", "{second}");
    let stdin = gw.turns()[1]["stdin"].as_str().unwrap().to_string();
    assert_eq!(
        second["input_tokens"].as_u64().unwrap(),
        (stdin.len() as u64).div_ceil(4),
        "the prompt Cursor was given: {stdin:?}"
    );
    assert!(second["input_tokens"].as_u64().unwrap() < 100, "{second}");
}
