//! Claude's permission modes, reported through the hook route, become the Cursor flags that do
//! no more than each allows (manual: read-only `--mode ask` with a first line saying so,
//! accept edits: none, plan: `--mode plan`, auto: `--auto-review`, don't ask: read-only unless
//! Claude pre-approves edits, bypass permissions: `--force`); a Cursor configuration that would
//! widen them, and MCP servers without opt-in, are refused before anything runs.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;

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

/// The answer's text and the mode flags of the turn it ran, after the common prefix.
fn answered(gw: &TestGateway, session: &str, mode: &str) -> (String, Vec<String>) {
    gw.set_mode(session, mode);
    let response = run(gw, session);
    assert_eq!(response.status(), 200, "{mode}");
    let text = without_tokens(&sse_text(&response.text().unwrap()));
    let argv = argv(gw.turns().last().unwrap());
    (text, argv[8..].to_vec())
}

#[test]
fn every_mode_runs_cursor_within_what_it_allows() {
    // No --permission-mode: only hooks decide.
    let gw = TestGateway::start(GatewayOptions::default());
    assert_eq!(mode_flags(&gw, "s-plan", "plan"), ["--mode", "plan"]);
    assert!(mode_flags(&gw, "s-accept", "acceptEdits").is_empty());
    assert_eq!(
        mode_flags(&gw, "s-bypass", "bypassPermissions"),
        ["--force"]
    );
    assert_eq!(mode_flags(&gw, "s-auto", "auto"), ["--auto-review"]);

    // Manual mode: read-only, and the answer says so first, naming the switch that lets
    // Cursor edit; never a refusal.
    let (text, flags) = answered(&gw, "s-manual", "default");
    assert_eq!(flags, ["--mode", "ask"]);
    assert_eq!(
        text,
        "[Cursor] Cursor answered read-only: in manual mode it cannot ask you before acting. Shift+Tab to accept edits lets Cursor edit.\n\nfake agent reply"
    );
    // Don't ask: read-only until Claude's allow rules pre-approve edits.
    let (text, flags) = answered(&gw, "s-dontask", "dontAsk");
    assert_eq!(flags, ["--mode", "ask"]);
    assert!(text.contains("\"permissions.allow\""), "{text}");

    // A later hook changes the session's mode.
    gw.set_mode("s-plan", "bypassPermissions");
    let response = run(&gw, "s-plan");
    assert_eq!(response.status(), 200);
    let _ = response.text();
    assert!(argv(gw.turns().last().unwrap()).contains(&"--force".to_string()));
}

#[test]
fn dont_ask_edits_when_claude_pre_approves_them() {
    let gw = TestGateway::start(GatewayOptions::default());
    let claude = gw.workspace().join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::write(
        claude.join("settings.json"),
        r#"{"permissions": {"allow": ["Edit"]}}"#,
    )
    .unwrap();
    assert!(mode_flags(&gw, "s", "dontAsk").is_empty());
}

#[test]
fn a_widening_cursor_config_refuses_accept_edits_and_auto() {
    let gw = TestGateway::start(GatewayOptions::default());
    let cursor = gw.workspace().join(".cursor");
    std::fs::create_dir_all(&cursor).unwrap();
    std::fs::write(
        cursor.join("cli.json"),
        r#"{"permissions": {"allow": ["Shell(*)"], "deny": []}}"#,
    )
    .unwrap();
    let file = cursor.join("cli.json").display().to_string();
    for (mode, label) in [
        ("acceptEdits", "in accept edits (acceptEdits)"),
        ("auto", "in auto mode (auto)"),
    ] {
        gw.set_mode(mode, mode);
        let message = refusal(run(&gw, mode));
        assert!(message.contains(label), "{message}");
        assert!(
            message.contains(&format!("allow `Shell(*)` in {file}")),
            "{message}"
        );
        assert!(message.contains("Shift+Tab to plan mode"), "{message}");
    }
    assert!(gw.turns().is_empty(), "a refused mode ran nothing");
    // Read-only modes still run, with the warning first.
    let (text, flags) = answered(&gw, "s-plan", "plan");
    assert_eq!(flags, ["--mode", "plan"]);
    assert!(text.starts_with("[Cursor] Warning:"), "{text}");
    // `approvalMode: "unrestricted"` refuses too; `"auto-review"` only outside auto.
    std::fs::write(
        cursor.join("cli.json"),
        r#"{"approvalMode": "auto-review"}"#,
    )
    .unwrap();
    assert_eq!(mode_flags(&gw, "s-auto", "auto"), ["--auto-review"]);
    gw.set_mode("s-edits", "acceptEdits");
    let message = refusal(run(&gw, "s-edits"));
    assert!(
        message.contains("`approvalMode: \"auto-review\"`"),
        "{message}"
    );
}

#[test]
fn auto_without_auto_review_runs_no_more_than_accept_edits() {
    let dir = tempfile::tempdir().unwrap();
    let help = multi_cursor_test_support::fake_agent::help_without_auto_review(dir.path());
    let gw = TestGateway::start(GatewayOptions {
        env: vec![(
            "FAKE_AGENT_HELP_FILE".into(),
            help.to_string_lossy().into_owned(),
        )],
        ..Default::default()
    });
    let (text, flags) = answered(&gw, "s", "auto");
    assert!(flags.is_empty(), "never widened: {flags:?}");
    assert!(
        text.starts_with("[Cursor] The installed Cursor CLI"),
        "{text}"
    );
    assert!(text.contains("agent update"), "{text}");
}

