//! The prompt goes on stdin and never in argv; `CURSOR_API_KEY` reaches the child through its
//! environment but never its argv; other programs' credentials are scrubbed. The run must start
//! from an environment that holds those credentials, and no test may change the harness's own
//! environment: the test runs itself again as a child process whose environment has them.

use std::process::Command;
use std::time::Duration;

use multi_cursor::cursor::command::SCRUBBED_ENV;
use multi_cursor_test_support::process as process_support;
use process_support::drain;
use process_support::fake_agent;
use process_support::limits;
use process_support::spawn;

/// Set (to the temporary folder) only in the child process that runs the check.
const CHILD: &str = "MULTI_CURSOR_TEST_CREDENTIALS_DIR";

/// The Cursor key the child's environment carries.
const KEY: &str = "cursor-secret-key-0123456789";

#[test]
fn prompt_on_stdin_key_in_env_only_other_credentials_scrubbed() {
    if let Some(dir) = std::env::var_os(CHILD) {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(check(std::path::PathBuf::from(dir)));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, module) = module_path!().split_once("::").unwrap();
    let name = format!("{module}::prompt_on_stdin_key_in_env_only_other_credentials_scrubbed");
    let mut child = Command::new(std::env::current_exe().unwrap());
    child.args(["--exact", &name, "--nocapture"]);
    for name in SCRUBBED_ENV {
        child.env(name, format!("leaked-{name}"));
    }
    child
        .env(CHILD, dir.path())
        .env("CURSOR_API_KEY", KEY)
        .env("FAKE_AGENT_LOG", dir.path().join("agent-log.jsonl"))
        .env("FAKE_AGENT_MAX_LIFETIME_MS", "60000");
    for name in [
        "FAKE_AGENT_SCENARIO",
        "FAKE_AGENT_LOGGED_OUT",
        "FAKE_AGENT_STRICT_MODELS",
        "FAKE_AGENT_KNOWN_CHATS",
        "FAKE_AGENT_CHATS_FILE",
        "FAKE_AGENT_UNTRUSTED",
    ] {
        child.env_remove(name);
    }
    let output = child.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("1 passed"),
        "the child ran no test: {stdout}"
    );
}

/// The check itself, in the child whose environment holds the credentials.
async fn check(dir: std::path::PathBuf) {
    let log = dir.join("agent-log.jsonl");
    let key = KEY;
    let prompt = "a prompt with 'quotes', spaces and\na second line";
    let spec = multi_cursor::cursor::command::TurnSpec {
        workspace: dir,
        model: "auto".into(),
        chat_id: None,
        mode: multi_cursor::cursor::command::CursorMode::Force,
        approve_mcps: false,
        prompt: prompt.into(),
    };
    let mut run = spawn(&fake_agent(), &spec, limits()).unwrap();
    let (_, error) = drain(&mut run, Duration::from_secs(10)).await;
    assert!(error.is_none(), "{error:?}");

    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    let call = &lines[0];
    assert_eq!(call["kind"], "turn");
    assert_eq!(call["stdin"], prompt);
    assert_eq!(call["pid"], call["pgid"], "the agent leads its own group");
    assert_eq!(call["pid"], run.pgid);
    assert_eq!(call["cursor_api_key_present"], true);
    let argv: Vec<&str> = call["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    for arg in &argv {
        assert!(!arg.contains("prompt"), "prompt text in argv: {argv:?}");
        assert!(!arg.contains(key), "API key in argv: {argv:?}");
        assert!(!arg.contains("leaked-"), "a credential in argv: {argv:?}");
    }
    assert!(!argv.contains(&"--api-key"), "{argv:?}");
    let env_keys: Vec<&str> = call["env_keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert!(env_keys.contains(&"CURSOR_API_KEY"), "{env_keys:?}");
    for name in SCRUBBED_ENV {
        assert!(
            !env_keys.contains(name),
            "{name} reached the child: {env_keys:?}"
        );
    }
    assert!(!text.contains(key), "the key value never reaches the log");
}
