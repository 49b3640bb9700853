//! Bash mode (`!command` in Claude Code) costs no Cursor run: a request whose newest user turn
//! holds only `<bash-input>`/`<bash-stdout>`/`<bash-stderr>` is answered by the gateway itself,
//! with no mode, login or agent needed, and the command with its output reaches Cursor once,
//! with the next real prompt.

use multi_cursor_test_support::gateway;
use serde_json::json;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::sse_text;

const NOTE: &str = "[Cursor] Cursor was not run for this command; it sees the command and its output with your next message.";

fn bash_turn() -> serde_json::Value {
    // As Claude Code 2.1.328 sends it after `!ls` (measured): reminders, then the input and the
    // output as text blocks of one user message.
    json!({"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>\nToday's date is 2026-12-04.\n</system-reminder>"},
        {"type": "text", "text": "<bash-input>ls</bash-input>\n"},
        {"type": "text", "text": "<bash-stdout>notes.txt</bash-stdout><bash-stderr></bash-stderr>"}
    ]})
}

fn send(gw: &TestGateway, messages: serde_json::Value) -> String {
    let body = json!({"model": "multi/cursor/composer-2.5", "max_tokens": 1000, "stream": true, "messages": messages});
    let response = gw.post_with("/v1/messages", &body, &[("x-claude-code-session-id", "s")]);
    assert_eq!(response.status(), 200);
    sse_text(&response.text().unwrap())
}

#[test]
fn bash_mode_is_answered_locally_and_reaches_cursor_with_the_next_prompt() {
    // No --permission-mode and no hook: a Cursor turn here would need one.
    let gw = TestGateway::start(GatewayOptions::default());
    assert_eq!(send(&gw, json!([bash_turn()])), NOTE);
    assert!(gw.turns().is_empty(), "no Cursor run: {:?}", gw.turns());

    gw.set_mode("s", "bypassPermissions");
    let first = json!([
        bash_turn(),
        {"role": "assistant", "content": [{"type": "text", "text": NOTE}]},
        {"role": "user", "content": [{"type": "text", "text": "what files are there?"}]}
    ]);
    let answer = send(&gw, first.clone());
    let turns = gw.turns();
    assert_eq!(turns.len(), 1);
    let stdin = turns[0]["stdin"].as_str().unwrap();
    assert!(stdin.contains("<bash-input>ls</bash-input>"), "{stdin}");
    assert!(
        stdin.contains("<bash-stdout>notes.txt</bash-stdout>"),
        "{stdin}"
    );
    assert!(stdin.contains("what files are there?"), "{stdin}");
    assert!(
        !stdin.contains("Cursor was not run"),
        "our note is not Cursor's: {stdin}"
    );

    let mut next = first.as_array().unwrap().clone();
    next.push(json!({"role": "assistant", "content": [{"type": "text", "text": answer}]}));
    next.push(json!({"role": "user", "content": [{"type": "text", "text": "and now?"}]}));
    send(&gw, json!(next));
    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    let stdin = turns[1]["stdin"].as_str().unwrap();
    assert!(stdin.contains("and now?"), "{stdin}");
    assert!(!stdin.contains("bash-input"), "sent once: {stdin}");
}