#[test]
fn claudes_auto_mode_rules_keep_cursor_read_only() {
    let gw = TestGateway::start(GatewayOptions::default());
    gw.set_mode("s", "auto");
    let mut body = cursor_request("multi/cursor/composer-2.5", "hello", true);
    body["safeguards"] = serde_json::json!([{"type": "dangerous_tool_use", "classifier_context": {
        "permission_mode": "auto",
        "auto_mode": {"allow": [], "soft_deny": ["never push to main"], "hard_deny": [], "environment": []}}}]);
    let response = gw.post_with("/v1/messages", &body, &[("x-claude-code-session-id", "s")]);
    assert_eq!(response.status(), 200);
    let text = sse_text(&response.text().unwrap());
    assert!(text.contains("1 in \"autoMode\""), "{text}");
    let argv = argv(gw.turns().last().unwrap());
    assert_eq!(argv[8..], ["--mode", "ask"]);
}

#[test]
fn the_action_check_is_answered_on_cursor_routes() {
    // Claude Code's server-side check (`safeguards`) gets `available` with no tool use to
    // judge, streamed in the final message_delta and at the top level otherwise.
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("auto".into()),
        ..Default::default()
    });
    let expected = serde_json::json!([{"type": "dangerous_tool_use", "status": {"type": "available", "tool_uses": {}}}]);
    for stream in [true, false] {
        let mut body = cursor_request(
            "multi/cursor/composer-2.5",
            &format!("check {stream}"),
            stream,
        );
        body["safeguards"] =
            serde_json::json!([{"type": "dangerous_tool_use", "classifier_context": {"v": 1}}]);
        let response = gw.post("/v1/messages", &body);
        assert_eq!(response.status(), 200);
        let text = response.text().unwrap();
        if stream {
            let delta = text
                .split("\n\n")
                .filter_map(|frame| frame.split_once("data: ").map(|(_, d)| d))
                .map(|d| serde_json::from_str::<serde_json::Value>(d).unwrap())
                .find(|d| d["type"] == "message_delta")
                .unwrap();
            assert_eq!(delta["delta"]["safeguard_results"], expected, "{delta}");
        } else {
            let message: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(message["safeguard_results"], expected, "{message}");
        }
    }
    // Without `safeguards`, no results.
    let response = gw.post(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "plain", false),
    );
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert!(message.get("safeguard_results").is_none(), "{message}");
}

#[test]
fn the_action_check_is_read_from_the_field_whatever_the_beta() {
    // Newer betas and a flag-gated `tools` list change nothing: the answer comes from the
    // `safeguards` field, one result per type asked for, unknown keys ignored.
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("auto".into()),
        ..Default::default()
    });
    let available = |kind: &str| serde_json::json!({"type": kind, "status": {"type": "available", "tool_uses": {}}});
    for beta in [
        "dangerous-tool-use-2026-10-15",
        "dangerous-tool-use-classifier-tool-calls-2026-11-23",
    ] {
        let mut body = cursor_request("multi/cursor/composer-2.5", &format!("check {beta}"), false);
        body["tools"] = serde_json::json!([{"name": "Bash", "input_schema": {"type": "object"}}]);
        body["safeguards"] = serde_json::json!([
            {"type": "dangerous_tool_use", "tools": [{"name": "Bash"}],
             "classifier_context": {"v": 1, "tools": ["Bash"]},
             "classifier_tool_calls": true},
            {"type": "dangerous_tool_use", "tools": []},
            {"type": "future_check", "tools": {"unexpected": "shape"}},
        ]);
        let response = gw.post_with("/v1/messages", &body, &[("anthropic-beta", beta)]);
        assert_eq!(response.status(), 200, "{beta}");
        let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
        assert_eq!(
            message["safeguard_results"],
            serde_json::json!([available("dangerous_tool_use"), available("future_check")]),
            "{beta}: {message}"
        );
    }
    // A beta name without the field asks for nothing.
    let body = cursor_request("multi/cursor/composer-2.5", "beta only", false);
    let response = gw.post_with(
        "/v1/messages",
        &body,
        &[("anthropic-beta", "dangerous-tool-use-2026-10-15")],
    );
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert!(message.get("safeguard_results").is_none(), "{message}");
}

#[test]
fn more_action_checks_than_the_limit_are_refused_before_anything_runs() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("auto".into()),
        ..Default::default()
    });
    let checks = |n: usize| -> Vec<serde_json::Value> {
        (0..n)
            .map(|i| serde_json::json!({"type": format!("check_{i}")}))
            .collect()
    };
    let mut body = cursor_request("multi/cursor/composer-2.5", "many checks", false);
    body["safeguards"] = serde_json::Value::Array(checks(17));
    let response = gw.post("/v1/messages", &body);
    assert_eq!(response.status(), 400);
    let error: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 16"), "{message}");
    assert!(message.contains("17 action checks"), "{message}");
    assert!(gw.turns().is_empty(), "nothing ran");
    // The probe's shape: 80,000 distinct checks, refused the same way.
    body["safeguards"] = serde_json::Value::Array(checks(80_000));
    let response = gw.post("/v1/messages", &body);
    assert_eq!(response.status(), 400);
    assert!(gw.turns().is_empty(), "nothing ran");
    // At the limit, every distinct check is answered.
    body["safeguards"] = serde_json::Value::Array(checks(16));
    let response = gw.post("/v1/messages", &body);
    assert_eq!(response.status(), 200);
    let message: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
    assert_eq!(message["safeguard_results"].as_array().unwrap().len(), 16);
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
    let file = joined(&ws, ".cursor/mcp.json");
    assert!(message.contains(&file.display().to_string()), "{message}");
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
