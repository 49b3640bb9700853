//! `multi-cursor status` shows, per session, the policy its newest Cursor request was admitted
//! under (each rule and the Cursor file enforcing it) or why it was refused — in the JSON route
//! and in the text the command prints.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn run(gw: &TestGateway, session: &str) -> reqwest::blocking::Response {
    gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", "hello", true),
        &[("x-claude-code-session-id", session)],
    )
}

#[test]
fn status_shows_each_sessions_admitted_policy() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let ws = gw.workspace();
    let settings = joined(&ws, ".claude/settings.json");
    policy::write_json(&settings, &policy::deny(&["Bash(rm:*)", "Read(.env)"]));
    let message = policy::refusal(run(&gw, "refused-session"));
    assert!(message.contains("`Bash(rm:*)`"), "{message}");

    let cli = joined(&ws, ".cursor/cli.json");
    policy::write_json(&cli, &policy::cursor_deny(&["Shell(rm)", "Read(.env)"]));
    let response = run(&gw, "admitted-session");
    assert_eq!(response.status(), 200);
    let _ = response.text();

    let body = gw
        .client()
        .get(format!("{}/multi-cursor/status", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .send()
        .unwrap()
        .text()
        .unwrap();
    let status: serde_json::Value = serde_json::from_str(&body).unwrap();
    let policy_of = |id: &str| {
        status["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["session"] == id)
            .unwrap_or_else(|| panic!("{id}: {status}"))["policy"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let refused = policy_of("refused-session");
    assert!(
        refused.starts_with(&format!(
            "refused: deny rule `Bash(rm:*)` in {}",
            settings.display()
        )) && refused.ends_with("(and 1 more)"),
        "{refused}"
    );
    let admitted = policy_of("admitted-session");
    assert!(
        admitted.contains(&format!(
            "deny Bash(rm:*) ({}) = Shell(rm) in {}",
            settings.display(),
            cli.display()
        )) && admitted.contains("deny Read(.env)"),
        "{admitted}"
    );

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_multi-cursor"))
        .arg("status")
        .env("MULTI_CURSOR_GATEWAY_URL", &gw.url)
        .env("MULTI_CURSOR_GATEWAY_TOKEN", &gw.token)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains(&format!("    policy {refused}")), "{text}");
    assert!(text.contains(&format!("    policy {admitted}")), "{text}");
}
