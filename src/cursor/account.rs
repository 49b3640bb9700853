//! Cursor login and login status, through the agent CLI (`agent login`, `agent status`).
//!
//! The key in `CURSOR_API_KEY` is never printed, logged or put in argv; status only says that
//! it is in use.

use std::path::Path;
use std::time::Duration;

use thiserror::Error;

use super::sanitize::sanitize;
use super::spawn::AgentCommand;
use super::spawn::CaptureLimits;
use super::spawn::Kind;
use super::spawn::SpawnError;
use super::spawn::signal_group;
use crate::text::strip_ansi;

/// Environment variable holding a Cursor API key.
pub(crate) const API_KEY_ENV: &str = "CURSOR_API_KEY";

const STATUS_TIMEOUT: Duration = Duration::from_secs(15);

/// Who Cursor's CLI acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginState {
    /// `agent status` said `Logged in as <who>`.
    LoggedIn { who: String },
    /// `CURSOR_API_KEY` is set; the CLI uses it instead of a browser login.
    ApiKey,
    /// Not logged in; carries what the CLI said.
    LoggedOut { said: String },
}

impl LoginState {
    /// A one-line, key-free description for people.
    pub fn describe(&self) -> String {
        match self {
            LoginState::LoggedIn { who } => format!("Logged in to Cursor as {who}."),
            LoginState::ApiKey => {
                format!(
                    "Cursor access uses {API_KEY_ENV} from the environment (the key is not shown)."
                )
            }
            LoginState::LoggedOut { said } => format!(
                "Not logged in to Cursor ({said}). Run `multi-cursor --cursor-login`, or set {API_KEY_ENV}."
            ),
        }
    }

    /// True when Cursor turns can run.
    pub fn is_usable(&self) -> bool {
        !matches!(self, LoginState::LoggedOut { .. })
    }
}

/// Why the login state could not be learned.
#[derive(Debug, Error)]
pub enum AccountError {
    #[error("could not run `{path} {what}`: {source}")]
    Run {
        path: String,
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("`agent status` did not answer within {}s; check your network and try again", STATUS_TIMEOUT.as_secs())]
    Timeout,
}

/// Reads `agent status` output into a [`LoginState`].
pub(crate) fn parse_status(output: &str) -> LoginState {
    // Cursor's words end up in messages Claude Code shows: no control characters.
    let clean = sanitize(&strip_ansi(output));
    for line in clean.lines() {
        if let Some(idx) = line.find("Logged in as") {
            let who = line[idx + "Logged in as".len()..].trim();
            return LoginState::LoggedIn {
                who: who.to_string(),
            };
        }
    }
    let said = clean
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no answer")
        .to_string();
    LoginState::LoggedOut { said }
}

/// The login state: `CURSOR_API_KEY` when set, else what `agent status` says.
pub async fn login_state(agent: &Path) -> Result<LoginState, AccountError> {
    if std::env::var_os(API_KEY_ENV).is_some_and(|v| !v.is_empty()) {
        return Ok(LoginState::ApiKey);
    }
    agent_status(agent).await
}

/// Runs `agent login` with the terminal attached (the CLI opens the browser, or prints the URL
/// to open when `NO_OPEN_BROWSER` is set), then confirms with `agent status`.
pub async fn login(agent: &Path) -> Result<LoginState, AccountError> {
    let login = AgentCommand::new(agent, Kind::Interactive).arg("login");
    let status = match login.check() {
        Ok(()) => login.command().status().await,
        Err(error) => Err(error),
    }
    .map_err(|source| AccountError::Run {
        path: agent.display().to_string(),
        what: "login",
        source,
    })?;
    if !status.success() {
        tracing::warn!(%status, "agent login did not succeed");
    }
    agent_status(agent).await
}

/// What `agent status` says (stdout and stderr both read), within [`STATUS_TIMEOUT`].
async fn agent_status(agent: &Path) -> Result<LoginState, AccountError> {
    let output = AgentCommand::new(agent, Kind::Captured)
        .arg("status")
        .capture(CaptureLimits::new(STATUS_TIMEOUT))
        .await
        .map_err(|error| match error {
            SpawnError::Timeout { .. } => AccountError::Timeout,
            SpawnError::Spawn { source, .. } => AccountError::Run {
                path: agent.display().to_string(),
                what: "status",
                source,
            },
        })?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Ok(parse_status(&text))
}

