//! The one seam to the operating system. Everything that differs between Unix and Windows
//! lives here, so the rest of the crate has no `cfg(unix)` or `cfg(windows)`:
//!
//! - **process trees**: a child started in a tree of its own (`own_group`,
//!   `own_group_tokio`), ended gently then hard ([`stop_group`], [`group_alive`]). On Unix
//!   the tree is a process group and the steps are SIGINT, SIGTERM, SIGKILL. On Windows it is
//!   a new console process group (`CREATE_NEW_PROCESS_GROUP`) inside a Job Object with
//!   `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`: the gentle steps are `CTRL_BREAK_EVENT` to the
//!   group, the hard one `TerminateJobObject`;
//! - **the watchdog** ([`watchdog`]) that ends a tree when this process dies, however it dies:
//!   a forked helper on Unix, the Job Object's kill-on-close on Windows;
//! - **process identity** for crash recovery (`start_time`, `cmdline`, `environ`):
//!   `/proc` on Linux, `proc_pidinfo`/`sysctl` on macOS, `GetProcessTimes` on Windows;
//! - **private files and folders** (modes 0600/0700 on Unix; on Windows the per-user
//!   profile's ACL, which files under `%LOCALAPPDATA%` inherit), the owner check, opening
//!   without following a link, the link count;
//! - **shutdown events** (`Shutdowns`): SIGTERM, SIGHUP and SIGINT on Unix; Ctrl-C, console
//!   close, shutdown and logoff on Windows;
//! - **links** for skills (`link_dir`, `remove_link`);
//! - **commands Claude Code runs through a shell** (`mod@shell_command`): the status line's;
//! - **places** ([`places`]): the home folder and where the installers put Cursor's CLI and
//!   Claude Code, named in each system's words;
//! - **paths** ([`paths`]): joins in the system's separators, and Windows' verbatim
//!   `\\?\C:\x` read back as `C:\x`.

pub(crate) mod parse;
pub mod paths;
pub mod places;
pub(crate) mod shell_command;
mod watchdog_target;
pub(crate) mod windows_entry;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

#[cfg(unix)]
pub(crate) use unix::*;
/// The seam's face outside the crate (what the test support drives directly); the rest of
/// `unix` is the crate's.
#[cfg(unix)]
pub use unix::{canonicalize, forward, group_alive, mode, process_ended, stop_group, watchdog};
#[cfg(windows)]
pub use windows::*;

/// A process's identity facts, per system.
#[cfg(target_os = "linux")]
use linux as identity_source;
#[cfg(target_os = "macos")]
use macos as identity_source;
#[cfg(windows)]
use windows::identity as identity_source;

/// Where no interface tells anything about another process: nothing can be proven, so no
/// recorded group is ever signalled.
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
mod identity_source {
    pub fn start_time(_pid: i32) -> Option<u64> {
        None
    }
    pub fn cmdline(_pid: i32) -> Option<Vec<u8>> {
        None
    }
    pub fn environ(_pid: i32) -> Option<Vec<u8>> {
        None
    }
    pub fn zombie(_pid: i32) -> bool {
        false
    }
}

/// How hard a process tree is asked to end, in the order a run escalates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Unix SIGINT; Windows `CTRL_BREAK_EVENT` to the console process group.
    Interrupt,
    /// Unix SIGTERM; Windows `CTRL_BREAK_EVENT` again (a console group has no second gentle
    /// event).
    Terminate,
    /// Unix SIGKILL; Windows `TerminateJobObject` (or `TerminateProcess` for a child in no
    /// job of ours).
    Kill,
}

/// What the user or the system asked of this process (`Shutdowns`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shutdown {
    /// SIGTERM; on Windows the system shutting down or the user logging off.
    Terminate,
    /// SIGHUP; on Windows the console window being closed.
    HangUp,
    /// SIGINT, Ctrl-C (on Windows also Ctrl-Break).
    Interrupt,
}

/// The start time of process `pid`, to recognise it later: clock ticks since boot on Linux
/// (`/proc/<pid>/stat` field 22), microseconds since the epoch on macOS (`proc_pidinfo`), the
/// creation time in 100 ns units since 1601 on Windows (`GetProcessTimes`). Only compared with
/// a value recorded on the same machine; `None` when the process is gone or cannot be read.
pub(crate) fn start_time(pid: i32) -> Option<u64> {
    identity_source::start_time(pid)
}

/// Whether `pid` is a zombie: it has ended, and its parent has not collected it yet (Linux's
/// `/proc/<pid>/stat` state, macOS's `proc_bsdinfo` status; `false` where neither is known).
#[cfg(unix)]
pub(crate) fn zombie(pid: i32) -> bool {
    identity_source::zombie(pid)
}

/// The NUL-separated command line of `pid` (`/proc/<pid>/cmdline`, `KERN_PROCARGS2`); `None`
/// where the system does not show another process's (Windows: it lives in that process's
/// memory).
pub(crate) fn cmdline(pid: i32) -> Option<Vec<u8>> {
    identity_source::cmdline(pid)
}

