//! Without an Anthropic login, Claude Code is given a placeholder credential (never a real
//! one) and starts on `multi/cursor/default` unless the user chose a model, on the command line
//! or saved in `/model` (a Cursor route in the settings' `model`).

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn signed_out_claude_starts_on_cursor_auto_with_a_placeholder() {
    let mut launch = Launch::scripted()
        .env_remove("ANTHROPIC_API_KEY")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let env = launch.claude_env();
    let placeholder = &env["ANTHROPIC_AUTH_TOKEN"];
    assert!(
        placeholder.starts_with("multi-cursor-no-anthropic-login-"),
        "{placeholder}"
    );
    assert_ne!(placeholder, &env["MULTI_CURSOR_GATEWAY_TOKEN"]);
    assert_eq!(
        launch.claude_option("--model").as_deref(),
        Some("multi/cursor/default")
    );
}

#[test]
fn a_chosen_model_is_kept() {
    let mut launch = Launch::scripted().env_remove("ANTHROPIC_API_KEY").args([
        "--model",
        "multi/cursor/composer-2.5",
        "-p",
        "hi",
    ]);
    assert_eq!(launch.run().status, Some(0));
    let argv = launch.claude_argv().unwrap();
    assert_eq!(
        argv.iter().filter(|a| *a == "--model").count(),
        1,
        "{argv:?}"
    );
    assert_eq!(
        launch.claude_option("--model").as_deref(),
        Some("multi/cursor/composer-2.5")
    );
}

#[test]
fn a_saved_cursor_route_is_where_a_signed_out_session_starts() {
    let launch = Launch::scripted().env_remove("ANTHROPIC_API_KEY");
    std::fs::create_dir_all(launch.home.join(".claude")).unwrap();
    std::fs::write(
        launch.home.join(".claude/settings.json"),
        r#"{"model": "multi/cursor/composer-2.5"}"#,
    )
    .unwrap();
    let mut launch = launch.args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let argv = launch.claude_argv().unwrap();
    assert!(!argv.iter().any(|a| a == "--model"), "{argv:?}");

    // A saved Claude model cannot answer without a login: Auto, as before.
    std::fs::write(
        launch.home.join(".claude/settings.json"),
        r#"{"model": "claude-sonnet-4-6"}"#,
    )
    .unwrap();
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(
        launch.claude_option("--model").as_deref(),
        Some("multi/cursor/default")
    );
}

#[test]
fn a_signed_in_claude_keeps_its_own_credentials() {
    let mut launch = Launch::scripted()
        .env_remove("ANTHROPIC_API_KEY")
        .env("FAKE_CLAUDE_LOGGED_IN", "true")
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    assert!(!launch.claude_env().contains_key("ANTHROPIC_AUTH_TOKEN"));
    assert!(launch.claude_option("--model").is_none());
}

#[test]
fn an_enclosing_sessions_placeholder_is_not_a_login() {
    let outer = "multi-cursor-no-anthropic-login-0000000000000000000000000000outer";
    let mut launch = Launch::scripted()
        .env_remove("ANTHROPIC_API_KEY")
        .env("ANTHROPIC_AUTH_TOKEN", outer)
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let placeholder = launch.claude_env()["ANTHROPIC_AUTH_TOKEN"].clone();
    assert!(placeholder.starts_with("multi-cursor-no-anthropic-login-"));
    assert_ne!(placeholder, outer, "a fresh placeholder for this gateway");

    let mut signed_in = Launch::scripted()
        .env("ANTHROPIC_AUTH_TOKEN", outer)
        .args(["-p", "hi"]);
    assert_eq!(signed_in.run().status, Some(0));
    assert!(
        !signed_in.claude_env().contains_key("ANTHROPIC_AUTH_TOKEN"),
        "the outer placeholder must not hide the API key"
    );
}
