//! No credential is written to disk by a launched session. With a Cursor API key and Anthropic
//! credentials in its environment, the launcher runs a Cursor turn to completion (its record
//! written), a count_tokens and a passthrough request; while Claude Code still runs, every file
//! of the launcher's temporary folder (the `--settings` file) and of the state folder (records,
//! locks, catalog cache), and the settings Claude Code was given, are read, and again the state
//! folder after the launcher exited: none holds the Cursor key, the Anthropic key or token, or
//! the gateway token. (`multi-cursor serve` writes its token to the ready file, 0600, on
//! purpose: that file is how a caller learns it.)
//!
//! One exception: the `--settings` file holds the gateway token as `MULTI_CURSOR_GATEWAY_TOKEN`
//! in its `env`, for our own hooks and status line (that layer outranks a project's, which
//! could otherwise point them elsewhere); the file is 0600 in the launcher's 0700 temporary
//! folder and removed at exit.
//!
//! That is the promise when no settings layer sets `ANTHROPIC_BASE_URL` or
//! `ANTHROPIC_CUSTOM_HEADERS`, as here. When one does (a user of another gateway), the launcher
//! must put the gateway's URL and token header in its `--settings` `env` to outrank it: the
//! token is then in that one file, 0600 inside the launcher's 0700 temporary folder and removed
//! at exit, which `launcher::launch_other_gateway` checks.

use multi_cursor_test_support::security;

use std::path::Path;

use security::ANTHROPIC_KEY;
use security::ANTHROPIC_TOKEN;
use security::CURSOR_KEY;
use security::LiveSession;
use security::assert_no_secret;
use security::files_under;

fn scan(folder: &Path, secrets: &[(&str, &str)]) -> usize {
    let files = files_under(folder);
    for file in &files {
        eprintln!("scanned {}", file.display());
        let bytes = std::fs::read(file).unwrap();
        assert_no_secret(&file.display().to_string(), &bytes, secrets);
    }
    files.len()
}

#[test]
fn no_credential_in_state_or_settings_files() {
    let session = LiveSession::start(&[]);
    let token = session.token.clone();
    let secrets = [
        ("CURSOR_API_KEY", CURSOR_KEY),
        ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
        ("ANTHROPIC_AUTH_TOKEN", ANTHROPIC_TOKEN),
        ("the gateway token", token.as_str()),
    ];

    session.bypass("s-files");
    let answer = session.request(
        "POST",
        "/v1/messages",
        "s-files",
        &security::cursor_body("write the tests"),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    let count = session.request(
        "POST",
        "/v1/messages/count_tokens",
        "s-files",
        &security::cursor_body("count"),
    );
    assert_eq!(count.status, 200, "{}", count.body);

    let state = session.launch.state.clone();
    let records: Vec<_> = files_under(&state.join("sessions"))
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".v3.json"))
        .collect();
    assert_eq!(records.len(), 1, "the turn's record: {records:?}");
    let record = std::fs::read_to_string(&records[0]).unwrap();
    assert!(record.contains("fake agent reply"), "{record}");

    // The --settings file carries the gateway token once, for our own hooks, as
    // MULTI_CURSOR_GATEWAY_TOKEN in its `env` (so a project's settings cannot point them
    // elsewhere); nothing else in the temporary folder holds any secret.
    let temp = scan(&session.launch.tmp, &secrets[..3]);
    assert!(
        temp >= 1,
        "the settings file is in the launcher's temporary folder"
    );
    scan(&state, &secrets);
    let settings = std::fs::read(session.launch.dump.with_extension("settings.json")).unwrap();
    let mut parsed: serde_json::Value = serde_json::from_slice(&settings).unwrap();
    assert_eq!(parsed["env"]["MULTI_CURSOR_GATEWAY_TOKEN"], token.as_str());
    parsed["env"]
        .as_object_mut()
        .unwrap()
        .remove("MULTI_CURSOR_GATEWAY_TOKEN");
    assert_no_secret(
        "the --settings file (but our hooks' token)",
        parsed.to_string().as_bytes(),
        &secrets,
    );
    assert_eq!(
        session.launch.dumped("settings.mode").unwrap().trim(),
        "600"
    );
    let agents = session.launch.claude_option("--agents").unwrap();
    assert_no_secret("the --agents JSON", agents.as_bytes(), &secrets);

    let (launch, output) = session.stop();
    assert_eq!(output.status, Some(42), "{output:?}");
    assert!(
        scan(&launch.state, &secrets) >= 2,
        "records and cache are still there"
    );
    assert!(
        launch.tmp_entries().is_empty(),
        "the temporary folder was removed"
    );
}