/// The NUL-separated environment `pid` started with; `None` where it cannot be read (on
/// Windows never: a recorded run there cannot be proven ours, and is never signalled; its
/// tree already ended with the Job Object of the process that started it).
pub(crate) fn environ(pid: i32) -> Option<Vec<u8>> {
    identity_source::environ(pid)
}

/// What the crate's unit tests need from the system, so they compile everywhere and say why
/// they skip where a facility is missing.
#[cfg(test)]
pub mod testing {
    /// Ends the test early, printing why, when `$check` is an `Err(reason)`.
    macro_rules! skip_unless {
        ($check:expr) => {
            if let Err(reason) = $check {
                eprintln!("skipped: {reason}");
                return;
            }
        };
    }
    pub(crate) use skip_unless;

    use std::io;
    use std::path::Path;

    /// The permission bits of `path` (`None` where the system has none: Windows).
    pub fn mode_of(path: &Path) -> Option<u32> {
        super::mode(&std::fs::metadata(path).ok()?).map(|mode| mode & 0o777)
    }

    /// Asserts `path`'s permission bits are `expected`; where the system has none (Windows),
    /// says so and checks nothing.
    #[track_caller]
    pub fn assert_mode(path: &Path, expected: u32) {
        match mode_of(path) {
            Some(mode) => assert_eq!(mode, expected, "mode of {}", path.display()),
            None => eprintln!(
                "mode of {} not checked: this system has no permission bits",
                path.display()
            ),
        }
    }

    /// An exit status from its raw Unix wait status; `Err` with the reason on Windows, whose
    /// statuses are exit codes alone.
    pub fn exit_status_from_raw(raw: i32) -> Result<std::process::ExitStatus, String> {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            Ok(std::process::ExitStatus::from_raw(raw))
        }
        #[cfg(not(unix))]
        {
            let _ = raw;
            Err(String::from(
                "Windows exit statuses carry no wait status or signal",
            ))
        }
    }

    /// A FIFO at `path`; `Err` with the reason where there are none (Windows).
    pub fn mkfifo(path: &Path) -> Result<(), String> {
        #[cfg(unix)]
        {
            nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o600))
                .map_err(|error| error.to_string())
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            Err(String::from("Windows has no FIFOs in the file system"))
        }
    }

    /// Sets `path`'s permission bits; `Err` with the reason where that cannot be done.
    pub fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
                .map_err(|error| error.to_string())
        }
        #[cfg(not(unix))]
        {
            let _ = (path, mode);
            Err(String::from("Windows files have no permission bits"))
        }
    }

    /// A symlink at `link` to the file `target`; `Err` with the reason when the system makes
    /// none, or makes one it does not report as a link (Wine's links are its host's symlinks,
    /// which Windows programs there see through).
    pub fn symlink_file(target: &Path, link: &Path) -> Result<(), String> {
        #[cfg(unix)]
        let made = std::os::unix::fs::symlink(target, link);
        #[cfg(windows)]
        let made = std::os::windows::fs::symlink_file(target, link);
        seen_as_link(made, link)
    }

    /// A symlink at `link` to the folder `target` (see [`symlink_file`]).
    pub fn symlink_dir(target: &Path, link: &Path) -> Result<(), String> {
        #[cfg(unix)]
        let made = std::os::unix::fs::symlink(target, link);
        #[cfg(windows)]
        let made = std::os::windows::fs::symlink_dir(target, link);
        seen_as_link(made, link)
    }

    fn seen_as_link(made: io::Result<()>, link: &Path) -> Result<(), String> {
        made.map_err(|error| format!("no symlink could be made: {error}"))?;
        let is_link = std::fs::symlink_metadata(link).is_ok_and(|m| m.file_type().is_symlink());
        if is_link {
            Ok(())
        } else {
            Err(String::from(
                "a symlink was made but this system does not report it as a link (Wine)",
            ))
        }
    }

    /// The POSIX shell tests start children with; `Err` with the reason where there is none.
    pub fn posix_shell() -> Result<&'static Path, String> {
        if cfg!(unix) {
            Ok(Path::new("/bin/sh"))
        } else {
            Err(String::from("Windows has no /bin/sh"))
        }
    }

    /// Gives `path` to uid 65534 (nobody); `Err` with the reason where that cannot be done (not
    /// root, or a system without uids).
    pub fn give_to_nobody(path: &Path) -> Result<u32, String> {
        #[cfg(unix)]
        {
            if !nix::unistd::geteuid().is_root() {
                return Err(String::from(
                    "only root can make a folder owned by another user",
                ));
            }
            let nobody = nix::unistd::Uid::from_raw(65_534);
            nix::unistd::chown(path, Some(nobody), None).map_err(|error| error.to_string())?;
            Ok(65_534)
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            Err(String::from("Windows has no uids to give a folder to"))
        }
    }
}
