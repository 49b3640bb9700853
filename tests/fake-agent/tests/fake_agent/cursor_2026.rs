//! The fake answers like the 2026.09–2026.10 CLI by default: the trust gate on stderr with
//! exit 1 (the older stdout/exit 0 gate as `FAKE_AGENT_TRUST_GATE=legacy`), a bad model on
//! stderr, `--model` persisted into `cli-config.json` with `FAKE_AGENT_PERSIST_MODEL=1` (both
//! `--model id` and `--model=id`),
//! and the default stream's reconnect rounds and web fetch `interaction_query` pairs.

use crate::common::Scratch;
use crate::common::fake;
use crate::common::run_with_stdin;

fn lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

#[test]
fn an_untrusted_workspace_is_refused_on_stderr_with_exit_1() {
    let scratch = Scratch::new("trust-gate");
    let workspace = scratch.join("ws");
    let output = run_with_stdin(
        fake().args([
            "-p",
            "--output-format=stream-json",
            "--workspace",
            workspace.to_str().unwrap(),
        ]),
        "hi",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let captured = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/cursor-stream-2026/hcn0915-trust-gate.stderr.txt"),
    )
    .unwrap();
    let expected = captured.replace(
        "/hcn-verify/cursor-capture/ws-untrusted",
        workspace.to_str().unwrap(),
    );
    assert_eq!(String::from_utf8(output.stderr).unwrap(), expected);

    let legacy = run_with_stdin(
        fake()
            .args(["-p", "--output-format", "stream-json"])
            .env("FAKE_AGENT_TRUST_GATE", "legacy"),
        "hi",
    );
    assert_eq!(legacy.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&legacy.stdout).starts_with("⚠ Workspace Trust Required"));

    for trust in ["--trust", "-f", "--yolo"] {
        let output = run_with_stdin(fake().args(["-p", trust]), "hi");
        assert_eq!(output.status.code(), Some(0), "{trust}");
    }
}

#[test]
fn an_unknown_model_is_refused_on_stderr() {
    let output = run_with_stdin(
        fake()
            .args(["-p", "--trust", "--model=nope"])
            .env("FAKE_AGENT_STRICT_MODELS", "1"),
        "hi",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("Cannot use this model: nope. "));
}

#[test]
fn the_model_is_persisted_in_cli_config_in_both_flag_forms() {
    let scratch = Scratch::new("cli-config");
    let dir = scratch.join("cursor");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cli-config.json");
    std::fs::write(
        &path,
        r#"{"permissions":{"allow":[],"deny":["Shell(rm)"]},"model":{"modelId":"auto","displayName":"Auto"},"version":1}"#,
    )
    .unwrap();
    for (args, id) in [
        (
            vec!["-p", "--trust", "--model", "composer-2.5"],
            "composer-2.5",
        ),
        (
            vec!["-p", "--trust", "--model=gpt-5.3-codex"],
            "gpt-5.3-codex",
        ),
    ] {
        let output = run_with_stdin(
            fake()
                .args(&args)
                .env("CURSOR_CONFIG_DIR", &dir)
                .env("FAKE_AGENT_PERSIST_MODEL", "1"),
            "hi",
        );
        assert!(output.status.success(), "{output:?}");
        let config: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(config["model"]["modelId"], id);
        assert_eq!(config["model"]["displayName"], "Auto");
        assert_eq!(config["hasChangedDefaultModel"], true);
        assert_eq!(config["permissions"]["deny"][0], "Shell(rm)");
        assert_eq!(config["version"], 1);
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(
        leftovers.len(),
        1,
        "only cli-config.json, no temporary file"
    );
}

#[test]
fn the_default_stream_reconnects_and_asks_about_a_fetch() {
    let base = ["-p", "--trust", "--output-format", "stream-json"];
    let denied = run_with_stdin(
        fake()
            .args(base)
            .env("FAKE_AGENT_RECONNECTS", "2")
            .env("FAKE_AGENT_WEB_FETCH", "https://example.com"),
        "hi",
    );
    assert!(denied.status.success());
    let events = lines(&denied.stdout);
    let kinds: Vec<String> = events
        .iter()
        .map(|e| {
            format!(
                "{}/{}",
                e["type"].as_str().unwrap(),
                e["subtype"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "system/init",
            "user/",
            "connection/reconnecting",
            "retry/starting",
            "connection/reconnected",
            "connection/reconnecting",
            "retry/starting",
            "connection/reconnected",
            "tool_call/started",
            "interaction_query/request",
            "interaction_query/response",
            "tool_call/completed",
            "assistant/",
            "result/success",
        ]
    );
    assert_eq!(events[6]["attempt"], 2);
    assert_eq!(
        events[10]["response"]["webFetchRequestResponse"]["rejected"]["reason"],
        "User Rejected"
    );
    assert!(events[11]["tool_call"]["webFetchToolCall"]["args"].is_null());

    let approved = run_with_stdin(
        fake()
            .args(base)
            .arg("--force")
            .env("FAKE_AGENT_WEB_FETCH", "https://example.com"),
        "hi",
    );
    let events = lines(&approved.stdout);
    assert!(events[4]["response"]["webFetchRequestResponse"]["approved"].is_object());
    assert_eq!(
        events[5]["tool_call"]["webFetchToolCall"]["result"]["success"]["url"],
        "https://example.com"
    );
}
