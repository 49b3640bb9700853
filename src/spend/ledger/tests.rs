use std::time::Duration;

use super::*;

fn place() -> RunPlace {
    RunPlace {
        workspace: "/work/project".into(),
        session: "s1".into(),
        worker: "main".into(),
        route: "multi/cursor/auto".into(),
        model: "auto".into(),
        mode: "force".into(),
    }
}

fn ended() -> RunEnded {
    RunEnded {
        purpose: Purpose::Turn,
        duration: Duration::from_millis(1234),
        exit_code: None,
        outcome: RunOutcome::Completed,
        tokens: TokenFigures {
            input_tokens: 100,
            output_tokens: 20,
            cache_read_tokens: Some(5),
            cache_write_tokens: None,
            estimated: false,
        },
        estimated_from: None,
        request_id: None,
        served_fast: None,
        stopped: None,
    }
}

#[test]
fn a_run_line_has_the_issue_fields() {
    let line = LedgerLine::run(&place(), &ended());
    let json: serde_json::Value = serde_json::from_slice(&line.encode().unwrap()).unwrap();
    for key in [
        "v",
        "time",
        "workspace",
        "session",
        "worker",
        "route",
        "model",
        "mode",
        "purpose",
        "duration_ms",
        "outcome",
        "exit_code",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "token_source",
    ] {
        assert!(json.get(key).is_some(), "{key} in {json}");
    }
    assert_eq!(json["purpose"], "turn");
    assert_eq!(json["token_source"], "provider");
    assert_eq!(json["duration_ms"], 1234);
    assert_eq!(line.tokens().billed(), 120);
    let replay = LedgerLine::replay(&place());
    assert_eq!(replay.input_tokens, None);
    assert_eq!(replay.token_source, TokenSource::None);
    assert_eq!(replay.purpose, Purpose::Replay);
    let lost = LedgerLine::interrupted(&place(), Duration::from_secs(3));
    assert_eq!(lost.token_source, TokenSource::Unknown);
    assert_eq!(lost.outcome, RunOutcome::Interrupted);
}

#[test]
fn no_line_is_longer_than_pipe_buf() {
    let huge = "\u{1}".repeat(100_000);
    let place = RunPlace {
        workspace: huge.clone(),
        session: huge.clone(),
        worker: huge.clone(),
        route: huge.clone(),
        model: huge.clone(),
        mode: huge,
    };
    let bytes = LedgerLine::run(&place, &ended()).encode().unwrap();
    assert!(bytes.len() <= MAX_LINE, "{}", bytes.len());
    assert!(parse_line(&bytes[..bytes.len() - 1]).is_some());
}

#[test]
fn appends_are_private_lines() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::new(dir.path());
    ledger.append(&LedgerLine::run(&place(), &ended())).unwrap();
    ledger.append(&LedgerLine::replay(&place())).unwrap();
    let file = ledger.month_file(&jiff::ZonedDateTime::now());
    crate::platform::testing::assert_mode(ledger.dir(), 0o700);
    crate::platform::testing::assert_mode(&file, 0o600);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<_> = text
        .lines()
        .map(|l| parse_line(l.as_bytes()).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1].purpose, Purpose::Replay);
}

#[test]
fn a_link_is_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::new(dir.path());
    std::fs::create_dir_all(ledger.dir()).unwrap();
    let target = dir.path().join("elsewhere");
    std::fs::write(&target, "").unwrap();
    crate::platform::testing::skip_unless!(crate::platform::testing::symlink_file(
        &target,
        &ledger.month_file(&jiff::ZonedDateTime::now()),
    ));
    assert!(ledger.append(&LedgerLine::replay(&place())).is_err());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
}
