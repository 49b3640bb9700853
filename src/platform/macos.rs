//! Process identity on macOS, which has no `/proc`: the start time and the state from
//! `proc_pidinfo` (`PROC_PIDTBSDINFO`; the start in microseconds since the epoch), the command
//! line and the environment at exec from `sysctl` `KERN_PROCARGS2` (parsed by
//! [`crate::platform::parse::procargs2`]). The kernel gives another user's arguments to no one
//! but root, as Linux's `environ` does.

use std::ffi::c_int;
use std::mem::MaybeUninit;

use nix::libc;

use crate::platform::parse::ProcArgs;
use crate::platform::parse::bsd_start_time;
use crate::platform::parse::nul_joined;
use crate::platform::parse::procargs2;

/// The start time of `pid` in microseconds since the epoch; `None` when it is gone.
pub(super) fn start_time(pid: i32) -> Option<u64> {
    let info = bsd_info(pid)?;
    bsd_start_time(info.pbi_start_tvsec, info.pbi_start_tvusec)
}

/// Whether `pid` is a zombie: it has ended and its parent has not collected it yet
/// (`pbi_status` is `SZOMB`).
pub(super) fn zombie(pid: i32) -> bool {
    bsd_info(pid).is_some_and(|info| info.pbi_status == libc::SZOMB)
}

/// `proc_pidinfo`'s `PROC_PIDTBSDINFO` of `pid`; `None` when it is gone.
fn bsd_info(pid: i32) -> Option<libc::proc_bsdinfo> {
    if pid <= 0 {
        return None;
    }
    let size = c_int::try_from(std::mem::size_of::<libc::proc_bsdinfo>()).ok()?;
    let mut info = MaybeUninit::<libc::proc_bsdinfo>::zeroed();
    // SAFETY: the buffer is a `proc_bsdinfo` of `size` bytes, which is what PROC_PIDTBSDINFO
    // writes; the kernel writes at most `size` bytes.
    let written = unsafe {
        libc::proc_pidinfo(
            pid,
            libc::PROC_PIDTBSDINFO,
            0,
            info.as_mut_ptr().cast(),
            size,
        )
    };
    if written != size {
        return None;
    }
    // SAFETY: the kernel filled the whole struct (`written == size`); it was zeroed before,
    // and every field is plain data.
    Some(unsafe { info.assume_init() })
}

/// The raw `KERN_PROCARGS2` buffer of `pid`, sized by `KERN_ARGMAX`.
fn procargs_buffer(pid: i32) -> Option<Vec<u8>> {
    if pid <= 0 {
        return None;
    }
    let mut argmax: c_int = 0;
    let mut size = std::mem::size_of::<c_int>();
    let mut mib = [libc::CTL_KERN, libc::KERN_ARGMAX];
    // SAFETY: `mib` names 2 levels; the output is one `c_int` whose size `size` gives.
    let read = unsafe {
        libc::sysctl(
            mib.as_mut_ptr(),
            2,
            (&raw mut argmax).cast(),
            &mut size,
            std::ptr::null_mut(),
            0,
        )
    };
    if read != 0 {
        return None;
    }
    let mut buffer = vec![0u8; usize::try_from(argmax).ok()?.max(4096)];
    let mut size = buffer.len();
    let mut mib = [libc::CTL_KERN, libc::KERN_PROCARGS2, pid];
    // SAFETY: `mib` names 3 levels; the kernel writes at most `size` bytes into `buffer`, which
    // has that many, and sets `size` to what it wrote.
    let read = unsafe {
        libc::sysctl(
            mib.as_mut_ptr(),
            3,
            buffer.as_mut_ptr().cast(),
            &mut size,
            std::ptr::null_mut(),
            0,
        )
    };
    if read != 0 {
        return None;
    }
    buffer.truncate(size);
    Some(buffer)
}

/// `pid`'s arguments, NUL-separated (the shape of Linux's `/proc/<pid>/cmdline`).
pub(super) fn cmdline(pid: i32) -> Option<Vec<u8>> {
    let buffer = procargs_buffer(pid)?;
    let ProcArgs { argv, .. } = procargs2(&buffer)?;
    Some(nul_joined(argv.into_iter()))
}

/// `pid`'s environment at exec, NUL-separated `NAME=value` entries (the shape of Linux's
/// `/proc/<pid>/environ`).
pub(super) fn environ(pid: i32) -> Option<Vec<u8>> {
    let buffer = procargs_buffer(pid)?;
    let ProcArgs { env, .. } = procargs2(&buffer)?;
    Some(nul_joined(env.into_iter()))
}
