//! Claude's permission modes, reported through the hook route, become Cursor's flags (`plan`:
//! `--mode plan`, `dontAsk`: none, `bypassPermissions`: `--force`, `auto`: `--auto-review`);
//! modes Cursor cannot honour, and MCP servers without opt-in, are refused before anything runs.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

fn argv(turn: &serde_json::Value) -> Vec<String> {
    serde_json::from_value(turn["argv"].clone()).unwrap()
}

fn run(gw: &TestGateway, session: &str) -> reqwest::blocking::Response {
    gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", session)],
    )
}

/// Mode flags of the one turn whose stdin matched, after the common prefix.
fn mode_flags(gw: &TestGateway, session: &str, mode: &str) -> Vec<String> {
    gw.set_mode(session, mode);
    let before = gw.turns().len();
    let response = run(gw, session);
    assert_eq!(response.status(), 200, "{mode}");
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "fake agent reply"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), before + 1, "{mode}: one turn");
    let argv = argv(turns.last().unwrap());
    let ws = gw.workspace().to_string_lossy().into_owned();
    let prefix = [
        "-p",
        "--output-format",
        "stream-json",
        "--stream-partial-output",
        "--trust",
        "--workspace",
        &ws,
        "--model=composer-2.5",
    ];
    assert_eq!(&argv[..prefix.len()], prefix, "{mode}");
    argv[prefix.len()..].to_vec()
}

fn refusal(response: reqwest::blocking::Response) -> String {
    assert_eq!(response.status(), 400);
    assert_eq!(response.headers()["x-should-retry"], "false");
    let body: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    body["error"]["message"].as_str().unwrap().to_string()
}

#[test]
fn working_modes_map_to_cursor_flags_and_others_are_refused() {
    // No --permission-mode: only hooks decide.
    let gw = TestGateway::start(GatewayOptions::default());
    assert_eq!(mode_flags(&gw, "s-plan", "plan"), ["--mode", "plan"]);
    assert!(mode_flags(&gw, "s-dontask", "dontAsk").is_empty());
    assert_eq!(
        mode_flags(&gw, "s-bypass", "bypassPermissions"),
        ["--force"]
    );
    assert_eq!(mode_flags(&gw, "s-auto", "auto"), ["--auto-review"]);

    let before = gw.turns().len();
    for mode in ["default", "acceptEdits"] {
        let session = format!("s-{mode}");
        gw.set_mode(&session, mode);
        let message = refusal(run(&gw, &session));
        assert!(message.contains("Shift+Tab"), "{message}");
        for working in ["plan", "dontAsk", "bypassPermissions", "auto"] {
            assert!(message.contains(working), "{mode}: {message}");
        }
    }
    assert_eq!(gw.turns().len(), before, "a refused mode ran nothing");

    // A later hook changes the session's mode.
    gw.set_mode("s-plan", "bypassPermissions");
    let response = run(&gw, "s-plan");
    assert_eq!(response.status(), 200);
    let _ = response.text();
    assert!(argv(gw.turns().last().unwrap()).contains(&"--force".to_string()));
}

#[test]
fn auto_without_auto_review_names_agent_update() {
    let dir = tempfile::tempdir().unwrap();
    let help = dir.path().join("help.txt");
    std::fs::write(
        &help,
        "Usage: agent [options] [command] [prompt...]\n\nStart the Cursor Agent\n\nOptions:\n  -v, --version  Output the version number\n  -p, --print  Print responses to console\n  -f, --force  Force allow commands unless explicitly denied\n  -h, --help  Display help for command\n",
    )
    .unwrap();
    let gw = TestGateway::start(GatewayOptions {
        env: vec![(
            "FAKE_AGENT_HELP_FILE".into(),
            help.to_string_lossy().into_owned(),
        )],
        ..Default::default()
    });
    gw.set_mode("s", "auto");
    let message = refusal(run(&gw, "s"));
    assert!(message.contains("agent update"), "{message}");
    assert!(!message.contains("--force"), "never widened: {message}");
    assert!(gw.turns().is_empty());
}

#[test]
fn mcp_config_needs_opt_in() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });
    let ws = gw.workspace();
    std::fs::create_dir_all(ws.join(".cursor")).unwrap();
    std::fs::write(ws.join(".cursor/mcp.json"), r#"{"mcpServers":{}}"#).unwrap();
    let message = refusal(run(&gw, "s"));
    assert!(message.contains("MULTI_CURSOR_APPROVE_MCPS=1"), "{message}");
    assert!(message.contains(".cursor/mcp.json"), "{message}");
    assert!(gw.turns().is_empty());

    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("MULTI_CURSOR_APPROVE_MCPS".into(), "1".into())],
        ..Default::default()
    });
    let ws = gw.workspace();
    std::fs::create_dir_all(ws.join(".cursor")).unwrap();
    std::fs::write(ws.join(".cursor/mcp.json"), r#"{"mcpServers":{}}"#).unwrap();
    let response = run(&gw, "s");
    assert_eq!(response.status(), 200);
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "fake agent reply"
    );
    let turns = gw.turns();
    assert_eq!(turns.len(), 1);
    let argv = argv(&turns[0]);
    assert!(argv.contains(&"--approve-mcps".to_string()), "{argv:?}");
    assert!(argv.contains(&"--force".to_string()), "{argv:?}");
}
