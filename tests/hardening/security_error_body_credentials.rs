//! No credential in any error the gateway answers with. With a Cursor API key and Anthropic
//! credentials in its environment, `multi-cursor serve` is driven into every error it has —
//! 401 (no token, wrong token), 403 (`Origin`, foreign `Host`), 424 (Cursor logged out), 404, 413,
//! 400 (malformed JSON, unknown model, no permission mode, a model the CLI refuses), 429 (a
//! rate-limited run), 502 (a run that crashed after acting, an unreachable upstream for a Claude
//! request carrying an API key and a bearer token) — and no answer, head or body, holds the
//! Cursor key, the Anthropic key or token, or the gateway token.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use std::collections::BTreeSet;
use std::path::Path;

use gateway::GatewayOptions;
use gateway::TestGateway;
use security::ANTHROPIC_KEY;
use security::ANTHROPIC_TOKEN;
use security::Answer;
use security::CURSOR_KEY;
use security::assert_no_secret;
use security::exchange;

const INIT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"{{api_key_source}}","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}"#;
const SHELL_STARTED: &str = r#"{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"touch x"}}},"session_id":"{{chat_id}}"}"#;

/// One Cursor turn per scenario, in order: rate limited, logged out, crash after a tool
/// started, a model the CLI refuses.
fn scenarios(dir: &Path) -> std::path::PathBuf {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-agent/scenarios");
    let folder = dir.join("scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(
        shipped.join("error-result.scenario"),
        folder.join("01-rate.scenario"),
    )
    .unwrap();
    std::fs::copy(
        shipped.join("auth-error.scenario"),
        folder.join("02-auth.scenario"),
    )
    .unwrap();
    std::fs::write(
        folder.join("03-crash.scenario"),
        format!("{INIT}\n{SHELL_STARTED}\n#!stderr segmentation fault\n#!exit 139\n"),
    )
    .unwrap();
    std::fs::copy(
        shipped.join("model-error.scenario"),
        folder.join("04-model.scenario"),
    )
    .unwrap();
    folder
}

#[test]
fn error_answers_hold_no_credential() {
    let dir = tempfile::tempdir().unwrap();
    let gw = TestGateway::start(GatewayOptions {
        env: vec![
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
    let authority = security::authority(&gw.url);
    let token = format!("x-multi-cursor-token: {}", gw.token);
    let call = |path: &str, session: &str, extra: &[String], body: &str| -> Answer {
        let mut head = vec![format!("POST {path} HTTP/1.1")];
        if !extra.iter().any(|h| h.starts_with("Host:")) {
            head.push(format!("Host: {authority}"));
        }
        head.extend(extra.iter().cloned());
        head.push(format!("x-claude-code-session-id: {session}"));
        head.push("content-type: application/json".into());
        if !extra.iter().any(|h| h.starts_with("content-length:")) {
            head.push(format!("content-length: {}", body.len()));
        }
        exchange(&gw.url, &head, body.as_bytes())
    };
    let cursor = |model: &str| {
        serde_json::json!({
            "model": model, "max_tokens": 100, "stream": false,
            "messages": [{"role": "user", "content": "do it"}]
        })
        .to_string()
    };
    let mut answers: Vec<(String, Answer)> = Vec::new();
    let mut keep = |what: &str, answer: Answer| answers.push((what.to_string(), answer));

    let body = cursor("multi/cursor/composer-2.5");
    keep("no token", call("/v1/messages", "s0", &[], &body));
    keep(
        "wrong token",
        call(
            "/v1/messages",
            "s0",
            &[format!("x-multi-cursor-token: {ANTHROPIC_KEY}")],
            &body,
        ),
    );
    keep(
        "Origin",
        call(
            "/v1/messages",
            "s0",
            &[token.clone(), "Origin: http://evil.example".into()],
            &body,
        ),
    );
    keep(
        "foreign Host",
        call(
            "/v1/messages",
            "s0",
            &[token.clone(), "Host: evil.example".into()],
            &body,
        ),
    );
    keep(
        "unknown path",
        call("/v2/nothing", "s0", std::slice::from_ref(&token), &body),
    );
    keep(
        "too large",
        call(
            "/v1/messages",
            "s0",
            &[
                token.clone(),
                format!("content-length: {}", 8 * 1024 * 1024 + 1),
            ],
            "",
        ),
    );
    keep(
        "malformed JSON",
        call(
            "/v1/messages",
            "s0",
            std::slice::from_ref(&token),
            "{\"model\": \"multi/cursor/composer-2.5\",",
        ),
    );
    keep(
        "no permission mode",
        call(
            "/v1/messages",
            "s-nomode",
            std::slice::from_ref(&token),
            &body,
        ),
    );

    for (index, session) in ["s-rate", "s-auth", "s-crash", "s-model"]
        .iter()
        .enumerate()
    {
        let hook = serde_json::json!({
            "session_id": session, "cwd": gw.workspace(), "hook_event_name": "UserPromptSubmit",
            "permission_mode": "bypassPermissions", "prompt": "x"
        });
        let answer = call(
            "/multi-cursor/hook",
            session,
            std::slice::from_ref(&token),
            &hook.to_string(),
        );
        assert_eq!(answer.status, 200, "{}", answer.body);
        if index == 0 {
            // A forced tool choice, which Cursor cannot honour: 400.
            let forced = serde_json::json!({
                "model": "multi/cursor/composer-2.5", "max_tokens": 64,
                "tool_choice": {"type": "tool", "name": "Bash"},
                "messages": [{"role": "user", "content": "hi"}]
            })
            .to_string();
            keep(
                "forced tool choice",
                call(
                    "/v1/messages",
                    session,
                    std::slice::from_ref(&token),
                    &forced,
                ),
            );
        }
        keep(
            &format!("Cursor turn {session}"),
            call("/v1/messages", session, std::slice::from_ref(&token), &body),
        );
    }

    let claude = serde_json::json!({
        "model": "claude-sonnet-4-5", "max_tokens": 64,
        "messages": [{"role": "user", "content": "hi"}]
    })
    .to_string();
    keep(
        "unreachable upstream",
        call(
            "/v1/messages",
            "s0",
            &[
                token,
                format!("x-api-key: {ANTHROPIC_KEY}"),
                format!("Authorization: Bearer {ANTHROPIC_TOKEN}"),
            ],
            &claude,
        ),
    );

    for (what, answer) in &answers {
        eprintln!("{what}: {}", answer.status);
    }
    let statuses: BTreeSet<u16> = answers.iter().map(|(_, a)| a.status).collect();
    for expected in [400, 401, 403, 404, 413, 424, 429, 502] {
        assert!(
            statuses.contains(&expected),
            "no {expected} among {:?}",
            answers
                .iter()
                .map(|(w, a)| format!("{w}: {}", a.status))
                .collect::<Vec<_>>()
        );
    }
    for (what, answer) in &answers {
        assert!(
            answer.status >= 400,
            "{what}: {} {}",
            answer.status,
            answer.body
        );
        assert_no_secret(
            &format!("the {} answer to {what}", answer.status),
            &answer.raw,
            &[
                ("CURSOR_API_KEY", CURSOR_KEY),
                ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
                ("ANTHROPIC_AUTH_TOKEN", ANTHROPIC_TOKEN),
                ("the gateway token", &gw.token),
            ],
        );
    }
}
