//! What the benches (`benches/*.rs`) share: the release binaries, a running `multi-cursor serve`
//! with the fake agent as Cursor, percentiles, and readings of `/proc/<pid>/status`. Called from
//! a bench executable, whose path says where the target folder is.

use std::path::Path;
use std::path::PathBuf;
use std::process::Child;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

/// `target/<profile>/`: a bench executable lives in `target/<profile>/deps/`.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench executable path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .to_path_buf()
}

/// `target/tmp/` (Cargo's `CARGO_TARGET_TMPDIR` for benches and tests), created if missing.
fn bench_tmp_dir() -> PathBuf {
    let dir = target_dir()
        .parent()
        .map_or_else(std::env::temp_dir, |target| target.join("tmp"));
    std::fs::create_dir_all(&dir).expect("create target/tmp");
    dir
}

/// Path of `bin` in the target folder, built with `cargo build --release` if missing.
pub fn binary(package: &str, bin: &str) -> PathBuf {
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

/// The `p` quantile (0..=1) of `sorted`, nearest rank.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// Milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A `kB` field of `/proc/<pid>/status` (`"VmRSS"`, `"VmHWM"`); 0 when unreadable.
pub fn status_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A running `multi-cursor serve --permission-mode bypassPermissions` with the fake agent as
/// Cursor replaying one scenario, in its own folder (HOME, workspace, state, agent log); killed
/// on drop.
pub struct BenchGateway {
    pub url: String,
    pub token: String,
    pub pid: u32,
    pub state: PathBuf,
    pub agent_log: PathBuf,
    pub workspace: PathBuf,
    pub home: PathBuf,
    pub dir: tempfile::TempDir,
    child: Child,
}

impl BenchGateway {
    /// Starts `gateway` (the release binary) with `agent` replaying `scenario`, passthrough
    /// going to `upstream`, and waits until it is ready.
    pub fn start(gateway: &Path, agent: &Path, scenario: &Path, upstream: &str) -> BenchGateway {
        let dir = tempfile::tempdir_in(bench_tmp_dir()).expect("tempdir");
        let ready = dir.path().join("ready.json");
        let agent_log = dir.path().join("agent-log.jsonl");
        let home = dir.path().join("home");
        let workspace = dir.path().join("workspace");
        let state = dir.path().join("state");
        std::fs::create_dir_all(&home).expect("create home");
        std::fs::create_dir_all(&workspace).expect("create workspace");
        let child = Command::new(gateway)
            .args([
                "serve",
                "--permission-mode",
                "bypassPermissions",
                "--ready-file",
            ])
            .arg(&ready)
            .current_dir(&workspace)
            .env("HOME", &home)
            .env("MULTI_CURSOR_STATE_DIR", &state)
            .env("MULTI_CURSOR_AGENT", agent)
            .env("MULTI_CURSOR_UPSTREAM", upstream)
            .env("FAKE_AGENT_LOG", &agent_log)
            .env("FAKE_AGENT_SCENARIO", scenario)
            // Benches start far more than 60 Cursor turns a minute: the rate guard is off.
            .env("MULTI_CURSOR_MAX_TURNS_PER_MINUTE", "0")
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
        BenchGateway {
            url: info["url"].as_str().expect("ready url").to_string(),
            token: info["token"].as_str().expect("ready token").to_string(),
            pid: info["pid"].as_u64().expect("ready pid") as u32,
            state,
            agent_log,
            workspace,
            home,
            dir,
            child,
        }
    }
}

impl Drop for BenchGateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
