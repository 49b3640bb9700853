//! Every row of the gateway's status table (each failure's HTTP status and Anthropic error
//! type), through the real gateway.

use multi_cursor_test_support::fake_upstream::raw;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;
use raw::RawResponse;

fn bypass() -> GatewayOptions {
    GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    }
}

fn with_scenario(text: &str) -> (tempfile::TempDir, GatewayOptions) {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("scenario.ndjson");
    std::fs::write(&scenario, text).unwrap();
    let mut options = bypass();
    options.env.push((
        "FAKE_AGENT_SCENARIO".into(),
        scenario.to_string_lossy().into_owned(),
    ));
    (dir, options)
}

/// Sends raw bytes and reads the answer until the gateway closes the connection.
fn raw(gw: &TestGateway, request: &[u8]) -> RawResponse {
    raw::exchange(
        gw.url.strip_prefix("http://").unwrap().parse().unwrap(),
        request,
    )
}

/// Asserts an Anthropic error answer with `status` and `x-should-retry: false`; its message.
fn error(response: reqwest::blocking::Response, status: u16) -> String {
    assert_eq!(response.status().as_u16(), status);
    assert_eq!(
        response
            .headers()
            .get("x-should-retry")
            .map(|v| v.to_str().unwrap()),
        Some("false")
    );
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(body["type"], "error", "{body}");
    let message = body["error"]["message"].as_str().unwrap().to_string();
    assert!(message.starts_with("multi-cursor: "), "{message}");
    message
}

fn messages(gw: &TestGateway, model: &str, stream: bool) -> reqwest::blocking::Response {
    gw.post("/v1/messages", &cursor_request(model, "hello", stream))
}

#[test]
fn guard_and_request_rows() {
    let gw = TestGateway::start(bypass());
    let client = gw.client();
    let body = cursor_request("multi/cursor/composer-2.5", "hello", false).to_string();

    // Missing and wrong token: 401.
    let missing = client
        .post(format!("{}/v1/messages", gw.url))
        .header("content-type", "application/json")
        .body(body.clone())
        .send()
        .unwrap();
    assert!(error(missing, 401).contains("missing"));
    let wrong = client
        .post(format!("{}/v1/messages", gw.url))
        .header("x-multi-cursor-token", "0".repeat(64))
        .body(body)
        .send()
        .unwrap();
    assert!(error(wrong, 401).contains("wrong"));
    let status = client
        .get(format!("{}/multi-cursor/status", gw.url))
        .send()
        .unwrap();
    error(status, 401);

    // Origin: 403, even with the token.
    let origin = gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", false),
        &[("origin", "https://evil.example")],
    );
    error(origin, 403);

    // Non-loopback Host: 403 (raw, so the Host header is exactly ours).
    let foreign = raw(
        &gw,
        format!(
            "GET /multi-cursor/status HTTP/1.1\r\nHost: evil.example:80\r\nx-multi-cursor-token: {}\r\nConnection: close\r\n\r\n",
            gw.token
        )
        .as_bytes(),
    );
    assert_eq!(foreign.status, 403, "{foreign:?}");
    assert_eq!(foreign.header("x-should-retry"), Some(&b"false"[..]));
    // …while a loopback Host with the token passes.
    let local = raw(
        &gw,
        format!(
            "GET /multi-cursor/status HTTP/1.1\r\nHost: localhost\r\nx-multi-cursor-token: {}\r\nConnection: close\r\n\r\n",
            gw.token
        )
        .as_bytes(),
    );
    assert_eq!(local.status, 200);

    // Unknown path: 404.
    let response = gw.post("/v1/nothing-here", &serde_json::json!({}));
    assert_eq!(response.status(), 404);

    // Body over 8 MiB: 413, refused from the declared length, and the connection is closed
    // (the body is left unread, so it could carry no further request)…
    let declared = raw(
        &gw,
        format!(
            "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nx-multi-cursor-token: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            gw.token,
            8 * 1024 * 1024 + 1
        )
        .as_bytes(),
    );
    assert_eq!(declared.status, 413);
    assert_eq!(declared.header("x-should-retry"), Some(&b"false"[..]));
    assert_eq!(
        declared.header("connection"),
        Some(&b"close"[..]),
        "{declared:?}"
    );
    // …and from the bytes of a chunked body without a length.
    let big = vec![b' '; 8 * 1024 * 1024 + 10];
    let chunked = client
        .post(format!("{}/v1/messages", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .body(reqwest::blocking::Body::new(std::io::Cursor::new(big)))
        .send();
    if let Ok(response) = chunked {
        assert_eq!(
            response
                .headers()
                .get("connection")
                .and_then(|v| v.to_str().ok()),
            Some("close")
        );
        error(response, 413);
    }

    // Malformed JSON: 400.
    let malformed = client
        .post(format!("{}/v1/messages", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .header("content-type", "application/json")
        .body("{\"model\": \"multi/cursor/composer-2.5\", ")
        .send()
        .unwrap();
    assert!(error(malformed, 400).contains("JSON"));

    // A model Cursor does not offer: a one-line answer naming the valid ones (not an API
    // error, which Claude Code would send again); nothing runs.
    let unoffered = messages(&gw, "multi/cursor/no-such-model-9", false);
    assert_eq!(unoffered.status(), 200);
    let text = unoffered.text().unwrap();
    assert!(
        text.contains("no-such-model-9") && text.contains("--cursor-models"),
        "{text}"
    );

    // The preconnect needs no token, and neither does `claude doctor`'s GET (2.1.331+), which
    // gets the same empty 200.
    let hello = client.head(format!("{}/api/hello", gw.url)).send().unwrap();
    assert_eq!(hello.status(), 200);
    assert!(hello.headers().get("x-should-retry").is_none());
    let doctor = client.get(format!("{}/api/hello", gw.url)).send().unwrap();
    assert_eq!(doctor.status(), 200);
    assert_eq!(doctor.text().unwrap(), "");

    assert!(gw.turns().is_empty(), "no row above ran a turn");
}

#[test]
fn no_mode_known_answers_read_only() {
    // Before any hook reported the session's mode, Cursor answers read-only and says so: never
    // a 400, never more than any mode allows.
    let gw = TestGateway::start(GatewayOptions::default());
    let response = messages(&gw, "multi/cursor/composer-2.5", true);
    assert_eq!(response.status(), 200);
    let text = sse_text(&response.text().unwrap());
    assert!(
        text.starts_with("[Cursor] Cursor answered read-only: Claude Code has not reported"),
        "{text}"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 1);
    let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
    assert_eq!(argv[argv.len() - 2..], ["--mode", "ask"], "{argv:?}");
}

#[test]
fn agent_missing_is_400() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        agent: Some("/nonexistent/multi-cursor-test/agent".into()),
        ..Default::default()
    });
    let message = error(messages(&gw, "multi/cursor/composer-2.5", true), 400);
    assert!(
        message.contains("/nonexistent/multi-cursor-test/agent")
            || message.to_lowercase().contains("install"),
        "{message}"
    );
}

