//! The one way an agent child is started. Every invocation of Cursor's CLI — turns,
//! `--version`/`--help` probes, `--list-models`, `status`, `login` — goes through
//! [`AgentCommand`], which gives it the environment of [`super::child_env`] (no Anthropic or
//! gateway credential), the descriptor limit we started with, and one of three policies:
//!
//! - [`Kind::Captured`]: its own process group, output piped and read with bounds, the group
//!   ended on timeout or when the caller drops it (turns, probes, `status`, `--list-models`),
//!   and by a [watchdog](crate::platform::watchdog) if this process dies first;
//! - [`Kind::Interactive`]: the user's terminal, in the terminal's process group, so Ctrl-C and
//!   the browser prompt work (`agent login` from `--cursor-login`);
//! - [`Kind::Detached`]: its own process group, not ended when we exit (the background
//!   `agent login` that waits for the browser approval after `--cursor-login --no-wait`).
//!
//! The process's descriptor limit is the platform's:
//! [`crate::platform::raise_descriptor_limit`] lifts the soft `RLIMIT_NOFILE` to the hard limit
//! at start (the gateway needs descriptors for connections), and every child started here gets
//! the original soft limit back.

use std::ffi::OsString;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::process::Stdio;
use std::time::Duration;

use thiserror::Error;
use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;

use super::child_env::agent_env;
use crate::platform::Stop;
use crate::platform::restore_descriptor_limit;
use crate::platform::watchdog::Watchdog;
use crate::platform::windows_entry::ShimError;

/// How a child is attached to us; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Own process group, piped output, ended with us. Started held (on Windows, suspended
    /// until it is in its Job Object): whoever spawns one gives it a watchdog, then calls
    /// `platform::release`.
    Captured,
    /// The user's terminal and process group.
    Interactive,
    /// Own process group, outlives us; its output goes where the caller points it.
    Detached,
}

/// One agent invocation, built like a `Command` and started by [`AgentCommand::command`] or
/// [`AgentCommand::capture`].
#[derive(Debug, Clone)]
pub(crate) struct AgentCommand {
    program: PathBuf,
    kind: Kind,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    cwd: Option<PathBuf>,
}

impl AgentCommand {
    /// `program` with this process's environment (credentials removed).
    pub(crate) fn new(program: &Path, kind: Kind) -> AgentCommand {
        AgentCommand::with_environment(program, kind, std::env::vars_os())
    }

