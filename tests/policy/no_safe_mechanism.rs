//! There is no per-run way to hand Cursor extra rules without editing the user's files or moving
//! their login, so multi-cursor never tries one: an unmirrored deny rule refuses (saying why),
//! and neither that refusal nor a run after the user mirrored the rule writes any Cursor or
//! Claude file, redirects Cursor's config (`CURSOR_CONFIG_DIR`, `XDG_CONFIG_HOME`, `HOME`), or
//! adds anything to Cursor's command line.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn run(gw: &TestGateway) -> reqwest::blocking::Response {
    gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", "s")],
    )
}

#[test]
fn rules_are_never_handed_over_only_required() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        // Cursor's own `--model` write and our put-back are default_model_put_back's.
        env: vec![("FAKE_AGENT_PERSIST_MODEL".into(), "0".into())],
        ..GatewayOptions::default()
    });
    let ws = gw.workspace();
    policy::write_json(
        &joined(&ws, ".claude/settings.json"),
        &policy::deny(&["Bash(rm:*)"]),
    );
    let home_before = policy::tree(&gw.home());
    let ws_before = policy::tree(&ws);

    let message = policy::refusal(run(&gw));
    assert!(
        message.contains(
            "no per-run way to hand Cursor extra rules without editing your files or moving your Cursor login"
        ),
        "{message}"
    );
    assert!(gw.turns().is_empty());
    assert_eq!(policy::tree(&gw.home()), home_before, "HOME untouched");
    assert_eq!(
        policy::tree(&ws),
        ws_before,
        "workspace untouched (no .cursor/cli.json written)"
    );

    // The user mirrors the rule; the run gets Cursor's own config, nothing of ours.
    let cli = joined(&ws, ".cursor/cli.json");
    policy::write_json(&cli, &policy::cursor_deny(&["Shell(rm)"]));
    let cli_before = std::fs::read(&cli).unwrap();
    let ws_before = policy::tree(&ws);
    let response = run(&gw);
    assert_eq!(response.status(), 200);
    let _ = response.text();
    let turns = gw.turns();
    assert_eq!(turns.len(), 1);
    let env_keys: Vec<String> = serde_json::from_value(turns[0]["env_keys"].clone()).unwrap();
    for redirect in ["CURSOR_CONFIG_DIR", "XDG_CONFIG_HOME"] {
        assert!(
            !env_keys.iter().any(|k| k == redirect),
            "{redirect} set: {env_keys:?}"
        );
    }
    let argv: Vec<String> = serde_json::from_value(turns[0]["argv"].clone()).unwrap();
    assert_eq!(
        argv.last().map(String::as_str),
        Some("--force"),
        "nothing beyond the mode flags: {argv:?}"
    );
    assert_eq!(
        std::fs::read(&cli).unwrap(),
        cli_before,
        "cli.json untouched"
    );
    assert_eq!(policy::tree(&ws), ws_before);
    assert_eq!(policy::tree(&gw.home()), home_before);
}
