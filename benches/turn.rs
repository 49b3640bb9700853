//! Cost of the gateway around a Cursor turn, with the fake agent as Cursor.
//!
//! 1. Turn overhead: N sequential first turns (distinct `x-claude-code-session-id`) of
//!    `multi/cursor/composer-2.5` through `multi-cursor serve --permission-mode bypassPermissions`,
//!    non-streamed and streamed, versus running the fake agent directly with the argv and stdin
//!    the gateway gave it (read back from `FAKE_AGENT_LOG`) and reading its stdout to end-of-file.
//!    The scenario is the real capture `maestro-04_partial_output.ndjson`. Prints p50/p99 of each
//!    and the added p50/p99 (goal < 20 ms).
//! 2. Memory: 32 concurrent Cursor turns held open (init, some text, `#!sleep 3s`, result) while
//!    the gateway's `VmRSS` is sampled; prints the idle RSS before the load, the peak sampled RSS
//!    and `VmHWM` (goal < 64 MB). The fake agents are separate processes and are not counted.
//!
//! Binaries are taken from the bench's own target folder (`target/release/`), built if missing.
//!
//! `cargo bench --bench turn` (set `TURN_BENCH_N` to change the 50 iterations).

// A benchmark or tool that cannot set up reports it by panicking.
#![allow(clippy::expect_used)]

use std::io::Read;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::Instant;

use multi_cursor_test_support::bench::BenchGateway;
use multi_cursor_test_support::bench::binary;
use multi_cursor_test_support::bench::ms;
use multi_cursor_test_support::bench::percentile;
use multi_cursor_test_support::bench::status_kb;

const WARM_UP: usize = 5;
const DEFAULT_N: usize = 50;
const CONCURRENT: usize = 32;
const MODEL: &str = "multi/cursor/composer-2.5";
const PROMPT: &str = "Say 'Checking now.' then run 'cat sample.txt' with the shell tool, then tell me what it contained.";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream")
        .join(name)
}

/// One Cursor turn as a first turn of `session`; returns the elapsed time to the end of the
/// body and the body.
fn turn(
    gateway: &BenchGateway,
    client: &reqwest::blocking::Client,
    session: &str,
    stream: bool,
) -> (Duration, String) {
    let body = serde_json::json!({
        "model": MODEL,
        "max_tokens": 32000,
        "stream": stream,
        "messages": [{"role": "user", "content": [{"type": "text", "text": PROMPT}]}]
    })
    .to_string();
    let start = Instant::now();
    let response = client
        .post(format!("{}/v1/messages", gateway.url))
        .header("x-multi-cursor-token", &gateway.token)
        .header("content-type", "application/json")
        .header("anthropic-version", "2023-06-01")
        .header("x-claude-code-session-id", session)
        .body(body)
        .send()
        .expect("send turn");
    let status = response.status();
    let text = response.text().expect("read turn body");
    let elapsed = start.elapsed();
    assert!(status.is_success(), "status {status}: {text}");
    (elapsed, text)
}

/// The last turn the fake agent logged: (argv, stdin, cwd).
fn last_turn(gateway: &BenchGateway) -> (Vec<String>, String, PathBuf) {
    let log = std::fs::read_to_string(&gateway.agent_log).expect("read agent log");
    let call: serde_json::Value = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .rfind(|c| c["kind"] == "turn")
        .expect("a logged turn");
    let argv = call["argv"]
        .as_array()
        .expect("argv")
        .iter()
        .map(|a| a.as_str().expect("argv string").to_string())
        .collect();
    let stdin = call["stdin"].as_str().expect("stdin").to_string();
    let cwd = PathBuf::from(call["cwd"].as_str().expect("cwd"));
    (argv, stdin, cwd)
}

/// The baseline: the fake agent run directly, prompt on stdin, stdout read to end-of-file.
struct Direct<'a> {
    agent: &'a Path,
    argv: &'a [String],
    stdin: &'a str,
    cwd: &'a Path,
    home: &'a Path,
    scenario: &'a Path,
    log: &'a Path,
}

