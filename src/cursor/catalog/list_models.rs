//! The `agent --list-models` child: spawned in its own process group with stdin closed, its
//! output read through a bounded reader, the whole group killed when it overruns its time, and
//! its answer interpreted as a catalog or a [`CatalogError`].

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;

use super::super::bounded;
use super::super::strip_ansi;
use super::Catalog;
use super::CatalogError;
use super::ListModels;
use super::parse_list_models;

/// How long [`fetch_catalog`] waits for `agent --list-models` before killing its process group.
pub(crate) const FETCH_TIMEOUT: Duration = Duration::from_secs(15);

/// The most stdout of `--list-models` we keep (real lists are a few KB).
const STDOUT_LIMIT: usize = 1 << 20;

/// The most stderr text an error carries.
const STDERR_LIMIT: usize = 4 * 1024;

/// Runs `<agent> --list-models` (15 s limit) and parses its answer. Used by the launcher and
/// `--cursor-models`; see [`fetch_catalog_with_timeout`] for the details.
pub async fn fetch_catalog(agent: &Path) -> Result<Catalog, CatalogError> {
    fetch_catalog_with_timeout(agent, FETCH_TIMEOUT).await
}

/// Runs `<agent> --list-models` in its own process group (stdin closed, `NO_COLOR=1`, killed on
/// drop; colour is stripped anyway, since the CLI ignores the variable on some builds) and
/// parses its answer; after `timeout` the whole group gets SIGKILL and the result is
/// [`CatalogError::Timeout`]. The auth failure text (`Authentication required`, on stderr or
/// stdout) gives [`CatalogError::LoggedOut`]; other non-zero exits give
/// [`CatalogError::Failed`] with bounded stderr. `No models available for this account.` gives
/// an empty catalog. Tests pass a short timeout.
pub async fn fetch_catalog_with_timeout(
    agent: &Path,
    timeout: Duration,
) -> Result<Catalog, CatalogError> {
    let output = run_list_models(agent, timeout).await?;
    interpret(agent, output)
}

/// What the child printed and how it ended.
struct ListOutput {
    success: bool,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

async fn run_list_models(agent: &Path, timeout: Duration) -> Result<ListOutput, CatalogError> {
    let mut command = tokio::process::Command::new(agent);
    command
        .arg("--list-models")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            CatalogError::AgentMissing {
                path: agent.to_path_buf(),
            }
        } else {
            CatalogError::Spawn {
                path: agent.to_path_buf(),
                source,
            }
        }
    })?;
    // process_group(0): the group id is the child's pid.
    let pgid = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let finished = tokio::time::timeout(timeout, async {
        tokio::join!(
            read_bounded(stdout, STDOUT_LIMIT),
            read_bounded(stderr, STDERR_LIMIT),
            child.wait()
        )
    })
    .await;
    match finished {
        Ok((stdout, stderr, status)) => {
            let status = status.map_err(|source| CatalogError::Spawn {
                path: agent.to_path_buf(),
                source,
            })?;
            Ok(ListOutput {
                success: status.success(),
                code: status.code(),
                stdout: String::from_utf8_lossy(&stdout).into_owned(),
                stderr: String::from_utf8_lossy(&stderr).into_owned(),
            })
        }
        Err(_elapsed) => {
            kill_group(pgid);
            // Reap the leader; kill_on_drop covers the unlikely case that this stalls.
            let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
            Err(CatalogError::Timeout {
                path: agent.to_path_buf(),
                timeout,
            })
        }
    }
}

/// SIGKILL to the whole process group (the agent is a shell wrapper around Node, so its
/// descendants must go too). A group that is already gone is fine.
fn kill_group(pgid: Option<u32>) {
    let Some(pgid) = pgid.and_then(|p| i32::try_from(p).ok()) else {
        return;
    };
    if let Err(error) = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pgid),
        nix::sys::signal::Signal::SIGKILL,
    ) && error != nix::errno::Errno::ESRCH
    {
        tracing::warn!(pgid, %error, "could not kill the `agent --list-models` process group");
    }
}

/// Reads a pipe to its end, keeping at most `limit` bytes (the rest is drained so the child
/// never blocks on a full pipe).
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

fn interpret(agent: &Path, output: ListOutput) -> Result<Catalog, CatalogError> {
    let stdout = strip_ansi(&output.stdout);
    let stderr = strip_ansi(&output.stderr);
    let auth = || auth_failure(&stderr).or_else(|| auth_failure(&stdout));
    if !output.success {
        if let Some(message) = auth() {
            return Err(CatalogError::LoggedOut { message });
        }
        let text = if stderr.trim().is_empty() {
            &stdout
        } else {
            &stderr
        };
        return Err(CatalogError::Failed {
            path: agent.to_path_buf(),
            code: output.code,
            stderr: bounded(text.trim(), STDERR_LIMIT),
        });
    }
    match parse_list_models(&stdout) {
        ListModels::Models(models) => Ok(Catalog::from_models(models)),
        ListModels::NoModelsForAccount => Ok(Catalog::default()),
        ListModels::Unrecognised => match auth() {
            Some(message) => Err(CatalogError::LoggedOut { message }),
            None => Err(CatalogError::UnrecognisedOutput {
                path: agent.to_path_buf(),
                excerpt: bounded(stdout.trim(), 512),
            }),
        },
    }
}

/// The CLI's line saying nobody is signed in, if any.
fn auth_failure(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|line| line.contains("Authentication required") || line.starts_with("Not logged in"))
        .map(|line| bounded(line, STDERR_LIMIT))
}