    /// `program` with `environment` as the inherited environment (credentials removed); for
    /// tests and callers that build the environment themselves.
    pub(crate) fn with_environment(
        program: &Path,
        kind: Kind,
        environment: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> AgentCommand {
        AgentCommand {
            program: program.to_path_buf(),
            kind,
            args: Vec::new(),
            env: agent_env(environment),
            cwd: None,
        }
    }

    /// Adds one argument.
    pub(crate) fn arg(mut self, arg: impl Into<OsString>) -> AgentCommand {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    pub(crate) fn args<I: IntoIterator<Item = A>, A: Into<OsString>>(
        mut self,
        args: I,
    ) -> AgentCommand {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets one variable (after the credential filter: what is set here is ours to set).
    pub(crate) fn env(
        mut self,
        key: impl Into<OsString>,
        value: impl Into<OsString>,
    ) -> AgentCommand {
        let key = key.into();
        self.env.retain(|(k, _)| *k != key);
        self.env.push((key, value.into()));
        self
    }

    /// Removes one variable.
    pub(crate) fn env_remove(mut self, key: &str) -> AgentCommand {
        self.env.retain(|(k, _)| k != key);
        self
    }

    /// The child's working directory.
    pub(crate) fn current_dir(mut self, dir: &Path) -> AgentCommand {
        self.cwd = Some(dir.to_path_buf());
        self
    }

    /// What is really started: on Windows, Cursor's `.cmd` shim becomes the `node.exe` and
    /// `index.js` it would run ([`crate::platform::windows_entry::cursor_entry`]), never `cmd.exe`;
    /// anything else is started as it is.
    fn entry(&self) -> Result<(PathBuf, Vec<OsString>), ShimError> {
        if crate::platform::windows_entry::is_batch(&self.program) {
            let (node, script) = crate::platform::windows_entry::cursor_entry(&self.program)?;
            Ok((node, vec![script.into_os_string()]))
        } else {
            Ok((self.program.clone(), Vec::new()))
        }
    }

    /// Whether the child can be started as built: a `.cmd` shim must lead to a complete
    /// Cursor build, and on Windows the command line must fit its limit. Every spawn of a
    /// captured child checks this first; the error says what to do.
    pub(crate) fn check(&self) -> std::io::Result<()> {
        let (program, mut args) = self
            .entry()
            .map_err(|error| std::io::Error::new(std::io::ErrorKind::NotFound, error))?;
        if let Some(limit) = crate::platform::COMMAND_LINE_LIMIT {
            args.extend(self.args.iter().cloned());
            crate::platform::windows_entry::check_command_line(&program, &args, limit)
                .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidInput, error))?;
        }
        Ok(())
    }

    /// A `std` command with the policy applied: environment replaced, descriptor limit
    /// restored, process group and stdio per [`Kind`] (the caller may still change stdio).
    pub(crate) fn std_command(&self) -> std::process::Command {
        // An unusable shim is refused by `check`; started as it is, it would fail to run.
        let (program, leading) = self
            .entry()
            .unwrap_or_else(|_| (self.program.clone(), Vec::new()));
        let mut command = std::process::Command::new(program);
        command
            .args(leading)
            .args(&self.args)
            .env_clear()
            .envs(self.env.clone());
        if let Some(dir) = &self.cwd {
            command.current_dir(dir);
        }
        match self.kind {
            Kind::Captured => {
                command
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped());
                // Held (on Windows) until its watchdog has it: [`Self::capture`] and
                // `cursor::process::spawn_turn` release it.
                crate::platform::own_guarded_group(&mut command);
            }
            Kind::Interactive => {
                command
                    .stdin(Stdio::inherit())
                    .stdout(Stdio::inherit())
                    .stderr(Stdio::inherit());
            }
            Kind::Detached => {
                command.stdin(Stdio::null());
                crate::platform::own_group(&mut command);
            }
        }
        restore_descriptor_limit(&mut command);
        command
    }

    /// A tokio command with the policy applied ([`Self::std_command`]); a captured child is
    /// killed when its handle is dropped (the caller ends the rest of its group).
    pub(crate) fn command(&self) -> tokio::process::Command {
        let mut command = tokio::process::Command::from(self.std_command());
        command.kill_on_drop(self.kind == Kind::Captured);
        command
    }

    /// Runs a captured child to its end: stdin empty, stdout and stderr read concurrently and
    /// kept up to `limits` (the rest is drained, so the child never blocks on a full pipe),
    /// and the whole group killed when `limits.timeout` passes or the future is dropped.
    pub(crate) async fn capture(&self, limits: CaptureLimits) -> Result<Captured, SpawnError> {
        self.check().map_err(|source| SpawnError::Spawn {
            path: self.program.clone(),
            source,
        })?;
        let mut command = self.command();
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().map_err(|source| SpawnError::Spawn {
            path: self.program.clone(),
            source,
        })?;
        let mut group = GroupGuard::new(child.id());
        // Ends the group if this process dies before the child does; then the child may run.
        let _watchdog = Watchdog::for_child(child.id(), true);
        if let Some(pid) = child.id() {
            crate::platform::release(pid);
        }
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let finished = tokio::time::timeout(limits.timeout, async {
            tokio::join!(
                read_bounded(stdout, limits.stdout),
                read_bounded(stderr, limits.stderr),
                child.wait()
            )
        })
        .await;
        match finished {
            Ok((stdout, stderr, status)) => {
                // The leader is gone; what it left running in its group goes too.
                drop(group);
                let status = status.map_err(|source| SpawnError::Spawn {
                    path: self.program.clone(),
                    source,
                })?;
                Ok(Captured {
                    status,
                    stdout,
                    stderr,
                })
            }
            Err(_elapsed) => {
                group.kill();
                let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
                Err(SpawnError::Timeout {
                    path: self.program.clone(),
                    after: limits.timeout,
                })
            }
        }
    }
}

