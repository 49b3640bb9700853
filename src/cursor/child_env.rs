//! The environment every agent child gets: ours, minus credentials that are not Cursor's.
//!
//! A **deny-list by pattern**, not an allowlist: Cursor's shell tool runs the user's builds and
//! tests in this environment (`SSH_AUTH_SOCK`, `JAVA_HOME`, `VIRTUAL_ENV`, proxies, …) and
//! `agent login` needs the display variables, so everything else is inherited. `CURSOR_API_KEY`
//! passes: it is how Cursor is authorised. Removed:
//!
//! - Anthropic credentials: every `ANTHROPIC_*` name holding `KEY`, `TOKEN`, `SECRET`,
//!   `PASSWORD`, `CREDENTIAL` or `HEADER` (`ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`,
//!   `ANTHROPIC_CUSTOM_HEADERS` — which carries our gateway token —,
//!   `ANTHROPIC_FOUNDRY_API_KEY`, …); `ANTHROPIC_MODEL` stays.
//! - Where Claude models go: every `ANTHROPIC_*` name holding `URL` (`ANTHROPIC_BASE_URL` and
//!   its siblings `ANTHROPIC_BEDROCK_BASE_URL`, `ANTHROPIC_VERTEX_BASE_URL`,
//!   `ANTHROPIC_FOUNDRY_BASE_URL`), every `ANTHROPIC_*` variable whose value is a URL (holds
//!   `://`) whatever its name, and `MULTI_CURSOR_UPSTREAM`. Any of them may hold
//!   `user:password@` (the status route hides it), and Cursor has no use for them.
//! - Claude Code credentials: every `CLAUDE_CODE_*` name holding one of those words
//!   (`CLAUDE_CODE_OAUTH_TOKEN`, `CLAUDE_CODE_OAUTH_REFRESH_TOKEN`,
//!   `CLAUDE_CODE_SESSION_ACCESS_TOKEN`, …).
//! - Any `*_FILE_DESCRIPTOR` (Claude Code hands credentials to its children through inherited
//!   descriptors named this way).
//! - Cloud credentials Claude Code reads for Bedrock: `AWS_BEARER_TOKEN_BEDROCK`.
//! - Other model vendors' keys we were given only to pass through: `OPENAI_API_KEY`,
//!   `XAI_API_KEY`.
//! - Our own: `MULTI_CURSOR_GATEWAY_*` (the gateway's token and URL) and
//!   [`RUN_MARKER_ENV`], which only the turn supervisor sets.
//!
//! The environment is a parameter, so tests build children without touching the process's.

use crate::env::RUN_MARKER_ENV;
use std::ffi::OsStr;
use std::ffi::OsString;

/// Names removed whatever their shape.
const DENIED_NAMES: &[&str] = &[
    "ANTHROPIC_BASE_URL",
    crate::env::UPSTREAM_ENV,
    "AWS_BEARER_TOKEN_BEDROCK",
    "OPENAI_API_KEY",
    "XAI_API_KEY",
    RUN_MARKER_ENV,
];

/// Prefixes whose names are credentials when they hold one of [`SECRET_WORDS`].
const CREDENTIAL_PREFIXES: &[&str] = &["ANTHROPIC_", "CLAUDE_CODE_"];

/// Words that make an `ANTHROPIC_*` or `CLAUDE_CODE_*` name a credential.
const SECRET_WORDS: &[&str] = &["KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "HEADER"];

/// The prefix whose URL-valued variables are removed: where Claude models go, which may carry
/// `user:password@` (Claude Code reads `ANTHROPIC_BASE_URL` and one base URL per cloud).
const URL_PREFIX: &str = "ANTHROPIC_";

/// The word that makes an [`URL_PREFIX`] name URL-valued.
const URL_WORD: &str = "URL";

/// What makes an [`URL_PREFIX`] variable's value a URL, whatever the name.
const URL_MARK: &str = "://";

/// Prefixes removed entirely.
const DENIED_PREFIXES: &[&str] = &[crate::env::GATEWAY_PREFIX];

/// Suffixes removed entirely.
const DENIED_SUFFIXES: &[&str] = &["_FILE_DESCRIPTOR"];

/// True when `name` must not reach an agent child (compared in upper case; a name that is not
/// UTF-8 is kept, since none of ours is).
pub(crate) fn is_denied(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    let upper = name.to_ascii_uppercase();
    if upper == "CURSOR_API_KEY" {
        return false;
    }
    DENIED_NAMES.contains(&upper.as_str())
        || (upper.starts_with(URL_PREFIX) && upper.contains(URL_WORD))
        || DENIED_PREFIXES.iter().any(|p| upper.starts_with(p))
        || DENIED_SUFFIXES.iter().any(|s| upper.ends_with(s))
        || (CREDENTIAL_PREFIXES.iter().any(|p| upper.starts_with(p))
            && SECRET_WORDS.iter().any(|w| upper.contains(w)))
}

/// True when the variable `name=value` must not reach an agent child: [`is_denied`] by name,
/// or an `ANTHROPIC_*` name whose value is a URL (holds `://`).
pub(crate) fn is_denied_variable(name: &OsStr, value: &OsStr) -> bool {
    is_denied(name)
        || name
            .to_str()
            .is_some_and(|n| n.to_ascii_uppercase().starts_with(URL_PREFIX))
            && value
                .as_encoded_bytes()
                .windows(URL_MARK.len())
                .any(|w| w == URL_MARK.as_bytes())
}

#[cfg(test)]
/// What [`is_denied`] removes, in words, for the reference page (`docs/environment.md` is
/// generated from it).
pub(crate) fn denied_reference() -> String {
    let quoted = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "A Cursor child never inherits {}; any name starting with {}; any name ending in {} \
         (Claude Code hands credentials to its children through descriptors named so); or any \
         name starting with {} that contains {} (so `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, \
         `ANTHROPIC_CUSTOM_HEADERS`, which carries the gateway token, and \
         `CLAUDE_CODE_OAUTH_TOKEN`; `ANTHROPIC_MODEL` stays); or, since where Claude models go \
         may carry `user:password@`, any name starting with `{URL_PREFIX}` that contains \
         `{URL_WORD}` (`ANTHROPIC_BEDROCK_BASE_URL`, `ANTHROPIC_VERTEX_BASE_URL`, \
         `ANTHROPIC_FOUNDRY_BASE_URL`, …) or whose value contains `{URL_MARK}`. `CURSOR_API_KEY` always passes: it \
         is how Cursor is authorised. Everything else passes through, since Cursor's shell tool \
         runs your builds in this environment.\n",
        quoted(DENIED_NAMES),
        quoted(DENIED_PREFIXES),
        quoted(DENIED_SUFFIXES),
        quoted(CREDENTIAL_PREFIXES),
        quoted(SECRET_WORDS),
    )
}

