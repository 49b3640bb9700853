//! What a watchdog ends, the same on every system: one process, or the tree it leads (a Unix
//! process group, a Windows Job Object), recognised by its start time so a reused pid is never
//! ended. Each system's watchdog (`unix::watchdog`, `windows::watchdog`) ends it its own way.

use std::time::Duration;

use crate::platform::start_time as process_start_time;

/// How long a Cursor agent's tree has between the gentle and the hard end after we died
/// (SIGTERM then SIGKILL on Unix; on Windows the job ends it at once).
pub(crate) const GROUP_GRACE: Duration = Duration::from_secs(2);

/// How long Claude Code has between SIGTERM and SIGKILL after its launcher or wrapper died
/// (it saves its session on SIGTERM; on Windows the job ends it at once).
pub(crate) const CLAUDE_GRACE: Duration = Duration::from_secs(4);

/// What a watchdog ends: one process, or the tree it leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The process (and, for a group, the group's id).
    pub pid: i32,
    /// Its start time when it was started (`crate::platform::start_time`).
    pub start: u64,
    /// The whole tree `pid` leads, or only `pid`.
    pub group: bool,
    /// Between the gentle and the hard end.
    pub grace: Duration,
}

impl Target {
    /// The tree led by `pgid` (a Cursor agent and the tools it started).
    pub fn group(pgid: i32, start: u64) -> Target {
        Target {
            pid: pgid,
            start,
            group: true,
            grace: GROUP_GRACE,
        }
    }

    /// Process `pid` alone (Claude Code, which shares the launcher's process group).
    pub(crate) fn process(pid: i32, start: u64) -> Target {
        Target {
            pid,
            start,
            group: false,
            grace: CLAUDE_GRACE,
        }
    }

    /// The target of a child just started: `None` when its pid or start time cannot be read
    /// (then nothing could prove it ours later).
    pub(crate) fn of_child(pid: Option<u32>, group: bool) -> Option<Target> {
        let pid = i32::try_from(pid?).ok().filter(|p| *p > 1)?;
        let start = process_start_time(pid)?;
        Some(if group {
            Target::group(pid, start)
        } else {
            Target::process(pid, start)
        })
    }
}
