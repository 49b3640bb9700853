//! Process identity on Linux, from `/proc`: the start time (`/proc/<pid>/stat` field 22, clock
//! ticks since boot), the command line and the environment at exec (NUL-separated blobs).

use super::parse::stat_start_time;

/// The start time of `pid` in clock ticks since boot; `None` when it is gone or unreadable.
pub fn start_time(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_start_time(&stat)
}

/// `pid`'s arguments, NUL-separated (`/proc/<pid>/cmdline`).
pub fn cmdline(pid: i32) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/cmdline")).ok()
}

/// `pid`'s environment at exec, NUL-separated `NAME=value` entries (`/proc/<pid>/environ`):
/// readable only for our own user's processes.
pub fn environ(pid: i32) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/environ")).ok()
}
