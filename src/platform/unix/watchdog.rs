//! A watchdog process that ends what this process started when this process dies, however it
//! dies (SIGKILL included).
//!
//! [`Watchdog::guard`] forks a tiny helper (twice, so it is nobody's child to reap: it is
//! re-parented to init) holding only the read end of a pipe whose write end only this process
//! holds: it is `O_CLOEXEC` (no program we start inherits it) and every other helper closes it
//! at once. The helper starts a session of its own (no terminal signal reaches it: a Ctrl-C or
//! a hang-up in the launcher's terminal does not end it), closes every other descriptor
//! (it holds no terminal, socket or pipe of ours open) and waits for end-of-file. The kernel
//! closes the write end when this process ends, whatever ended it, and so does dropping the
//! [`Watchdog`]. At end-of-file the helper ends its [`Target`] — only when the target's leader
//! is still the process recorded (the same pid *and* start time, `crate::platform::start_time`):
//! SIGTERM, then SIGKILL after [`Target::grace`] while anything of it is left — and exits.
//! Dropped after the target ended normally, it finds the leader gone and exits at once.
//!
//! On Linux the helper is named `mc-watchdog` (`WATCHDOG_NAME`) in `ps`. It runs between
//! `fork` and `_exit` only: it allocates nothing, takes no lock and makes
//! only system calls (`setsid`, `prctl`, `sigaction`, `dup2`, `close`, `read`, `open`, `kill`,
//! `nanosleep`), so forking from a multi-threaded runtime is safe.
//!
//! A group is signalled as a whole once its leader was proven ours, also after the leader has
//! died: a process-group id is not given to a new process while any member of the group lives.
//! Before each look and before the SIGKILL the helper checks that the id is not held by a
//! stranger: a process with the group's pid but another start time took the id after the whole
//! group ended (a forced reuse), and its group is left alone.
//!
//! On macOS there is no `pipe2`: the pipe is made close-on-exec right after `pipe`, and a
//! program started by another thread in between would keep the write end (and the watchdog)
//! alive until it exits. Elsewhere (neither Linux nor macOS) no start time can be read, so the
//! helper never signals anything.

use std::os::fd::AsRawFd;
use std::os::fd::OwnedFd;
use std::os::fd::RawFd;
use std::time::Duration;

use nix::libc;

use crate::platform::start_time as process_start_time;
pub use crate::platform::watchdog_target::Target;

/// The helper's process name on Linux (`ps`, `/proc/<pid>/comm`), NUL-terminated.
#[cfg(target_os = "linux")]
pub(crate) const WATCHDOG_NAME: &[u8] = b"mc-watchdog\0";

/// How often the helper looks whether its target is gone.
const POLL: Duration = Duration::from_millis(25);

/// The write end of a watchdog's pipe: while this process holds it, the watchdog waits;
/// dropping it (or dying) makes the watchdog end its target if that is still running.
#[derive(Debug)]
pub struct Watchdog {
    _write: OwnedFd,
}

impl Watchdog {
    /// Starts a watchdog for `target`. Fails only when no pipe or process can be made.
    pub fn guard(target: Target) -> std::io::Result<Watchdog> {
        let (read, write) = cloexec_pipe()?;
        let read_fd = read.as_raw_fd();
        // SAFETY: the child runs only `helper`, which makes system calls and allocates
        // nothing, and leaves with `_exit` (no destructor, no atexit handler runs there).
        let pid = unsafe { libc::fork() };
        match pid {
            -1 => Err(std::io::Error::last_os_error()),
            0 => {
                // The intermediate: fork the helper and leave, so the helper is re-parented to
                // init (reaped there) and never a zombie of ours.
                // SAFETY: as above.
                unsafe {
                    if libc::fork() == 0 {
                        helper(read_fd, target);
                    }
                    libc::_exit(0)
                }
            }
            intermediate => {
                drop(read);
                reap_intermediate(intermediate);
                Ok(Watchdog { _write: write })
            }
        }
    }

    /// [`Watchdog::guard`] for a child just started (see [`Target::of_child`]); `None`, logged,
    /// when the child cannot be recognised later or no watchdog could be started. Losing the
    /// watchdog only loses the cleanup after a crash, so the caller goes on.
    pub(crate) fn for_child(pid: Option<u32>, group: bool) -> Option<Watchdog> {
        let target = Target::of_child(pid, group)?;
        match Watchdog::guard(target) {
            Ok(watchdog) => Some(watchdog),
            Err(error) => {
                tracing::warn!(%error, pid = target.pid, "could not start a watchdog for a child");
                None
            }
        }
    }
}

/// A pipe whose both ends are close-on-exec.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
fn cloexec_pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    Ok(nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?)
}

/// A pipe whose both ends are close-on-exec (macOS has no `pipe2`; see the module docs).
#[cfg(any(target_os = "macos", target_os = "ios"))]
fn cloexec_pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    use nix::fcntl::FcntlArg;
    use nix::fcntl::FdFlag;
    let (read, write) = nix::unistd::pipe()?;
    for fd in [&read, &write] {
        nix::fcntl::fcntl(fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC))?;
    }
    Ok((read, write))
}

/// Waits for the intermediate process, which exits at once.
fn reap_intermediate(pid: libc::pid_t) {
    loop {
        let mut status = 0;
        // SAFETY: waits for our own child `pid`; `status` is a valid out-pointer.
        let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
        if waited != -1 || nix::errno::Errno::last() != nix::errno::Errno::EINTR {
            return;
        }
    }
}

