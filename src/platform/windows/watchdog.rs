//! The Windows watchdog: a Job Object with `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE` holding the
//! target. Only this process holds the job's handle, so the system ends everything in the job
//! when this process ends, however it ends; dropping the [`Watchdog`] closes the handle too,
//! ending what is left of the target. While the watchdog lives, [`super::stop_group`] ends the
//! whole tree with `TerminateJobObject`.

use std::collections::BTreeMap;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::io::FromRawHandle;
use std::os::windows::io::OwnedHandle;
use std::sync::Mutex;
use std::sync::PoisonError;

use windows_sys::Win32::Foundation::CloseHandle;
use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::Foundation::INVALID_HANDLE_VALUE;
use windows_sys::Win32::System::Diagnostics::ToolHelp::CreateToolhelp32Snapshot;
use windows_sys::Win32::System::Diagnostics::ToolHelp::TH32CS_SNAPTHREAD;
use windows_sys::Win32::System::Diagnostics::ToolHelp::THREADENTRY32;
use windows_sys::Win32::System::Diagnostics::ToolHelp::Thread32First;
use windows_sys::Win32::System::Diagnostics::ToolHelp::Thread32Next;
use windows_sys::Win32::System::JobObjects::AssignProcessToJobObject;
use windows_sys::Win32::System::JobObjects::CreateJobObjectW;
use windows_sys::Win32::System::JobObjects::JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
use windows_sys::Win32::System::JobObjects::JOBOBJECT_BASIC_ACCOUNTING_INFORMATION;
use windows_sys::Win32::System::JobObjects::JOBOBJECT_EXTENDED_LIMIT_INFORMATION;
use windows_sys::Win32::System::JobObjects::JobObjectBasicAccountingInformation;
use windows_sys::Win32::System::JobObjects::JobObjectExtendedLimitInformation;
use windows_sys::Win32::System::JobObjects::QueryInformationJobObject;
use windows_sys::Win32::System::JobObjects::SetInformationJobObject;
use windows_sys::Win32::System::JobObjects::TerminateJobObject;
use windows_sys::Win32::System::Threading::OpenThread;
use windows_sys::Win32::System::Threading::PROCESS_SET_QUOTA;
use windows_sys::Win32::System::Threading::PROCESS_TERMINATE;
use windows_sys::Win32::System::Threading::ResumeThread;
use windows_sys::Win32::System::Threading::THREAD_SUSPEND_RESUME;

use super::Process;
use crate::platform::start_time as process_start_time;
pub use crate::platform::watchdog_target::Target;

/// A job handle (a `HANDLE` kept as an address so the registry can be shared between
/// threads); closed when dropped, which ends every process still in the job.
struct Job(usize);

impl Job {
    fn handle(&self) -> HANDLE {
        self.0 as HANDLE
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle is ours and closed once.
        unsafe { CloseHandle(self.handle()) };
    }
}

/// The jobs of the trees this process started, by leader pid.
static JOBS: Mutex<BTreeMap<u32, Job>> = Mutex::new(BTreeMap::new());

/// Ends the job of the tree led by `pid`; false when we hold none for it.
pub(super) fn terminate_job(pid: u32) -> bool {
    let jobs = JOBS.lock().unwrap_or_else(PoisonError::into_inner);
    match jobs.get(&pid) {
        Some(job) => {
            // SAFETY: a live job handle.
            unsafe { TerminateJobObject(job.handle(), 1) };
            true
        }
        None => false,
    }
}

/// Whether the job of the tree led by `pid` still has a running process; `None` when we hold
/// no job for it.
pub(super) fn job_active(pid: u32) -> Option<bool> {
    let jobs = JOBS.lock().unwrap_or_else(PoisonError::into_inner);
    let job = jobs.get(&pid)?;
    // SAFETY: an all-zero accounting record is a valid value of the plain struct.
    let mut info: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: a live job handle, an out-buffer of the stated size.
    let ok = unsafe {
        QueryInformationJobObject(
            job.handle(),
            JobObjectBasicAccountingInformation,
            (&raw mut info).cast(),
            std::mem::size_of::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>() as u32,
            std::ptr::null_mut(),
        )
    } != 0;
    Some(ok && info.ActiveProcesses > 0)
}

