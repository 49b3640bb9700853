//! No credential reaches any child's command line, where every local user can read it
//! (`/proc/<pid>/cmdline`, `ps`). In a launched session signed in with a Cursor API key, an
//! Anthropic API key and an Anthropic auth token, while a Cursor turn runs: the live Cursor
//! agent's argv, Claude Code's argv and the launcher's own argv hold none of them, nor the
//! gateway token. The agent gets `CURSOR_API_KEY` through its environment (the one channel
//! meant for it) and none of the others: the Anthropic credentials and the gateway token are
//! scrubbed from its environment.

use multi_cursor_test_support::security;

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use security::ANTHROPIC_KEY;
use security::ANTHROPIC_TOKEN;
use security::CURSOR_KEY;
use security::LiveSession;
use security::assert_no_secret;

#[test]
fn no_credential_in_any_argv() {
    // The agent announces its chat, then stalls: it stays alive to be inspected.
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("stall.scenario");
    std::fs::write(
        &scenario,
        "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"{{api_key_source}}\",\"cwd\":\"{{workspace_json}}\",\"session_id\":\"{{chat_id}}\",\"model\":\"{{model_name}}\",\"permissionMode\":\"default\"}\n#!stall\n",
    )
    .unwrap();
    let session = LiveSession::start(&[("FAKE_AGENT_SCENARIO", scenario.to_str().unwrap())]);
    let gateway_token = session.token.clone();
    let secrets = [
        ("CURSOR_API_KEY", CURSOR_KEY),
        ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
        ("ANTHROPIC_AUTH_TOKEN", ANTHROPIC_TOKEN),
        ("the gateway token", gateway_token.as_str()),
    ];

    session.bypass("s-argv");
    let body = security::cursor_body("list the files");
    let mut turn = TcpStream::connect(security::authority(&session.url)).unwrap();
    write!(
        turn,
        "POST /v1/messages HTTP/1.1\r\nHost: {}\r\nx-multi-cursor-token: {}\r\nx-claude-code-session-id: s-argv\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        security::authority(&session.url),
        session.token,
        body.len()
    )
    .unwrap();

    let agent_turn = || {
        session
            .launch
            .turns()
            .into_iter()
            .next()
            .and_then(|t| t["pid"].as_u64())
    };
    security::wait_until("the Cursor turn", Duration::from_secs(60), || {
        agent_turn().is_some()
    });
    let agent = u32::try_from(agent_turn().unwrap()).unwrap();

    let argv = security::cmdline(agent);
    assert!(
        argv.split(|b| *b == 0).any(|a| a == b"-p"),
        "pid {agent} is the agent's turn: {:?}",
        String::from_utf8_lossy(&argv)
    );
    assert_no_secret("the Cursor agent's argv", &argv, &secrets);

    let environ = std::fs::read(format!("/proc/{agent}/environ")).unwrap();
    let wanted = format!("CURSOR_API_KEY={CURSOR_KEY}");
    assert!(
        environ.split(|b| *b == 0).any(|v| v == wanted.as_bytes()),
        "the agent did not get CURSOR_API_KEY in its environment"
    );
    assert_no_secret("the Cursor agent's environment", &environ, &secrets[1..]);

    let claude: Vec<u32> = security::children(session.pid())
        .into_iter()
        .filter(|pid| {
            let argv = security::cmdline(*pid);
            String::from_utf8_lossy(&argv).contains("--settings")
        })
        .collect();
    assert_eq!(claude.len(), 1, "one Claude Code process: {claude:?}");
    assert_no_secret(
        "Claude Code's argv",
        &security::cmdline(claude[0]),
        &secrets,
    );
    let recorded = std::fs::read(session.launch.dump.with_extension("argv")).unwrap();
    assert_no_secret("Claude Code's argv (as it saw it)", &recorded, &secrets);
    assert_no_secret(
        "the launcher's argv",
        &security::cmdline(session.pid()),
        &secrets,
    );

    drop(turn);
    let (launch, output) = session.stop();
    assert_eq!(output.status, Some(42), "{output:?}");
    // Every agent invocation of the session (probes included) had a clean argv.
    let log = std::fs::read_to_string(&launch.agent_log).unwrap();
    for line in log.lines() {
        let call: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_no_secret(
            "an agent invocation's argv",
            call["argv"].to_string().as_bytes(),
            &secrets,
        );
    }
}
