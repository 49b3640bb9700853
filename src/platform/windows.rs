//! Windows: console process groups inside Job Objects, console control events, process times,
//! and files without Unix modes (through `windows-sys`, the bindings tokio and mio already
//! use, and `std::os::windows`).
//!
//! - A tree is a child started with `CREATE_NEW_PROCESS_GROUP` (so `CTRL_BREAK_EVENT` reaches
//!   it and only it) and assigned, right after the spawn, to a Job Object with
//!   `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE` ([`watchdog::Watchdog`]): whatever the child starts
//!   is in the job too, `TerminateJobObject` ends all of it, and when this process dies the
//!   system closes the job's handle and ends the tree, as the Unix watchdog does. A Cursor
//!   agent's tree ([`own_guarded_group`]) is created `CREATE_SUSPENDED` and resumed
//!   ([`release`]) only once it is in its job, so no grandchild escapes it; other trees are
//!   assigned while they run (a grandchild started in the microseconds before would escape).
//! - Files: there are no modes. The state folder sits under `%LOCALAPPDATA%`, whose files
//!   inherit the per-user profile's ACL (the user, SYSTEM and Administrators); nothing here
//!   widens it, and there is no uid to compare, so the owner checks are Unix's alone.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::windows::fs::FileExt;
use std::os::windows::fs::OpenOptionsExt;
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

use windows_sys::Win32::Foundation::CloseHandle;
use windows_sys::Win32::Foundation::ERROR_ACCESS_DENIED;
use windows_sys::Win32::Foundation::ERROR_LOCK_VIOLATION;
use windows_sys::Win32::Foundation::ERROR_PRIVILEGE_NOT_HELD;
use windows_sys::Win32::Foundation::ERROR_SHARING_VIOLATION;
use windows_sys::Win32::Foundation::FILETIME;
use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::Foundation::STILL_ACTIVE;
use windows_sys::Win32::Storage::FileSystem::BY_HANDLE_FILE_INFORMATION;
use windows_sys::Win32::Storage::FileSystem::FILE_FLAG_OPEN_REPARSE_POINT;
use windows_sys::Win32::Storage::FileSystem::GetFileInformationByHandle;
use windows_sys::Win32::System::Console::CTRL_BREAK_EVENT;
use windows_sys::Win32::System::Console::GenerateConsoleCtrlEvent;
use windows_sys::Win32::System::Threading::CREATE_NEW_PROCESS_GROUP;
use windows_sys::Win32::System::Threading::CREATE_SUSPENDED;
use windows_sys::Win32::System::Threading::GetExitCodeProcess;
use windows_sys::Win32::System::Threading::GetProcessTimes;
use windows_sys::Win32::System::Threading::OpenProcess;
use windows_sys::Win32::System::Threading::PROCESS_QUERY_LIMITED_INFORMATION;
use windows_sys::Win32::System::Threading::PROCESS_TERMINATE;
use windows_sys::Win32::System::Threading::TerminateProcess;

use super::Shutdown;
use super::Stop;

pub mod watchdog;

/// A process handle closed when dropped.
struct Process(HANDLE);

impl Process {
    /// Opens process `pid` with `access`; `None` when it is gone or closed to us.
    fn open(pid: u32, access: u32) -> Option<Process> {
        if pid == 0 {
            return None;
        }
        // SAFETY: OpenProcess takes plain values; a null handle means failure.
        let handle = unsafe { OpenProcess(access, 0, pid) };
        (!handle.is_null()).then_some(Process(handle))
    }

    fn running(&self) -> bool {
        let mut code = 0u32;
        // SAFETY: a live process handle and a valid out-pointer.
        let ok = unsafe { GetExitCodeProcess(self.0, &mut code) } != 0;
        ok && code == STILL_ACTIVE as u32
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // SAFETY: the handle is ours and closed once.
        unsafe { CloseHandle(self.0) };
    }
}

/// Process identity: the creation time; command lines and environments of other processes
/// are not readable without reading their memory, so they are never claimed.
pub mod identity {
    use super::*;

    /// The creation time of `pid` in 100 ns units since 1601 (`GetProcessTimes`).
    pub fn start_time(pid: i32) -> Option<u64> {
        let pid = u32::try_from(pid).ok().filter(|p| *p > 0)?;
        let process = Process::open(pid, PROCESS_QUERY_LIMITED_INFORMATION)?;
        let zero = FILETIME {
            dwLowDateTime: 0,
            dwHighDateTime: 0,
        };
        let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
        // SAFETY: a live handle and four valid out-pointers.
        let ok = unsafe {
            GetProcessTimes(process.0, &mut created, &mut exited, &mut kernel, &mut user)
        } != 0;
        ok.then(|| (u64::from(created.dwHighDateTime) << 32) | u64::from(created.dwLowDateTime))
    }