/// Agent processes other than the identification probes (`--version`, `--help`).
fn agent_runs(gw: &TestGateway) -> usize {
    gw.agent_calls()
        .iter()
        .filter(|c| {
            !c["argv"]
                .as_array()
                .is_some_and(|a| a.len() == 1 && (a[0] == "--version" || a[0] == "--help"))
        })
        .count()
}

/// A logged-out Cursor is a 424 (Claude Code shows it without its `/login` advice and does not
/// re-send it), its message naming the fix first; the message ran Cursor once, and the same
/// request sent again gets the same answer without running Cursor until the login changes.
#[test]
fn cursor_logged_out_is_424_and_not_run_again_until_the_login_changes() {
    let marker = tempfile::tempdir().unwrap();
    let marker = marker.path().join("logged-in");
    let mut options = bypass();
    options
        .env
        .push(("FAKE_AGENT_LOGGED_OUT".into(), "1".into()));
    options.env.push((
        "FAKE_AGENT_LOGIN_MARKER".into(),
        marker.to_string_lossy().into_owned(),
    ));
    let gw = TestGateway::start(options);
    let model = "multi/cursor/composer-2.5";
    let message = error(messages(&gw, model, true), 424);
    assert!(
        message.starts_with(
            "multi-cursor: Cursor is not logged in: run `multi-cursor --cursor-login` in a terminal or /multi-cursor:login in Claude Code"
        ),
        "{message}"
    );
    assert!(message.contains("Authentication required"), "{message}");
    assert_eq!(agent_runs(&gw), 1, "{:?}", gw.agent_calls());

    // Sent again, streamed or not: the same answer, nothing run.
    assert_eq!(error(messages(&gw, model, true), 424), message);
    error(messages(&gw, model, false), 424);
    assert_eq!(agent_runs(&gw), 1, "{:?}", gw.agent_calls());

    // The login changes (`agent login` stores credentials in cli-config.json's authInfo).
    let login = std::process::Command::new(multi_cursor_test_support::fake_agent::fake_agent())
        .arg("login")
        .env("HOME", gw.home())
        .env("FAKE_AGENT_LOGIN_MARKER", &marker)
        .env_remove("CURSOR_CONFIG_DIR")
        .env_remove("FAKE_AGENT_LOG")
        .output()
        .unwrap();
    assert!(login.status.success(), "{login:?}");
    let config = std::fs::read_to_string(gw.home().join(".cursor/cli-config.json")).unwrap();
    assert!(config.contains("authInfo"), "{config}");
    let answer = messages(&gw, model, false);
    assert_eq!(answer.status().as_u16(), 200, "{:?}", gw.agent_calls());
    assert!(answer.text().unwrap().contains("fake agent reply"));
    let argv: Vec<String> = gw
        .agent_calls()
        .iter()
        .map(|c| c["argv"].to_string())
        .collect();
    assert!(agent_runs(&gw) > 1 && gw.turns().len() == 1, "{argv:#?}");
}

