//! Load: 32 Cursor workers (one Claude session, 32 `x-claude-code-agent-id`s), each holding a
//! conversation turn after turn, plus passthrough traffic, through one `multi-cursor serve` on
//! loopback for a bounded time. Cursor is the fake agent replaying a real capture; the
//! Anthropic upstream is a local server answering a small Messages JSON.
//!
//! Prints: Cursor turns per second and their p50/p99 latency; passthrough added latency
//! (p50/p99 through the gateway minus p50/p99 straight to the upstream, both under the same
//! load); the gateway's peak RSS (`VmHWM`). Then checks that nothing was lost or doubled (every
//! answered turn is one agent run) and that every record is consistent (completed, not
//! interrupted, no pending run, a chat id, a replay for its last exchange).
//!
//! `cargo bench --bench load` (`LOAD_BENCH_SECS` changes the 10 s, `LOAD_BENCH_WORKERS` the 32).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

use multi_cursor_test_support::bench::BenchGateway;
use multi_cursor_test_support::bench::binary;
use multi_cursor_test_support::bench::ms;
use multi_cursor_test_support::bench::percentile;
use multi_cursor_test_support::bench::status_kb;

const MODEL: &str = "multi/cursor/composer-2.5";
const UPSTREAM_JSON: &str = r#"{"id":"msg_load","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}"#;
const PASSTHROUGH_CLIENTS: usize = 4;

/// The local Anthropic stand-in, on its own runtime thread.
fn start_upstream() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let app = axum::Router::new().route(
                "/v1/messages",
                axum::routing::post(|| async {
                    (
                        [(axum::http::header::CONTENT_TYPE, "application/json")],
                        UPSTREAM_JSON,
                    )
                }),
            );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn start_gateway(upstream: SocketAddr) -> BenchGateway {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream/maestro-04_partial_output.ndjson");
    BenchGateway::start(
        &binary("multi-cursor", "multi-cursor"),
        &binary("fake-agent", "fake-agent"),
        &scenario,
        &format!("http://{upstream}"),
    )
}

/// One worker: a conversation of as many turns as fit in the time, each continuing the last.
fn worker(gw: &BenchGateway, id: usize, until: Instant) -> (Vec<Duration>, usize) {
    let client = reqwest::blocking::Client::new();
    let mut messages = Vec::new();
    let mut times = Vec::new();
    let mut n = 0;
    while Instant::now() < until {
        messages.push(
            serde_json::json!({"role": "user", "content": format!("step {n} of worker {id}")}),
        );
        let body = serde_json::json!({"model": MODEL, "max_tokens": 32000, "stream": false, "messages": messages});
        let start = Instant::now();
        let response = client
            .post(format!("{}/v1/messages", gw.url))
            .header("x-multi-cursor-token", &gw.token)
            .header("x-claude-code-session-id", "load-session")
            .header("x-claude-code-agent-id", format!("worker-{id}"))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .unwrap();
        let status = response.status();
        let answer: serde_json::Value = serde_json::from_str(&response.text().unwrap()).unwrap();
        times.push(start.elapsed());
        assert!(
            status.is_success(),
            "worker {id} turn {n}: {status} {answer}"
        );
        let text = answer["content"][0]["text"].as_str().unwrap().to_string();
        messages.push(serde_json::json!({"role": "assistant", "content": text}));
        n += 1;
    }
    (times, n)
}

fn passthrough(url: &str, token: Option<&str>, until: Instant) -> Vec<Duration> {
    let client = reqwest::blocking::Client::new();
    let body = r#"{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}"#;
    let mut times = Vec::new();
    while Instant::now() < until {
        let mut request = client
            .post(format!("{url}/v1/messages"))
            .header("content-type", "application/json")
            .body(body);
        if let Some(token) = token {
            request = request.header("x-multi-cursor-token", token);
        }
        let start = Instant::now();
        let response = request.send().unwrap();
        assert!(response.status().is_success());
        let _ = response.bytes().unwrap();
        times.push(start.elapsed());
        std::thread::sleep(Duration::from_millis(5));
    }
    times
}