/// How long [`start_login`] waits for `agent login` to print the link to open.
const LINK_WAIT: Duration = Duration::from_secs(20);

/// What [`start_login`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginStart {
    /// Cursor access already works; no login was started.
    Already(LoginState),
    /// `agent login` (process `pid`) waits in the background for the user to open `url` and
    /// approve; it finishes on its own.
    Started { url: String, pid: u32 },
    /// `agent login` ended before printing a link: the state `agent status` reported then, and
    /// what `agent login` said.
    Finished { state: LoginState, said: String },
}

impl LoginStart {
    /// What to tell the user, in a few lines, key-free.
    pub fn describe(&self) -> String {
        match self {
            LoginStart::Already(LoginState::ApiKey) => format!(
                "{} No login was started (unset {API_KEY_ENV} to use a browser login instead).",
                LoginState::ApiKey.describe()
            ),
            LoginStart::Already(state) => format!(
                "{} No login was started (to switch accounts, run `agent logout` first).",
                state.describe()
            ),
            LoginStart::Started { url, pid } => format!(
                "Open this link in your browser to log in to Cursor:\n{url}\nThe login finishes in the background (agent login, pid {pid}) once you approve it there; then run `multi-cursor --cursor-status` (or /multi-cursor:login again) to confirm."
            ),
            LoginStart::Finished { state, said } if !state.is_usable() && !said.is_empty() => {
                format!("{}\n`agent login` said: {said}", state.describe())
            }
            LoginStart::Finished { state, .. } => state.describe(),
        }
    }

    /// True unless the login ended without access.
    pub fn is_ok(&self) -> bool {
        match self {
            LoginStart::Already(_) | LoginStart::Started { .. } => true,
            LoginStart::Finished { state, .. } => state.is_usable(),
        }
    }
}

