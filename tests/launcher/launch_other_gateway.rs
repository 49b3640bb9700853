//! A user of another gateway (claude-code-router, LiteLLM, cc-switch…) has `ANTHROPIC_BASE_URL`
//! and `ANTHROPIC_CUSTOM_HEADERS` in the `env` of their `~/.claude/settings.json`, which beats
//! Claude Code's process environment. Through the launcher, a Cursor route is still answered by
//! Cursor (the fake agent), and a Claude model goes to *their* URL with their header line and
//! without our token. The launcher's settings file carries the gateway's URL and token header
//! (0600, in the 0700 temporary folder, removed at exit); without such a layer it carries
//! neither (the scripted `claude` shows both cases).

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::fake_upstream;
use multi_cursor_test_support::launcher;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use launcher::Launch;

fn with_decoy(launch: Launch, decoy: &str) -> Launch {
    let settings = serde_json::json!({
        "env": {
            "ANTHROPIC_BASE_URL": decoy,
            "ANTHROPIC_CUSTOM_HEADERS": "x-their-gateway: key-1",
        },
    });
    std::fs::create_dir_all(launch.home.join(".claude")).unwrap();
    std::fs::write(
        launch.home.join(".claude/settings.json"),
        settings.to_string(),
    )
    .unwrap();
    launch.env_remove("MULTI_CURSOR_UPSTREAM")
}

