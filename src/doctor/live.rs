//! Doctor's `--live` round trip: a private `multi-cursor serve` in plan mode, and a real
//! `claude -p` through it against Cursor.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use thiserror::Error;

use super::Check;
use crate::cursor::bounded_line;
use crate::state;

/// How long the live round trip may take end to end.
const LIVE_TIMEOUT: Duration = Duration::from_secs(300);

/// How long `multi-cursor serve` may take to write its ready file.
const SERVE_READY_TIMEOUT: Duration = Duration::from_secs(20);

/// The prompt of the live round trip.
const LIVE_PROMPT: &str = "This is a connectivity check from `multi-cursor doctor`. Reply with one short sentence and do not use any tools.";

/// The route the live round trip runs on (Cursor's Auto).
const LIVE_MODEL: &str = "multi/cursor/default";

/// Why the live round trip failed.
#[derive(Debug, Error)]
enum LiveError {
    #[error("could not prepare a private folder: {0}")]
    Folder(#[from] state::StateError),
    #[error("could not start `multi-cursor serve`: {0}")]
    Serve(std::io::Error),
    #[error("`multi-cursor serve` wrote no ready file within {}s{}", SERVE_READY_TIMEOUT.as_secs(), exited(.0))]
    NotReady(Option<std::process::ExitStatus>),
    #[error("could not run `{path} -p`: {source}")]
    Claude {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("`claude -p` did not finish within {}s", LIVE_TIMEOUT.as_secs())]
    Timeout,
    #[error("`claude -p` exited with {status}: {said}")]
    Failed { status: String, said: String },
    #[error("`claude -p` succeeded but printed no answer")]
    Empty,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "thiserror hands the field to the message by reference"
)]
fn exited(status: &Option<std::process::ExitStatus>) -> String {
    status
        .map(|s| format!(" (it exited with {s})"))
        .unwrap_or_default()
}

pub(super) async fn live_round_trip(claude: &Path) -> Check {
    const NAME: &str = "Live round trip";
    let started = Instant::now();
    match live(claude).await {
        Ok(answer) => Check::pass(
            NAME,
            format!(
                "Claude Code -> gateway -> Cursor ({LIVE_MODEL}) answered in {:.1}s: {answer}",
                started.elapsed().as_secs_f32()
            ),
        ),
        Err(error) => Check::fail(
            NAME,
            error.to_string(),
            "run it again with MULTI_CURSOR_LOG=debug to see the gateway's side; the checks above name the usual causes",
        ),
    }
}

/// Starts a private gateway (plan mode: Cursor may only read), runs `claude -p` through it in
/// an empty private workspace, and returns the first line of the answer.
async fn live(claude: &Path) -> Result<String, LiveError> {
    let base = state::state_dir()?.join(format!(
        "doctor-live.{}.{:08x}",
        std::process::id(),
        crate::random::u32()
    ));
    let workspace = base.join("workspace");
    state::ensure_private_dir(&workspace)?;
    let result = live_in(claude, &base, &workspace).await;
    let _ = std::fs::remove_dir_all(&base);
    result
}

async fn live_in(claude: &Path, base: &Path, workspace: &Path) -> Result<String, LiveError> {
    let ready = base.join("ready.json");
    let exe = std::env::current_exe().map_err(LiveError::Serve)?;
    let mut gateway = tokio::process::Command::new(exe)
        .args(["serve", "--permission-mode", "plan", "--ready-file"])
        .arg(&ready)
        .current_dir(workspace)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(LiveError::Serve)?;
    let info = wait_ready(&ready, &mut gateway).await;
    let result = match info {
        Ok(info) => run_claude(claude, workspace, &info).await,
        Err(error) => Err(error),
    };
    let _ = gateway.start_kill();
    let _ = gateway.wait().await;
    result
}

async fn wait_ready(
    ready: &Path,
    gateway: &mut tokio::process::Child,
) -> Result<crate::gateway::ReadyInfo, LiveError> {
    let deadline = Instant::now() + SERVE_READY_TIMEOUT;
    loop {
        if let Ok(bytes) = std::fs::read(ready)
            && let Ok(info) = serde_json::from_slice(&bytes)
        {
            return Ok(info);
        }
        if let Ok(Some(status)) = gateway.try_wait() {
            return Err(LiveError::NotReady(Some(status)));
        }
        if Instant::now() > deadline {
            return Err(LiveError::NotReady(None));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn run_claude(
    claude: &Path,
    workspace: &Path,
    info: &crate::gateway::ReadyInfo,
) -> Result<String, LiveError> {
    let mut command = tokio::process::Command::new(claude);
    command
        .args(["-p", LIVE_PROMPT, "--model", LIVE_MODEL])
        .current_dir(workspace)
        .env("ANTHROPIC_BASE_URL", &info.url)
        .env(
            "ANTHROPIC_CUSTOM_HEADERS",
            format!("x-multi-cursor-token: {}", info.token),
        )
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env_remove(crate::env::GATEWAY_URL_ENV)
        .env_remove(crate::env::GATEWAY_TOKEN_ENV)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    crate::platform::own_group_tokio(&mut command);
    // Claude Code refuses to start without some credential; the gateway ignores it, and every
    // request of this run goes to the private gateway.
    if std::env::var_os("ANTHROPIC_API_KEY").is_none()
        && std::env::var_os("ANTHROPIC_AUTH_TOKEN").is_none()
    {
        command.env("ANTHROPIC_AUTH_TOKEN", "multi-cursor-doctor");
    }
    let output = tokio::time::timeout(LIVE_TIMEOUT, command.output())
        .await
        .map_err(|_| LiveError::Timeout)?
        .map_err(|source| LiveError::Claude {
            path: claude.display().to_string(),
            source,
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let said = [stdout.trim(), stderr.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        return Err(LiveError::Failed {
            status: output.status.to_string(),
            said: bounded_line(&said, 400),
        });
    }
    let first = stdout.lines().map(str::trim).find(|l| !l.is_empty());
    first
        .map(|line| bounded_line(line, 160))
        .ok_or(LiveError::Empty)
}
