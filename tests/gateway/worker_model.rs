//! A worker (the `multi-cursor` subagent) picks its Cursor model with a first prompt line
//! `model: <id>`: the line selects `--model` and never reaches Cursor; an unknown id is answered with the valid
//! ones and nothing runs; without the line, `multi/cursor/default` runs Auto.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

fn argv(turn: &serde_json::Value) -> Vec<String> {
    serde_json::from_value(turn["argv"].clone()).unwrap()
}

fn model_of(turn: &serde_json::Value) -> String {
    let argv = argv(turn);
    argv.iter()
        .find_map(|a| a.strip_prefix("--model="))
        .unwrap()
        .to_string()
}

#[test]
fn worker_model_line() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });

    // `model: composer-2.5` selects the model and is stripped.
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request(
            "multi/cursor/default",
            "model: composer-2.5\nList the files here.",
            true,
        ),
        &[
            ("x-claude-code-session-id", "parent"),
            ("x-claude-code-agent-id", "worker-1"),
        ],
    );
    assert_eq!(response.status(), 200);
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "fake agent reply"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 1);
    assert_eq!(model_of(&turns[0]), "composer-2.5");
    let stdin = turns[0]["stdin"].as_str().unwrap();
    assert!(!stdin.contains("model:"), "{stdin:?}");
    assert!(stdin.contains("List the files here."), "{stdin:?}");

    // An unknown id: 200 with the valid ids, nothing runs (streamed and not).
    for stream in [false, true] {
        let response = gw.post_with(
            "/v1/messages",
            &cursor_request("multi/cursor/default", "model: nope-1\nDo things.", stream),
            &[
                ("x-claude-code-session-id", "parent"),
                ("x-claude-code-agent-id", "worker-2"),
            ],
        );
        assert_eq!(response.status(), 200);
        let body = response.text().unwrap();
        let text = if stream {
            sse_text(&body)
        } else {
            let message: serde_json::Value = serde_json::from_str(&body).unwrap();
            message["content"][0]["text"].as_str().unwrap().to_string()
        };
        assert!(text.contains("nope-1"), "{text}");
        assert!(text.contains("composer-2.5"), "{text}");
        assert!(text.contains("default"), "{text}");
    }
    assert_eq!(gw.turns().len(), 1, "an unknown worker model runs nothing");

    // No line: multi/cursor/default runs Auto.
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/default", "Just do it.", false),
        &[
            ("x-claude-code-session-id", "parent"),
            ("x-claude-code-agent-id", "worker-3"),
        ],
    );
    assert_eq!(response.status(), 200);
    let _ = response.text();
    let turns = gw.turns();
    assert_eq!(turns.len(), 2);
    assert_eq!(model_of(&turns[1]), "auto");
    assert_eq!(turns[1]["stdin"], "Just do it.");
}

/// Cursor's prompt cache follows the chat (a resumed chat reads most of its input from cache,
/// a new one pays all of it): every later turn of a worker resumes the chat its first turn
/// started, on the model its `model:` line chose.
#[test]
fn every_later_worker_turn_resumes_its_chat() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });
    let send = |messages: &[serde_json::Value]| -> serde_json::Value {
        let body = serde_json::json!({"model": "multi/cursor/default", "max_tokens": 100, "stream": false, "messages": messages});
        let response = gw.post_with(
            "/v1/messages",
            &body,
            &[
                ("x-claude-code-session-id", "parent"),
                ("x-claude-code-agent-id", "worker-9"),
            ],
        );
        assert_eq!(response.status(), 200);
        serde_json::from_str(&response.text().unwrap()).unwrap()
    };
    let user = |text: &str| serde_json::json!({"role": "user", "content": [{"type": "text", "text": text}]});
    let mut messages = vec![user("model: composer-2.5\nFix the build.")];
    for next in ["Now run the tests.", "And commit."] {
        let answer = send(&messages);
        messages.push(serde_json::json!({"role": "assistant", "content": answer["content"]}));
        messages.push(user(next));
    }
    send(&messages);
    let turns = gw.turns();
    assert_eq!(turns.len(), 3, "{turns:#?}");
    let resumed: Vec<Option<String>> = turns
        .iter()
        .map(|turn| {
            argv(turn)
                .iter()
                .find_map(|a| a.strip_prefix("--resume=").map(str::to_owned))
        })
        .collect();
    assert_eq!(resumed[0], None, "the first turn starts the chat");
    assert!(resumed[1].is_some(), "{resumed:?}");
    assert_eq!(resumed[1], resumed[2], "one chat: {resumed:?}");
    assert!(
        turns.iter().all(|t| model_of(t) == "composer-2.5"),
        "{turns:#?}"
    );
}
