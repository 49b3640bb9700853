//! The run ledger's two costs: appending a line while the gateway is under load, and
//! `multi-cursor usage` over 100,000 lines.
//!
//! 1. A `multi-cursor serve` (release) with the fake agent as Cursor runs `LEDGER_BENCH_WORKERS`
//!    (8) workers' conversations for `LEDGER_BENCH_SECS` (5 s), each turn appending its ledger
//!    line; meanwhile this process appends a line to the same ledger every millisecond, as a
//!    second gateway would, and reports the append's p50/p99/max (target: p99 < 1 ms).
//! 2. 100,000 lines in one month file: `spend::report::build` in process (best of 5) and the
//!    release `multi-cursor usage --json` end to end (best of 3) (target: < 300 ms).
//!
//! `cargo bench --bench ledger`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::spend::TokenFigures;
use multi_cursor::spend::ledger::Ledger;
use multi_cursor::spend::ledger::LedgerLine;
use multi_cursor::spend::ledger::Purpose;
use multi_cursor::spend::ledger::RunEnded;
use multi_cursor::spend::ledger::RunOutcome;
use multi_cursor::spend::ledger::RunPlace;
use multi_cursor_test_support::bench::BenchGateway;
use multi_cursor_test_support::bench::binary;
use multi_cursor_test_support::bench::ms;
use multi_cursor_test_support::bench::percentile;

const MODEL: &str = "multi/cursor/composer-2.5";
const LINES: usize = 100_000;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn place(session: &str, model: &str) -> RunPlace {
    RunPlace {
        workspace: "/home/someone/projects/a-workspace-of-usual-length".into(),
        session: session.into(),
        worker: "main".into(),
        route: format!("multi/cursor/{model}"),
        model: model.into(),
        mode: "force".into(),
    }
}

fn ended(n: u64) -> RunEnded {
    RunEnded {
        purpose: Purpose::Turn,
        duration: Duration::from_millis(1000 + n % 5000),
        exit_code: None,
        outcome: RunOutcome::Completed,
        tokens: TokenFigures {
            input_tokens: 20_000 + n % 10_000,
            output_tokens: 100 + n % 900,
            cache_read_tokens: Some(n % 20_000),
            cache_write_tokens: None,
            estimated: false,
        },
        estimated_from: None,
        request_id: None,
        served_fast: None,
        stopped: None,
    }
}

/// One conversation, turn after turn, until `stop`.
fn worker(gw: &BenchGateway, id: usize, stop: &AtomicBool, turns: &AtomicUsize) {
    let client = reqwest::blocking::Client::new();
    let mut messages = Vec::new();
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        messages.push(
            serde_json::json!({"role": "user", "content": format!("step {n} of worker {id}")}),
        );
        let body = serde_json::json!({"model": MODEL, "max_tokens": 32000, "stream": false, "messages": messages});
        let response = client
            .post(format!("{}/v1/messages", gw.url))
            .header("x-multi-cursor-token", &gw.token)
            .header("x-claude-code-session-id", "ledger-bench")
            .header("x-claude-code-agent-id", format!("worker-{id}"))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .unwrap();
        assert!(response.status().is_success(), "{}", response.status());
        let answer: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
        let text = answer["content"][0]["text"].as_str().unwrap().to_string();
        messages.push(serde_json::json!({"role": "assistant", "content": text}));
        n += 1;
        turns.fetch_add(1, Ordering::Relaxed);
    }
}

fn appends_under_load() {
    let secs: u64 = env_or("LEDGER_BENCH_SECS", 5);
    let workers: usize = env_or("LEDGER_BENCH_WORKERS", 8);
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream/maestro-04_partial_output.ndjson");
    let gw = Arc::new(BenchGateway::start(
        &binary("multi-cursor", "multi-cursor"),
        &binary("fake-agent", "fake-agent"),
        &scenario,
        "http://127.0.0.1:9",
    ));
    let stop = Arc::new(AtomicBool::new(false));
    let turns = Arc::new(AtomicUsize::new(0));
    let handles: Vec<_> = (0..workers)
        .map(|id| {
            let (gw, stop, turns) = (Arc::clone(&gw), Arc::clone(&stop), Arc::clone(&turns));
            std::thread::spawn(move || worker(&gw, id, &stop, &turns))
        })
        .collect();
    let ledger = Ledger::new(&gw.state);
    let line = LedgerLine::run(&place("bench-appender", "auto"), &ended(1));
    let until = Instant::now() + Duration::from_secs(secs);
    let mut times = Vec::new();
    while Instant::now() < until {
        let start = Instant::now();
        ledger.append(&line).unwrap();
        times.push(start.elapsed());
        std::thread::sleep(Duration::from_millis(1));
    }
    stop.store(true, Ordering::Relaxed);
    for handle in handles {
        handle.join().unwrap();
    }
    times.sort();
    let turns = turns.load(Ordering::Relaxed);
    let file = ledger.month_file(&jiff::ZonedDateTime::now());
    let text = std::fs::read_to_string(&file).unwrap();
    let gateway_lines = text
        .lines()
        .filter(|l| l.contains("\"ledger-bench\""))
        .count();
    let ours = text
        .lines()
        .filter(|l| l.contains("\"bench-appender\""))
        .count();
    let whole = text
        .lines()
        .all(|l| multi_cursor::spend::ledger::parse_line(l.as_bytes()).is_some());
    println!(
        "ledger append under load ({workers} workers, {turns} turns in {secs} s): {} appends, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.99)),
        ms(*times.last().unwrap()),
    );
    println!(
        "  the gateway appended {gateway_lines} lines for {turns} answered turns; this process {ours} for {} appends; every line whole: {whole}",
        times.len()
    );
    assert!(whole, "an interleaved or damaged line");
    assert_eq!(ours, times.len());
    assert!(gateway_lines >= turns, "a turn without its line");
}

fn usage_over_many_lines() {
    let state = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let ledger = Ledger::new(state.path());
    std::fs::create_dir_all(ledger.dir()).unwrap();
    let file = ledger.month_file(&jiff::ZonedDateTime::now());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    let models = ["auto", "composer-2.5", "gpt-5", "claude-4.5-sonnet"];
    for n in 0..LINES as u64 {
        let place = place(&format!("session-{}", n % 200), models[(n % 4) as usize]);
        out.write_all(&LedgerLine::run(&place, &ended(n)).encode().unwrap())
            .unwrap();
    }
    drop(out);
    let bytes = std::fs::metadata(&file).unwrap().len();
    let today = jiff::ZonedDateTime::now().date();
    let since = multi_cursor::spend::report::since_day(Some("1d"), today).unwrap();
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let report = multi_cursor::spend::report::build(&ledger, since, None).unwrap();
        best = best.min(start.elapsed());
        assert_eq!(report.totals.runs, LINES as u64);
    }
    let bin = binary("multi-cursor", "multi-cursor");
    let mut best_cli = Duration::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let output = std::process::Command::new(&bin)
            .args(["usage", "--json", "--since", "1d"])
            .env("MULTI_CURSOR_STATE_DIR", state.path())
            .output()
            .unwrap();
        best_cli = best_cli.min(start.elapsed());
        assert!(output.status.success());
    }
    println!(
        "usage over {LINES} lines ({:.1} MiB): build {:.1} ms in process, `multi-cursor usage --json` {:.1} ms end to end (best of 5 / 3)",
        bytes as f64 / (1024.0 * 1024.0),
        ms(best),
        ms(best_cli)
    );
}

fn main() {
    appends_under_load();
    usage_over_many_lines();
}
