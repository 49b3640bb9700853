//! A Claude deny rule whose Cursor token is in the workspace's `.cursor/cli.json` deny list is
//! enforced by Cursor itself: the turn runs, and the record's `policy` (part of the exchange
//! key) names each rule, its token and the Cursor file enforcing it. A rule mirrored by a
//! broader Cursor entry counts too; removing the mirror refuses the next request.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::joined;
use multi_cursor_test_support::policy;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

fn run(gw: &TestGateway, prompt: &str) -> reqwest::blocking::Response {
    gw.post_with(
        "/v1/messages",
        &cursor_request("multi/cursor/composer-2.5", prompt, true),
        &[("x-claude-code-session-id", "s")],
    )
}

#[test]
fn mirrored_rules_let_cursor_run() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let ws = gw.workspace();
    let settings = joined(&gw.home(), ".claude/settings.json");
    policy::write_json(
        &settings,
        &policy::deny(&[
            "Bash(rm:*)",
            "Read(.env)",
            "Edit(secrets/**)",
            "WebFetch(domain:evil.example)",
            "mcp__db__drop",
            "Bash(git push:*)",
        ]),
    );
    let cli = joined(&ws, ".cursor/cli.json");
    policy::write_json(
        &cli,
        &policy::cursor_deny(&[
            "Shell(rm)",
            "Read(.env)",
            "Write(secrets/**)",
            "WebFetch(evil.example)",
            "Mcp(db:*)",
            "Shell(git)",
        ]),
    );
    let response = run(&gw, "first");
    assert_eq!(response.status(), 200);
    assert_eq!(
        without_tokens(&sse_text(&response.text().unwrap())),
        "fake agent reply"
    );
    assert_eq!(gw.turns().len(), 1);
    let record = gw.record("s", "main");
    let recorded = record["policy"].as_str().unwrap();
    for (rule, token) in [
        ("Bash(rm:*)", "Shell(rm)"),
        ("Read(.env)", "Read(.env)"),
        ("Edit(secrets/**)", "Write(secrets/**)"),
        ("WebFetch(domain:evil.example)", "WebFetch(evil.example)"),
        ("mcp__db__drop", "Mcp(db:drop)"),
        ("Bash(git push:*)", "Shell(git:push*)"),
    ] {
        let line = format!(
            "deny {rule} ({}) = {token} in {}",
            settings.display(),
            cli.display()
        );
        assert!(recorded.contains(&line), "missing {line:?} in {recorded}");
    }

    // The mirror is checked on every request: without it, the next one is refused.
    policy::write_json(&cli, &policy::cursor_deny(&["Shell(rm)"]));
    let message = policy::refusal(run(&gw, "second"));
    assert!(message.contains("deny rule `Read(.env)`"), "{message}");
    assert!(
        !message.contains("`Bash(rm:*)`"),
        "mirrored rules are not listed: {message}"
    );
    assert_eq!(gw.turns().len(), 1, "nothing ran");
}
