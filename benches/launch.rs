//! Launcher start-up: time from starting `multi-cursor -p hi` to Claude Code's process running,
//! versus starting that same process directly (the baseline every launch pays anyway).
//!
//! The stand-in for `claude` is this bench executable itself (run with `LAUNCH_BENCH_STANDIN=1`):
//! it answers `--version` with `2.1.328 (Claude Code)`, and otherwise writes the wall-clock time
//! at which it started (ns since the epoch) to `$LAUNCH_BENCH_STAMP` and exits. The launcher is
//! signed in through `ANTHROPIC_API_KEY` (so it never asks `claude auth status`), and its state
//! folder holds a catalog cache for the configured agent (this executable again, which answers
//! `--list-models` with three models) and, after the warm-up, the cached `claude --version`: the goal is < 50 ms added with both caches warm. One cold launch (no
//! caches: `agent --list-models` and `claude --version` are run) is printed for reference.
//!
//! The same for the wrapper, `multi-cursor-claude`, started as the VS Code panel's Agent SDK
//! starts it (`multi-cursor-claude <claude> <the SDK's stream-json flags>`), against starting
//! the stand-in with those flags directly: time until `claude` runs, by which point the wrapper
//! has read the caches, bound its in-process gateway, written the settings file and spawned
//! `claude` (the stand-in exits at once, so Claude Code's own start-up is not in either figure).
//!
//! `cargo bench --bench launch` (set `LAUNCH_BENCH_N` to change the 40 iterations).

// A benchmark or tool that cannot set up reports it by panicking.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

const WARM_UP: usize = 3;
const DEFAULT_N: usize = 40;
const GOAL_MS: f64 = 50.0;

/// What the Agent SDK 0.3.333 passes when the VS Code panel starts a session on a Cursor row.
const SDK_FLAGS: [&str; 8] = [
    "--output-format",
    "stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
    "--permission-prompt-tool=stdio",
    "--permission-mode=bypassPermissions",
    "--model=multi/cursor/default",
];

const LISTING: &str = "Available models\n\nauto - Auto (current, default)\ncomposer-2.5 - Composer 2.5\ncursor-grok-4.7 - Grok 4.7\n";

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default()
}

/// The stand-in (`claude` and `agent`); returns true when this process is it.
fn play_stand_in() -> bool {
    if std::env::var_os("LAUNCH_BENCH_STANDIN").is_none() {
        return false;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list-models") {
        print!("{LISTING}");
    } else if args.first().map(String::as_str) == Some("--version") {
        println!("2.1.328 (Claude Code)");
    } else if args.first().map(String::as_str) == Some("--help") {
        // As `agent`, it must read as Cursor's CLI (the launcher skips another vendor's).
        println!("Usage: agent [options] [command] [prompt...]\n\nStart the Cursor Agent");
    } else if let Ok(stamp) = std::env::var("LAUNCH_BENCH_STAMP") {
        let _ = std::fs::write(stamp, now_ns().to_string());
    }
    true
}

struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    me: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().to_path_buf();
        for sub in ["home", "tmp", "state", "project"] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        Setup {
            _dir: dir,
            root,
            me: std::env::current_exe().expect("bench executable"),
        }
    }

    fn stamp(&self) -> PathBuf {
        self.root.join("stamp")
    }

    /// `program -p hi` with the isolated environment (the stand-in's variables included).
    fn command(&self, program: &Path) -> Command {
        let mut command = self.bare(program);
        command.args(["-p", "hi"]);
        command
    }

    /// `program [<the stand-in>] <SDK flags>`, as the panel starts the wrapper (`wrapped`) or
    /// Claude Code itself.
    fn sdk_command(&self, program: &Path, wrapped: bool) -> Command {
        let mut command = self.bare(program);
        if wrapped {
            command.arg(&self.me);
        }
        command.args(SDK_FLAGS);
        command
    }

    /// `program` with the isolated environment and no arguments.
    fn bare(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(self.root.join("project"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.root.join("home"))
            .env("TMPDIR", self.root.join("tmp"))
            .env("MULTI_CURSOR_STATE_DIR", self.root.join("state"))
            .env("MULTI_CURSOR_CLAUDE", &self.me)
            .env("MULTI_CURSOR_AGENT", &self.me)
            .env("MULTI_CURSOR_UPSTREAM", "http://127.0.0.1:9")
            .env("ANTHROPIC_API_KEY", "sk-bench")
            .env("LAUNCH_BENCH_STAMP", self.stamp())
            .env("LAUNCH_BENCH_STANDIN", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        command
    }

    /// Milliseconds from spawning `command` to the stand-in `claude` writing its stamp.
    fn time_to_claude(&self, mut command: Command) -> f64 {
        let _ = std::fs::remove_file(self.stamp());
        let started = now_ns();
        let status = command.status().expect("run");
        assert!(status.success(), "{command:?} failed: {status}");
        let stamp: u128 = std::fs::read_to_string(self.stamp())
            .expect("claude did not run")
            .trim()
            .parse()
            .expect("stamp");
        (stamp.saturating_sub(started)) as f64 / 1e6
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn summary(name: &str, mut samples: Vec<f64>) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let (p50, p90) = (percentile(&samples, 0.5), percentile(&samples, 0.9));
    println!(
        "{name:<42} p50 {p50:7.2} ms   p90 {p90:7.2} ms   min {:7.2} ms   (n={})",
        samples[0],
        samples.len()
    );
    (p50, p90)
}

fn main() {
    if play_stand_in() {
        return;
    }
    let n = std::env::var("LAUNCH_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_N);
    let launcher = PathBuf::from(env!("CARGO_BIN_EXE_multi-cursor"));
    let setup = Setup::new();

    let cold = setup.time_to_claude(setup.command(&launcher));
    println!("cold launch (no catalog or version cache)   {cold:7.2} ms to claude");
    assert!(
        setup.root.join("state/catalog.json").exists(),
        "the cold launch cached the catalog"
    );

    for _ in 0..WARM_UP {
        setup.time_to_claude(setup.command(&launcher));
        setup.time_to_claude(setup.command(&setup.me));
    }
    let mut direct = Vec::with_capacity(n);
    let mut launched = Vec::with_capacity(n);
    for _ in 0..n {
        direct.push(setup.time_to_claude(setup.command(&setup.me)));
        launched.push(setup.time_to_claude(setup.command(&launcher)));
        std::thread::sleep(Duration::from_millis(5));
    }
    let (d50, d90) = summary("claude started directly (baseline)", direct);
    let (l50, l90) = summary("claude started by multi-cursor (cached)", launched);
    println!(
        "added by the launcher: p50 {:.2} ms, p90 {:.2} ms (goal < {GOAL_MS} ms from start to spawning claude)",
        l50 - d50,
        l90 - d90
    );

    let wrapper = PathBuf::from(env!("CARGO_BIN_EXE_multi-cursor-claude"));
    for _ in 0..WARM_UP {
        setup.time_to_claude(setup.sdk_command(&wrapper, true));
        setup.time_to_claude(setup.sdk_command(&setup.me, false));
    }
    let mut direct = Vec::with_capacity(n);
    let mut wrapped = Vec::with_capacity(n);
    for _ in 0..n {
        direct.push(setup.time_to_claude(setup.sdk_command(&setup.me, false)));
        wrapped.push(setup.time_to_claude(setup.sdk_command(&wrapper, true)));
        std::thread::sleep(Duration::from_millis(5));
    }
    let (d50, d90) = summary("claude (SDK flags) started directly", direct);
    let (w50, w90) = summary("claude started by multi-cursor-claude", wrapped);
    println!(
        "added by the wrapper: p50 {:.2} ms, p90 {:.2} ms, ratio p50 {:.1}x (goal < {GOAL_MS} ms from start to spawning claude)",
        w50 - d50,
        w90 - d90,
        w50 / d50
    );
}
