//! The 2026.09–2026.10 CLI's failures (stderr text, often ANSI-coloured, exit 1, no `result`)
//! reach Claude Code in Cursor's words, each with its own status and Anthropic error type,
//! `x-should-retry: false`, and no escape code. Only a run that reported a tool call may say
//! Cursor changed files. The scenarios are in `tests/fake-agent/scenarios/`.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::repo_root;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_events;

const MODEL: &str = "multi/cursor/composer-2.5";

fn replaying(scenario: &str) -> TestGateway {
    let path = repo_root()
        .join("tests/fake-agent/scenarios")
        .join(scenario);
    assert!(path.exists(), "{}", path.display());
    TestGateway::start(GatewayOptions::replaying(path))
}

/// A non-streamed request: its status, `error.type` and message, after the checks every
/// failure answer passes (`x-should-retry: false`, an error body, no escape code).
fn failure(gw: &TestGateway, session: &str) -> (u16, String, String) {
    let response = gw.post_with(
        "/v1/messages",
        &cursor_request(MODEL, "hi", false),
        &[("x-claude-code-session-id", session)],
    );
    let status = response.status().as_u16();
    assert_eq!(response.headers()["x-should-retry"], "false");
    let text = response.text().unwrap();
    assert_no_escape(&text);
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["type"], "error", "{body}");
    let kind = body["error"]["type"].as_str().unwrap().to_owned();
    let message = body["error"]["message"].as_str().unwrap().to_owned();
    assert!(message.starts_with("multi-cursor: "), "{message}");
    (status, kind, message)
}

fn assert_no_escape(body: &str) {
    assert!(!body.contains('\u{1b}'), "raw escape in {body}");
    assert!(
        !body.to_ascii_lowercase().contains("\\u001b"),
        "escape in {body}"
    );
    assert!(
        !body.contains("[31m") && !body.contains("[39m"),
        "SGR in {body}"
    );
}

fn assert_did_not_act(message: &str) {
    assert!(!message.contains("may have changed files"), "{message}");
}

#[test]
fn a_usage_limit_is_429_rate_limit_error_with_the_ways_out() {
    let gw = replaying("usage-limit.scenario");
    let (status, kind, message) = failure(&gw, "s-usage");
    assert_eq!(
        (status, kind.as_str()),
        (429, "rate_limit_error"),
        "{message}"
    );
    assert!(
        message.contains("Error: You've hit your usage limit"),
        "{message}"
    );
    assert!(message.contains("Auto"), "{message}");
    assert!(message.contains("cursor.com/dashboard"), "{message}");
    assert!(message.contains("Nothing ran"), "{message}");
    assert_did_not_act(&message);
}

#[test]
fn action_required_is_a_usage_limit_too() {
    let gw = replaying("usage-limit-action-required.scenario");
    let (status, kind, message) = failure(&gw, "s-action");
    assert_eq!(
        (status, kind.as_str()),
        (429, "rate_limit_error"),
        "{message}"
    );
    assert!(
        message.contains("ActionRequiredError: You've hit your usage limit"),
        "{message}"
    );
    assert_did_not_act(&message);
}

#[test]
fn a_free_plan_asked_for_a_named_model_is_424_naming_auto() {
    // 2026.10.01: "Named models unavailable", also an ActionRequiredError, is no usage limit:
    // the same request fails the same way until the route is Auto.
    let gw = replaying("free-plan-named-model.scenario");
    let (status, kind, message) = failure(&gw, "s-free");
    assert_eq!(
        (status, kind.as_str()),
        (424, "permission_error"),
        "{message}"
    );
    assert!(
        message.contains(
            "ActionRequiredError: Named models unavailable Free plans can only use Auto."
        ),
        "{message}"
    );
    assert!(message.contains("`Auto via Cursor` in /model"), "{message}");
    assert!(!message.contains("usage limit is reached"), "{message}");
    assert_did_not_act(&message);
    assert_eq!(gw.turns().len(), 1, "not retried");
}

