//! When Cursor cannot continue the recorded chat — it refuses `--resume`, or its `system/init`
//! shows it silently started another chat — the turn is handled once: a fresh chat gets the
//! bounded transcript as context, its id is recorded, and the answer starts with the notice.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

const NOTICE: &str = "[Cursor] Cursor could not resume its earlier conversation; this turn started a new one with the conversation so far as context.";

/// The next request, its history holding `answer`: the first answer as Claude Code keeps it.
fn second_turn(answer: &str) -> serde_json::Value {
    let mut request = cursor_request("multi/cursor/composer-2.5", "", true);
    request["messages"] = serde_json::json!([
        {"role": "user", "content": "remember the word OSPREY"},
        {"role": "assistant", "content": answer},
        {"role": "user", "content": "which word?"}
    ]);
    request
}

fn fallback(unknown_resume: &str) -> (TestGateway, String) {
    let chats = tempfile::NamedTempFile::new().unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![
            ("FAKE_AGENT_KNOWN_CHATS".into(), String::new()),
            ("FAKE_AGENT_UNKNOWN_RESUME".into(), unknown_resume.into()),
        ],
        ..GatewayOptions::default()
    });
    drop(chats);
    let (status, first) = gw.ask(
        "s-fb",
        &cursor_request(
            "multi/cursor/composer-2.5",
            "remember the word OSPREY",
            true,
        ),
    );
    assert_eq!(status, 200);
    let first_chat = gw.record("s-fb", "main")["chatId"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, body) = gw.ask("s-fb", &second_turn(&sse_text(&first)));
    assert_eq!(status, 200, "{body}");
    let text = sse_text(&body);
    assert!(text.starts_with(NOTICE), "{text}");
    assert!(
        without_tokens(&text).ends_with("fake agent reply"),
        "{text}"
    );
    let record = gw.record("s-fb", "main");
    let new_chat = record["chatId"].as_str().unwrap().to_string();
    assert_ne!(new_chat, first_chat, "the new chat is recorded");
    assert_eq!(record["lastOutcome"], "completed");
    let turns = gw.turns();
    let last = turns.last().unwrap();
    assert!(
        !last["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a.as_str().is_some_and(|a| a.starts_with("--resume"))),
        "a fresh chat"
    );
    let stdin = last["stdin"].as_str().unwrap();
    assert!(
        stdin.contains("OSPREY") && stdin.contains("which word?"),
        "the transcript is the context: {stdin}"
    );
    (gw, first_chat)
}

#[test]
fn a_refused_resume_starts_a_fresh_chat_once() {
    let (gw, first_chat) = fallback("fail");
    let turns = gw.turns();
    assert_eq!(turns.len(), 3, "first turn, refused resume, fresh chat");
    assert!(
        turns[1]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| *a == format!("--resume={first_chat}"))
    );
}

#[test]
fn a_silently_replaced_chat_starts_a_fresh_chat_once() {
    let (gw, _) = fallback("new");
    assert_eq!(
        gw.turns().len(),
        3,
        "first turn, the replaced chat (ended at init), fresh chat"
    );
}
