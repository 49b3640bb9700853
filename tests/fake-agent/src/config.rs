//! The environment variables that drive the fake, and small helpers to read them.
//!
//! Every name the fake reads is a constant here, so `README.md` and the code cannot drift apart
//! unnoticed.

use std::env;
use std::path::PathBuf;

use crate::error::Error;

/// File to append one JSON line per invocation to.
pub(crate) const LOG: &str = "FAKE_AGENT_LOG";
/// Scenario file (or directory of scenario files, one per invocation) a turn replays.
pub(crate) const SCENARIO: &str = "FAKE_AGENT_SCENARIO";
/// Counter file for directory scenarios (default `<FAKE_AGENT_LOG>.count`).
pub(crate) const COUNTER: &str = "FAKE_AGENT_COUNTER";
/// Chat id of a turn that does not resume one (default: a fresh UUID per run).
pub(crate) const CHAT_ID: &str = "FAKE_AGENT_CHAT_ID";
/// Comma-separated chat ids that `--resume` accepts; setting it turns the unknown-id check on.
pub(crate) const KNOWN_CHATS: &str = "FAKE_AGENT_KNOWN_CHATS";
/// File of known chat ids, one per line; every turn appends its chat id. Turns the check on.
pub(crate) const CHATS_FILE: &str = "FAKE_AGENT_CHATS_FILE";
/// What an unknown `--resume` id does: `fail` (default) or `new`.
pub(crate) const UNKNOWN_RESUME: &str = "FAKE_AGENT_UNKNOWN_RESUME";
/// Assistant text of the default stream (default `fake agent reply`).
pub(crate) const REPLY: &str = "FAKE_AGENT_REPLY";
/// `--version` output (default `2026.09.18-9a7762b`).
pub(crate) const VERSION: &str = "FAKE_AGENT_VERSION";
/// File whose bytes are the `--version` output, verbatim.
pub(crate) const VERSION_FILE: &str = "FAKE_AGENT_VERSION_FILE";
/// File whose bytes are the `--help` output, verbatim.
pub(crate) const HELP_FILE: &str = "FAKE_AGENT_HELP_FILE";
/// File whose bytes are the `--list-models` / `models` output, verbatim.
pub(crate) const MODELS: &str = "FAKE_AGENT_MODELS";
/// `1`: a turn whose `--model` is not in the listing fails like the real CLI.
pub(crate) const STRICT_MODELS: &str = "FAKE_AGENT_STRICT_MODELS";
/// Account e-mail shown by `status` and `login` (default `fake@example.com`).
pub(crate) const EMAIL: &str = "FAKE_AGENT_EMAIL";
/// `1`: no stored login (an API key or the login marker still counts as logged in).
pub(crate) const LOGGED_OUT: &str = "FAKE_AGENT_LOGGED_OUT";
/// File that `login` creates and `logout` removes; while it exists the fake is logged in.
pub(crate) const LOGIN_MARKER: &str = "FAKE_AGENT_LOGIN_MARKER";
/// How long `login` waits for the (pretend) browser approval: milliseconds or `forever`.
pub(crate) const LOGIN_DELAY: &str = "FAKE_AGENT_LOGIN_DELAY_MS";
/// How long `status` takes to answer: milliseconds or `forever` (default: at once).
pub(crate) const STATUS_DELAY: &str = "FAKE_AGENT_STATUS_DELAY_MS";
/// `1`: the workspace is already trusted (a turn needs no `--trust`/`--yolo`/`-f`).
pub(crate) const TRUSTED: &str = "FAKE_AGENT_TRUSTED";
/// `legacy`: the trust gate of builds up to 2026.08 (on stdout, exit 0) instead of 2026.09's
/// (on stderr, exit 1).
pub(crate) const TRUST_GATE: &str = "FAKE_AGENT_TRUST_GATE";
/// Reconnect rounds the default stream reports before its reply (default 0).
pub(crate) const RECONNECTS: &str = "FAKE_AGENT_RECONNECTS";
/// A URL the default stream fetches before its reply (approved only with `--force`/`--yolo`).
pub(crate) const WEB_FETCH: &str = "FAKE_AGENT_WEB_FETCH";
/// `1`: `--model` is persisted into `cli-config.json`, as the real CLI does on every run. Off
/// by default while tests assert that nothing writes the global config.
pub(crate) const PERSIST_MODEL: &str = "FAKE_AGENT_PERSIST_MODEL";
/// Cursor's config folder, as the real CLI reads it (`cli-config.json` lives there).
pub(crate) const CURSOR_CONFIG_DIR: &str = "CURSOR_CONFIG_DIR";
/// Default pid file of `#!spawn-lingerer` when the directive names none.
pub(crate) const LINGERER_PIDFILE: &str = "FAKE_AGENT_LINGERER_PIDFILE";
/// Safety net: the fake (and its lingerers) exit after this many milliseconds whatever they do.
pub(crate) const MAX_LIFETIME: &str = "FAKE_AGENT_MAX_LIFETIME_MS";

/// The API-key variable the real CLI reads.
pub(crate) const CURSOR_API_KEY: &str = "CURSOR_API_KEY";
/// The auth-token variable the real CLI reads.
pub(crate) const CURSOR_AUTH_TOKEN: &str = "CURSOR_AUTH_TOKEN";

/// The variable's value, or `None` when unset or not valid Unicode.
pub(crate) fn var(name: &str) -> Option<String> {
    env::var(name).ok()
}

/// The variable's value when set and non-empty.
pub(crate) fn non_empty(name: &str) -> Option<String> {
    var(name).filter(|value| !value.is_empty())
}

/// The variable as a path when set and non-empty.
pub(crate) fn path(name: &str) -> Option<PathBuf> {
    env::var_os(name)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// Whether the variable is set to a false value (`0`, `false`, `no`, `off`, any case): for
/// the behaviours the real CLI has by default, which a test turns off.
pub(crate) fn turned_off(name: &str) -> bool {
    var(name).is_some_and(|value| {
        matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "0" | "false" | "no" | "off"
        )
    })
}

/// Whether the variable is set to a true value (`1`, `true`, `yes`, `on`, any case).
pub(crate) fn flag(name: &str) -> bool {
    var(name).is_some_and(|value| {
        matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

/// Parses a non-negative integer from the variable, naming it in the error.
pub(crate) fn number(name: &str) -> Result<Option<u64>, Error> {
    match non_empty(name) {
        None => Ok(None),
        Some(text) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| Error::new(format!("{name}={text:?} is not a whole number"))),
    }
}
