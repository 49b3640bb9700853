//! `end_stray_run` ends a group whose leader still has the recorded start time and carries the
//! recorded run marker, and leaves a group alone when it does not (the pid was reused by a
//! stranger, another run's marker, or a record without a marker).

use multi_cursor_test_support::process as process_support;

use std::process::Command;
use std::time::Duration;

use multi_cursor::cursor::process::end_stray_run;
use multi_cursor::cursor::process::environ_carries;
use multi_cursor::cursor::process::process_start_time;
use nix::sys::signal::Signal;
use nix::sys::signal::killpg;
use nix::unistd::Pid;
use process_support::assert_group_gone;
use process_support::group_gone;

/// The marker the sleeper carries, as a recorded `pendingRun` would name it.
const MARKER: &str = "stray-test";

/// `sleep 30` leading its own group with a run marker in its environment, as the gateway's
/// agent children have, reaped by a thread as soon as it dies (as PID 1 would reap a real
/// stray). Returns its pid and the reaper once the child's environment is readable: `spawn`
/// may return while the child is still inside `execve`, when `/proc/<pid>/environ` is empty
/// (a real stray was started long before a restarted gateway looks at it).
fn sleeper() -> (i32, std::thread::JoinHandle<std::process::ExitStatus>) {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sleep")
        .arg("30")
        .env("MULTI_CURSOR_RUN_MARKER", MARKER)
        .process_group(0)
        .spawn()
        .expect("spawn sleep");
    let pid = i32::try_from(child.id()).expect("pid fits i32");
    let reaper = std::thread::spawn(move || child.wait().expect("wait sleep"));
    let until = std::time::Instant::now() + Duration::from_secs(5);
    while !std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|environ| environ_carries(&environ, MARKER))
    {
        assert!(
            std::time::Instant::now() < until,
            "the sleeper's environment never showed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    (pid, reaper)
}

#[tokio::test(flavor = "multi_thread")]
async fn matching_start_time_ends_the_group() {
    use std::os::unix::process::ExitStatusExt;
    let (pgid, reaper) = sleeper();
    let start = process_start_time(pgid).expect("start time");
    assert!(end_stray_run(pgid, start, Some(MARKER)).await);
    assert_group_gone(pgid, Duration::from_secs(2)).await;
    let status = reaper.join().unwrap();
    assert!(status.signal().is_some(), "killed by a signal: {status:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn other_start_time_is_left_alone() {
    let (pgid, reaper) = sleeper();
    let start = process_start_time(pgid).expect("start time");
    assert!(!end_stray_run(pgid, start + 1, Some(MARKER)).await);
    assert!(!end_stray_run(pgid, start.saturating_sub(1), Some(MARKER)).await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!group_gone(pgid), "the stranger's group is untouched");
    killpg(Pid::from_raw(pgid), Signal::SIGKILL).unwrap();
    reaper.join().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn absent_or_reserved_groups_are_not_touched() {
    assert!(!end_stray_run(0, 1, Some(MARKER)).await);
    assert!(!end_stray_run(1, process_start_time(1).unwrap_or(1), Some(MARKER)).await);
}

#[tokio::test(flavor = "multi_thread")]
async fn another_marker_or_none_is_left_alone() {
    let (pgid, reaper) = sleeper();
    let start = process_start_time(pgid).expect("start time");
    // Another run's marker, a prefix of ours, and a record of the previous release (no marker).
    assert!(!end_stray_run(pgid, start, Some("other-run")).await);
    assert!(!end_stray_run(pgid, start, Some("stray")).await);
    assert!(!end_stray_run(pgid, start, None).await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !group_gone(pgid),
        "a group without the recorded marker is untouched"
    );
    killpg(Pid::from_raw(pgid), Signal::SIGKILL).unwrap();
    reaper.join().unwrap();
}
