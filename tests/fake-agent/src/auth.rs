//! Login state and the `status`/`whoami`, `login` and `logout` subcommands.
//!
//! Logged in unless `FAKE_AGENT_LOGGED_OUT=1`; even then an API key or auth token (environment
//! or flag) counts as logged in, like the real CLI, and so does an existing
//! `FAKE_AGENT_LOGIN_MARKER` file (which `login` creates and `logout` removes). Like the real
//! CLI, `login` also stores its credentials in `cli-config.json`'s `authInfo` (where the
//! config may be written: see `cli_config`), and `logout` removes them.

use std::fs;
use std::fs::OpenOptions;
use std::io::ErrorKind;

use serde::Serialize;

use crate::cli::Invocation;
use crate::config;
use crate::error::Error;
use crate::ids;
use crate::invocation_log;
use crate::wait::Wait;

/// The real CLI's authentication error, printed on stderr.
pub(crate) const AUTH_ERROR: &str = "Error: Authentication required. Run 'agent login', pass --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN.";

/// The account e-mail used when `FAKE_AGENT_EMAIL` is unset.
const DEFAULT_EMAIL: &str = "fake@example.com";

/// Where the credentials of a run come from, as `system/init.apiKeySource` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeySource {
    /// `CURSOR_API_KEY` / `CURSOR_AUTH_TOKEN`.
    Env,
    /// `--api-key` / `--auth-token`.
    Flag,
    /// A stored login.
    Login,
}

impl KeySource {
    /// The `apiKeySource` string.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Env => "env",
            Self::Flag => "flag",
            Self::Login => "login",
        }
    }
}

/// Where the credentials come from, or `None` when logged out.
pub(crate) fn key_source(invocation: &Invocation) -> Option<KeySource> {
    if invocation.credential_flag() {
        return Some(KeySource::Flag);
    }
    let env_key = [config::CURSOR_API_KEY, config::CURSOR_AUTH_TOKEN]
        .iter()
        .any(|name| config::non_empty(name).is_some());
    if env_key {
        return Some(KeySource::Env);
    }
    stored_login().then_some(KeySource::Login)
}

/// Whether the run has any credentials.
pub(crate) fn logged_in(invocation: &Invocation) -> bool {
    key_source(invocation).is_some()
}

/// Whether a stored login exists: the login marker file, or simply not `FAKE_AGENT_LOGGED_OUT`.
fn stored_login() -> bool {
    let marker = config::path(config::LOGIN_MARKER).is_some_and(|path| path.exists());
    marker || !config::flag(config::LOGGED_OUT)
}

/// Prints the authentication error on stderr and returns the real CLI's exit code for it.
pub(crate) fn fail_auth() -> i32 {
    eprintln!("{AUTH_ERROR}");
    1
}

/// The account e-mail (`FAKE_AGENT_EMAIL`, else `fake@example.com`).
pub(crate) fn email() -> String {
    config::non_empty(config::EMAIL).unwrap_or_else(|| DEFAULT_EMAIL.to_owned())
}

/// `status --format json` when logged in, in the real CLI's field order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatusJson {
    status: &'static str,
    is_authenticated: bool,
    has_access_token: bool,
    has_refresh_token: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_info: Option<UserInfo>,
}

/// The `userInfo` object of [`StatusJson`].
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct UserInfo {
    email: String,
    user_id: u64,
    first_name: &'static str,
    last_name: &'static str,
    created_at: &'static str,
}

/// Answers `status` / `whoami` (text, or JSON with `--format json`); exit 1 when logged out.
pub(crate) fn status(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "status")?;
    if let Some(delay) = config::non_empty(config::STATUS_DELAY) {
        Wait::parse(&delay)?.sleep();
    }
    let logged_in = logged_in(invocation);
    if invocation.value("--format") == Some("json") {
        println!("{}", status_json(logged_in)?);
    } else if logged_in {
        println!("✓ Logged in as {}", email());
    } else {
        println!("Not logged in");
    }
    Ok(if logged_in { 0 } else { 1 })
}

/// The pretty-printed JSON status document.
fn status_json(logged_in: bool) -> Result<String, Error> {
    let document = StatusJson {
        status: if logged_in {
            "authenticated"
        } else {
            "unauthenticated"
        },
        is_authenticated: logged_in,
        has_access_token: logged_in,
        has_refresh_token: logged_in,
        user_info: logged_in.then(|| UserInfo {
            email: email(),
            user_id: 100_000_001,
            first_name: "Fake",
            last_name: "Agent",
            created_at: "2025-01-01T00:00:00.000Z",
        }),
    };
    serde_json::to_string_pretty(&document)
        .map_err(|error| Error::new(format!("encoding status: {error}")))
}

/// Answers `login`: prints the browser link like the real CLI with `NO_OPEN_BROWSER`, waits
/// `FAKE_AGENT_LOGIN_DELAY_MS` for the pretend approval, then creates the login marker.
pub(crate) fn login(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "login")?;
    let url = format!(
        "https://cursor.com/loginDeepControl?challenge={}&uuid={}&mode=login&redirectTarget=cli",
        ids::challenge(),
        ids::uuid()
    );
    println!("Open a browser and navigate to this link: {url}");
    if let Some(delay) = config::non_empty(config::LOGIN_DELAY) {
        Wait::parse(&delay)?.sleep();
    }
    if let Some(marker) = config::path(config::LOGIN_MARKER) {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&marker)
            .map_err(|error| Error::io("creating", &marker, &error))?;
    }
    crate::cli_config::store_login(Some(&email()))?;
    println!("✓ Logged in as {}", email());
    Ok(0)
}

/// Answers `logout`: removes the login marker.
pub(crate) fn logout(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "logout")?;
    if let Some(marker) = config::path(config::LOGIN_MARKER) {
        match fs::remove_file(&marker) {
            Ok(()) => {}
            Err(error) if error.kind() == ErrorKind::NotFound => {}
            Err(error) => return Err(Error::io("removing", &marker, &error)),
        }
    }
    crate::cli_config::store_login(None)?;
    println!("Logged out successfully");
    Ok(0)
}
