//! Whether a process group is still one of our runs, and ending it when it provably is.
//!
//! A gateway that restarts after a crash finds, in a session record, the process group of a
//! turn it left running: the leader's pid, its start time and the run's random marker
//! ([`RUN_MARKER_ENV`] in the child's environment). It ends that group only when the leader
//! still has the recorded start time *and* its environment at exec carries exactly the recorded
//! marker, so neither a stranger that reused the pid nor a process a forged record names (with
//! its exact start time) is ever signalled. A record without a marker, or with an empty one,
//! proves nothing and is never acted on.
//!
//! The facts come from the platform: `/proc` on Linux, `proc_pidinfo` and `sysctl`
//! `KERN_PROCARGS2` on macOS; on Windows only the start time (`GetProcessTimes`), so no marker
//! is ever proven there and nothing is signalled (the Job Object of the gateway that started a
//! run already ended it with that gateway); elsewhere nothing can be proven either.

use std::time::Duration;

use tokio::time::Instant;

use super::KILL_STEP;
use crate::cursor::spawn::group_alive;
use crate::cursor::spawn::signal_group;
use crate::env::RUN_MARKER_ENV;
use crate::platform as os;
use crate::platform::Stop;
use crate::platform::parse::join_words;
use crate::platform::parse::nul_separated;

/// The start time of process `pid`, to recognise a recorded group later: clock ticks since
/// boot on Linux (`/proc/<pid>/stat` field 22), microseconds since the epoch on macOS
/// (`proc_pidinfo`). Only compared with a value recorded on the same machine. `None` when the
/// process is gone or the platform cannot tell.
pub fn process_start_time(pid: i32) -> Option<u64> {
    os::start_time(pid)
}

/// The command line of `pid` as a person reads it (arguments joined by spaces), when the
/// platform shows it (`/proc/<pid>/cmdline` on Linux, `KERN_PROCARGS2` on macOS): doctor names
/// a lock's holder with it.
pub(crate) fn command_line(pid: u32) -> Option<String> {
    let pid = i32::try_from(pid).ok()?;
    let raw = os::cmdline(pid)?;
    join_words(nul_separated(&raw))
}

/// True when `environ` (NUL-separated `NAME=value` entries, as `/proc/<pid>/environ` holds
/// them) sets `RUN_MARKER_ENV` to exactly `marker`. An empty marker is never carried: it
/// would prove nothing. Pure.
pub fn environ_carries(environ: &[u8], marker: &str) -> bool {
    if marker.is_empty() {
        return false;
    }
    let prefix = format!("{RUN_MARKER_ENV}=");
    nul_separated(environ)
        .filter_map(|entry| entry.strip_prefix(prefix.as_bytes()))
        .any(|value| value == marker.as_bytes())
}

/// Whether process `pid`'s environment carries `marker` (see [`environ_carries`]); false when
/// it cannot be read (gone, another user's, or a platform that cannot tell).
fn leader_carries(pid: i32, marker: &str) -> bool {
    os::environ(pid).is_some_and(|environ| environ_carries(&environ, marker))
}

/// Ends a process group left behind by an earlier gateway, but only when its leader still has
/// the recorded start time and carries the recorded `marker` in its environment (never a
/// stranger that reused the pid, nor a process a forged record names with its start time).
/// A record without a marker (written by a release that set none) or with an empty one is
/// never signalled. Returns true when a group was found and ended.
pub async fn end_stray_run(pgid: i32, recorded_start: u64, marker: Option<&str>) -> bool {
    match marker {
        Some(marker) if !marker.is_empty() => end_marked_group(pgid, recorded_start, marker).await,
        _ => false,
    }
}

/// Ends group `pgid` (SIGINT, SIGTERM, SIGKILL, [`KILL_STEP`] apart) once its leader is proven
/// ours: the recorded start time and the exact `marker`. Stops as soon as the group is gone or
/// the leader is no longer the recorded process.
async fn end_marked_group(pgid: i32, recorded_start: u64, marker: &str) -> bool {
    let ours = |pgid| process_start_time(pgid) == Some(recorded_start);
    if pgid <= 1 || !ours(pgid) || !leader_carries(pgid, marker) {
        return false;
    }
    for signal in [Stop::Interrupt, Stop::Terminate, Stop::Kill] {
        if !signal_group(pgid, signal) {
            return true;
        }
        let until = Instant::now() + KILL_STEP;
        while Instant::now() < until {
            if !group_alive(pgid) || !ours(pgid) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_start_time_and_command_line_are_readable() {
        let me = i32::try_from(std::process::id()).unwrap();
        assert!(process_start_time(me).is_some());
        match command_line(std::process::id()) {
            Some(line) => assert!(!line.is_empty()),
            None if !crate::platform::COMMAND_LINES_READABLE => {
                eprintln!("command line not checked: this system does not show it");
            }
            None => panic!("no command line for this process"),
        }
        assert_eq!(process_start_time(0), None);
        assert_eq!(command_line(u32::MAX), None);
    }

    #[test]
    fn the_marker_is_found_only_as_a_whole_entry() {
        let env = b"PATH=/bin\0MULTI_CURSOR_RUN_MARKER=abc123\0HOME=/h\0";
        assert!(environ_carries(env, "abc123"));
        assert!(!environ_carries(env, "abc12"));
        assert!(!environ_carries(env, "abc1234"));
        assert!(!environ_carries(env, ""));
        assert!(!environ_carries(b"", ""));
        assert!(!environ_carries(b"MULTI_CURSOR_RUN_MARKER=\0", ""));
        assert!(!environ_carries(
            b"X_MULTI_CURSOR_RUN_MARKER=abc123\0",
            "abc123"
        ));
        assert!(!environ_carries(
            b"NOTE=MULTI_CURSOR_RUN_MARKER=abc123",
            "abc123"
        ));
        assert!(environ_carries(b"MULTI_CURSOR_RUN_MARKER=abc123", "abc123"));
    }

    #[tokio::test]
    async fn a_record_without_a_proven_marker_never_signals() {
        let me = i32::try_from(std::process::id()).unwrap();
        let start = process_start_time(me).unwrap();
        assert!(!end_stray_run(me, start, None).await);
        assert!(!end_stray_run(me, start, Some("")).await);
        // This test process carries no marker at all: no marker can be proven on it.
        assert!(!end_stray_run(me, start, Some("00000000000000000000000000000000")).await);
    }
}
