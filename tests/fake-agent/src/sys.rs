//! The few POSIX calls std does not expose: ignoring signals, the process group, closing a
//! standard descriptor, signalling oneself.
//!
//! Declared directly against the C library std already links (kernel32 on Windows), so the
//! fake needs no `libc` crate. Signal numbers are the ones Linux and macOS share.

use std::ffi::c_int;

/// POSIX: the C library std already links.
#[cfg(unix)]
mod imp {
    use std::ffi::c_int;
    use std::io;

    use super::SIGINT;
    use super::SIGTERM;

    /// The C functions used here, with their POSIX signatures.
    mod ffi {
        use std::ffi::c_int;

        unsafe extern "C" {
            /// `sighandler_t signal(int, sighandler_t)`; the handler is passed as an address.
            pub(super) fn signal(signum: c_int, handler: usize) -> usize;
            /// `pid_t getpgrp(void)`.
            pub(super) fn getpgrp() -> c_int;
            /// `int close(int)`.
            pub(super) fn close(fd: c_int) -> c_int;
            /// `int kill(pid_t, int)`.
            pub(super) fn kill(pid: c_int, sig: c_int) -> c_int;
        }
    }

    /// `SIG_IGN` as an address.
    const SIG_IGN: usize = 1;
    /// `SIG_ERR` as an address (`(sighandler_t) -1`).
    const SIG_ERR: usize = usize::MAX;

    /// Ignores SIGINT and SIGTERM, so only SIGKILL ends the process. The disposition is inherited by
    /// children spawned afterwards (an ignored signal stays ignored across `exec`).
    pub(crate) fn ignore_interrupts() -> io::Result<()> {
        for signal in [SIGINT, SIGTERM] {
            // SAFETY: installing SIG_IGN runs no handler code; it only changes this process's
            // disposition for the signal, which nothing else in the fake relies on.
            let previous = unsafe { ffi::signal(signal, SIG_IGN) };
            if previous == SIG_ERR {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// This process's process-group id.
    pub(crate) fn process_group() -> i32 {
        // SAFETY: getpgrp takes no arguments, cannot fail and touches no memory of ours.
        unsafe { ffi::getpgrp() }
    }

    /// Closes file descriptor 1, so the reader of our stdout sees end-of-file while we live on.
    pub(crate) fn close_stdout() -> io::Result<()> {
        // SAFETY: fd 1 is not owned by any Rust object here (the emitter writes through its own
        // duplicate, which the caller drops first); later writes to fd 1 fail with EBADF, which the
        // fake reports as an error rather than undefined behaviour.
        let result = unsafe { ffi::close(1) };
        if result == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    /// Sends `signal` to this process.
    pub(crate) fn signal_self(signal: c_int) -> io::Result<()> {
        let pid = c_int::try_from(std::process::id())
            .map_err(|_| io::Error::other("process id out of range"))?;
        // SAFETY: kill only sends a signal; it touches no memory of ours.
        let result = unsafe { ffi::kill(pid, signal) };
        if result == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    /// A duplicate of stdout, written through by the emitter.
    pub(crate) fn dup_stdout() -> io::Result<std::fs::File> {
        use std::os::fd::AsFd;
        Ok(std::fs::File::from(
            std::io::stdout().as_fd().try_clone_to_owned()?,
        ))
    }
}

/// Windows: kernel32, which std already links. There are no signals: interrupts are console
/// control events, the process group is the console group a child started with
/// `CREATE_NEW_PROCESS_GROUP` leads (its id is the child's pid), and a signal sent to oneself
/// ends the process with the shell's code for it (128 + n).
#[cfg(windows)]
mod imp {
    use std::ffi::c_int;
    use std::io;

    mod ffi {
        #[link(name = "kernel32")]
        unsafe extern "system" {
            pub fn SetConsoleCtrlHandler(handler: usize, add: i32) -> i32;
            pub fn GetStdHandle(which: u32) -> isize;
            pub fn CloseHandle(handle: isize) -> i32;
            pub fn GetCurrentProcess() -> isize;
            pub fn TerminateProcess(process: isize, code: u32) -> i32;
        }
    }

    /// `STD_OUTPUT_HANDLE` ((DWORD)-11).
    const STD_OUTPUT_HANDLE: u32 = -11i32 as u32;

    /// A console control handler that swallows every event (Ctrl-C, Ctrl-Break, close).
    extern "system" fn swallow(_event: u32) -> i32 {
        1
    }

    /// Ignores Ctrl-C and Ctrl-Break, so only TerminateProcess (or TerminateJobObject) ends the
    /// process.
    pub fn ignore_interrupts() -> io::Result<()> {
        let handler: extern "system" fn(u32) -> i32 = swallow;
        // SAFETY: registers a handler that only returns; it touches no memory.
        if unsafe { ffi::SetConsoleCtrlHandler(handler as usize, 1) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// This process's console group: its own pid when it was started as a group's leader.
    pub fn process_group() -> i32 {
        i32::try_from(std::process::id()).unwrap_or(0)
    }

    /// Closes the stdout handle, so the reader sees end-of-file while we live on.
    pub fn close_stdout() -> io::Result<()> {
        // SAFETY: the standard handle is not owned by any Rust object here (the emitter writes
        // through its own duplicate, which the caller drops first).
        let closed = unsafe { ffi::CloseHandle(ffi::GetStdHandle(STD_OUTPUT_HANDLE)) };
        if closed == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Ends this process as `signal` would have, by a shell's account: exit code 128 + n.
    pub fn signal_self(signal: c_int) -> io::Result<()> {
        let code = u32::try_from(128 + signal).unwrap_or(1);
        // SAFETY: ends this process; the pseudo handle needs no closing.
        if unsafe { ffi::TerminateProcess(ffi::GetCurrentProcess(), code) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// A duplicate of stdout, written through by the emitter.
    pub fn dup_stdout() -> io::Result<std::fs::File> {
        use std::os::windows::io::AsHandle;
        Ok(std::fs::File::from(
            std::io::stdout().as_handle().try_clone_to_owned()?,
        ))
    }
}

pub(crate) use imp::close_stdout;
pub(crate) use imp::dup_stdout;
pub(crate) use imp::ignore_interrupts;
pub(crate) use imp::process_group;
pub(crate) use imp::signal_self;

/// `SIGINT`.
pub(crate) const SIGINT: c_int = 2;
/// `SIGTERM`.
pub(crate) const SIGTERM: c_int = 15;

/// The number of a signal named `TERM`, `SIGTERM` or given as a number.
pub(crate) fn signal_number(name: &str) -> Option<c_int> {
    let upper = name.trim().to_ascii_uppercase();
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    let number = match bare {
        "HUP" => 1,
        "INT" => SIGINT,
        "QUIT" => 3,
        "ABRT" => 6,
        "KILL" => 9,
        "SEGV" => 11,
        "PIPE" => 13,
        "TERM" => SIGTERM,
        other => return other.parse().ok().filter(|number| *number > 0),
    };
    Some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_names() {
        assert_eq!(signal_number("TERM"), Some(15));
        assert_eq!(signal_number("sigkill"), Some(9));
        assert_eq!(signal_number("2"), Some(2));
        assert_eq!(signal_number("BOGUS"), None);
    }

    #[test]
    fn process_group_is_positive() {
        assert!(process_group() > 0);
    }
}