fn main() {
    let secs: u64 = std::env::var("LOAD_BENCH_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let workers: usize = std::env::var("LOAD_BENCH_WORKERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let upstream = start_upstream();
    let gw = Arc::new(start_gateway(upstream));
    println!(
        "load: {workers} Cursor workers + {PASSTHROUGH_CLIENTS} passthrough clients (half through the gateway, half direct) for {secs} s"
    );
    let until = Instant::now() + Duration::from_secs(secs);
    let turns = Arc::new(Mutex::new(Vec::new()));
    let mut handles = Vec::new();
    for id in 0..workers {
        let (gw, turns) = (Arc::clone(&gw), Arc::clone(&turns));
        handles.push(std::thread::spawn(move || {
            let (times, n) = worker(&gw, id, until);
            turns.lock().unwrap().push((times, n));
        }));
    }
    let through = Arc::new(Mutex::new(Vec::new()));
    let direct = Arc::new(Mutex::new(Vec::new()));
    for k in 0..PASSTHROUGH_CLIENTS {
        let gw = Arc::clone(&gw);
        let (through, direct) = (Arc::clone(&through), Arc::clone(&direct));
        handles.push(std::thread::spawn(move || {
            if k % 2 == 0 {
                let times = passthrough(&gw.url, Some(&gw.token), until);
                through.lock().unwrap().extend(times);
            } else {
                let times = passthrough(&format!("http://{upstream}"), None, until);
                direct.lock().unwrap().extend(times);
            }
        }));
    }
    for handle in handles {
        handle.join().unwrap();
    }
    let elapsed = Duration::from_secs(secs);

    let turns = turns.lock().unwrap();
    let answered: usize = turns.iter().map(|(_, n)| n).sum();
    let mut all: Vec<Duration> = turns.iter().flat_map(|(t, _)| t.iter().copied()).collect();
    all.sort();
    println!(
        "cursor turns: {answered} answered, {:.1} turns/s, latency p50 {:.1} ms, p99 {:.1} ms",
        answered as f64 / elapsed.as_secs_f64(),
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99))
    );
    let mut through = through.lock().unwrap().clone();
    let mut direct = direct.lock().unwrap().clone();
    through.sort();
    direct.sort();
    println!(
        "passthrough under load: {} requests; through the gateway p50 {:.3} ms p99 {:.3} ms | direct p50 {:.3} ms p99 {:.3} ms | added p50 {:.3} ms p99 {:.3} ms",
        through.len(),
        ms(percentile(&through, 0.5)),
        ms(percentile(&through, 0.99)),
        ms(percentile(&direct, 0.5)),
        ms(percentile(&direct, 0.99)),
        ms(percentile(&through, 0.5).saturating_sub(percentile(&direct, 0.5))),
        ms(percentile(&through, 0.99).saturating_sub(percentile(&direct, 0.99)))
    );
    println!(
        "gateway peak RSS (VmHWM): {:.1} MB",
        status_kb(gw.pid, "VmHWM") as f64 / 1024.0
    );

    // Nothing lost or doubled: one agent run per answered turn.
    let runs = std::fs::read_to_string(&gw.agent_log)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"kind\":\"turn\""))
        .count();
    assert_eq!(runs, answered, "agent runs vs answered turns");
    // Every record consistent.
    let mut records = 0;
    for entry in std::fs::read_dir(gw.state.join("sessions")).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".v3.json") {
            continue;
        }
        records += 1;
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(record["lastOutcome"], "completed", "{}", path.display());
        assert_eq!(record["interrupted"], false, "{}", path.display());
        assert!(record["pendingRun"].is_null(), "{}", path.display());
        assert!(record["chatId"].is_string(), "{}", path.display());
        assert!(record["replay"]["key"].is_string(), "{}", path.display());
    }
    assert_eq!(records, workers, "one record per worker");
    println!(
        "checked: {runs} agent runs for {answered} answered turns; {records} records consistent"
    );
}