#[test]
fn cursor_routes_reach_cursor_and_claude_models_their_gateway() {
    let decoy = FakeUpstream::start();
    decoy.respond_with(|request| {
        if request.path.ends_with("/count_tokens") {
            ScriptedResponse::json(200, &serde_json::json!({"input_tokens": 10}))
        } else {
            ScriptedResponse::text_stream("claude-sonnet-4-5", "DECOY_ANSWER")
        }
    });
    let launch = with_decoy(Launch::real(), &format!("{}/theirs", decoy.url()));

    let mut launch = launch.args([
        "-p",
        "explain the build script",
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        "bypassPermissions",
        "--output-format",
        "stream-json",
        "--verbose",
    ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let result = launcher::stream_result(&output.stdout);
    assert_eq!(
        without_tokens(result["result"].as_str().unwrap()),
        "fake agent reply",
        "{result}"
    );
    assert_eq!(launch.turns().len(), 1, "Cursor ran the turn");
    assert!(
        decoy
            .requests()
            .iter()
            .all(|r| r.model().is_none_or(|m| !m.starts_with("multi/cursor/"))),
        "a Cursor route reached their gateway: {:?}",
        decoy.requests()
    );

    let mut launch =
        launch
            .clear_args()
            .args(["-p", "hello claude", "--model", "claude-sonnet-4-5"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(output.stdout.trim(), "DECOY_ANSWER");
    let messages: Vec<_> = decoy
        .requests()
        .into_iter()
        .filter(|r| r.path == "/theirs/v1/messages")
        .collect();
    assert_eq!(messages.len(), 1, "{:?}", decoy.requests());
    assert_eq!(messages[0].header_str("x-their-gateway"), Some("key-1"));
    assert!(
        messages[0].header("x-multi-cursor-token").is_none(),
        "our token leaked"
    );
    assert_eq!(launch.turns().len(), 1, "no second Cursor turn");
    let ours: Vec<_> = launch
        .tmp_entries()
        .into_iter()
        .filter(|e| e.starts_with("multi-cursor-"))
        .collect();
    assert!(
        ours.is_empty(),
        "the temporary folder was removed: {ours:?}"
    );
}

#[test]
fn the_settings_file_holds_the_routing_only_when_a_layer_sets_it() {
    let mut plain = Launch::scripted().args(["-p", "hi"]);
    let output = plain.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let env = &plain.claude_settings()["env"];
    assert!(
        env.get("ANTHROPIC_BASE_URL").is_none() && env.get("ANTHROPIC_CUSTOM_HEADERS").is_none(),
        "no routing in the file (only our hooks' gateway address): {}",
        plain.claude_settings()
    );

    let mut routed = with_decoy(Launch::scripted(), "http://127.0.0.1:9/theirs").args(["-p", "hi"]);
    let output = routed.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let env = &routed.claude_settings()["env"];
    let gateway = routed.claude_env()["ANTHROPIC_BASE_URL"].clone();
    assert_eq!(env["ANTHROPIC_BASE_URL"], gateway.as_str());
    assert_eq!(
        env["ANTHROPIC_CUSTOM_HEADERS"],
        routed.claude_env()["ANTHROPIC_CUSTOM_HEADERS"].as_str()
    );
    let headers = env["ANTHROPIC_CUSTOM_HEADERS"].as_str().unwrap();
    assert!(
        headers.starts_with("x-their-gateway: key-1\nx-multi-cursor-token: "),
        "{headers}"
    );
    assert_eq!(routed.dumped("settings.mode").unwrap().trim(), "600");
    assert_eq!(routed.dumped("dir.mode").unwrap().trim(), "700");
    assert_eq!(
        routed.claude_env()["MULTI_CURSOR_UPSTREAM"],
        "http://127.0.0.1:9/theirs"
    );
    assert!(
        routed.tmp_entries().is_empty(),
        "the temporary folder was removed"
    );
}

#[test]
fn a_managed_base_url_stops_the_launch() {
    let launch = Launch::scripted();
    let managed = launch.dir.path().canonicalize().unwrap().join("managed");
    std::fs::create_dir_all(&managed).unwrap();
    std::fs::write(
        managed.join("managed-settings.json"),
        r#"{"env": {"ANTHROPIC_BASE_URL": "https://corp.example"}}"#,
    )
    .unwrap();
    let mut launch = launch.args(["-p", "hi"]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    assert!(
        output.stderr.contains("managed policy") && output.stderr.contains("ANTHROPIC_BASE_URL"),
        "{}",
        output.stderr
    );
    assert!(launch.claude_argv().is_none(), "Claude Code never started");
}

#[test]
fn the_layers_are_read_as_claude_code_reads_them() {
    // CLAUDE_CONFIG_DIR moves the user settings: their env is read from there.
    let launch = Launch::scripted();
    let config = launch.dir.path().canonicalize().unwrap().join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("settings.json"),
        r#"{"env": {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9/moved"}}"#,
    )
    .unwrap();
    let mut moved = launch
        .env("CLAUDE_CONFIG_DIR", &config)
        .env_remove("MULTI_CURSOR_UPSTREAM")
        .args(["-p", "hi"]);
    assert_eq!(moved.run().status, Some(0));
    assert_eq!(
        moved.claude_env()["MULTI_CURSOR_UPSTREAM"],
        "http://127.0.0.1:9/moved"
    );
    assert!(moved.claude_settings()["env"]["ANTHROPIC_BASE_URL"].is_string());

    // A project layer outranks the user's; --setting-sources without `user` hides the user's.
    let launch = with_decoy(Launch::scripted(), "http://127.0.0.1:9/user");
    std::fs::create_dir_all(launch.project.join(".claude")).unwrap();
    std::fs::write(
        launch.project.join(".claude/settings.json"),
        r#"{"env": {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9/project"}}"#,
    )
    .unwrap();
    let mut project = launch.args(["-p", "hi"]);
    assert_eq!(project.run().status, Some(0));
    assert_eq!(
        project.claude_env()["MULTI_CURSOR_UPSTREAM"],
        "http://127.0.0.1:9/project"
    );
    let mut local_only = project
        .clear_args()
        .args(["--setting-sources", "local", "-p", "hi"]);
    assert_eq!(local_only.run().status, Some(0));
    assert_eq!(
        local_only.claude_env()["MULTI_CURSOR_UPSTREAM"],
        "https://api.anthropic.com"
    );
    assert!(
        local_only.claude_settings()["env"]
            .get("ANTHROPIC_BASE_URL")
            .is_none(),
        "no layer read routes: no routing in the file"
    );
}
