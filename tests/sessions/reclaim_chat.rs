//! A resume Cursor answers with `Error: Session ID "<uuid>" is already in use.` (exit 1) after a
//! gateway was killed mid-turn: the only agent that can be proven to hold the chat is the one
//! the record of that unfinished turn names (its leader's start time and marker). The restarted
//! gateway ends that group, and when Cursor still says the chat is in use, the turn resumes the
//! same chat once more instead of starting a fresh one.

use multi_cursor_test_support::crash;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use crash::Crashing;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::resumed_chat;
use gateway::sse_text;

#[test]
fn a_chat_held_by_our_own_orphan_is_resumed_again_once() {
    let (crashing, orphan) = Crashing::killed_halfway();
    let turns = crashing.root.path().join("turns");
    let in_use = format!(
        "#!stderr Error: Session ID \"{}\" is already in use.\n#!exit 1",
        crash::CHAT
    );
    scenario::write(&turns, "02-ok.scenario", &[&in_use]);
    scenario::reply(&turns, "03-resumed.scenario", "recovered");

    let second = TestGateway::start(crashing.options);
    let mut next = cursor_request("multi/cursor/composer-2.5", "", true);
    next["messages"] = serde_json::json!([
        {"role": "user", "content": "migrate the database"},
        {"role": "user", "content": "continue"}
    ]);
    let (status, body) = second.ask(crash::SESSION, &next);
    assert_eq!(status, 200, "{body}");
    assert!(scenario::process_gone(orphan), "the orphan group was ended");
    let text = without_tokens(&sse_text(&body));
    assert!(text.starts_with(crash::NOTICE), "{text}");
    assert!(text.ends_with("recovered"), "{text}");
    assert!(
        !text.contains("could not resume its earlier conversation"),
        "no fresh chat: {text}"
    );
    let turns = second.turns();
    assert_eq!(turns.len(), 3, "{turns:?}");
    assert_eq!(resumed_chat(&turns[1]).as_deref(), Some(crash::CHAT));
    assert_eq!(resumed_chat(&turns[2]).as_deref(), Some(crash::CHAT));
    let record = second.record(crash::SESSION, "main");
    assert_eq!(record["chatId"], crash::CHAT);
    assert_eq!(record["lastOutcome"], "completed");
}