/// Logged out after the catalog was fetched: the turn itself meets the refusal; sent again,
/// nothing runs.
#[test]
fn a_turn_that_finds_cursor_logged_out_is_not_run_again() {
    let marker = tempfile::tempdir().unwrap();
    let marker = marker.path().join("logged-in");
    std::fs::write(&marker, "").unwrap();
    let mut options = bypass();
    options
        .env
        .push(("FAKE_AGENT_LOGGED_OUT".into(), "1".into()));
    options.env.push((
        "FAKE_AGENT_LOGIN_MARKER".into(),
        marker.to_string_lossy().into_owned(),
    ));
    let gw = TestGateway::start(options);
    let model = "multi/cursor/composer-2.5";
    assert_eq!(messages(&gw, model, false).status().as_u16(), 200);
    let logout = std::process::Command::new(multi_cursor_test_support::fake_agent::fake_agent())
        .arg("logout")
        .env("HOME", gw.home())
        .env("FAKE_AGENT_LOGIN_MARKER", &marker)
        .env_remove("CURSOR_CONFIG_DIR")
        .env_remove("FAKE_AGENT_LOG")
        .output()
        .unwrap();
    assert!(logout.status.success(), "{logout:?}");
    let again = gw.post(
        "/v1/messages",
        &cursor_request(model, "and now something else", true),
    );
    let message = error(again, 424);
    assert!(
        message.starts_with(
            "multi-cursor: Cursor is not logged in: run `multi-cursor --cursor-login`"
        ),
        "{message}"
    );
    assert_eq!(gw.turns().len(), 2, "{:?}", gw.agent_calls());
    let runs = agent_runs(&gw);
    let resent = gw.post(
        "/v1/messages",
        &cursor_request(model, "and now something else", true),
    );
    // The same words, less the run's own "nothing ran" (nothing was run for it).
    let resent = error(resent, 424);
    assert!(message.starts_with(&resent), "{resent}\n{message}");
    assert_eq!(agent_runs(&gw), runs, "{:?}", gw.agent_calls());
}

#[test]
fn rate_limit_is_429() {
    let (_dir, options) = with_scenario("Rate limit exceeded, try again later\n#!exit 1\n");
    let gw = TestGateway::start(options);
    let message = error(messages(&gw, "multi/cursor/composer-2.5", true), 429);
    assert!(message.contains("Rate limit exceeded"), "{message}");
    error(messages(&gw, "multi/cursor/composer-2.5", false), 429);
}

#[test]
fn rate_limit_result_event_is_429() {
    let (_dir, options) = with_scenario(
        r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}
{"type":"result","subtype":"error","duration_ms":5,"duration_api_ms":5,"is_error":true,"result":"Rate limit exceeded, try again later","session_id":"{{chat_id}}","request_id":"{{request_id}}"}
#!exit 1
"#,
    );
    let gw = TestGateway::start(options);
    error(messages(&gw, "multi/cursor/composer-2.5", false), 429);
}

#[test]
fn run_failed_after_acting_is_502() {
    let (_dir, options) = with_scenario(
        r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}
{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"touch x"}}},"session_id":"{{chat_id}}"}
#!exit 1
"#,
    );
    let gw = TestGateway::start(options);
    let message = error(messages(&gw, "multi/cursor/composer-2.5", false), 502);
    assert!(message.contains("Cursor"), "{message}");
    let response = messages(&gw, "multi/cursor/composer-2.5", true);
    let status = response.status().as_u16();
    let body = response.text().unwrap();
    if status == 200 {
        assert!(body.contains("event: error"), "{body}");
        assert!(!body.contains("message_stop"), "{body}");
    } else {
        assert_eq!(status, 502, "{body}");
    }
}