#[test]
fn a_run_that_never_writes_its_first_event_is_ended_and_said_so() {
    let path = repo_root().join("tests/fake-agent/scenarios/silent-start.scenario");
    let mut options = GatewayOptions::replaying(path);
    options
        .env
        .push(("MULTI_CURSOR_FIRST_EVENT_SECS".into(), "1".into()));
    let gw = TestGateway::start(options);
    let (status, kind, message) = failure(&gw, "s-silent");
    assert_eq!((status, kind.as_str()), (502, "api_error"), "{message}");
    assert!(
        message.contains("wrote nothing for 1s, not even its first event"),
        "{message}"
    );
    assert!(message.contains("keychain"), "{message}");
}

#[test]
fn an_invalid_api_key_is_424_naming_cursor_api_key() {
    let gw = replaying("invalid-api-key.scenario");
    let (status, kind, message) = failure(&gw, "s-key");
    assert_eq!(
        (status, kind.as_str()),
        (424, "permission_error"),
        "{message}"
    );
    assert!(message.contains("CURSOR_API_KEY"), "{message}");
    assert!(
        message.contains("⚠ Warning: The provided API key is invalid."),
        "{message}"
    );
    assert_did_not_act(&message);
}

#[test]
fn resource_exhausted_is_429_and_temporary() {
    let gw = replaying("resource-exhausted.scenario");
    let (status, kind, message) = failure(&gw, "s-capacity");
    assert_eq!(
        (status, kind.as_str()),
        (429, "rate_limit_error"),
        "{message}"
    );
    assert!(message.contains("temporary"), "{message}");
    assert!(message.contains("resource_exhausted"), "{message}");
    assert!(
        message.contains("changed nothing in the workspace"),
        "{message}"
    );
    assert_did_not_act(&message);
}

#[test]
fn a_server_refusal_is_502_with_the_reason() {
    let gw = replaying("server-refused.scenario");
    let (status, kind, message) = failure(&gw, "s-refused");
    assert_eq!((status, kind.as_str()), (502, "api_error"), "{message}");
    assert!(
        message.contains("RetriableError: [invalid_argument] unknown option '--system-prompt'"),
        "{message}"
    );
    assert_did_not_act(&message);
}

#[test]
fn a_run_killed_by_sigterm_says_so() {
    let gw = replaying("killed-sigterm.scenario");
    let (status, kind, message) = failure(&gw, "s-killed");
    assert_eq!((status, kind.as_str()), (502, "api_error"), "{message}");
    assert!(message.contains("stopped from outside"), "{message}");
    assert!(message.contains("SIGTERM, exit code 143"), "{message}");
    assert!(!message.contains("exit code 0"), "{message}");
    assert_did_not_act(&message);
}

/// Only a run that reported a tool call says Cursor may have changed files; the last stderr
/// lines are quoted. Streamed, what was shown stays and the stream ends with the error event;
/// the identical re-send is answered again, never rerun.
#[test]
fn a_failure_after_a_tool_call_may_have_changed_files() {
    let gw = replaying("failure-after-tool.scenario");
    let (status, kind, message) = failure(&gw, "s-tool");
    assert_eq!((status, kind.as_str()), (502, "api_error"), "{message}");
    assert!(message.contains("exit code 1"), "{message}");
    assert!(
        message.contains("the worker stopped unexpectedly"),
        "{message}"
    );
    assert!(message.contains("may have changed files"), "{message}");

    let turns = gw.turns().len();
    let (again_status, _, again) = failure(&gw, "s-tool");
    assert_eq!(again_status, 502, "{again}");
    assert!(again.contains("may have changed files"), "{again}");
    assert_eq!(
        gw.turns().len(),
        turns,
        "the identical re-send ran Cursor again"
    );

    let response = gw.post_with(
        "/v1/messages",
        &cursor_request(MODEL, "hi", true),
        &[("x-claude-code-session-id", "s-tool-stream")],
    );
    assert_eq!(response.status(), 200);
    let body = response.text().unwrap();
    assert_no_escape(&body);
    let events = sse_events(&body);
    let names: Vec<&str> = events.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names.last(), Some(&"error"), "{body}");
    assert!(!names.contains(&"message_stop"), "{body}");
    assert!(body.contains("Looking at the file first."), "{body}");
    let (_, error) = events.last().unwrap();
    assert_eq!(error["error"]["type"], "api_error", "{error}");
    let streamed = error["error"]["message"].as_str().unwrap();
    assert!(streamed.contains("may have changed files"), "{streamed}");
    assert!(
        streamed.contains("the worker stopped unexpectedly"),
        "{streamed}"
    );
}
