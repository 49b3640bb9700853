//! Through the launcher, a Claude model goes to the upstream named by the user's own
//! `ANTHROPIC_BASE_URL` (path prefix included) with Claude Code's request intact: its API key,
//! beta list, session header and body, and without our token; the upstream's answer is what
//! Claude Code prints.

use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::launcher;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use launcher::Launch;

#[test]
fn a_claude_model_reaches_the_users_upstream() {
    let upstream = FakeUpstream::start();
    upstream.respond_with(|request| {
        if request.path.ends_with("/count_tokens") {
            ScriptedResponse::json(200, &serde_json::json!({"input_tokens": 10}))
        } else {
            ScriptedResponse::text_stream("claude-sonnet-4-5", "UPSTREAM_ANSWER")
        }
    });
    let mut launch = Launch::real()
        .env_remove("MULTI_CURSOR_UPSTREAM")
        .env(
            "ANTHROPIC_BASE_URL",
            format!("{}/corp-proxy", upstream.url()),
        )
        .args(["-p", "hello claude", "--model", "claude-sonnet-4-5"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(output.stdout.trim(), "UPSTREAM_ANSWER");

    let messages: Vec<_> = upstream
        .requests()
        .into_iter()
        .filter(|r| r.path == "/corp-proxy/v1/messages")
        .collect();
    assert_eq!(messages.len(), 1, "{:?}", upstream.requests());
    let request = &messages[0];
    assert_eq!(request.query.as_deref(), Some("beta=true"));
    assert_eq!(
        request.header_str("x-api-key"),
        Some(launcher::TEST_API_KEY)
    );
    assert!(
        request.header("x-multi-cursor-token").is_none(),
        "our token leaked"
    );
    assert!(
        request
            .header_str("anthropic-beta")
            .is_some_and(|b| b.contains("claude-code-"))
    );
    assert!(request.header("x-claude-code-session-id").is_some());
    let body = request.json();
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert!(
        body["system"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("x-anthropic-billing-header:"),
        "Claude Code's own body: {}",
        body["system"][0]
    );
    assert!(body.to_string().contains("hello claude"));
    assert!(launch.turns().is_empty(), "Cursor must not run");
}
