//! Stalls, ignored SIGTERM, and a lingering grandchild in the same process group: only a
//! SIGKILL to the whole group ends them.

use crate::common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use common::Scratch;
use common::fake;
use common::send_signal;

/// Whether `pid` is alive (a zombie counts as dead).
fn alive(pid: u32) -> bool {
    let stat = Path::new("/proc").join(pid.to_string()).join("stat");
    match std::fs::read_to_string(stat) {
        Ok(text) => text
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits up to `limit` for `condition`.
fn eventually(limit: Duration, condition: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    condition()
}

#[cfg(target_os = "linux")]
#[test]
fn only_a_group_sigkill_ends_a_stalled_run_and_its_lingerer() {
    let scratch = Scratch::new("group-kill");
    let pidfile = scratch.join("lingerer.pid");
    let scenario = scratch.write(
        "scenario",
        "#!ignore-signals\n#!spawn-lingerer stdio=null\n{\"type\":\"result\"}\n#!stall\n",
    );
    let mut child = fake()
        .args(["-p", "--trust"])
        .env("FAKE_AGENT_SCENARIO", &scenario)
        .env("FAKE_AGENT_LINGERER_PIDFILE", &pidfile)
        .env("FAKE_AGENT_MAX_LIFETIME_MS", "20000")
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    assert!(eventually(Duration::from_secs(2), || pidfile.exists()));
    let lingerer: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(alive(lingerer));

    send_signal("TERM", &child.id().to_string());
    send_signal("INT", &child.id().to_string());
    std::thread::sleep(Duration::from_millis(150));
    assert!(
        child.try_wait().unwrap().is_none(),
        "SIGTERM/SIGINT ended it"
    );

    send_signal("KILL", &format!("-{}", child.id()));
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert!(
        eventually(Duration::from_secs(1), || !alive(lingerer)),
        "the lingerer survived the group kill"
    );
}

#[test]
fn exit_codes_and_stderr_come_from_the_scenario() {
    let scratch = Scratch::new("exit-code");
    let scenario = scratch.write("scenario", "out\n#!stderr bad thing\n#!exit 7\nnever\n");
    let output = fake()
        .args(["-p", "--trust"])
        .env("FAKE_AGENT_SCENARIO", &scenario)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(7));
    assert_eq!(output.stdout, b"out\n");
    assert_eq!(output.stderr, b"bad thing\n");
}

#[test]
fn keep_alive_outlives_the_closed_stdout() {
    let scratch = Scratch::new("keep-alive");
    let scenario = scratch.write("scenario", "done\n#!close-stdout\n#!keep-alive 300\n");
    let started = Instant::now();
    let output = fake()
        .args(["-p", "--trust"])
        .env("FAKE_AGENT_SCENARIO", &scenario)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(output.stdout, b"done\n");
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[test]
fn huge_lines_are_exact_and_valid_json() {
    let scratch = Scratch::new("huge");
    let scenario = scratch.write(
        "scenario",
        "#!huge-line 3000000 tool_call\n#!huge-line 2000000\n",
    );
    let output = fake()
        .args(["-p", "--trust"])
        .env("FAKE_AGENT_SCENARIO", &scenario)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
    let lines: Vec<&[u8]> = output.stdout.split(|b| *b == b'\n').collect();
    assert_eq!(
        lines.len(),
        4,
        "started, completed, assistant, and the empty tail"
    );
    assert_eq!(lines[1].len(), 3_000_000);
    assert_eq!(lines[2].len(), 2_000_000);
    for line in &lines[..3] {
        serde_json::from_slice::<serde_json::Value>(line).unwrap();
    }
}