    /// Not readable on Windows.
    pub fn cmdline(_pid: i32) -> Option<Vec<u8>> {
        None
    }

    /// Not readable on Windows.
    pub fn environ(_pid: i32) -> Option<Vec<u8>> {
        None
    }
}

/// Starts the child in a new console process group (its id is the child's pid), so
/// `CTRL_BREAK_EVENT` can be sent to it alone; the Job Object is added after the spawn
/// ([`watchdog::Watchdog`]).
pub fn own_group(command: &mut std::process::Command) {
    use std::os::windows::process::CommandExt;
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// [`own_group`] for a tokio command.
pub fn own_group_tokio(command: &mut tokio::process::Command) {
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// [`own_group`] for a tree that gets a watchdog at once: the child is also created suspended,
/// so nothing it starts runs before [`watchdog::Watchdog::guard`] has put it in its job. The
/// caller must then call [`release`] with its pid, whether the guard succeeded or not.
pub fn own_guarded_group(command: &mut std::process::Command) {
    use std::os::windows::process::CommandExt;
    command.creation_flags(CREATE_NEW_PROCESS_GROUP | CREATE_SUSPENDED);
}

/// Lets a child started by [`own_guarded_group`] run: resumes its main thread (the only thread
/// a process created suspended has). Logged when that fails.
pub fn release(pid: u32) {
    if let Err(error) = watchdog::resume_threads(pid) {
        tracing::warn!(%error, pid, "could not resume a child started suspended");
    }
}

/// Asks the tree led by `pgid` to stop: `CTRL_BREAK_EVENT` to its console group for the gentle
/// steps, `TerminateJobObject` (its job, when we made one) or `TerminateProcess` for
/// [`Stop::Kill`]. False when nothing of it is left. Ids 0 and 1 are never signalled.
pub fn stop_group(pgid: i32, stop: Stop) -> bool {
    let Some(pid) = u32::try_from(pgid).ok().filter(|p| *p > 1) else {
        return false;
    };
    if !group_alive(pgid) {
        return false;
    }
    match stop {
        Stop::Interrupt | Stop::Terminate => {
            // SAFETY: plain values. It fails when we share no console with the group: then
            // only the hard step ends it.
            if unsafe { GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, pid) } == 0 {
                tracing::debug!(
                    pid,
                    error = %io::Error::last_os_error(),
                    "could not send CTRL_BREAK_EVENT"
                );
            }
        }
        Stop::Kill => {
            if !watchdog::terminate_job(pid)
                && let Some(process) = Process::open(pid, PROCESS_TERMINATE)
            {
                // SAFETY: a live handle opened for termination.
                unsafe { TerminateProcess(process.0, 1) };
            }
        }
    }
    true
}

/// True while any process of the tree led by `pgid` runs: its job's active processes when we
/// made one, else the leader itself.
pub fn group_alive(pgid: i32) -> bool {
    let Some(pid) = u32::try_from(pgid).ok().filter(|p| *p > 1) else {
        return false;
    };
    match watchdog::job_active(pid) {
        Some(active) => active,
        None => !process_ended(pgid),
    }
}

/// True when process `pid` has ended or never existed (a process we may not open is not gone).
pub fn process_ended(pid: i32) -> bool {
    let Some(pid) = u32::try_from(pid).ok().filter(|p| *p > 0) else {
        return false;
    };
    match Process::open(pid, PROCESS_QUERY_LIMITED_INFORMATION) {
        Some(process) => !process.running(),
        None => io::Error::last_os_error().raw_os_error() != Some(ERROR_ACCESS_DENIED as i32),
    }
}

/// Passes `what` on to `pid`. On Windows a console's Ctrl-C, close, logoff and shutdown
/// already reach every process attached to it, Claude Code included, so nothing is sent.
pub fn forward(_pid: u32, _what: Shutdown) -> io::Result<()> {
    Ok(())
}

/// Windows exit statuses carry codes only.
pub fn exit_signal(_status: ExitStatus) -> Option<i32> {
    None
}

/// The shutdown requests this process watches: Ctrl-C and Ctrl-Break (interrupt), the console
/// closing (hang-up), logoff and shutdown (terminate). Registering a handler keeps Windows'
/// default (`ExitProcess`) from ending the process first.
pub struct Shutdowns {
    ctrl_c: tokio::signal::windows::CtrlC,
    ctrl_break: tokio::signal::windows::CtrlBreak,
    close: tokio::signal::windows::CtrlClose,
    logoff: tokio::signal::windows::CtrlLogoff,
    shutdown: tokio::signal::windows::CtrlShutdown,
}

impl Shutdowns {
    /// Starts watching; fails when a handler cannot be installed.
    pub fn watch() -> io::Result<Shutdowns> {
        use tokio::signal::windows;
        Ok(Shutdowns {
            ctrl_c: windows::ctrl_c()?,
            ctrl_break: windows::ctrl_break()?,
            close: windows::ctrl_close()?,
            logoff: windows::ctrl_logoff()?,
            shutdown: windows::ctrl_shutdown()?,
        })
    }

    /// The next request.
    pub async fn next(&mut self) -> Shutdown {
        tokio::select! {
            _ = self.ctrl_c.recv() => Shutdown::Interrupt,
            _ = self.ctrl_break.recv() => Shutdown::Interrupt,
            _ = self.close.recv() => Shutdown::HangUp,
            _ = self.logoff.recv() => Shutdown::Terminate,
            _ = self.shutdown.recv() => Shutdown::Terminate,
        }
    }
}

/// Resolves on any [`Shutdowns`] request; never when they cannot be watched.
pub async fn stop_requested() {
    match Shutdowns::watch() {
        Ok(mut shutdowns) => {
            shutdowns.next().await;
        }
        Err(_) => std::future::pending().await,
    }
}

/// Nothing to set on the command: the launcher puts Claude Code in a kill-on-close Job Object
/// ([`watchdog::Watchdog::for_child`]), which ends it when the launcher dies.
pub fn die_with_parent(_command: &mut tokio::process::Command) {}

/// Windows cannot replace a process: runs `command` with this console and exits with its code.
pub fn exec_replace(command: &mut std::process::Command) -> io::Error {
    match command.status() {
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(error) => error,
    }
}

/// A Windows process has no small descriptor limit (its handle table holds 16,777,216); this
/// is the figure the gateway sizes its connection cap from.
const HANDLE_LIMIT: u64 = 16_777_216;

/// See [`HANDLE_LIMIT`]: nothing to raise.
pub fn raise_descriptor_limit() -> u64 {
    HANDLE_LIMIT
}

/// See [`HANDLE_LIMIT`].
pub fn descriptor_limit() -> u64 {
    HANDLE_LIMIT
}

/// Nothing to restore: the limit is never changed on Windows.
pub fn restore_descriptor_limit(_command: &mut std::process::Command) {}

/// No uids on Windows: the state folder's protection is the profile's ACL (module docs).
pub fn foreign_owner(_meta: &fs::Metadata) -> Option<(u32, u32)> {
    None
}

/// No uids or modes on Windows: what protects a folder is its ACL (module docs).
pub fn writable_by_others(_meta: &fs::Metadata) -> Option<String> {
    None
}

/// No uids on Windows.
pub fn owner_id(_meta: &fs::Metadata) -> Option<u32> {
    None
}

/// Unix modes do not exist; the folder keeps the ACL it inherited (module docs).
pub fn is_private(_meta: &fs::Metadata) -> bool {
    true
}

/// No permission bits on Windows.
pub fn mode(_meta: &fs::Metadata) -> Option<u32> {
    None
}

/// Nothing to tighten: the folder keeps the ACL it inherited (module docs).
pub fn make_dir_private(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Creates `dir` (with its parents when `recursive`); it inherits its parent's ACL.
pub fn create_private_dir(dir: &Path, recursive: bool) -> io::Result<()> {
    fs::DirBuilder::new().recursive(recursive).create(dir)
}

/// Files inherit their folder's ACL; nothing to set.
pub fn private_file(options: &mut fs::OpenOptions) -> &mut fs::OpenOptions {
    options
}

/// No permission bits to copy on Windows.
pub fn with_mode(options: &mut fs::OpenOptions, _mode: Option<u32>) -> &mut fs::OpenOptions {
    options
}

/// Opens a link itself, never its target (`FILE_FLAG_OPEN_REPARSE_POINT`): the file's
/// metadata then says it is a link, and it is refused as not a regular file.
pub fn no_follow(options: &mut fs::OpenOptions) -> &mut fs::OpenOptions {
    options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
}

/// Windows has no FIFOs to block on or controlling terminals to acquire by opening.
pub fn no_block(options: &mut fs::OpenOptions) -> &mut fs::OpenOptions {
    options
}

/// A link opened with [`no_follow`] opens (and is refused by its type), never fails.
pub fn is_link_refusal(_error: &io::Error) -> bool {
    false
}

/// How many names (hard links) the open file has (`GetFileInformationByHandle`).
pub fn link_count(file: &fs::File) -> io::Result<u64> {
    // SAFETY: an all-zero BY_HANDLE_FILE_INFORMATION is a valid value of the plain struct.
    let mut info: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: the file's live handle and a valid out-pointer.
    if unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(u64::from(info.nNumberOfLinks))
}

/// A regular file: Windows runs files by their extension, which the caller chose.
pub fn is_executable(meta: &fs::Metadata) -> bool {
    meta.is_file()
}

/// Reads into `buf` at `offset` (this moves the handle's position; callers seek nowhere else).
pub fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    file.seek_read(buf, offset)
}

/// Writes all of `buf` at `offset`.
pub fn write_all_at(file: &fs::File, mut buf: &[u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match file.seek_write(buf, offset) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
            Ok(n) => {
                buf = &buf[n..];
                offset += n as u64;
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Links `link` to the folder `target` with a directory symlink (relative targets work).
/// Windows allows that with Developer Mode on, or to an administrator; otherwise the error says
/// so and the caller reports the skill as not linked.
pub fn link_dir(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link).map_err(|error| {
        if error.raw_os_error() == Some(ERROR_PRIVILEGE_NOT_HELD as i32) {
            io::Error::new(
                error.kind(),
                "Windows makes folder links only in Developer Mode or for an administrator (Settings > For developers > Developer Mode)",
            )
        } else {
            error
        }
    })
}

/// Removes the directory link `link` (never what it points to).
pub fn remove_link(link: &Path) -> io::Result<()> {
    fs::remove_dir(link).or_else(|_| fs::remove_file(link))
}

/// How often, and how long apart, [`replace_file`] tries again while the target is held.
const REPLACE_TRIES: u32 = 50;
const REPLACE_PAUSE: Duration = Duration::from_millis(20);

/// `rename` over `to`, tried again for up to a second while another process (an antivirus
/// scanner, an indexer, a reader) holds `to` open: Windows refuses the replace then with a
/// sharing violation or access denied.
pub fn replace_file(from: &Path, to: &Path) -> io::Result<()> {
    let mut tries = 0;
    loop {
        match fs::rename(from, to) {
            Err(error) if tries + 1 < REPLACE_TRIES && is_held(&error) => {
                tries += 1;
                std::thread::sleep(REPLACE_PAUSE);
            }
            done => return done,
        }
    }
}

/// True for the errors Windows gives while another process holds a file.
fn is_held(error: &io::Error) -> bool {
    matches!(
        error
            .raw_os_error()
            .and_then(|code| u32::try_from(code).ok()),
        Some(ERROR_ACCESS_DENIED | ERROR_SHARING_VIOLATION | ERROR_LOCK_VIOLATION)
    )
}

/// A folder cannot be opened as a file to sync it on Windows; NTFS journals the rename itself.
pub fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// The file names a `PATH` entry may give `name` under: `name.exe`, then `name.cmd` (a shim,
/// never run through `cmd.exe`: see [`crate::platform::windows_entry`]), then `name` itself.
pub fn executable_names(name: &std::ffi::OsStr) -> Vec<OsString> {
    let with = |suffix: &str| {
        let mut named = name.to_os_string();
        named.push(suffix);
        named
    };
    vec![with(".exe"), with(".cmd"), name.to_os_string()]
}

/// The longest command line a child may be started with (see
/// [`crate::platform::windows_entry::COMMAND_LINE_LIMIT`]).
pub const COMMAND_LINE_LIMIT: Option<usize> =
    Some(crate::platform::windows_entry::COMMAND_LINE_LIMIT);

/// Windows has no signals and its exit statuses never name one; a number said to be one (a
/// record written on Unix) is named by the POSIX numbers every Unix shares.
pub fn signal_name(number: i32) -> Option<&'static str> {
    Some(match number {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return None,
    })
}

#[cfg(test)]
/// Another process's command line lives in its memory: not read here.
pub const COMMAND_LINES_READABLE: bool = false;

/// `command` run by the shell Claude Code uses on Windows: Git Bash where
/// `CLAUDE_CODE_GIT_BASH_PATH` names it, else PowerShell.
pub fn shell_command(command: &str) -> std::process::Command {
    match std::env::var_os("CLAUDE_CODE_GIT_BASH_PATH").filter(|p| !p.is_empty()) {
        Some(bash) => {
            let mut shell = std::process::Command::new(bash);
            shell.arg("-c").arg(command);
            shell
        }
        None => {
            let mut shell = std::process::Command::new("powershell.exe");
            shell.args(["-NoProfile", "-NonInteractive", "-Command", command]);
            shell
        }
    }
}

/// How a private folder is private here, for messages.
pub const PRIVATE_DIR: &str = "the user profile's ACL";

/// Puts the directory link `temp` at `link`: a rename cannot replace a folder link on Windows,
/// so the old link is removed first (a reader in between finds no link for a moment).
pub fn replace_link(temp: &Path, link: &Path) -> io::Result<()> {
    match remove_link(link) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    fs::rename(temp, link)
}

/// Windows has no atomic exchange of two files.
pub fn exchange(_a: &Path, _b: &Path) -> io::Result<Option<()>> {
    Ok(None)
}

/// Windows file locks (`LockFileEx`) are mandatory: a held lock file cannot be read by others.
pub const LOCKS_ARE_MANDATORY: bool = true;

/// The canonical form of `path` (links resolved, absolute) as people and programs write it:
/// `C:\work`, not the `\\?\C:\work` std returns (`\\?\UNC\server\share` becomes
/// `\\server\share`), so a workspace reads the same from the working directory, a hook's `cwd`
/// and Cursor's `--workspace`. A verbatim path with no plain spelling is kept as it is.
pub fn canonicalize(path: &Path) -> io::Result<std::path::PathBuf> {
    let canonical = fs::canonicalize(path)?;
    Ok(super::paths::plain(&canonical).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_paths_have_their_plain_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let canonical = canonicalize(dir.path()).unwrap();
        assert!(
            !canonical.to_string_lossy().starts_with(r"\\?\"),
            "{canonical:?}"
        );
    }

    #[test]
    fn a_replace_waits_for_a_reader_holding_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("record.json");
        let temp = dir.path().join("record.json.tmp");
        fs::write(&target, b"old").unwrap();
        fs::write(&temp, b"new").unwrap();
        // Opened with no sharing, as a scanner may: the rename is refused while it is open.
        let held = fs::OpenOptions::new()
            .read(true)
            .share_mode(0)
            .open(&target)
            .unwrap();
        let reader = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(held);
        });
        replace_file(&temp, &target).unwrap();
        reader.join().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
    }

    #[test]
    fn a_guarded_child_runs_only_once_it_is_in_its_job() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("ran.txt");
        let mut command = std::process::Command::new("cmd.exe");
        // Verbatim: cmd.exe reads its own quotes, not the C runtime's escaping.
        std::os::windows::process::CommandExt::raw_arg(
            command.arg("/c"),
            format!("echo ran> \"{}\"", marker.display()),
        );
        own_guarded_group(&mut command);
        let mut child = command.spawn().unwrap();
        // Suspended: it has written nothing a second later, and is still there to be assigned.
        std::thread::sleep(Duration::from_secs(1));
        assert!(!marker.exists(), "the child ran before it was in its job");
        let watchdog = watchdog::Watchdog::for_child(Some(child.id()), true).unwrap();
        assert_eq!(watchdog::job_active(child.id()), Some(true));
        release(child.id());
        assert!(child.wait().unwrap().success());
        assert!(marker.exists(), "the released child ran");
        drop(watchdog);
    }

    #[test]
    fn a_child_in_a_job_is_ended_with_its_tree_and_the_job_is_released() {
        let mut command = std::process::Command::new("cmd.exe");
        command.args(["/c", "ping -n 30 127.0.0.1 >NUL"]);
        own_group(&mut command);
        let mut child = command.spawn().unwrap();
        let pid = i32::try_from(child.id()).unwrap();
        let watchdog = watchdog::Watchdog::for_child(Some(child.id()), true).unwrap();
        assert!(group_alive(pid));
        assert!(stop_group(pid, Stop::Kill));
        child.wait().unwrap();
        let until = std::time::Instant::now() + Duration::from_secs(5);
        while group_alive(pid) && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(25));
        }
        assert!(!group_alive(pid), "the job still has processes");
        drop(watchdog);
        assert_eq!(watchdog::job_active(child.id()), None);
    }
}
