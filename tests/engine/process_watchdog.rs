//! The watchdog ends a process group when only its pipe closes (what the kernel does when the
//! gateway dies, SIGKILL included): SIGTERM, then SIGKILL for what ignores SIGTERM. It never
//! signals a group whose leader is not the recorded process, and leaves a group alone while the
//! pipe is open.

use multi_cursor_test_support::process as process_support;

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

use multi_cursor::cursor::process::process_start_time;
use multi_cursor::platform::process_ended;
use multi_cursor::platform::watchdog::Target;
use multi_cursor::platform::watchdog::Watchdog;
use process_support::assert_group_gone;
use process_support::group_gone;
use process_support::live_members;

/// A process group of `sh` and a `sleep` started in the background, both ignoring SIGTERM
/// (only SIGKILL ends them); returns (the leader's child handle, pgid, the background pid).
fn stubborn_group(dir: &std::path::Path) -> (std::process::Child, i32, i32) {
    let pidfile = dir.join("sleeper.pid");
    let child = Command::new("/bin/sh")
        .arg("-c")
        .arg(r#"trap '' TERM; sleep 120 & echo $! > "$1"; wait"#)
        .arg("sh")
        .arg(&pidfile)
        .process_group(0)
        .spawn()
        .unwrap();
    let pgid = child.id() as i32;
    assert!(multi_cursor_test_support::scenario::wait_for(
        10,
        || pidfile.exists() && !std::fs::read_to_string(&pidfile).unwrap().trim().is_empty()
    ));
    let sleeper = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    (child, pgid, sleeper)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_pipe_ends_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let (mut leader, pgid, sleeper) = stubborn_group(dir.path());
    let start = process_start_time(pgid).unwrap();
    let watchdog = Watchdog::guard(Target::group(pgid, start)).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        live_members(pgid).len(),
        2,
        "the group runs while the pipe is open"
    );
    drop(watchdog);
    // The leader is our child: reap it as it dies so it does not stay a zombie.
    let reaper = std::thread::spawn(move || leader.wait());
    assert_group_gone(pgid, Duration::from_secs(5)).await;
    assert!(
        process_ended(sleeper),
        "the background sleep {sleeper} survived"
    );
    reaper.join().unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_group_whose_leader_is_not_the_recorded_process_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (mut leader, pgid, _sleeper) = stubborn_group(dir.path());
    let start = process_start_time(pgid).unwrap();
    // Another start time: some other process that got the recorded pid.
    drop(Watchdog::guard(Target::group(pgid, start + 1)).unwrap());
    // The watchdog would have sent SIGKILL after its 2 s grace.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(!group_gone(pgid), "a group not proven ours was signalled");
    nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pgid),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    leader.wait().unwrap();
}

/// The inner test's name, run by [`a_group_that_took_the_id_in_the_grace_is_not_killed`].
const REUSE_INNER: &str = "process_watchdog::forced_reuse_inside_a_pid_namespace";

/// The third probe's forced reuse: after the watchdog's SIGTERM ended the group, a new process
/// took the freed pid and made a group of its own during the 2 s grace; the watchdog used to
/// SIGKILL it. Reuse is forced in a PID namespace of its own (`unshare --pid --fork
/// --mount-proc`, root only), where this harness runs [`REUSE_INNER`] as the namespace's first
/// process and sets the next pid through `/proc/sys/kernel/ns_last_pid`.
#[test]
fn a_group_that_took_the_id_in_the_grace_is_not_killed() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: forcing a pid's reuse needs root (a PID namespace of our own)");
        return;
    }
    let namespace = ["--pid", "--fork", "--mount-proc"];
    match Command::new("unshare").args(namespace).arg("true").output() {
        Ok(output) if output.status.success() => {}
        Ok(output) => {
            eprintln!(
                "skipped: unshare cannot make a PID namespace here: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
            return;
        }
        Err(error) => {
            eprintln!("skipped: unshare cannot be run: {error}");
            return;
        }
    }
    let output = Command::new("unshare")
        .args(namespace)
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", REUSE_INNER, "--include-ignored", "--nocapture"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{}\n{stdout}\n{stderr}",
        output.status
    );
}

#[test]
#[ignore = "run inside a PID namespace by a_group_that_took_the_id_in_the_grace_is_not_killed"]
fn forced_reuse_inside_a_pid_namespace() {
    use nix::sys::wait::WaitStatus;
    assert_eq!(
        std::process::id(),
        1,
        "runs only as the first process of a PID namespace of its own"
    );
    let sleeper = || {
        Command::new("sleep")
            .arg("120")
            .process_group(0)
            .spawn()
            .unwrap()
    };
    let mut first = sleeper();
    let pgid = first.id() as i32;
    let start = process_start_time(pgid).unwrap();
    // Start times count clock ticks: the new leader must start in a later tick than the first,
    // as it would after any real run (a reuse in the very tick the recorded leader started is
    // beyond what a start time tells apart).
    loop {
        let mut probe = Command::new("true").spawn().unwrap();
        let later = process_start_time(probe.id() as i32).is_some_and(|t| t > start);
        probe.wait().unwrap();
        if later {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The pipe closes: SIGTERM to the group, which ends it (the sleep is reaped at once).
    drop(Watchdog::guard(Target::group(pgid, start)).unwrap());
    first.wait().unwrap();
    std::fs::write("/proc/sys/kernel/ns_last_pid", (pgid - 1).to_string()).unwrap();
    let mut second = sleeper();
    assert_eq!(second.id() as i32, pgid, "the freed id was not taken");
    // The watchdog's helper was re-parented to this process (the namespace's init): it is
    // reaped when it has decided, before or after its grace.
    loop {
        let status = nix::sys::wait::waitpid(None, None).unwrap();
        match status {
            WaitStatus::Exited(pid, _) | WaitStatus::Signaled(pid, _, _)
                if pid.as_raw() == pgid =>
            {
                panic!("the group that took the id was ended by the watchdog: {status:?}")
            }
            WaitStatus::Exited(..) | WaitStatus::Signaled(..) => break,
            _ => {}
        }
    }
    // A SIGKILL sent before the helper exited decides how the new group ends, whatever comes
    // after it; this SIGTERM ends it only when there was none.
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pgid),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let ended = second.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&ended),
        Some(nix::libc::SIGTERM),
        "the group that took the id was ended by the watchdog: {ended:?}"
    );
}
