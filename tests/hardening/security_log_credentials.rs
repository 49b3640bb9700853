//! No credential in the logs, even at the most verbose level. `multi-cursor serve` at
//! `MULTI_CURSOR_LOG=debug` and at `trace`, and a launched session at `debug`, go through hooks,
//! a Cursor turn that answers, one that fails with an error result and one refused by a
//! logged-out CLI, requests with wrong tokens, count_tokens, the status route, and a Claude
//! request passed through to the upstream carrying an API key and a bearer token. Their
//! stderr (which did log at that level) holds neither the Cursor key, nor the Anthropic key or
//! token, nor the gateway token, nor a wrong token someone presented.

use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use std::path::Path;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use gateway::GatewayOptions;
use gateway::TestGateway;
use security::ANTHROPIC_KEY;
use security::ANTHROPIC_TOKEN;
use security::CURSOR_KEY;
use security::assert_no_secret;
use security::exchange;

/// A presented wrong token: someone else's secret, never to be logged either.
const WRONG_TOKEN: &str = "wrong-token-MARKER-5a6b7c8d9e0f";

/// Turns replayed in order: an answer, an error result, a logged-out CLI.
fn scenarios(dir: &Path) -> std::path::PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-agent/scenarios");
    let folder = dir.join("scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    for (from, to) in [
        ("basic-reply.ndjson", "01-reply.ndjson"),
        ("error-result.scenario", "02-error.scenario"),
        ("auth-error.scenario", "03-auth.scenario"),
    ] {
        std::fs::copy(source.join(from), folder.join(to)).unwrap();
    }
    folder
}

/// Drives every kind of request through the gateway at `url`.
fn exercise(url: &str, token: &str, workspace: &Path) {
    let host = format!("Host: {}", security::authority(url));
    let call = |method: &str, path: &str, session: &str, extra: &[String], body: &str| {
        let mut head = vec![format!("{method} {path} HTTP/1.1"), host.clone()];
        head.extend(extra.iter().cloned());
        head.push(format!("x-claude-code-session-id: {session}"));
        head.push("content-type: application/json".into());
        head.push(format!("content-length: {}", body.len()));
        exchange(url, &head, body.as_bytes())
    };
    let with_token = [format!("x-multi-cursor-token: {token}")];
    for session in ["s-log-1", "s-log-2", "s-log-3"] {
        let hook = serde_json::json!({
            "session_id": session, "cwd": workspace, "hook_event_name": "UserPromptSubmit",
            "permission_mode": "bypassPermissions", "prompt": "x"
        });
        let answer = call(
            "POST",
            "/multi-cursor/hook",
            session,
            &with_token,
            &hook.to_string(),
        );
        assert_eq!(answer.status, 200, "{}", answer.body);
        let answer = call(
            "POST",
            "/v1/messages",
            session,
            &with_token,
            &security::cursor_body("say hi"),
        );
        assert!(
            answer.status == 200 || answer.status >= 400,
            "{}",
            answer.body
        );
    }
    let count = call(
        "POST",
        "/v1/messages/count_tokens",
        "s-log-1",
        &with_token,
        &security::cursor_body("count me"),
    );
    assert_eq!(count.status, 200, "{}", count.body);
    let status = call("GET", "/multi-cursor/status", "s-log-1", &with_token, "");
    assert_eq!(status.status, 200, "{}", status.body);
    for wrong in [
        vec![format!("x-multi-cursor-token: {WRONG_TOKEN}")],
        vec![format!("Authorization: Bearer {WRONG_TOKEN}")],
        vec![],
    ] {
        let answer = call("GET", "/multi-cursor/status", "s-log-1", &wrong, "");
        assert_eq!(answer.status, 401);
    }
    let claude = serde_json::json!({
        "model": "claude-sonnet-4-5", "max_tokens": 64, "stream": false,
        "messages": [{"role": "user", "content": "hi"}]
    });
    let mut headers = with_token.to_vec();
    headers.push(format!("x-api-key: {ANTHROPIC_KEY}"));
    headers.push(format!("Authorization: Bearer {ANTHROPIC_TOKEN}"));
    headers.push("anthropic-version: 2023-06-01".into());
    call(
        "POST",
        "/v1/messages?beta=true",
        "s-log-1",
        &headers,
        &claude.to_string(),
    );
}

