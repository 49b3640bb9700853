//! `end_stray_group` ends a group whose leader still has the recorded start time and carries a
//! run marker, and leaves a group alone when it does not (the pid was reused by a stranger).

use multi_cursor_test_support::process as process_support;

use std::process::Command;
use std::time::Duration;

use multi_cursor::cursor::process::end_stray_group;
use multi_cursor::cursor::process::process_start_time;
use nix::sys::signal::Signal;
use nix::sys::signal::killpg;
use nix::unistd::Pid;
use process_support::assert_group_gone;
use process_support::group_gone;

/// `sleep 30` leading its own group with a run marker in its environment, as the gateway's
/// agent children have, reaped by a thread as soon as it dies (as PID 1 would reap a real
/// stray). Returns its pid and the reaper.
fn sleeper() -> (i32, std::thread::JoinHandle<std::process::ExitStatus>) {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sleep")
        .arg("30")
        .env("MULTI_CURSOR_RUN_MARKER", "stray-test")
        .process_group(0)
        .spawn()
        .expect("spawn sleep");
    let pid = i32::try_from(child.id()).expect("pid fits i32");
    let reaper = std::thread::spawn(move || child.wait().expect("wait sleep"));
    (pid, reaper)
}

#[tokio::test(flavor = "multi_thread")]
async fn matching_start_time_ends_the_group() {
    use std::os::unix::process::ExitStatusExt;
    let (pgid, reaper) = sleeper();
    let start = process_start_time(pgid).expect("start time");
    assert!(end_stray_group(pgid, start).await);
    assert_group_gone(pgid, Duration::from_secs(2)).await;
    let status = reaper.join().unwrap();
    assert!(status.signal().is_some(), "killed by a signal: {status:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn other_start_time_is_left_alone() {
    let (pgid, reaper) = sleeper();
    let start = process_start_time(pgid).expect("start time");
    assert!(!end_stray_group(pgid, start + 1).await);
    assert!(!end_stray_group(pgid, start.saturating_sub(1)).await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!group_gone(pgid), "the stranger's group is untouched");
    killpg(Pid::from_raw(pgid), Signal::SIGKILL).unwrap();
    reaper.join().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn absent_or_reserved_groups_are_not_touched() {
    assert!(!end_stray_group(0, 1).await);
    assert!(!end_stray_group(1, process_start_time(1).unwrap_or(1)).await);
}