impl Direct<'_> {
    fn run(&self) -> (Duration, Vec<u8>) {
        let start = Instant::now();
        let mut child = Command::new(self.agent)
            .args(self.argv)
            .current_dir(self.cwd)
            .env("HOME", self.home)
            .env("FAKE_AGENT_SCENARIO", self.scenario)
            .env("FAKE_AGENT_LOG", self.log)
            .env_remove("CURSOR_API_KEY")
            .env_remove("CURSOR_AUTH_TOKEN")
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn fake agent");
        {
            let mut stdin = child.stdin.take().expect("agent stdin");
            stdin
                .write_all(self.stdin.as_bytes())
                .expect("write prompt");
        }
        let mut out = Vec::new();
        child
            .stdout
            .take()
            .expect("agent stdout")
            .read_to_end(&mut out)
            .expect("read agent stdout");
        let status = child.wait().expect("wait fake agent");
        let elapsed = start.elapsed();
        assert!(status.success(), "fake agent failed: {status}");
        (elapsed, out)
    }
}

fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(60))
        .tcp_nodelay(true)
        .no_proxy()
        .build()
        .expect("client")
}

fn overhead(gateway_bin: &Path, agent: &Path, n: usize) {
    let scenario = fixture("maestro-04_partial_output.ndjson");
    let gateway = BenchGateway::start(gateway_bin, agent, &scenario, "http://127.0.0.1:9");
    let client = client();

    // The first turn also tells us the exact argv and stdin the gateway gives the agent.
    let (_, json) = turn(&gateway, &client, "bench-probe", false);
    assert!(json.contains("Checking now."), "unexpected answer: {json}");
    let (argv, stdin, cwd) = last_turn(&gateway);
    println!("agent argv: {}", argv.join(" "));

    let direct_log = gateway.dir.path().join("direct-log.jsonl");
    let direct = Direct {
        agent,
        argv: &argv,
        stdin: &stdin,
        cwd: &cwd,
        home: &gateway.home,
        scenario: &scenario,
        log: &direct_log,
    };
    let (_, out) = direct.run();
    assert!(
        String::from_utf8_lossy(&out).contains("\"type\":\"result\""),
        "direct run gave no result line"
    );
    assert_eq!(
        gateway.workspace.canonicalize().ok(),
        cwd.canonicalize().ok()
    );

    for i in 0..WARM_UP {
        direct.run();
        turn(&gateway, &client, &format!("bench-warm-json-{i}"), false);
        turn(&gateway, &client, &format!("bench-warm-sse-{i}"), true);
    }

    let mut d = Vec::with_capacity(n);
    let mut j = Vec::with_capacity(n);
    let mut s = Vec::with_capacity(n);
    // Interleaved so all three see the same machine conditions.
    for i in 0..n {
        d.push(direct.run().0);
        let (t, body) = turn(&gateway, &client, &format!("bench-json-{i}"), false);
        assert!(body.contains("\"stop_reason\":\"end_turn\""), "{body}");
        j.push(t);
        let (t, body) = turn(&gateway, &client, &format!("bench-sse-{i}"), true);
        assert!(body.contains("event: message_stop"), "{body}");
        s.push(t);
    }
    d.sort();
    j.sort();
    s.sort();
    let (d50, d99) = (percentile(&d, 0.50), percentile(&d, 0.99));
    println!(
        "turn  n={n}: direct fake agent p50 {:.3} ms p99 {:.3} ms (baseline)",
        ms(d50),
        ms(d99)
    );
    for (name, v) in [("json", &j), ("sse", &s)] {
        let (g50, g99) = (percentile(v, 0.50), percentile(v, 0.99));
        println!(
            "turn  {name:<4} n={n}: via gateway p50 {:.3} ms p99 {:.3} ms; added p50 {:.3} ms, \
             p99 {:.3} ms (goal < 20 ms); ratio p50 {:.2}x",
            ms(g50),
            ms(g99),
            ms(g50) - ms(d50),
            ms(g99) - ms(d99),
            ms(g50) / ms(d50),
        );
    }
}

