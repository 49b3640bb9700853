//! The user's `claude` arguments as the launcher needs them: the `--settings` and `--agents`
//! values it merges into its own (Claude Code takes one of each), whether a `--model` was
//! chosen, and the options a launched session cannot honour.

use std::ffi::OsStr;
use std::ffi::OsString;

use super::LaunchError;

/// The user's arguments, split.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct UserArgs {
    /// Everything passed to `claude` unchanged, in order (the `--settings` and `--agents`
    /// options removed; the launcher passes its merged ones instead).
    pub rest: Vec<OsString>,
    /// Each `--settings` value (a file or inline JSON), in order.
    pub settings: Vec<OsString>,
    /// Each `--agents` value (inline JSON or, with `--print`, a file), in order.
    pub agents: Vec<OsString>,
    /// The `--model` value, if one was given (the last one wins, as in Claude Code).
    pub model: Option<OsString>,
}

/// Splits the arguments given after `multi-cursor [--]`. Options are recognised as separate
/// words (`--settings X`) or joined (`--settings=X`), up to a literal `--`, after which
/// everything is Claude Code's prompt text.
///
/// Refused: `--bg`/`--background` (a background session outlives the launcher, and with it the
/// gateway its requests go to), and `--settings`/`--agents`/`--model` without a value.
pub(crate) fn split(args: &[OsString]) -> Result<UserArgs, LaunchError> {
    let mut out = UserArgs::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            out.rest.push(word.clone());
            out.rest.extend(words.by_ref().cloned());
            break;
        }
        let Some(text) = word.to_str() else {
            out.rest.push(word.clone());
            continue;
        };
        if text == "--bg" || text == "--background" {
            return Err(LaunchError::Background);
        }
        let (name, joined) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(OsStr::new(value))),
            _ => (text, None),
        };
        if !matches!(name, "--settings" | "--agents" | "--model") {
            out.rest.push(word.clone());
            continue;
        }
        let value = match joined {
            Some(value) => value.to_os_string(),
            None => words
                .next()
                .cloned()
                .ok_or_else(|| LaunchError::MissingValue(name.to_string()))?,
        };
        match name {
            "--settings" => out.settings.push(value),
            "--agents" => out.agents.push(value),
            _ => {
                out.rest.push(OsString::from("--model"));
                out.rest.push(value.clone());
                out.model = Some(value);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn takes_settings_and_agents_out_and_keeps_the_rest() {
        let split = split(&os(&[
            "-p",
            "hi",
            "--settings",
            "a.json",
            "--agents={\"x\":{}}",
            "--model",
            "sonnet",
            "--settings={\"b\":1}",
        ]))
        .unwrap();
        assert_eq!(split.rest, os(&["-p", "hi", "--model", "sonnet"]));
        assert_eq!(split.settings, os(&["a.json", "{\"b\":1}"]));
        assert_eq!(split.agents, os(&["{\"x\":{}}"]));
        assert_eq!(split.model, Some(OsString::from("sonnet")));
    }

    #[test]
    fn words_after_a_double_dash_are_prompt_text() {
        let split = split(&os(&["-p", "--", "--settings", "x"])).unwrap();
        assert_eq!(split.rest, os(&["-p", "--", "--settings", "x"]));
        assert!(split.settings.is_empty());
    }

    #[test]
    fn refuses_background_sessions_and_missing_values() {
        assert!(matches!(
            split(&os(&["--bg"])),
            Err(LaunchError::Background)
        ));
        assert!(matches!(
            split(&os(&["-p", "x", "--settings"])),
            Err(LaunchError::MissingValue(name)) if name == "--settings"
        ));
    }
}
