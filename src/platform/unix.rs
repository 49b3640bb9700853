//! Unix: process groups and signals, modes and uids, `O_NOFOLLOW`, symlinks (through `nix` and
//! `std::os::unix`).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::fs::FileExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::OnceLock;

use nix::errno::Errno;
use nix::sys::resource::Resource;
use nix::sys::signal::Signal;
use nix::sys::signal::killpg;
use nix::unistd::Pid;

use super::Shutdown;
use super::Stop;

pub mod watchdog;

fn signal_of(stop: Stop) -> Signal {
    match stop {
        Stop::Interrupt => Signal::SIGINT,
        Stop::Terminate => Signal::SIGTERM,
        Stop::Kill => Signal::SIGKILL,
    }
}

/// Starts the child as the leader of a new process group (its id is the child's pid).
pub(crate) fn own_group(command: &mut std::process::Command) {
    command.process_group(0);
}

/// [`own_group`] for a tree that gets a watchdog at once (on Windows it also starts suspended
/// until [`release`]; here the group is enough: the watchdog ends it by its id).
pub(crate) fn own_guarded_group(command: &mut std::process::Command) {
    own_group(command);
}

/// Lets a child of [`own_guarded_group`] run: nothing to do on Unix, where it already runs.
pub(crate) fn release(_pid: u32) {}

/// [`own_group`] for a tokio command.
pub(crate) fn own_group_tokio(command: &mut tokio::process::Command) {
    command.process_group(0);
}

/// Sends `stop` to every process of group `pgid`; false when the group is gone. Groups 0 and 1
/// (and negative ids) are never signalled.
pub fn stop_group(pgid: i32, stop: Stop) -> bool {
    if pgid <= 1 {
        return false;
    }
    !matches!(
        killpg(Pid::from_raw(pgid), signal_of(stop)),
        Err(Errno::ESRCH)
    )
}

/// True while any process of the group exists (zombies included).
pub fn group_alive(pgid: i32) -> bool {
    pgid > 1 && !matches!(killpg(Pid::from_raw(pgid), None), Err(Errno::ESRCH))
}

/// True when process `pid` has ended: no process has the pid (ESRCH; another user's process
/// has not ended), or it is a zombie its parent has not collected yet (a terminal or tmux can
/// leave the program it ran so for a long time).
pub fn process_ended(pid: i32) -> bool {
    pid > 0
        && (nix::sys::signal::kill(Pid::from_raw(pid), None) == Err(Errno::ESRCH)
            || super::zombie(pid))
}

/// Passes `what` on to process `pid` as the signal it came as.
pub fn forward(pid: u32, what: Shutdown) -> io::Result<()> {
    let signal = match what {
        Shutdown::Terminate => Signal::SIGTERM,
        Shutdown::HangUp => Signal::SIGHUP,
        Shutdown::Interrupt => Signal::SIGINT,
    };
    let pid = i32::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    nix::sys::signal::kill(Pid::from_raw(pid), signal).map_err(io::Error::from)
}

/// The signal that ended `status`, if one did.
pub(crate) fn exit_signal(status: ExitStatus) -> Option<i32> {
    status.signal()
}

/// The shutdown requests this process watches (SIGTERM, SIGHUP, SIGINT). Registered when made:
/// from then on these signals no longer end the process by default.
pub(crate) struct Shutdowns {
    term: tokio::signal::unix::Signal,
    hangup: tokio::signal::unix::Signal,
    interrupt: tokio::signal::unix::Signal,
}

impl Shutdowns {
    /// Starts watching; fails when a handler cannot be installed.
    pub(crate) fn watch() -> io::Result<Shutdowns> {
        use tokio::signal::unix::SignalKind;
        use tokio::signal::unix::signal;
        Ok(Shutdowns {
            term: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }

    /// The next request.
    pub(crate) async fn next(&mut self) -> Shutdown {
        tokio::select! {
            _ = self.term.recv() => Shutdown::Terminate,
            _ = self.hangup.recv() => Shutdown::HangUp,
            _ = self.interrupt.recv() => Shutdown::Interrupt,
        }
    }
}

/// Resolves on SIGTERM or SIGINT (a server's stop request); never when they cannot be watched.
pub(crate) async fn stop_requested() {
    use tokio::signal::unix::SignalKind;
    use tokio::signal::unix::signal;
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        }
        _ => std::future::pending().await,
    }
}