fn serve_log(level: &str) {
    let dir = tempfile::tempdir().unwrap();
    let upstream = FakeUpstream::start();
    upstream.respond_with(|_| ScriptedResponse::message("claude-sonnet-4-5", "relayed"));
    let gw = TestGateway::start(GatewayOptions {
        upstream: Some(upstream.url()),
        env: vec![
            ("MULTI_CURSOR_LOG".into(), level.into()),
            ("CURSOR_API_KEY".into(), CURSOR_KEY.into()),
            ("ANTHROPIC_API_KEY".into(), ANTHROPIC_KEY.into()),
            ("ANTHROPIC_AUTH_TOKEN".into(), ANTHROPIC_TOKEN.into()),
            (
                "FAKE_AGENT_SCENARIO".into(),
                scenarios(dir.path()).to_string_lossy().into_owned(),
            ),
        ],
        ..GatewayOptions::default()
    });
    exercise(&gw.url, &gw.token, &gw.workspace());
    assert_eq!(gw.turns().len(), 3, "three Cursor turns ran");
    assert_eq!(
        upstream.request_count(),
        1,
        "the Claude request was relayed"
    );

    let log = std::fs::read(gw.dir.path().join("gateway.log")).unwrap();
    let text = String::from_utf8_lossy(&log);
    assert!(
        text.contains("DEBUG"),
        "MULTI_CURSOR_LOG={level} logged nothing at debug:\n{text}"
    );
    assert_no_secret(
        &format!("the serve log at {level}"),
        &log,
        &[
            ("CURSOR_API_KEY", CURSOR_KEY),
            ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
            ("ANTHROPIC_AUTH_TOKEN", ANTHROPIC_TOKEN),
            ("the gateway token", &gw.token),
            ("a presented wrong token", WRONG_TOKEN),
        ],
    );
}

#[test]
fn serve_logs_no_credential_at_debug() {
    serve_log("debug");
}

#[test]
fn serve_logs_no_credential_at_trace() {
    serve_log("trace");
}

#[test]
fn the_launcher_logs_no_credential_at_debug() {
    let dir = tempfile::tempdir().unwrap();
    let upstream = FakeUpstream::start();
    upstream.respond_with(|_| ScriptedResponse::message("claude-sonnet-4-5", "relayed"));
    let scenarios = scenarios(dir.path());
    let session = security::LiveSession::start(&[
        ("MULTI_CURSOR_LOG", "debug"),
        ("MULTI_CURSOR_UPSTREAM", &upstream.url()),
        ("FAKE_AGENT_SCENARIO", scenarios.to_str().unwrap()),
    ]);
    let token = session.token.clone();
    exercise(&session.url, &token, &session.launch.project);
    let (launch, output) = session.stop();
    assert_eq!(output.status, Some(42), "{output:?}");
    assert_eq!(launch.turns().len(), 3, "three Cursor turns ran");
    assert!(
        output.stderr.contains("DEBUG"),
        "the launcher logged nothing at debug:\n{}",
        output.stderr
    );
    assert_no_secret(
        "the launcher's stderr at debug",
        output.stderr.as_bytes(),
        &[
            ("CURSOR_API_KEY", CURSOR_KEY),
            ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
            ("ANTHROPIC_AUTH_TOKEN", ANTHROPIC_TOKEN),
            ("the gateway token", &token),
            ("a presented wrong token", WRONG_TOKEN),
        ],
    );
    assert_no_secret(
        "the launcher's stdout",
        output.stdout.as_bytes(),
        &[
            ("the gateway token", &token),
            ("CURSOR_API_KEY", CURSOR_KEY),
        ],
    );
}
