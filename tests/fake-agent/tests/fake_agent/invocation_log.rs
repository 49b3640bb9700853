//! Every invocation is logged as one JSON line with the exact argv, stdin, env names (never
//! values), pid and process group — before the scenario plays, so a killed run is logged too.

use crate::common;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use common::Scratch;
use common::fake;
use common::log_lines;
use common::run_with_stdin;
use common::turn_args;

#[test]
fn a_turn_logs_argv_stdin_and_env_names_only() {
    let scratch = Scratch::new("log-turn");
    let log = scratch.join("calls.jsonl");
    let mut args = turn_args(&scratch.0);
    args.extend([
        "--resume".to_owned(),
        "abc".to_owned(),
        "--force".to_owned(),
    ]);
    let output = run_with_stdin(
        fake()
            .args(&args)
            .env("FAKE_AGENT_LOG", &log)
            .env("CURSOR_API_KEY", "secret-value-123"),
        "the prompt\nline two",
    );
    assert!(output.status.success(), "{output:?}");
    let raw = std::fs::read_to_string(&log).unwrap();
    assert!(
        !raw.contains("secret-value-123"),
        "an env value leaked: {raw}"
    );
    let entries = log_lines(&log);
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    let argv: Vec<String> = serde_json::from_value(entry["argv"].clone()).unwrap();
    assert_eq!(argv, args);
    assert_eq!(entry["stdin"], "the prompt\nline two");
    assert_eq!(entry["cursor_api_key_present"], true);
    assert_eq!(entry["kind"], "turn");
    let keys: Vec<String> = serde_json::from_value(entry["env_keys"].clone()).unwrap();
    assert!(keys.contains(&"CURSOR_API_KEY".to_owned()));
    assert!(
        keys.windows(2).all(|pair| pair[0] <= pair[1]),
        "env_keys not sorted"
    );
    assert!(entry["pid"].as_u64().unwrap() > 0);
    assert!(entry["pgid"].as_i64().unwrap() > 0);
    assert!(entry["cwd"].is_string());
}

#[test]
fn a_run_killed_mid_scenario_is_already_logged() {
    let scratch = Scratch::new("log-kill");
    let log = scratch.join("calls.jsonl");
    let scenario = scratch.write("stall", "{\"type\":\"system\"}\n#!stall\n");
    let mut child = fake()
        .args(["-p", "--trust"])
        .env("FAKE_AGENT_LOG", &log)
        .env("FAKE_AGENT_SCENARIO", &scenario)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"stalled prompt").unwrap();
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(2);
    while log_lines(&log).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let entries = log_lines(&log);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["stdin"], "stalled prompt");
    assert_eq!(entries[0]["pid"], child.id());
    assert_eq!(entries[0]["scenario"], scenario.display().to_string());
}

#[test]
fn non_turn_invocations_are_logged_with_their_kind() {
    let scratch = Scratch::new("log-kinds");
    let log = scratch.join("calls.jsonl");
    for args in [
        &["--version"][..],
        &["--list-models"],
        &["status"],
        &["--help"],
    ] {
        let output = fake()
            .args(args)
            .env("FAKE_AGENT_LOG", &log)
            .output()
            .unwrap();
        assert!(output.status.success());
    }
    let kinds: Vec<String> = log_lines(&log)
        .iter()
        .map(|entry| entry["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds, ["version", "models", "status", "help"]);
}