/// Number of live processes whose parent is `pid` (the agents the gateway has running).
fn children_of(pid: u32) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid …; comm may hold spaces, so split after the last ')'.
            stat.rsplit_once(')')
                .map(|(_, rest)| rest.split_whitespace().collect::<Vec<_>>())
                .is_some_and(|f| f.len() > 1 && f[0] != "Z" && f[1] == pid.to_string())
        })
        .count()
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

fn memory(gateway_bin: &Path, agent: &Path) {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = dir.path().join("held-open.scenario");
    std::fs::write(
        &scenario,
        concat!(
            r#"{"type":"system","subtype":"init","apiKeySource":"{{api_key_source}}","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}"#, "\n",
            r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"{{prompt_json}}"}]},"session_id":"{{chat_id}}"}"#, "\n",
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Working"}]},"session_id":"{{chat_id}}","timestamp_ms":1}"#, "\n",
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":" on it"}]},"session_id":"{{chat_id}}","timestamp_ms":2}"#, "\n",
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Working on it"}]},"session_id":"{{chat_id}}"}"#, "\n",
            "#!sleep 3s\n",
            r#"{"type":"result","subtype":"success","duration_ms":3000,"duration_api_ms":3000,"is_error":false,"result":"Working on it","session_id":"{{chat_id}}","request_id":"{{request_id}}","usage":{"inputTokens":10,"outputTokens":3,"cacheReadTokens":0,"cacheWriteTokens":0}}"#, "\n",
        ),
    )
    .expect("write scenario");

    let gateway = BenchGateway::start(gateway_bin, agent, &scenario, "http://127.0.0.1:9");
    // One turn first so start-up work (agent probes, first allocations) is in the idle figure.
    let warm = client();
    turn(&gateway, &warm, "bench-mem-warm", true);
    std::thread::sleep(Duration::from_millis(200));
    let (idle, idle_hwm) = (
        status_kb(gateway.pid, "VmRSS"),
        status_kb(gateway.pid, "VmHWM"),
    );

    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        let pid = gateway.pid;
        std::thread::spawn(move || {
            let (mut peak, mut most_agents) = (0u64, 0usize);
            while !done.load(Ordering::Relaxed) {
                peak = peak.max(status_kb(pid, "VmRSS"));
                most_agents = most_agents.max(children_of(pid));
                std::thread::sleep(Duration::from_millis(25));
            }
            (peak, most_agents)
        })
    };
    let start = Instant::now();
    // Scoped threads: every turn is joined (and the gateway then killed on drop) even if one fails.
    std::thread::scope(|scope| {
        for i in 0..CONCURRENT {
            let gateway = &gateway;
            scope.spawn(move || {
                let client = client();
                // Half streamed, half not: both kinds of response held open.
                let (_, body) = turn(gateway, &client, &format!("bench-mem-{i}"), i % 2 == 0);
                assert!(body.contains("on it"), "{body}");
            });
        }
    });
    let wall = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let (peak, most_agents) = sampler.join().expect("sampler");
    let (after, hwm) = (
        status_kb(gateway.pid, "VmRSS"),
        status_kb(gateway.pid, "VmHWM"),
    );
    println!(
        "memory: idle RSS {:.1} MB (VmHWM {:.1} MB) before load (baseline)",
        mb(idle),
        mb(idle_hwm)
    );
    println!(
        "memory: {CONCURRENT} concurrent turns held open {:.2} s, up to {most_agents} agents \
         in flight: peak sampled RSS {:.1} MB, VmHWM {:.1} MB (goal < 64 MB); added over idle \
         {:.1} MB; RSS after {:.1} MB",
        wall.as_secs_f64(),
        mb(peak),
        mb(hwm),
        mb(hwm.saturating_sub(idle)),
        mb(after),
    );
    println!("memory: gateway process only; the fake agent processes are separate and not counted");
}

fn main() {
    let n = std::env::var("TURN_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_N);
    let agent = binary("fake-agent", "fake-agent");
    let gateway = binary("multi-cursor", "multi-cursor");
    println!(
        "gateway {}; fake agent {}",
        gateway.display(),
        agent.display()
    );
    overhead(&gateway, &agent, n);
    memory(&gateway, &agent);
}