/// On Linux the child gets SIGTERM when the spawning thread ends (`PR_SET_PDEATHSIG`), and at
/// once if this process is already gone. Elsewhere there is no parent-death signal: the
/// watchdog alone sends the SIGTERM.
pub(crate) fn die_with_parent(command: &mut tokio::process::Command) {
    #[cfg(target_os = "linux")]
    {
        let parent = nix::unistd::getpid();
        // SAFETY: the closure only makes async-signal-safe system calls (prctl, getppid, kill).
        unsafe {
            command.pre_exec(move || {
                nix::sys::prctl::set_pdeathsig(Signal::SIGTERM).map_err(io::Error::from)?;
                if nix::unistd::getppid() != parent {
                    let _ = nix::sys::signal::raise(Signal::SIGTERM);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Replaces this process with `command` (`exec`); returns only the error when that failed.
pub(crate) fn exec_replace(command: &mut std::process::Command) -> io::Error {
    command.exec()
}

/// The `RLIMIT_NOFILE` (soft, hard) this process started with, once raised.
static ORIGINAL_NOFILE: OnceLock<(u64, u64)> = OnceLock::new();

/// Raises the soft descriptor limit to the hard limit (once per process) and remembers the
/// original, which every child started here gets back. Returns the soft limit now in force.
pub(crate) fn raise_descriptor_limit() -> u64 {
    let Ok((soft, hard)) = nix::sys::resource::getrlimit(Resource::RLIMIT_NOFILE) else {
        return 1024;
    };
    if soft >= hard {
        return soft;
    }
    let _ = ORIGINAL_NOFILE.set((soft, hard));
    match nix::sys::resource::setrlimit(Resource::RLIMIT_NOFILE, hard, hard) {
        Ok(()) => hard,
        Err(error) => {
            tracing::debug!(%error, "could not raise the descriptor limit");
            soft
        }
    }
}

/// The soft descriptor limit in force (1,024 when it cannot be read).
pub(crate) fn descriptor_limit() -> u64 {
    nix::sys::resource::getrlimit(Resource::RLIMIT_NOFILE).map_or(1024, |(soft, _)| soft)
}

/// Gives a child the soft descriptor limit this process started with, when
/// [`raise_descriptor_limit`] changed it (programs such as `select`-based tools misbehave
/// above 1,024).
pub(crate) fn restore_descriptor_limit(command: &mut std::process::Command) {
    let Some(&(soft, hard)) = ORIGINAL_NOFILE.get() else {
        return;
    };
    // SAFETY: the closure runs in the child between fork and exec; it only calls setrlimit, a
    // single async-signal-safe system call, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            nix::sys::resource::setrlimit(Resource::RLIMIT_NOFILE, soft, hard)
                .map_err(io::Error::from)
        });
    }
}

/// The owner of `meta` and this process's effective user, when they differ: `(owner, me)`.
pub(crate) fn foreign_owner(meta: &fs::Metadata) -> Option<(u32, u32)> {
    let me = nix::unistd::geteuid().as_raw();
    (meta.uid() != me).then_some((meta.uid(), me))
}

/// Why another user could change what `meta` describes (a folder or file we would load code
/// from), if one could: owned by someone but this user or root, or writable by its group or
/// by anyone. A folder with the sticky bit (`/tmp`) is writable by all and still safe: no one
/// else can replace what we own in it.
pub(crate) fn writable_by_others(meta: &fs::Metadata) -> Option<String> {
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me && meta.uid() != 0 {
        return Some(format!("owned by uid {} (you are uid {me})", meta.uid()));
    }
    let mode = meta.permissions().mode();
    let sticky_folder = meta.is_dir() && mode & 0o1000 != 0;
    (mode & 0o022 != 0 && !sticky_folder)
        .then(|| format!("writable by other users (mode {:o})", mode & 0o7777))
}

/// The owner id of `meta` (a uid), to compare two files' owners.
pub(crate) fn owner_id(meta: &fs::Metadata) -> Option<u32> {
    Some(meta.uid())
}

/// True when `meta`'s permission bits let nobody but its owner in (nothing in 0o077).
pub(crate) fn is_private(meta: &fs::Metadata) -> bool {
    meta.permissions().mode() & 0o077 == 0
}

/// The permission bits of `meta` (`None` where a system has none).
pub fn mode(meta: &fs::Metadata) -> Option<u32> {
    Some(meta.permissions().mode() & 0o7777)
}

/// Makes the existing folder `dir` private (0700).
pub(crate) fn make_dir_private(dir: &Path) -> io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
}

/// Creates `dir` private (0700), with its parents when `recursive`.
pub(crate) fn create_private_dir(dir: &Path, recursive: bool) -> io::Result<()> {
    fs::DirBuilder::new()
        .recursive(recursive)
        .mode(0o700)
        .create(dir)
}

/// Makes files that `options` creates private (0600).
pub(crate) fn private_file(options: &mut fs::OpenOptions) -> &mut fs::OpenOptions {
    options.mode(0o600)
}

/// Makes files that `options` creates have `mode`'s permission bits (when known).
pub(crate) fn with_mode(options: &mut fs::OpenOptions, mode: Option<u32>) -> &mut fs::OpenOptions {
    match mode {
        Some(mode) => options.mode(mode),
        None => options,
    }
}

/// Opens a state file itself, never what a link at its path points to (`O_NOFOLLOW`), and
/// without blocking on a FIFO (`O_NONBLOCK`).
pub(crate) fn no_follow(options: &mut fs::OpenOptions) -> &mut fs::OpenOptions {
    options.custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
}

/// Opens a file named by a repository or the user without blocking on a FIFO and never as a
/// controlling terminal.
pub(crate) fn no_block(options: &mut fs::OpenOptions) -> &mut fs::OpenOptions {
    options.custom_flags(nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY)
}

/// True when an open with [`no_follow`] failed because the path is a symlink.
pub(crate) fn is_link_refusal(error: &io::Error) -> bool {
    error.raw_os_error() == Some(nix::libc::ELOOP)
}

/// How many names (hard links) the open file has.
pub(crate) fn link_count(file: &fs::File) -> io::Result<u64> {
    Ok(file.metadata()?.nlink())
}

/// True when `meta` is a regular file someone may run (an execute bit).
pub(crate) fn is_executable(meta: &fs::Metadata) -> bool {
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

/// Reads into `buf` at `offset`, leaving the file position alone.
pub(crate) fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    file.read_at(buf, offset)
}

/// Writes all of `buf` at `offset`.
pub(crate) fn write_all_at(file: &fs::File, buf: &[u8], offset: u64) -> io::Result<()> {
    file.write_all_at(buf, offset)
}

/// Links `link` to the folder `target` (a symlink; `target` may be relative to `link`'s
/// folder).
pub(crate) fn link_dir(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Removes the link `link` (never what it points to).
pub(crate) fn remove_link(link: &Path) -> io::Result<()> {
    fs::remove_file(link)
}

/// `rename` over `to`; on Unix never held up by another process's open file.
pub(crate) fn replace_file(from: &Path, to: &Path) -> io::Result<()> {
    fs::rename(from, to)
}

/// Whether a replaced state file's folder must be synced for the rename to be durable (Unix:
/// yes, by fsyncing the folder).
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

/// Unix's command lines are bounded by `ARG_MAX` (megabytes), far past anything started here.
pub(crate) const COMMAND_LINE_LIMIT: Option<usize> = None;

/// The program a `PATH` entry names (`name` as is; Unix has no executable suffixes).
pub(crate) fn executable_names(name: &std::ffi::OsStr) -> Vec<OsString> {
    vec![name.to_os_string()]
}

/// The name of signal `number` (`SIGSEGV`), when it is one.
pub(crate) fn signal_name(number: i32) -> Option<&'static str> {
    Signal::try_from(number).ok().map(Signal::as_str)
}

/// `command` run by the shell, as Claude Code runs a status-line command (`/bin/sh -c`).
pub(crate) fn shell_command(command: &str) -> std::process::Command {
    let mut shell = std::process::Command::new("/bin/sh");
    shell.arg("-c").arg(command);
    shell
}

/// How a private folder is private here, for messages.
pub(crate) const PRIVATE_DIR: &str = "0700";

/// Puts the link `temp` at `link` in one step (`rename` replaces a link atomically).
pub(crate) fn replace_link(temp: &Path, link: &Path) -> io::Result<()> {
    fs::rename(temp, link)
}

/// Exchanges the files `a` and `b` atomically (`renameat2(RENAME_EXCHANGE)`, Linux with glibc);
/// `Ok(None)` where the system or the file system cannot.
pub(crate) fn exchange(a: &Path, b: &Path) -> io::Result<Option<()>> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use nix::fcntl::AT_FDCWD;
        use nix::fcntl::RenameFlags;
        match nix::fcntl::renameat2(AT_FDCWD, a, AT_FDCWD, b, RenameFlags::RENAME_EXCHANGE) {
            Ok(()) => Ok(Some(())),
            Err(Errno::EINVAL | Errno::ENOSYS) => Ok(None),
            Err(errno) => Err(io::Error::from(errno)),
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = (a, b);
        Ok(None)
    }
}

/// Unix file locks are advisory: a held lock file can still be read.
pub(crate) const LOCKS_ARE_MANDATORY: bool = false;

#[cfg(test)]
/// Another process's command line can be read (`/proc`, `KERN_PROCARGS2`).
pub(crate) const COMMAND_LINES_READABLE: bool = cfg!(any(target_os = "linux", target_os = "macos"));

/// The canonical form of `path` (links resolved, absolute).
pub fn canonicalize(path: &Path) -> io::Result<std::path::PathBuf> {
    fs::canonicalize(path)
}
