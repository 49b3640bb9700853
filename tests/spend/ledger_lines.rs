//! A turn appends one `turn` line with the fields and no prompt or answer text; the
//! identical re-send served again appends a `replay` line without tokens. Folder 0700, file 0600.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::ledger;
use super::common::request;

#[test]
fn a_turn_and_its_replay_are_lines() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..Default::default()
    });
    let body = request("SECRET-PROMPT-TEXT please");
    let (status, _, answer) = ask(&gw, "ledger-session", None, &body);
    assert_eq!(status, 200, "{answer}");
    gw.wait_idle();
    let lines = ledger(&gw);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert_eq!(line["purpose"], "turn");
    assert_eq!(line["outcome"], "completed");
    assert_eq!(line["session"], "ledger-session");
    assert_eq!(line["worker"], "main");
    assert_eq!(line["route"], "multi/cursor/composer-2.5");
    assert_eq!(line["model"], "composer-2.5");
    assert_eq!(line["mode"], "force");
    assert!(line["input_tokens"].as_u64().is_some(), "{line}");
    assert!(line["output_tokens"].as_u64().is_some(), "{line}");
    assert!(
        ["provider", "estimate"].contains(&line["token_source"].as_str().unwrap()),
        "{line}"
    );
    // The result's request_id, to quote to Cursor's support.
    assert!(
        line["request_id"].as_str().is_some_and(|id| !id.is_empty()),
        "{line}"
    );
    assert_eq!(
        line["workspace"],
        multi_cursor::platform::canonicalize(&gw.workspace())
            .unwrap()
            .to_str()
            .unwrap()
    );

    let (status, _, again) = ask(&gw, "ledger-session", None, &body);
    assert_eq!(status, 200, "{again}");
    assert_eq!(gw.turns().len(), 1, "the re-send ran nothing");
    let lines = ledger(&gw);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[1]["purpose"], "replay");
    assert_eq!(lines[1]["token_source"], "none");
    assert!(lines[1]["input_tokens"].is_null());

    let dir = gw.state_dir.join("ledger");
    let text = std::fs::read_to_string(
        std::fs::read_dir(&dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
    )
    .unwrap();
    assert!(!text.contains("SECRET-PROMPT-TEXT"), "{text}");
    assert!(!text.contains("fake agent reply"), "{text}");
    let mode = |p: &std::path::Path| {
        multi_cursor::platform::mode(&std::fs::metadata(p).unwrap()).map(|m| m & 0o777)
    };
    if mode(&dir).is_none() {
        eprintln!("modes not checked: this system has no permission bits");
    } else {
        assert_eq!(mode(&dir), Some(0o700));
        for file in std::fs::read_dir(&dir).unwrap() {
            assert_eq!(mode(&file.unwrap().path()), Some(0o600));
        }
    }
}
