//! Cursor login and login status, through the agent CLI (`agent login`, `agent status`).
//!
//! The key in `CURSOR_API_KEY` is never printed, logged or put in argv; status only says that
//! it is in use.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use thiserror::Error;

use super::strip_ansi;

/// Environment variable holding a Cursor API key.
pub const API_KEY_ENV: &str = "CURSOR_API_KEY";

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
pub fn parse_status(output: &str) -> LoginState {
    let clean = strip_ansi(output);
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
    let status = tokio::process::Command::new(agent)
        .arg("login")
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .await
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
    let mut command = tokio::process::Command::new(agent);
    command
        .arg("status")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let output = tokio::time::timeout(STATUS_TIMEOUT, command.output())
        .await
        .map_err(|_| AccountError::Timeout)?
        .map_err(|source| AccountError::Run {
            path: agent.display().to_string(),
            what: "status",
            source,
        })?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Ok(parse_status(&text))
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
