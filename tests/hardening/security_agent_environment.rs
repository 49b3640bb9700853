//! No Anthropic, Claude Code or gateway credential reaches any invocation of Cursor's CLI:
//! turns, `--version`, `--help`, `status` and `login`, whether the gateway runs them or
//! `--cursor-status`, `--cursor-login` (interactive and `--no-wait`) or `doctor` does. The rest
//! of the environment is inherited (Cursor's shell tool runs the user's builds in it), and
//! `CURSOR_API_KEY` passes. The fake agent logs each invocation's variable names.
use multi_cursor_test_support::gateway;

use std::path::Path;
use std::process::Command;
use std::process::Stdio;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::fake_agent;

/// The credentials the security probe found in agent children.
const CREDENTIALS: [&str; 9] = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_CUSTOM_HEADERS",
    "MULTI_CURSOR_GATEWAY_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "ANTHROPIC_FOUNDRY_API_KEY",
    "AWS_BEARER_TOKEN_BEDROCK",
    "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
    "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
];

/// Variables a user's build needs, which must still reach the agent.
const INHERITED: [&str; 3] = ["SSH_AUTH_SOCK", "JAVA_HOME", "VIRTUAL_ENV"];

fn credential_env() -> Vec<(String, String)> {
    CREDENTIALS
        .iter()
        .chain(INHERITED.iter())
        .map(|name| (name.to_string(), format!("MARKER-{name}")))
        .collect()
}

/// Every logged invocation: (kind, variable names).
fn invocations(log: &Path) -> Vec<(String, Vec<String>)> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|line| {
            let call: serde_json::Value = serde_json::from_str(line).unwrap();
            let keys = call["env_keys"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap().to_string())
                .collect();
            (call["kind"].as_str().unwrap_or("?").to_string(), keys)
        })
        .collect()
}

/// Asserts that no invocation of `kinds` (all when empty) got a credential, that each got
/// the inherited variables, and that every kind in `expected` was seen.
fn assert_clean(log: &Path, expected: &[&str], skip: &[&str]) {
    let calls = invocations(log);
    for kind in expected {
        assert!(
            calls.iter().any(|(k, _)| k == kind),
            "no `{kind}` invocation in {calls:?}"
        );
    }
    for (kind, keys) in calls.iter().filter(|(k, _)| !skip.contains(&k.as_str())) {
        for name in CREDENTIALS {
            assert!(
                !keys.iter().any(|k| k == name),
                "{name} reached `agent {kind}`: {keys:?}"
            );
        }
        for name in INHERITED {
            assert!(
                keys.iter().any(|k| k == name),
                "{name} did not reach `agent {kind}`"
            );
        }
    }
}

#[test]
fn the_gateway_gives_its_agent_children_no_credential() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: credential_env(),
        ..GatewayOptions::default()
    });
    let (status, body) = gw.ask(
        "s-env",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
    );
    assert_eq!(status, 200, "{body}");
    let status = gw
        .client()
        .get(format!("{}/multi-cursor/status", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap()
        .status();
    assert_eq!(status.as_u16(), 200);
    // `--list-models` is spawned by cursor/catalog.rs, which moves to cursor::spawn next.
    assert_clean(
        &gw.agent_log,
        &["version", "help", "turn", "status"],
        &["models"],
    );
}

/// The URL variables of where Claude models go: the base URL and its Bedrock, Vertex and
/// Foundry siblings (the third probe found the siblings, passwords included, in every Cursor
/// child).
const URL_NAMES: [&str; 4] = [
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
    "ANTHROPIC_FOUNDRY_BASE_URL",
];

/// A password in an upstream URL (`user:password@` in `ANTHROPIC_BASE_URL`, a sibling base URL
/// or `MULTI_CURSOR_UPSTREAM`) never reaches Cursor: none of those variables does.
#[test]
fn the_upstream_urls_do_not_reach_the_agent() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        upstream: Some("http://user:UPSTREAM-PASS@127.0.0.1:9/".into()),
        env: URL_NAMES
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    format!("http://user:PASS-{name}@127.0.0.1:9/"),
                )
            })
            .collect(),
        ..GatewayOptions::default()
    });
    let (status, body) = gw.ask(
        "s-upstream-env",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
    );
    assert_eq!(status, 200, "{body}");
    let calls = invocations(&gw.agent_log);
    assert!(calls.iter().any(|(k, _)| k == "turn"), "{calls:?}");
    for (kind, keys) in calls {
        for name in URL_NAMES.iter().chain(&["MULTI_CURSOR_UPSTREAM"]) {
            assert!(
                !keys.iter().any(|k| k == name),
                "{name} reached `agent {kind}`: {keys:?}"
            );
        }
    }
}

/// `--list-models` gets no credential either.
#[test]
fn the_model_listing_gets_no_credential() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: credential_env(),
        ..GatewayOptions::default()
    });
    let (status, body) = gw.ask(
        "s-env",
        &cursor_request("multi/cursor/composer-2.5", "hi", false),
    );
    assert_eq!(status, 200, "{body}");
    assert_clean(&gw.agent_log, &["models"], &[]);
}

/// `multi-cursor <args>` with the credentials set, an isolated state folder and HOME, and the
/// fake agent (logging to `log`) as Cursor's CLI.
fn multi_cursor(dir: &Path, log: &Path, args: &[&str]) -> Command {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut command = Command::new(multi_cursor_test_support::multi_cursor_bin());
    command
        .args(args)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", &home)
        .env("MULTI_CURSOR_STATE_DIR", dir.join("state"))
        .env("MULTI_CURSOR_AGENT", fake_agent())
        .env("MULTI_CURSOR_CLAUDE", dir.join("no-claude"))
        .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", dir.join("managed"))
        .env("FAKE_AGENT_LOG", log)
        .env("FAKE_AGENT_MAX_LIFETIME_MS", "60000")
        .envs(credential_env())
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

#[test]
fn account_commands_and_doctor_give_the_agent_no_credential() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("agent-log.jsonl");
    let marker = dir.path().join("login-marker");

    let status = multi_cursor(dir.path(), &log, &["--cursor-status"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");

    // Logged out, so both logins really run `agent login`: the interactive one on our stdio,
    // the `--no-wait` one detached in the background (it finishes once the fake approves).
    let login = multi_cursor(dir.path(), &log, &["--cursor-login"])
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .env("FAKE_AGENT_LOGIN_MARKER", &marker)
        .env("FAKE_AGENT_LOGIN_DELAY_MS", "10")
        .output()
        .unwrap();
    assert!(login.status.success(), "{login:?}");
    std::fs::remove_file(&marker).unwrap();
    let background = multi_cursor(dir.path(), &log, &["--cursor-login", "--no-wait"])
        .env("FAKE_AGENT_LOGGED_OUT", "1")
        .env("FAKE_AGENT_LOGIN_MARKER", &marker)
        .env("FAKE_AGENT_LOGIN_DELAY_MS", "500")
        .output()
        .unwrap();
    assert!(background.status.success(), "{background:?}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !marker.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(marker.exists(), "the background login finished");
    let logins = invocations(&log)
        .iter()
        .filter(|(kind, _)| kind == "login")
        .count();
    assert_eq!(logins, 2, "{:?}", invocations(&log));

    let _ = multi_cursor(dir.path(), &log, &["doctor"])
        .output()
        .unwrap();
    assert_clean(&log, &["version", "help", "status", "login"], &["models"]);
}
