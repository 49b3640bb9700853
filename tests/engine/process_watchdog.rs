//! The watchdog ends a process group when only its pipe closes (what the kernel does when the
//! gateway dies, SIGKILL included): SIGTERM, then SIGKILL for what ignores SIGTERM. It never
//! signals a group whose leader is not the recorded process, and leaves a group alone while the
//! pipe is open.

use multi_cursor_test_support::process as process_support;

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

use multi_cursor::cursor::process::process_start_time;
use multi_cursor::cursor::process::watchdog::Target;
use multi_cursor::cursor::process::watchdog::Watchdog;
use process_support::assert_group_gone;
use process_support::group_gone;
use process_support::live_members;
use process_support::pid_dead;

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
    assert!(pid_dead(sleeper), "the background sleep {sleeper} survived");
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
