//! The environment Claude Code is started with: the gateway as `ANTHROPIC_BASE_URL`, our token
//! header appended to the user's `ANTHROPIC_CUSTOM_HEADERS`, the gateway's address for hooks,
//! a long `API_TIMEOUT_MS`, `ENABLE_TOOL_SEARCH=auto`, and the user's own `ANTHROPIC_BASE_URL`
//! kept as the upstream (`MULTI_CURSOR_UPSTREAM`) rather than lost;
//! `CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE=1` when Claude models go to Anthropic's API.

use multi_cursor_test_support::launcher;

use launcher::Launch;
use multi_cursor_test_support::wrapper;

#[test]
fn claude_gets_the_gateway_environment() {
    let mut launch = Launch::scripted()
        .env_remove("MULTI_CURSOR_UPSTREAM")
        .env("ANTHROPIC_BASE_URL", "http://proxy.example:8080/anthropic")
        .env("ANTHROPIC_CUSTOM_HEADERS", "x-team: blue")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let env = launch.claude_env();

    let url = env["ANTHROPIC_BASE_URL"].clone();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(env["MULTI_CURSOR_GATEWAY_URL"], url);
    let token = env["MULTI_CURSOR_GATEWAY_TOKEN"].clone();
    assert_eq!(token.len(), 64, "a 256-bit hex token");
    assert_eq!(
        env["ANTHROPIC_CUSTOM_HEADERS"],
        format!("x-team: blue\nx-multi-cursor-token: {token}")
    );
    assert_eq!(
        env["MULTI_CURSOR_UPSTREAM"],
        "http://proxy.example:8080/anthropic"
    );
    assert_eq!(env["API_TIMEOUT_MS"], "2147483647");
    assert_eq!(env["ENABLE_TOOL_SEARCH"], "auto");
    assert!(
        !env.contains_key("CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE"),
        "another gateway upstream may rewrite errors: the probe is for it"
    );
    assert_eq!(
        env["ANTHROPIC_API_KEY"],
        launcher::TEST_API_KEY,
        "the user's login is kept"
    );
    assert!(
        !env.contains_key("ANTHROPIC_AUTH_TOKEN"),
        "signed in: no placeholder"
    );
    let argv = launch.claude_argv().unwrap();
    assert!(
        !argv.contains(&"--model".to_string()),
        "signed in: model left to the user"
    );
    assert!(
        !output.stderr.contains(&token),
        "the token is never printed"
    );
}

#[test]
fn user_choices_for_timeout_and_tool_search_are_kept() {
    let mut launch = Launch::scripted()
        .env("API_TIMEOUT_MS", "900000")
        .env("ENABLE_TOOL_SEARCH", "false")
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let env = launch.claude_env();
    assert_eq!(env["API_TIMEOUT_MS"], "900000");
    assert_eq!(env["ENABLE_TOOL_SEARCH"], "false");
}

#[test]
fn the_replayed_thinking_probe_is_off_when_claude_models_go_to_anthropic() {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_UPSTREAM", "https://api.anthropic.com")
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let env = launch.claude_env();
    assert_eq!(env["CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE"], "1");
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_UPSTREAM", "https://api.anthropic.com")
        .env("CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE", "0")
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let env = launch.claude_env();
    assert_eq!(
        env["CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE"], "0",
        "the user's choice is kept"
    );
}

#[test]
fn the_wrapper_turns_the_replayed_thinking_probe_off_the_same_way() {
    for (upstream, expected) in [
        ("https://api.anthropic.com", Some("1")),
        ("http://127.0.0.1:9", None),
    ] {
        let launch = Launch::scripted();
        let script = launch.dir.path().join("bin/claude");
        let output = wrapper::command(&launch, &wrapper::wrapper_bin())
            .env("FAKE_CLAUDE_DUMP", &launch.dump)
            .env("MULTI_CURSOR_UPSTREAM", upstream)
            .arg(&script)
            .args(["-p", "hi"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let env = launch.claude_env();
        assert_eq!(
            env.get("CLAUDE_CODE_DISABLE_REPLAYED_THINKING_PROBE")
                .map(String::as_str),
            expected,
            "{upstream}"
        );
    }
}
