use std::time::Duration;

use super::*;
use crate::spend::ledger::LedgerLine;
use crate::spend::ledger::Purpose;
use crate::spend::ledger::RunEnded;
use crate::spend::ledger::RunPlace;

fn place(session: &str, model: &str) -> RunPlace {
    RunPlace {
        workspace: "/w".into(),
        session: session.into(),
        worker: "main".into(),
        route: format!("multi/cursor/{model}"),
        model: model.into(),
        mode: "force".into(),
    }
}

fn run(source: TokenSource, outcome: RunOutcome) -> RunEnded {
    RunEnded {
        purpose: Purpose::Turn,
        duration: Duration::from_millis(1500),
        exit_code: None,
        outcome,
        tokens: TokenFigures {
            input_tokens: 1000,
            output_tokens: 10,
            cache_read_tokens: Some(7),
            cache_write_tokens: None,
            estimated: source != TokenSource::Provider,
        },
        estimated_from: None,
        request_id: None,
        served_fast: None,
        stopped: None,
    }
}

#[test]
fn since_reads_days_and_dates() {
    let today = jiff::civil::date(2026, 12, 1);
    assert_eq!(
        since_day(None, today).unwrap(),
        jiff::civil::date(2026, 11, 2)
    );
    assert_eq!(since_day(Some("1d"), today).unwrap(), today);
    assert_eq!(
        since_day(Some("7d"), today).unwrap(),
        jiff::civil::date(2026, 11, 25)
    );
    assert_eq!(
        since_day(Some("2026-10-31"), today).unwrap(),
        jiff::civil::date(2026, 10, 31)
    );
    assert!(since_day(Some("yesterday"), today).is_err());
    assert!(since_day(Some("0d"), today).is_err());
}

#[test]
fn replays_and_damage_are_counted_apart() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::new(dir.path());
    ledger
        .append(&LedgerLine::run(
            &place("s1", "auto"),
            &run(TokenSource::Provider, RunOutcome::Completed),
        ))
        .unwrap();
    ledger
        .append(&LedgerLine::run(
            &place("s2", "gpt-5"),
            &run(TokenSource::Estimate, RunOutcome::Failed),
        ))
        .unwrap();
    ledger
        .append(&LedgerLine::replay(&place("s1", "auto")))
        .unwrap();
    let file = ledger.month_file(&jiff::ZonedDateTime::now());
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("{not json\n");
    std::fs::write(&file, text).unwrap();
    let today = jiff::ZonedDateTime::now().date();
    let report = build(&ledger, since_day(Some("1d"), today).unwrap(), None).unwrap();
    let t = &report.totals;
    assert_eq!(
        (t.runs, t.replays, t.failed_runs, t.estimated_runs),
        (2, 1, 1, 1)
    );
    assert_eq!(
        (
            t.tokens.input_tokens,
            t.tokens.output_tokens,
            t.tokens.cache_read_tokens
        ),
        (2000, 20, Some(14))
    );
    assert_eq!((t.duration_ms, t.damaged_lines), (3000, 1));
    assert_eq!(report.by_model.len(), 2);
    assert_eq!(report.by_day.len(), 1);
    assert_eq!(report.by_session.len(), 2);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(
        json["by_model"][0]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["input_tokens", "model", "output_tokens", "runs"]
    );
    // The totals name every count, a cache count no run gave as 0 (docs/spend.md).
    assert_eq!(
        json["totals"],
        serde_json::json!({"runs": 2, "replays": 1, "failed_runs": 1, "estimated_runs": 1,
            "input_tokens": 2000, "output_tokens": 20, "cache_read_tokens": 14,
            "cache_write_tokens": 0, "duration_ms": 3000, "damaged_lines": 1})
    );
    let table = report.render(ledger.dir());
    assert!(table.contains("2 runs (1 failed), 1 replayed"), "{table}");
    assert!(table.contains("(est.)"), "{table}");
    assert!(
        table.contains("1 damaged ledger line(s) skipped."),
        "{table}"
    );
    let only = build(&ledger, today, Some("/elsewhere")).unwrap();
    assert_eq!(only.totals.runs, 0);
}
