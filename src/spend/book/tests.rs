use std::time::Duration;

use super::*;
use crate::spend::ledger::Purpose;
use crate::spend::ledger::RunOutcome;
use crate::spend::limits::SpendLimits;

fn book(limits: SpendLimits) -> (tempfile::TempDir, Arc<SpendBook>) {
    let dir = tempfile::tempdir().unwrap();
    let book = Arc::new(SpendBook::new(dir.path(), limits));
    (dir, book)
}

fn place(session: &str) -> RunPlace {
    RunPlace {
        session: session.into(),
        model: "auto".into(),
        ..RunPlace::default()
    }
}

fn ended(input: u64, output: u64) -> RunEnded {
    RunEnded {
        purpose: Purpose::Turn,
        duration: Duration::from_millis(10),
        exit_code: None,
        outcome: RunOutcome::Completed,
        tokens: TokenFigures {
            input_tokens: input,
            output_tokens: output,
            ..TokenFigures::default()
        },
        estimated_from: None,
        request_id: None,
        served_fast: None,
        stopped: None,
    }
}

#[test]
fn a_session_that_never_used_cursor_has_nothing() {
    let (_dir, book) = book(SpendLimits::default());
    let spend = book.session_spend("quiet");
    assert_eq!((spend.runs, spend.replays, spend.live), (0, 0, None));
    assert_eq!(spend.budgets, Vec::new(), "no budget set");
}

#[test]
fn runs_replays_and_live_runs_are_counted() {
    let (_dir, book) = book(SpendLimits::default());
    let tap = book.tap(place("s1"));
    tap.note_action("read `src/lib.rs`");
    let live = book.session_spend("s1").live.unwrap();
    assert_eq!(live.last_action.as_deref(), Some("read `src/lib.rs`"));
    tap.run_ended(&ended(100, 5));
    drop(tap);
    book.note_replay(&place("s1"));
    let spend = book.session_spend("s1");
    assert_eq!((spend.runs, spend.replays), (1, 1));
    assert_eq!(spend.tokens.in_out(), "100 in / 5 out");
    assert_eq!(spend.model.as_deref(), Some("auto"));
    assert_eq!(spend.live, None);
    assert_eq!(book.figures().tokens, 105);
    assert_eq!(
        book.figures().daily_tokens,
        105,
        "read back from the ledger"
    );
}

#[test]
fn budgets_refuse_the_next_turn_only() {
    let (_dir, book) = book(SpendLimits {
        turns: Some(2),
        tokens: Some(1000),
        ..SpendLimits::default()
    });
    book.check_turn("s", None).unwrap();
    book.tap(place("s")).run_ended(&ended(999, 0));
    book.check_turn("s", None).unwrap();
    book.tap(place("s")).run_ended(&ended(1, 0));
    assert_eq!(
        book.check_turn("s", None),
        Err(SpendRefusal::Turns { limit: 2, used: 2 })
    );
    let figures = book.figures();
    assert_eq!(figures.budgets[0].left, 0);
    assert_eq!(figures.budgets[1].used, 1000);
    assert_eq!(
        book.session_spend("another").budgets,
        figures.budgets,
        "the spend route shows the gateway's budgets as the status does"
    );
}

#[test]
fn the_daily_budget_reads_every_gateways_lines() {
    let (dir, book) = book(SpendLimits {
        daily_tokens: Some(50),
        ..SpendLimits::default()
    });
    let other = Arc::new(SpendBook::new(dir.path(), SpendLimits::default()));
    book.check_turn("s", None).unwrap();
    other.tap(place("t")).run_ended(&ended(40, 10));
    assert_eq!(
        book.session_spend("s").budgets,
        vec![crate::spend::BudgetUse {
            variable: crate::spend::Budget::DailyTokens,
            limit: 50,
            used: 50,
            left: 0
        }],
        "the spend route reads today's tokens of every gateway"
    );
    assert_eq!(
        book.check_turn("s", None),
        Err(SpendRefusal::DailyTokens {
            limit: 50,
            used: 50
        })
    );
}

#[test]
fn the_same_task_refused_the_third_time() {
    let (_dir, book) = book(SpendLimits::default());
    let task = Some([7; 32]);
    book.check_turn("s", task).unwrap();
    book.check_turn("s", task).unwrap();
    book.check_turn("s", None).unwrap();
    book.check_turn("other", task).unwrap();
    assert_eq!(
        book.check_turn("s", task),
        Err(SpendRefusal::Loop {
            starts: 3,
            limit: 3
        })
    );
    let (_dir, off) = self::book(SpendLimits {
        loop_limit: 0,
        ..SpendLimits::default()
    });
    for _ in 0..5 {
        off.check_turn("s", task).unwrap();
    }
}

#[test]
fn the_rate_guard_counts_a_minute() {
    let (_dir, book) = book(SpendLimits {
        turns_per_minute: 3,
        ..SpendLimits::default()
    });
    for _ in 0..3 {
        book.check_turn("s", None).unwrap();
    }
    assert_eq!(
        book.check_turn("s", None),
        Err(SpendRefusal::Rate { limit: 3 })
    );
}

fn ended_as(purpose: Purpose, outcome: RunOutcome) -> RunEnded {
    RunEnded {
        purpose,
        outcome,
        ..ended(1, 1)
    }
}

#[test]
fn past_a_spent_budget_a_session_compacts_once_until_a_turn_of_it_succeeds() {
    let (_dir, book) = book(SpendLimits {
        turns: Some(1),
        ..SpendLimits::default()
    });
    book.check_turn("s", None).unwrap();
    book.tap(place("s")).run_ended(&ended(1, 1));
    let spent = Err(SpendRefusal::Turns { limit: 1, used: 1 });
    assert_eq!(book.check_turn("s", None), spent);
    // One exemption for the session, whatever history the request carries.
    book.check_compaction("s").unwrap();
    book.tap(place("s"))
        .run_ended(&ended_as(Purpose::Compaction, RunOutcome::Completed));
    assert!(
        book.check_compaction("s").is_err(),
        "the exempted compaction's own success does not re-arm it"
    );
    // A turn run that failed, or was cancelled, does not re-arm it either.
    for outcome in [RunOutcome::Failed, RunOutcome::Cancelled] {
        book.tap(place("s"))
            .run_ended(&ended_as(Purpose::Turn, outcome));
        assert!(book.check_compaction("s").is_err());
    }
    // Another session's success re-arms nothing here.
    book.tap(place("t")).run_ended(&ended(1, 1));
    assert!(book.check_compaction("s").is_err());
    // A completed turn of the session does.
    book.tap(place("s"))
        .run_ended(&ended_as(Purpose::Fallback, RunOutcome::Completed));
    book.check_compaction("s").unwrap();
    assert!(book.check_compaction("s").is_err());
    // A session this gateway never ran Cursor for gets none.
    assert!(book.check_compaction("never").is_err());
}