/// While this lives, the target is in a kill-on-close job only this process holds; dropping it
/// (or dying) ends what is left of the target.
#[derive(Debug)]
pub struct Watchdog {
    pid: u32,
}

impl Watchdog {
    /// Puts `target` in a new kill-on-close job, when it is still the process recorded.
    pub fn guard(target: Target) -> io::Result<Watchdog> {
        let pid = u32::try_from(target.pid)
            .ok()
            .filter(|p| *p > 1)
            .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        if process_start_time(target.pid) != Some(target.start) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                "the process is no longer the one started",
            ));
        }
        let job = new_kill_on_close_job()?;
        let process = Process::open(pid, PROCESS_SET_QUOTA | PROCESS_TERMINATE)
            .ok_or_else(io::Error::last_os_error)?;
        // SAFETY: a live job handle and a live process handle.
        if unsafe { AssignProcessToJobObject(job.handle(), process.0) } == 0 {
            return Err(io::Error::last_os_error());
        }
        JOBS.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(pid, job);
        Ok(Watchdog { pid })
    }

    /// [`Watchdog::guard`] for a child just started (see [`Target::of_child`]); `None`, logged,
    /// when that fails. Losing the watchdog only loses the cleanup after a crash.
    pub fn for_child(pid: Option<u32>, group: bool) -> Option<Watchdog> {
        let target = Target::of_child(pid, group)?;
        match Watchdog::guard(target) {
            Ok(watchdog) => Some(watchdog),
            Err(error) => {
                tracing::warn!(%error, pid = target.pid, "could not put a child in a job");
                None
            }
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let job = JOBS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.pid);
        drop(job);
    }
}

/// Resumes every suspended thread of `pid` (a process created suspended has one, its main
/// thread; a thread that is not suspended is left as it is).
pub(super) fn resume_threads(pid: u32) -> io::Result<()> {
    // SAFETY: plain flags; the handle is checked below and closed once.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a live handle we own, closed once, when `snapshot` drops.
    let snapshot = unsafe { OwnedHandle::from_raw_handle(snapshot) };
    // SAFETY: an all-zero entry is a valid value of the plain struct.
    let mut entry: THREADENTRY32 = unsafe { std::mem::zeroed() };
    entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
    let mut resumed = false;
    // SAFETY: a live snapshot handle and an entry whose size field is set.
    let mut more = unsafe { Thread32First(snapshot.as_raw_handle(), &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: plain values; a null handle means failure.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if !thread.is_null() {
                // SAFETY: a live thread handle.
                resumed |= unsafe { ResumeThread(thread) } != u32::MAX;
                // SAFETY: the handle is ours and closed once.
                unsafe { CloseHandle(thread) };
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(snapshot.as_raw_handle(), &mut entry) } != 0;
    }
    if resumed {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no thread of the process could be resumed",
        ))
    }
}

/// A new unnamed job whose processes all end when its last handle closes.
fn new_kill_on_close_job() -> io::Result<Job> {
    // SAFETY: no security attributes and no name.
    let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if handle.is_null() {
        return Err(io::Error::last_os_error());
    }
    let job = Job(handle as usize);
    // SAFETY: an all-zero limit record is a valid value of the plain struct.
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    // SAFETY: a live job handle and an in-buffer of the stated size.
    let ok = unsafe {
        SetInformationJobObject(
            job.handle(),
            JobObjectExtendedLimitInformation,
            (&raw const limits).cast(),
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        )
    } != 0;
    if !ok {
        return Err(io::Error::last_os_error());
    }
    Ok(job)
}