/// Why [`start_login`] could not start the login.
#[derive(Debug, Error)]
pub enum StartLoginError {
    #[error(transparent)]
    Status(#[from] AccountError),
    #[error("could not keep `agent login`'s output in {path}: {source}")]
    Output {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("could not open the state folder for `agent login`'s output: {0}")]
    State(#[from] crate::state::StateError),
    #[error("could not run `{path} login`: {source}")]
    Spawn {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "`agent login` printed no link to open within {}s and was stopped (it said: {said}); run `multi-cursor --cursor-login` in a terminal instead",
        LINK_WAIT.as_secs()
    )]
    NoLink { said: String },
}

/// Starts a Cursor login without waiting for it, for places that show output only once a
/// command has ended (Claude Code's slash commands): when `agent status` says nobody is logged
/// in, runs `agent login` with `NO_OPEN_BROWSER=1` in its own process group, its output going to
/// a private file in the state folder, and returns as soon as it prints the link to open. The
/// process keeps waiting for the browser approval after we exit; its output file is unlinked
/// at once, so nothing is left behind.
pub async fn start_login(agent: &Path) -> Result<LoginStart, StartLoginError> {
    let state = login_state(agent).await?;
    if state.is_usable() {
        return Ok(LoginStart::Already(state));
    }
    let dir = crate::state::state_dir()?;
    let path = dir.join(format!(
        ".cursor-login.{}.{:016x}.log",
        std::process::id(),
        crate::random::u64()
    ));
    let output_error = |source| StartLoginError::Output {
        path: path.clone(),
        source,
    };
    let file =
        crate::platform::private_file(std::fs::OpenOptions::new().write(true).create_new(true))
            .open(&path)
            .map_err(output_error)?;
    let result = run_detached_login(agent, &path, file).await;
    let said = read_login_output(&path);
    let _ = std::fs::remove_file(&path);
    match result? {
        Some(started) => Ok(started),
        None => Ok(LoginStart::Finished {
            state: agent_status(agent).await?,
            said: bounded_said(&said),
        }),
    }
}

/// What `agent login` wrote to its output file so far (never through a link; at most 64 KiB).
fn read_login_output(path: &Path) -> String {
    crate::state::read_state_file(path, 64 * 1024)
        .ok()
        .flatten()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default()
}

/// `agent login`'s words for a message: colours removed, on one line, at most 500 characters.
fn bounded_said(said: &str) -> String {
    super::bounded_line(&sanitize(&strip_ansi(said)), 500)
}

/// Spawns `agent login` writing to `file` and watches `path` for the link; `None` when the
/// process ended without printing one.
async fn run_detached_login(
    agent: &Path,
    path: &Path,
    file: std::fs::File,
) -> Result<Option<LoginStart>, StartLoginError> {
    let output_error = |source| StartLoginError::Output {
        path: path.to_path_buf(),
        source,
    };
    let stderr = file.try_clone().map_err(output_error)?;
    let login = AgentCommand::new(agent, Kind::Detached)
        .arg("login")
        .env("NO_OPEN_BROWSER", "1");
    let mut child = login
        .check()
        .and_then(|()| login.std_command().stdout(file).stderr(stderr).spawn())
        .map_err(|source| StartLoginError::Spawn {
            path: agent.display().to_string(),
            source,
        })?;
    let deadline = tokio::time::Instant::now() + LINK_WAIT;
    loop {
        let said = read_login_output(path);
        if let Some(url) = login_link(&said) {
            return Ok(Some(LoginStart::Started {
                url,
                pid: child.id(),
            }));
        }
        if let Ok(Some(_)) = child.try_wait() {
            return Ok(None);
        }
        if tokio::time::Instant::now() >= deadline {
            if let Ok(pgid) = i32::try_from(child.id()) {
                signal_group(pgid, crate::platform::Stop::Kill);
            }
            let _ = child.wait();
            let said = sanitize(&strip_ansi(&said)).trim().to_string();
            return Err(StartLoginError::NoLink {
                said: if said.is_empty() {
                    "nothing".to_string()
                } else {
                    said
                },
            });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The first `https://` link in `agent login`'s output (colours removed).
pub(crate) fn login_link(output: &str) -> Option<String> {
    strip_ansi(output)
        .split_whitespace()
        .find(|word| word.starts_with("https://"))
        .map(|word| {
            word.trim_end_matches(['.', ',', ';', ')', '"', '\''])
                .to_string()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(
            parse_status("\u{1b}[32m✓\u{1b}[39m Logged in as a@b.c\n"),
            LoginState::LoggedIn {
                who: "a@b.c".into()
            }
        );
        assert!(matches!(
            parse_status("Not logged in\n"),
            LoginState::LoggedOut { .. }
        ));
    }

    #[test]
    fn login_link_is_found_in_coloured_output() {
        let said = "\u{1b}[2mOpen a browser and navigate to this link: https://cursor.com/loginDeepControl?challenge=a&uuid=b&mode=login.\u{1b}[22m\n";
        assert_eq!(
            login_link(said).as_deref(),
            Some("https://cursor.com/loginDeepControl?challenge=a&uuid=b&mode=login")
        );
        assert_eq!(login_link("Waiting...\n"), None);
    }

    #[test]
    fn login_start_descriptions() {
        let failed = LoginStart::Finished {
            state: LoginState::LoggedOut {
                said: "Not logged in".into(),
            },
            said: "Error: network unreachable".into(),
        };
        assert!(!failed.is_ok());
        assert!(
            failed
                .describe()
                .ends_with("`agent login` said: Error: network unreachable"),
            "{}",
            failed.describe()
        );
        let key = LoginStart::Already(LoginState::ApiKey);
        assert!(key.is_ok());
        assert!(key.describe().contains("unset CURSOR_API_KEY"));
        assert_eq!(
            bounded_said("\u{1b}[31mError:\u{1b}[39m\n  down \n"),
            "Error: down"
        );
        assert_eq!(bounded_said(&"x".repeat(600)).chars().count(), 501);
    }

    #[test]
    fn api_key_description_never_has_the_key() {
        assert!(!LoginState::ApiKey.describe().contains("sk-"));
    }

    #[test]
    fn strips_sgr_and_osc() {
        assert_eq!(
            strip_ansi("\u{1b}[36mauto\u{1b}[39m \u{1b}[2m- Auto\u{1b}[22m"),
            "auto - Auto"
        );
        assert_eq!(
            strip_ansi("\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7}"),
            "link"
        );
    }
}
