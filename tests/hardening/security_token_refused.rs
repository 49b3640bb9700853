//! Every route but Claude Code's preconnect and doctor check (`HEAD`/`GET /api/hello`) refuses a request without the
//! gateway token, or with any other value — a token differing only in its first or only in its
//! last byte, one byte short or long, another case, or the right token in another header — with
//! 401, `x-should-retry: false` and an Anthropic error that echoes neither token. Nothing runs:
//! no Cursor turn, no hook recorded, no session record. (The comparison is constant-time; see
//! the unit test in `src/gateway/guard.rs` and README "Security".)

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use security::assert_no_secret;
use security::exchange;

fn flip(byte: u8) -> u8 {
    if byte == b'0' { b'1' } else { b'0' }
}

#[test]
fn missing_and_wrong_tokens_are_refused_on_every_route() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let token = gw.token.clone();
    let host = format!("Host: {}", security::authority(&gw.url));

    let mut first = token.clone().into_bytes();
    first[0] = flip(first[0]);
    let mut last = token.clone().into_bytes();
    let end = last.len() - 1;
    last[end] = flip(last[end]);
    let presented: Vec<(&str, Vec<String>)> = vec![
        ("no token", vec![]),
        ("an empty token", vec!["x-multi-cursor-token:".into()]),
        (
            "the first byte changed",
            vec![format!(
                "x-multi-cursor-token: {}",
                String::from_utf8(first).unwrap()
            )],
        ),
        (
            "the last byte changed",
            vec![format!(
                "x-multi-cursor-token: {}",
                String::from_utf8(last).unwrap()
            )],
        ),
        (
            "one byte short",
            vec![format!(
                "x-multi-cursor-token: {}",
                &token[..token.len() - 1]
            )],
        ),
        (
            "one byte long",
            vec![format!("x-multi-cursor-token: {token}0")],
        ),
        (
            "upper case",
            vec![format!("x-multi-cursor-token: {}", token.to_uppercase())],
        ),
        (
            "in Authorization",
            vec![format!("Authorization: Bearer {token}")],
        ),
        ("in x-api-key", vec![format!("x-api-key: {token}")]),
    ];
    let body = cursor_request("multi/cursor/composer-2.5", "hello", false).to_string();
    let hook = serde_json::json!({
        "session_id": "s-intruder", "cwd": "/", "hook_event_name": "UserPromptSubmit",
        "permission_mode": "bypassPermissions", "prompt": "x"
    })
    .to_string();
    let routes: Vec<(&str, &str, &str)> = vec![
        ("POST", "/v1/messages", body.as_str()),
        ("POST", "/v1/messages?beta=true", body.as_str()),
        ("POST", "/v1/messages/count_tokens", body.as_str()),
        ("POST", "/multi-cursor/hook", hook.as_str()),
        ("GET", "/multi-cursor/status", ""),
        ("POST", "/api/hello", ""),
        ("POST", "/no/such/route", body.as_str()),
    ];

    for (method, path, body) in &routes {
        for (label, headers) in &presented {
            let mut head = vec![format!("{method} {path} HTTP/1.1"), host.clone()];
            head.extend(headers.iter().cloned());
            head.push("x-claude-code-session-id: s-intruder".into());
            head.push("content-type: application/json".into());
            head.push(format!("content-length: {}", body.len()));
            let answer = exchange(&gw.url, &head, body.as_bytes());
            let what = format!("{method} {path} with {label}");
            assert_eq!(answer.status, 401, "{what}: {}", answer.body);
            assert_eq!(answer.header("x-should-retry"), Some("false"), "{what}");
            let error: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
            assert_eq!(error["type"], "error", "{what}");
            let message = error["error"]["message"].as_str().unwrap();
            let expected =
                if headers.is_empty() || label.starts_with("in ") || label.contains("empty") {
                    "missing"
                } else {
                    "wrong"
                };
            assert!(message.contains(expected), "{what}: {message}");
            assert_no_secret(&what, &answer.raw, &[("the gateway token", &token)]);
            if let Some((_, value)) = headers.first().and_then(|h| h.split_once(": "))
                && value.len() > 8
            {
                assert_no_secret(
                    &what,
                    answer.body.as_bytes(),
                    &[("the presented value", value)],
                );
            }
        }
    }

    // The preconnect alone needs no token, and says nothing.
    let answer = exchange(
        &gw.url,
        &["HEAD /api/hello HTTP/1.1".into(), host.clone()],
        b"",
    );
    assert_eq!(answer.status, 200);
    assert!(answer.body.is_empty());

    // Nothing ran and nothing was kept.
    assert!(gw.turns().is_empty(), "a Cursor turn ran: {:?}", gw.turns());
    let sessions = gw.state_dir.join("sessions");
    let records = std::fs::read_dir(&sessions)
        .map(std::iter::Iterator::count)
        .unwrap_or(0);
    assert_eq!(records, 0, "files appeared in {}", sessions.display());

    // With the token the same gateway answers, and it never heard of the intruder's session.
    let answer = exchange(
        &gw.url,
        &[
            "GET /multi-cursor/status HTTP/1.1".into(),
            host,
            format!("x-multi-cursor-token: {token}"),
        ],
        b"",
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(!answer.body.contains("s-intruder"), "{}", answer.body);
}