/// Bounds for [`AgentCommand::capture`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaptureLimits {
    /// Longest the child may run.
    pub timeout: Duration,
    /// stdout bytes kept.
    pub stdout: usize,
    /// stderr bytes kept.
    pub stderr: usize,
}

impl CaptureLimits {
    /// `timeout`, with 1 MiB of stdout and 64 KiB of stderr kept.
    pub(crate) fn new(timeout: Duration) -> CaptureLimits {
        CaptureLimits {
            timeout,
            stdout: 1024 * 1024,
            stderr: 64 * 1024,
        }
    }
}

/// What a captured child printed and how it ended.
#[derive(Debug)]
pub(crate) struct Captured {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a captured child gave no output.
#[derive(Debug, Error)]
pub(crate) enum SpawnError {
    /// It could not be started (or waited for).
    #[error("could not run {path}: {source}")]
    Spawn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// It did not end in time; its group was killed.
    #[error("{path} did not answer within {}s", .after.as_secs())]
    Timeout { path: PathBuf, after: Duration },
}

/// SIGKILLs a child's process group when dropped, unless the group was already handled.
struct GroupGuard {
    pgid: Option<i32>,
}

impl GroupGuard {
    fn new(pid: Option<u32>) -> GroupGuard {
        GroupGuard {
            pgid: pid.and_then(|p| i32::try_from(p).ok()),
        }
    }

    fn kill(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            signal_group(pgid, Stop::Kill);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads a pipe to its end, keeping at most `limit` bytes.
async fn read_bounded<R: AsyncRead + Unpin>(pipe: Option<R>, limit: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let Some(mut pipe) = pipe else {
        return kept;
    };
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
    kept
}

/// Asks every process of the tree led by `pgid` to stop ([`Stop`]: SIGINT, SIGTERM, SIGKILL on
/// Unix; see [`crate::platform`] for Windows); false when the tree is gone. Ids 0 and 1 (and
/// negative ids) are never signalled.
pub(crate) fn signal_group(pgid: i32, stop: Stop) -> bool {
    crate::platform::stop_group(pgid, stop)
}

/// True while any process of the tree exists (zombies included).
pub(crate) fn group_alive(pgid: i32) -> bool {
    crate::platform::group_alive(pgid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> AgentCommand {
        AgentCommand::with_environment(
            crate::platform::testing::posix_shell().unwrap_or(Path::new("/bin/sh")),
            Kind::Captured,
            [
                (OsString::from("PATH"), OsString::from("/usr/bin:/bin")),
                (OsString::from("ANTHROPIC_API_KEY"), OsString::from("sk")),
            ],
        )
        .args(["-c", script])
    }

    #[tokio::test]
    async fn captured_output_is_bounded_and_scrubbed() {
        crate::platform::testing::skip_unless!(crate::platform::testing::posix_shell());
        let limits = CaptureLimits {
            timeout: Duration::from_secs(10),
            stdout: 4,
            stderr: 64,
        };
        let out = sh("printf 0123456789; env >&2")
            .capture(limits)
            .await
            .unwrap();
        assert!(out.status.success());
        assert_eq!(out.stdout, b"0123");
        let env = String::from_utf8(out.stderr).unwrap();
        assert!(env.contains("PATH=/usr/bin:/bin"), "{env}");
        assert!(!env.contains("ANTHROPIC_API_KEY"), "{env}");
    }

    #[tokio::test]
    async fn a_child_that_overstays_is_ended_with_its_group() {
        crate::platform::testing::skip_unless!(crate::platform::testing::posix_shell());
        let limits = CaptureLimits::new(Duration::from_millis(300));
        let started = std::time::Instant::now();
        let error = sh("sleep 30 & sleep 30").capture(limits).await.unwrap_err();
        assert!(matches!(error, SpawnError::Timeout { .. }), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn captured_children_have_their_own_group() {
        let command = sh("true");
        assert_eq!(command.kind, Kind::Captured);
        assert!(
            !signal_group(1, Stop::Interrupt),
            "group 1 is never signalled"
        );
        assert!(!group_alive(0));
    }
}
