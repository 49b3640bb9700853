//! `agent --list-models` / `agent models`: the model listing, in the real CLI's coloured format,
//! and the display names `system/init` reports.
//!
//! The real CLI colours this listing even when stdout is a pipe:
//! `\x1b[36m<id>\x1b[39m \x1b[2m- <Name>\x1b[22m\x1b[2m (current, default)\x1b[22m`, a dim
//! `Available models` heading, and a dim `Tip:` line.

use std::fs;
use std::io::Write;

use crate::auth;
use crate::cli::Invocation;
use crate::config;
use crate::error::Error;
use crate::invocation_log;

/// One model of the default listing.
struct Model {
    /// The id passed to `--model`.
    id: &'static str,
    /// The display name (`system/init.model`).
    name: &'static str,
    /// The `(…)` markers after the name, if any.
    markers: Option<&'static str>,
}

/// The default listing, in the real CLI's order (auto first).
const MODELS: &[Model] = &[
    model("auto", "Auto", Some("current, default")),
    model("composer-2.5", "Composer 2.5", None),
    model("composer-2.5-fast", "Composer 2.5 Fast", None),
    model("cursor-grok-4.7", "Grok 4.7", None),
    model("gpt-5.3-codex", "Codex 5.3", None),
    model("gpt-5.3-codex-low", "Codex 5.3 Low", None),
    model("gpt-5.3-codex-high", "Codex 5.3 High", None),
    model("gpt-5.3-codex-xhigh", "Codex 5.3 Extra High", None),
    model("gpt-5.3-codex-fast", "Codex 5.3 Fast", None),
    model("claude-opus-4-8", "Claude Opus 4.8", None),
    model("claude-opus-4-8-thinking", "Claude Opus 4.8 Thinking", None),
    model("sonnet-4.6", "Sonnet 4.6", None),
];

/// Builds a [`Model`] in a const context.
const fn model(id: &'static str, name: &'static str, markers: Option<&'static str>) -> Model {
    Model { id, name, markers }
}

/// The dim heading line.
const HEADING: &str = "\x1b[2mAvailable models\x1b[22m";
/// The dim tip line.
const TIP: &str =
    "\x1b[2mTip: use --model <id> (or /model <id> in interactive mode) to switch.\x1b[0m";

/// The default listing, exactly as the real CLI writes it to a pipe.
pub(crate) fn default_listing() -> String {
    let mut text = format!("{HEADING}\n\n");
    for model in MODELS {
        text.push_str(&format!(
            "\x1b[36m{}\x1b[39m \x1b[2m- {}\x1b[22m",
            model.id, model.name
        ));
        if let Some(markers) = model.markers {
            text.push_str(&format!("\x1b[2m ({markers})\x1b[22m"));
        }
        text.push('\n');
    }
    text.push_str(&format!("\n{TIP}\n"));
    text
}

/// The listing this run prints: `FAKE_AGENT_MODELS`'s file verbatim, else the default.
fn listing_bytes() -> Result<Vec<u8>, Error> {
    match config::path(config::MODELS) {
        Some(path) => fs::read(&path).map_err(|error| Error::io("reading", &path, &error)),
        None => Ok(default_listing().into_bytes()),
    }
}

/// Answers `--list-models` / `models`: the listing, or the auth error when logged out.
pub(crate) fn list(invocation: &Invocation) -> Result<i32, Error> {
    invocation_log::record_simple(invocation, "models")?;
    if !auth::logged_in(invocation) {
        return Ok(auth::fail_auth());
    }
    let bytes = listing_bytes()?;
    std::io::stdout()
        .write_all(&bytes)
        .map_err(|error| Error::new(format!("writing stdout: {error}")))?;
    Ok(0)
}

/// The ids in this run's listing (ANSI stripped), for `FAKE_AGENT_STRICT_MODELS`.
pub(crate) fn available_ids() -> Result<Vec<String>, Error> {
    let bytes = listing_bytes()?;
    let text = strip_ansi(&String::from_utf8_lossy(&bytes));
    Ok(text
        .lines()
        .filter_map(|line| line.trim().split_once(" - "))
        .map(|(id, _)| id.to_owned())
        .collect())
}

/// The display name the real CLI reports in `system/init.model` for `id`.
pub(crate) fn display_name(id: &str) -> String {
    MODELS
        .iter()
        .find(|model| model.id == id)
        .map_or_else(|| id.to_owned(), |model| model.name.to_owned())
}

/// Removes ANSI CSI sequences (`ESC [ … final-byte`).
fn strip_ansi(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for next in chars.by_ref() {
                if ('@'..='~').contains(&next) {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_listing_has_the_real_shape() {
        let text = default_listing();
        assert!(text.starts_with("\x1b[2mAvailable models\x1b[22m\n\n"));
        assert!(text.contains(
            "\x1b[36mauto\x1b[39m \x1b[2m- Auto\x1b[22m\x1b[2m (current, default)\x1b[22m\n"
        ));
        let plain = strip_ansi(&text);
        assert!(plain.contains("\ncursor-grok-4.7 - Grok 4.7\n"));
        assert!(plain.ends_with(
            "\n\nTip: use --model <id> (or /model <id> in interactive mode) to switch.\n"
        ));
    }

    #[test]
    fn display_names() {
        assert_eq!(display_name("auto"), "Auto");
        assert_eq!(display_name("composer-2.5"), "Composer 2.5");
        assert_eq!(display_name("mystery-9"), "mystery-9");
    }
}
