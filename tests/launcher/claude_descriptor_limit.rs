//! The in-process gateway raises the process's soft descriptor limit (it may hold many
//! connections); Claude Code, started by the launcher or by the wrapper, gets the limit they
//! were started with from its first instruction, not the raised one.

use std::path::Path;

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::multi_cursor_bin;
use multi_cursor_test_support::wrapper;

use launcher::Launch;

/// The soft limit both doors are started with, under a higher hard limit.
const SOFT: u64 = 1024;

fn hard_limit() -> u64 {
    let output = std::process::Command::new("sh")
        .args(["-c", "ulimit -Hn"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let hard = if text == "unlimited" {
        u64::MAX
    } else {
        text.parse().unwrap()
    };
    assert!(
        hard > SOFT,
        "this test needs a hard descriptor limit above {SOFT} (got {hard})"
    );
    hard
}

/// The scripted `claude` of [`Launch::scripted`].
fn scripted_claude(launch: &Launch) -> std::path::PathBuf {
    launch.dir.path().join("bin/claude")
}

/// Runs `door` (with `args`) under `prlimit --nofile=1024:<hard>` and returns the soft limit
/// the scripted `claude` saw.
fn claude_limit(launch: &Launch, door: &Path, args: &[&std::ffi::OsStr]) -> String {
    let hard = hard_limit();
    let hard = if hard == u64::MAX {
        "unlimited".to_string()
    } else {
        hard.to_string()
    };
    let output = wrapper::command(launch, Path::new("prlimit"))
        .arg(format!("--nofile={SOFT}:{hard}"))
        .arg("--")
        .arg(door)
        .args(args)
        .env("MULTI_CURSOR_CLAUDE", scripted_claude(launch))
        .env("FAKE_CLAUDE_DUMP", &launch.dump)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    launch
        .dumped("nofile")
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[test]
fn the_launcher_gives_claude_the_original_limit() {
    let launch = Launch::scripted();
    let seen = claude_limit(
        &launch,
        &multi_cursor_bin(),
        &["-p".as_ref(), "hi".as_ref()],
    );
    assert_eq!(seen, SOFT.to_string());
}

#[test]
fn the_wrapper_gives_claude_the_original_limit() {
    let launch = Launch::scripted();
    let script = scripted_claude(&launch);
    let seen = claude_limit(
        &launch,
        &wrapper::wrapper_bin(),
        &[script.as_os_str(), "-p".as_ref(), "hi".as_ref()],
    );
    assert_eq!(seen, SOFT.to_string());
}
