//! The npm Agent SDK (`@anthropic-ai/claude-agent-sdk` 0.3.337, installed by scripts/test into
//! `.tools/agent-sdk`) drives `multi-cursor-claude` as the VS Code extension does
//! (`pathToClaudeCodeExecutable` = the wrapper, `executableArgs` = the real Claude Code) from
//! a small Node script: the session offers the Cursor rows and the `multi-cursor` agent, and a
//! Cursor turn in `bypassPermissions` is answered by the fake agent. Skipped, saying why, when
//! Node or the package is not there.

use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;

use multi_cursor_test_support::claude::claude_binary;
use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::launcher::Launch;
use multi_cursor_test_support::wrapper;

/// Where the SDK package is: `MULTI_CURSOR_TEST_AGENT_SDK`, else where scripts/test installs it.
fn agent_sdk() -> PathBuf {
    std::env::var_os(multi_cursor::env::TEST_AGENT_SDK_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(".tools/agent-sdk/node_modules/@anthropic-ai/claude-agent-sdk")
        })
}

/// Why the test cannot run here, if it cannot.
fn missing(sdk: &Path) -> Option<String> {
    let node = std::process::Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !node.is_ok_and(|s| s.success()) {
        return Some("node is not on PATH".to_string());
    }
    if !sdk.join("sdk.mjs").is_file() {
        return Some(format!(
            "the Agent SDK is not installed at {} (scripts/test installs it)",
            sdk.display()
        ));
    }
    None
}

#[test]
fn the_npm_agent_sdk_gets_a_cursor_answer_through_the_wrapper() {
    let sdk = agent_sdk();
    if let Some(why) = missing(&sdk) {
        // scripts/test sets the variable only once it installed the SDK: then it must run.
        assert!(
            std::env::var_os(multi_cursor::env::TEST_AGENT_SDK_ENV).is_none(),
            "MULTI_CURSOR_TEST_AGENT_SDK is set but {why}"
        );
        println!("skipped: {why}");
        return;
    }
    let launch = Launch::real();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/launcher/wrap_agent_sdk.mjs");
    let output = wrapper::command(&launch, Path::new("node"))
        .arg(&script)
        .env("AGENT_SDK", &sdk)
        .env("WRAPPER", wrapper::wrapper_bin())
        .env("CLAUDE", claude_binary())
        .env("MODEL", "multi/cursor/default")
        .env("MODE", "bypassPermissions")
        .env("PROMPT", "explain the build script")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let line = stdout.lines().last().unwrap_or_default();
    let seen: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    let listed = |key: &str, want: &str| {
        seen[key]
            .as_array()
            .is_some_and(|all| all.iter().any(|v| v == want))
    };
    assert!(listed("models", "multi/cursor/default"), "{seen}");
    assert!(listed("agents", "multi-cursor"), "{seen}");
    assert_eq!(seen["result"]["is_error"], false, "{seen}\n{stderr}");
    // The SDK's result is the answer, the turn's tokens ending it (spend seen on this surface).
    let answer = seen["result"]["result"].as_str().unwrap_or_default();
    assert_eq!(without_tokens(answer), "fake agent reply", "{seen}");
    assert_eq!(launch.turns().len(), 1, "one Cursor turn");
    let ours: Vec<_> = launch
        .tmp_entries()
        .into_iter()
        .filter(|e| e.starts_with("multi-cursor-"))
        .collect();
    assert!(ours.is_empty(), "temporary folder removed: {ours:?}");
}
