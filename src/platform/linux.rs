//! Process identity on Linux, from `/proc`: the start time (`/proc/<pid>/stat` field 22, clock
//! ticks since boot), the command line and the environment at exec (NUL-separated blobs).

use std::io::Read;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

use crate::platform::parse::stat_start_time_bytes;

/// The start time of `pid` in clock ticks since boot; `None` when it is gone or unreadable.
/// It allocates nothing (the path and the line live on the stack), so the watchdog can call it
/// in a forked child ([`super::unix::watchdog`]).
pub(super) fn start_time(pid: i32) -> Option<u64> {
    let mut path = [0u8; 32];
    let len = {
        let mut cursor = &mut path[..];
        write!(cursor, "/proc/{pid}/stat").ok()?;
        32 - cursor.len()
    };
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(&path[..len]));
    let mut file = std::fs::File::open(path).ok()?;
    // The line is a few hundred bytes: the command name is at most 64 bytes, the rest numbers.
    let mut stat = [0u8; 1024];
    let mut filled = 0;
    while filled < stat.len() {
        match file.read(&mut stat[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    stat_start_time_bytes(&stat[..filled])
}

/// `pid`'s arguments, NUL-separated (`/proc/<pid>/cmdline`).
pub(super) fn cmdline(pid: i32) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/cmdline")).ok()
}

/// `pid`'s environment at exec, NUL-separated `NAME=value` entries (`/proc/<pid>/environ`):
/// readable only for our own user's processes.
pub(super) fn environ(pid: i32) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/environ")).ok()
}