/// The watchdog itself: runs in the forked helper, never returns.
///
/// # Safety
/// Only in a child just forked: it closes every descriptor but `read_fd` and ends with `_exit`.
unsafe fn helper(read_fd: RawFd, target: Target) -> ! {
    // SAFETY: each call is an async-signal-safe system call on values of our own.
    unsafe {
        libc::setsid();
        // `mc-watchdog` in `ps` and `/proc/<pid>/comm`, not a copy of our command name.
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_NAME, WATCHDOG_NAME.as_ptr());
        // Default dispositions (the runtime's handlers were inherited) and nothing blocked: a
        // SIGTERM sent on purpose still ends the helper.
        for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGCHLD] {
            libc::signal(signal, libc::SIG_DFL);
        }
        let mut none = std::mem::MaybeUninit::<libc::sigset_t>::uninit();
        libc::sigemptyset(none.as_mut_ptr());
        libc::sigprocmask(libc::SIG_SETMASK, none.as_ptr(), std::ptr::null_mut());
        // The pipe becomes stdin; everything else (the terminal, sockets, other pipes,
        // other watchdogs' write ends) is closed.
        if libc::dup2(read_fd, 0) == -1 {
            libc::_exit(1);
        }
        close_from(1);
        let mut buffer = [0u8; 64];
        loop {
            let read = libc::read(0, buffer.as_mut_ptr().cast(), buffer.len());
            if read > 0 || (read == -1 && nix::errno::Errno::last() == nix::errno::Errno::EINTR) {
                continue;
            }
            break;
        }
        end_target(&target);
        libc::_exit(0)
    }
}

/// Closes every descriptor from `first` up.
fn close_from(first: RawFd) {
    #[cfg(target_os = "linux")]
    {
        let first = libc::c_uint::try_from(first).unwrap_or(0);
        // SAFETY: close_range only closes descriptors of this (single-threaded) process.
        if unsafe { libc::syscall(libc::SYS_close_range, first, libc::c_uint::MAX, 0) } == 0 {
            return;
        }
    }
    let mut limit = std::mem::MaybeUninit::<libc::rlimit>::uninit();
    // SAFETY: getrlimit writes one rlimit.
    let most = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, limit.as_mut_ptr()) } == 0 {
        // SAFETY: initialised by the successful call above.
        let limit = unsafe { limit.assume_init() };
        RawFd::try_from(limit.rlim_cur.min(1 << 20)).unwrap_or(1 << 20)
    } else {
        1 << 16
    };
    for fd in first..most {
        // SAFETY: closing a descriptor number; an unused one just fails with EBADF.
        unsafe { libc::close(fd) };
    }
}

/// Ends `target` if its leader is still the process recorded: SIGTERM, then SIGKILL after its
/// grace while anything of it is left and its leader is no stranger ([`still_proven`], checked
/// at each poll and again right before the second signal).
fn end_target(target: &Target) {
    let still_ours = || process_start_time(target.pid) == Some(target.start);
    if target.pid <= 1 || !still_ours() {
        return;
    }
    let id = if target.group {
        -target.pid
    } else {
        target.pid
    };
    let proven = || {
        // SAFETY: signal 0 only asks whether the group exists.
        let group_exists = target.group && unsafe { libc::kill(id, 0) == 0 };
        still_proven(target, process_start_time(target.pid), group_exists)
    };
    // SAFETY: `id` is the proven process (or group); kill only sends a signal.
    if unsafe { libc::kill(id, libc::SIGTERM) } != 0 {
        return;
    }
    let mut waited = Duration::ZERO;
    while waited < target.grace {
        std::thread::sleep(POLL);
        waited += POLL;
        if !proven() {
            return;
        }
    }
    if proven() {
        // SAFETY: as above; the group (or the recorded process) still exists and its leader
        // is the one recorded, or gone.
        unsafe { libc::kill(id, libc::SIGKILL) };
    }
}

/// Whether what the first signal went to may get the second: for a single process, it is still
/// the recorded one (`leader_start`, its start time now, is the recorded one); for a group, the
/// group still exists and its id is not held by another process: the leader is the recorded
/// one, or gone. A pid is not reused while a group of that id lives, so a leader with another
/// start time means the group signalled first ended and a new process took its id and made a
/// group of its own (the third probe's forced reuse): a stranger, never signalled. What remains
/// is a new leader that took the id, made its group and died all between two polls
/// ([`POLL`] apart), leaving members, or one started in the very clock tick the recorded leader
/// started (a start time counts ticks, 10 ms on Linux): then a stranger's group is ended.
fn still_proven(target: &Target, leader_start: Option<u64>, group_exists: bool) -> bool {
    if target.group {
        group_exists && leader_start.is_none_or(|start| start == target.start)
    } else {
        leader_start == Some(target.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_whose_id_another_leader_took_is_not_signalled_again() {
        let group = Target::group(4242, 1000);
        assert!(still_proven(&group, Some(1000), true), "the leader lives");
        assert!(
            still_proven(&group, None, true),
            "the leader died, its members live"
        );
        assert!(
            !still_proven(&group, Some(2000), true),
            "a new process took the id and leads a group"
        );
        assert!(!still_proven(&group, None, false), "the group is gone");
        assert!(
            !still_proven(&group, Some(1000), false),
            "the group is gone"
        );

        let process = Target::process(4242, 1000);
        assert!(still_proven(&process, Some(1000), false));
        assert!(!still_proven(&process, Some(2000), true), "a reused pid");
        assert!(!still_proven(&process, None, true), "gone");
    }
}
