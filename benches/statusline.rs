//! `multi-cursor statusline` end to end, as Claude Code runs it: from starting the process with
//! the status-line JSON on stdin to its exit, against a loopback server answering the spend
//! route (`GET /multi-cursor/spend/<session id>`) with a `SessionSpend`. The goal is < 50 ms.
//! For reference: the same process with no gateway in its environment (start, read stdin,
//! print nothing), `/bin/true` started the same way (the floor every process pays), and the
//! chained form with a user command `echo mine`.
//!
//! `cargo bench --bench statusline` (set `STATUSLINE_BENCH_N` to change the 200 iterations).

// A benchmark that cannot set up reports it by panicking.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::BufRead;
use std::io::BufReader;
use std::io::Write;
use std::net::TcpListener;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::spend::SessionSpend;
use multi_cursor::spend::TokenFigures;

const WARM_UP: usize = 5;
const DEFAULT_N: usize = 200;
const GOAL_MS: f64 = 50.0;
const SESSION: &str = "7d1c1e52-3f0a-4c1b-9f59-2b1f0e6a4c11";

/// Serves `spend` to every connection, HTTP/1.1 with `connection: close`, like the gateway.
fn serve(spend: &SessionSpend) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let body = serde_json::to_string(spend).unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                line.clear();
            }
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

/// One run of `program args` with `stdin`; its wall time and stdout.
fn run_once(
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: &[u8],
) -> (Duration, String) {
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    let output = child.wait_with_output().unwrap();
    (
        started.elapsed(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

/// Runs `n` times after a warm-up; prints and returns (p50, p90, p99, max) in ms.
fn measure(
    name: &str,
    n: usize,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: &[u8],
) -> (f64, f64, f64, f64) {
    for _ in 0..WARM_UP {
        run_once(program, args, env, stdin);
    }
    let mut times: Vec<f64> = (0..n)
        .map(|_| run_once(program, args, env, stdin).0.as_secs_f64() * 1000.0)
        .collect();
    times.sort_by(f64::total_cmp);
    let figures = (
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times[times.len() - 1],
    );
    println!(
        "{name:<44} p50 {:>6.2} ms  p90 {:>6.2} ms  p99 {:>6.2} ms  max {:>6.2} ms",
        figures.0, figures.1, figures.2, figures.3
    );
    figures
}

fn main() {
    let n = std::env::var("STATUSLINE_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_N);
    let exe = env!("CARGO_BIN_EXE_multi-cursor");
    let url = serve(&SessionSpend {
        session: SESSION.into(),
        model: Some("composer-2.5".into()),
        runs: 12,
        replays: 2,
        tokens: TokenFigures {
            input_tokens: 298_120,
            output_tokens: 17_804,
            estimated: false,
            ..TokenFigures::default()
        },
        live: None,
        budgets: Vec::new(),
    });
    let stdin = serde_json::json!({
        "session_id": SESSION,
        "model": {"id": "multi/cursor/composer-2.5", "display_name": "Composer 2.5 via Cursor"},
        "cwd": "/tmp",
        "context_window": {"total_input_tokens": 1000, "total_output_tokens": 100},
    })
    .to_string()
    .into_bytes();
    let env = [
        ("MULTI_CURSOR_GATEWAY_URL", url.as_str()),
        ("MULTI_CURSOR_GATEWAY_TOKEN", "bench-token"),
    ];
    let (_, line) = run_once(exe, &["statusline"], &env, &stdin);
    assert_eq!(
        line,
        "Cursor composer-2.5 · 12 runs · 298.1k in / 17.8k out\n"
    );
    println!("statusline, {n} runs each (line: {})", line.trim_end());

    let floor = measure(
        "/bin/true (process floor)",
        n,
        "/bin/true",
        &[],
        &[],
        &stdin,
    );
    let bare = measure(
        "statusline, no gateway",
        n,
        exe,
        &["statusline"],
        &[],
        &stdin,
    );
    let ours = measure(
        "statusline against the spend route",
        n,
        exe,
        &["statusline"],
        &env,
        &stdin,
    );
    let chained = measure(
        "statusline --chain 'echo mine'",
        n,
        exe,
        &["statusline", "--chain", "echo mine"],
        &env,
        &stdin,
    );
    println!(
        "our part end to end: p99 {:.2} ms (goal < {GOAL_MS} ms: {}); over the process floor p50 {:+.2} ms; over no gateway p50 {:+.2} ms; chained p50 {:.2} ms",
        ours.2,
        if ours.2 < GOAL_MS { "met" } else { "MISSED" },
        ours.0 - floor.0,
        ours.0 - bare.0,
        chained.0,
    );
}
