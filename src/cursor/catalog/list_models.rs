//! The `agent --list-models` child: a captured agent child (`cursor::spawn`: its own process
//! group, stdin closed, the credential-free agent environment, bounded output, the whole group
//! killed when it overruns its time), and its answer interpreted as a catalog or a
//! [`CatalogError`].

use std::path::Path;
use std::time::Duration;

use super::super::spawn::AgentCommand;
use super::super::spawn::CaptureLimits;
use super::super::spawn::Kind;
use super::super::spawn::SpawnError;
use super::super::strip_ansi;
use super::Catalog;
use super::CatalogError;
use super::ListModels;
use super::parse_list_models;
use crate::text::ellipsize_bytes;

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

/// Runs `<agent> --list-models` as a captured agent child (own process group, stdin closed,
/// `NO_COLOR=1`, no credentials, killed on drop; colour is stripped anyway, since the CLI ignores the variable on some builds) and
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
    let command = AgentCommand::new(agent, Kind::Captured)
        .arg("--list-models")
        .env("NO_COLOR", "1");
    let limits = CaptureLimits {
        timeout,
        stdout: STDOUT_LIMIT,
        stderr: STDERR_LIMIT,
    };
    match command.capture(limits).await {
        Ok(captured) => Ok(ListOutput {
            success: captured.status.success(),
            code: captured.status.code(),
            stdout: String::from_utf8_lossy(&captured.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&captured.stderr).into_owned(),
        }),
        Err(SpawnError::Spawn { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Err(CatalogError::AgentMissing {
                path: agent.to_path_buf(),
            })
        }
        Err(SpawnError::Spawn { source, .. }) => Err(CatalogError::Spawn {
            path: agent.to_path_buf(),
            source,
        }),
        Err(SpawnError::Timeout { .. }) => Err(CatalogError::Timeout {
            path: agent.to_path_buf(),
            timeout,
        }),
    }
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
            stderr: ellipsize_bytes(text.trim(), STDERR_LIMIT),
        });
    }
    match parse_list_models(&stdout) {
        ListModels::Models(models) => Ok(Catalog::from_models(models)),
        ListModels::NoModelsForAccount => Ok(Catalog::default()),
        ListModels::Unrecognised => match auth() {
            Some(message) => Err(CatalogError::LoggedOut { message }),
            None => Err(CatalogError::UnrecognisedOutput {
                path: agent.to_path_buf(),
                excerpt: ellipsize_bytes(stdout.trim(), 512),
            }),
        },
    }
}

/// The CLI's line saying nobody is signed in, if any.
fn auth_failure(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|line| line.contains("Authentication required") || line.starts_with("Not logged in"))
        .map(|line| ellipsize_bytes(line, STDERR_LIMIT))
}