/// `vars` without the denied names, in their order.
pub(crate) fn agent_env<K, V>(vars: impl IntoIterator<Item = (K, V)>) -> Vec<(OsString, OsString)>
where
    K: Into<OsString>,
    V: Into<OsString>,
{
    vars.into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .filter(|(k, v)| !is_denied_variable(k, v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nine names the security probe found in agent children, and the old scrub list.
    const CREDENTIALS: [&str; 11] = [
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_CUSTOM_HEADERS",
        "MULTI_CURSOR_GATEWAY_TOKEN",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "ANTHROPIC_FOUNDRY_API_KEY",
        "AWS_BEARER_TOKEN_BEDROCK",
        "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
        "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
        "OPENAI_API_KEY",
        "XAI_API_KEY",
    ];

    #[test]
    fn credentials_are_removed() {
        for name in CREDENTIALS {
            assert!(is_denied(OsStr::new(name)), "{name}");
        }
        for name in [
            "CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR",
            "CLAUDE_CODE_WEBSOCKET_AUTH_FILE_DESCRIPTOR",
            "SOME_TOOL_FILE_DESCRIPTOR",
            "ANTHROPIC_VERTEX_SECRET",
            "anthropic_api_key",
            "MULTI_CURSOR_GATEWAY_URL",
            "ANTHROPIC_BASE_URL",
            "MULTI_CURSOR_UPSTREAM",
            RUN_MARKER_ENV,
        ] {
            assert!(is_denied(OsStr::new(name)), "{name}");
        }
    }

    /// Every `ANTHROPIC_*` variable naming or holding a URL, passwords and all: the base URL
    /// and its Bedrock, Vertex and Foundry siblings (the third probe found these in every
    /// Cursor child), and a URL under any other such name.
    #[test]
    fn anthropic_urls_are_removed_by_name_and_by_value() {
        for name in [
            "ANTHROPIC_BASE_URL",
            "ANTHROPIC_BEDROCK_BASE_URL",
            "ANTHROPIC_VERTEX_BASE_URL",
            "ANTHROPIC_FOUNDRY_BASE_URL",
            "anthropic_vertex_base_url",
        ] {
            assert!(is_denied(OsStr::new(name)), "{name}");
            assert!(
                is_denied_variable(OsStr::new(name), OsStr::new("")),
                "{name}"
            );
        }
        let url = OsStr::new("https://user:password@proxy.example/v1");
        assert!(is_denied_variable(
            OsStr::new("ANTHROPIC_SOME_ENDPOINT"),
            url
        ));
        assert!(!is_denied_variable(
            OsStr::new("ANTHROPIC_MODEL"),
            OsStr::new("opus")
        ));
        assert!(
            !is_denied_variable(OsStr::new("HTTPS_PROXY"), url),
            "not ours to judge"
        );
        let env = agent_env([
            ("ANTHROPIC_BEDROCK_BASE_URL", "https://u:p@bedrock.example"),
            ("ANTHROPIC_VERTEX_BASE_URL", "https://u:p@vertex.example"),
            ("ANTHROPIC_FOUNDRY_BASE_URL", "https://u:p@foundry.example"),
            ("ANTHROPIC_ODD", "http://u:p@odd.example"),
            ("ANTHROPIC_MODEL", "opus"),
        ]);
        assert_eq!(
            env,
            [(OsString::from("ANTHROPIC_MODEL"), OsString::from("opus"))]
        );
    }

    #[test]
    fn everything_else_is_inherited() {
        for name in [
            "CURSOR_API_KEY",
            "PATH",
            "HOME",
            "SSH_AUTH_SOCK",
            "JAVA_HOME",
            "VIRTUAL_ENV",
            "DISPLAY",
            "WAYLAND_DISPLAY",
            "NO_OPEN_BROWSER",
            "ANTHROPIC_MODEL",
            "CLAUDE_CODE_USE_BEDROCK",
            "CLAUDE_CONFIG_DIR",
            "MULTI_CURSOR_STATE_DIR",
            "MULTI_CURSOR_AGENT",
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
        ] {
            assert!(!is_denied(OsStr::new(name)), "{name}");
        }
    }

    #[test]
    fn the_builder_keeps_order_and_values() {
        let env = agent_env([
            ("PATH", "/bin"),
            ("ANTHROPIC_API_KEY", "sk-ant"),
            ("CURSOR_API_KEY", "c"),
        ]);
        assert_eq!(
            env,
            [
                (OsString::from("PATH"), OsString::from("/bin")),
                (OsString::from("CURSOR_API_KEY"), OsString::from("c")),
            ]
        );
    }
}
