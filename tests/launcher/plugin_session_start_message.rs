//! The plugin's SessionStart hook tells the user of a plain `claude` session to start
//! `multi-cursor` for Cursor models, through the hook's `systemMessage` (the one SessionStart
//! output Claude Code 2.1.328 shows the user rather than the model — measured), and says
//! nothing in a session the launcher started (MULTI_CURSOR_GATEWAY_URL/TOKEN set).

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

/// Every SessionStart `hook_response` event of a `--output-format stream-json --verbose` run.
fn session_start_responses(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["type"] == "system" && e["subtype"] == "hook_response")
        .filter(|e| e["hook_event"] == "SessionStart")
        .collect()
}

fn run(run: ClaudeRun) -> Vec<serde_json::Value> {
    let output = run
        .env("PATH", plugin::path_with_helper())
        .args([
            "-p",
            "say hello",
            "--model",
            plugin::CURSOR_MODEL,
            "--output-format",
            "stream-json",
            "--verbose",
        ])
        .run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let responses = session_start_responses(&output.stdout);
    assert_eq!(responses.len(), 1, "the plugin's hook ran once: {output:?}");
    assert_eq!(responses[0]["exit_code"], 0, "{}", responses[0]);
    assert_eq!(responses[0]["hook_name"], "SessionStart:startup");
    responses
}

#[test]
fn plain_sessions_are_told_and_launched_ones_are_not() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    plugin::install(&home, &project);

    // A plain `claude` pointed at some API (here the test gateway), without the launcher's
    // variables.
    let plain = run(ClaudeRun::new(&home, &project)
        .env("ANTHROPIC_BASE_URL", &gw.url)
        .env(
            "ANTHROPIC_CUSTOM_HEADERS",
            format!("x-multi-cursor-token: {}", gw.token),
        ));
    let said: serde_json::Value =
        serde_json::from_str(plain[0]["stdout"].as_str().unwrap()).unwrap();
    let message = said["systemMessage"].as_str().unwrap();
    assert!(
        message.contains("start Claude Code with `multi-cursor`"),
        "{message}"
    );
    assert!(
        !message.contains("not installed"),
        "the helper is on PATH: {message}"
    );

    let launched = run(ClaudeRun::new(&home, &project).gateway(&gw.url, &gw.token));
    assert_eq!(
        launched[0]["stdout"], "",
        "silent when launched: {}",
        launched[0]
    );
}
