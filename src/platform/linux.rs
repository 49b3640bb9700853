//! Process identity on Linux, from `/proc`: the start time (`/proc/<pid>/stat` field 22, clock
//! ticks since boot) and the state (field 3), the command line and the environment at exec
//! (NUL-separated blobs).

use std::io::Read;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

use crate::platform::parse::stat_start_time_bytes;
use crate::platform::parse::stat_state_bytes;

/// The start time of `pid` in clock ticks since boot; `None` when it is gone or unreadable.
/// It allocates nothing (the path and the line live on the stack), so the watchdog can call it
/// in a forked child ([`super::unix::watchdog`]).
pub(super) fn start_time(pid: i32) -> Option<u64> {
    let mut stat = [0u8; 1024];
    stat_start_time_bytes(read_stat(pid, &mut stat)?)
}

/// Whether `pid` is a zombie: it has ended and its parent has not collected it yet (state `Z`
/// in `/proc/<pid>/stat`).
pub(super) fn zombie(pid: i32) -> bool {
    let mut stat = [0u8; 1024];
    read_stat(pid, &mut stat).and_then(stat_state_bytes) == Some(b'Z')
}

/// `/proc/<pid>/stat` read into `stat`, without allocating. The line is a few hundred bytes:
/// the command name is at most 64 bytes, the rest numbers.
fn read_stat(pid: i32, stat: &mut [u8; 1024]) -> Option<&[u8]> {
    let mut path = [0u8; 32];
    let len = {
        let mut cursor = &mut path[..];
        write!(cursor, "/proc/{pid}/stat").ok()?;
        32 - cursor.len()
    };
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(&path[..len]));
    let mut file = std::fs::File::open(path).ok()?;
    let mut filled = 0;
    while filled < stat.len() {
        match file.read(&mut stat[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(&stat[..filled])
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
