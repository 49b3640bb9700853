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

use std::io::Read;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::path::PathBuf;
use std::process::Child;
use std::process::Command;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::Instant;

const WARM_UP: usize = 5;
const DEFAULT_N: usize = 50;
const CONCURRENT: usize = 32;
const MODEL: &str = "multi/cursor/composer-2.5";
const PROMPT: &str = "Say 'Checking now.' then run 'cat sample.txt' with the shell tool, then tell me what it contained.";

/// `target/<profile>/`: the bench executable lives in `target/<profile>/deps/`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .to_path_buf()
}

/// Path of `bin` in the target folder, built with `cargo build --release` if missing.
fn binary(package: &str, bin: &str) -> PathBuf {
    let path = target_dir().join(bin);
    if !path.exists() {
        println!(
            "{} missing: running cargo build --release -p {package} --bin {bin}",
            path.display()
        );
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "-p", package, "--bin", bin])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "building {bin} failed");
        assert!(
            path.exists(),
            "{} still missing after the build",
            path.display()
        );
    }
    path
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream")
        .join(name)
}

/// A running `multi-cursor serve`, killed on drop.
struct Gateway {
    url: String,
    token: String,
    pid: u32,
    agent_log: PathBuf,
    workspace: PathBuf,
    home: PathBuf,
    child: Child,
    dir: tempfile::TempDir,
}

impl Gateway {
    fn start(gateway: &Path, agent: &Path, scenario: &Path) -> Gateway {
        let dir = tempfile::tempdir().expect("tempdir");
        let ready = dir.path().join("ready.json");
        let agent_log = dir.path().join("agent-log.jsonl");
        let home = dir.path().join("home");
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(&home).expect("create home");
        std::fs::create_dir_all(&workspace).expect("create workspace");
        let child = Command::new(gateway)
            .arg("serve")
            .arg("--ready-file")
            .arg(&ready)
            .arg("--permission-mode")
            .arg("bypassPermissions")
            .current_dir(&workspace)
            .env("HOME", &home)
            .env("MULTI_CURSOR_STATE_DIR", dir.path().join("state"))
            .env("MULTI_CURSOR_AGENT", agent)
            .env("MULTI_CURSOR_UPSTREAM", "http://127.0.0.1:9")
            .env("FAKE_AGENT_LOG", &agent_log)
            .env("FAKE_AGENT_SCENARIO", scenario)
            .env_remove("CURSOR_API_KEY")
            .env_remove("CURSOR_AUTH_TOKEN")
            .env_remove("MULTI_CURSOR_APPROVE_MCPS")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn multi-cursor serve");
        let deadline = Instant::now() + Duration::from_secs(20);
        let info: serde_json::Value = loop {
            if let Ok(bytes) = std::fs::read(&ready)
                && let Ok(info) = serde_json::from_slice(&bytes)
            {
                break info;
            }
            assert!(Instant::now() < deadline, "gateway did not become ready");
            std::thread::sleep(Duration::from_millis(10));
        };
        Gateway {
            url: info["url"].as_str().expect("ready url").to_string(),
            token: info["token"].as_str().expect("ready token").to_string(),
            pid: info["pid"].as_u64().expect("ready pid") as u32,
            agent_log,
            workspace,
            home,
            child,
            dir,
        }
    }

    /// One Cursor turn as a first turn of `session`; returns the elapsed time to the end of the
    /// body and the body.
    fn turn(
        &self,
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
            .post(format!("{}/v1/messages", self.url))
            .header("x-multi-cursor-token", &self.token)
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
    fn last_turn(&self) -> (Vec<String>, String, PathBuf) {
        let log = std::fs::read_to_string(&self.agent_log).expect("read agent log");
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
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
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
    let gateway = Gateway::start(gateway_bin, agent, &scenario);
    let client = client();

    // The first turn also tells us the exact argv and stdin the gateway gives the agent.
    let (_, json) = gateway.turn(&client, "bench-probe", false);
    assert!(json.contains("Checking now."), "unexpected answer: {json}");
    let (argv, stdin, cwd) = gateway.last_turn();
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
        gateway.turn(&client, &format!("bench-warm-json-{i}"), false);
        gateway.turn(&client, &format!("bench-warm-sse-{i}"), true);
    }

    let mut d = Vec::with_capacity(n);
    let mut j = Vec::with_capacity(n);
    let mut s = Vec::with_capacity(n);
    // Interleaved so all three see the same machine conditions.
    for i in 0..n {
        d.push(direct.run().0);
        let (t, body) = gateway.turn(&client, &format!("bench-json-{i}"), false);
        assert!(body.contains("\"stop_reason\":\"end_turn\""), "{body}");
        j.push(t);
        let (t, body) = gateway.turn(&client, &format!("bench-sse-{i}"), true);
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

/// `VmRSS` and `VmHWM` of `pid`, in kB.
fn rss_kb(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
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

    let gateway = Gateway::start(gateway_bin, agent, &scenario);
    // One turn first so start-up work (agent probes, first allocations) is in the idle figure.
    let warm = client();
    gateway.turn(&warm, "bench-mem-warm", true);
    std::thread::sleep(Duration::from_millis(200));
    let (idle, idle_hwm) = rss_kb(gateway.pid);

    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        let pid = gateway.pid;
        std::thread::spawn(move || {
            let (mut peak, mut most_agents) = (0u64, 0usize);
            while !done.load(Ordering::Relaxed) {
                peak = peak.max(rss_kb(pid).0);
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
                let (_, body) = gateway.turn(&client, &format!("bench-mem-{i}"), i % 2 == 0);
                assert!(body.contains("on it"), "{body}");
            });
        }
    });
    let wall = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let (peak, most_agents) = sampler.join().expect("sampler");
    let (after, hwm) = rss_kb(gateway.pid);
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
