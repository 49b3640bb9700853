//! Cursor's failures, classified from what the agent CLI printed and how it ended.
//!
//! Two levels, both pure (no I/O, no clock):
//! - `classify_plain_text` reads ONE plain-text line (stdout or stderr) and recognises the
//!   failures the stream parser reports as they arrive ([`CliFailure`]); `TrustBlock` joins the
//!   multi-line workspace-trust banner into one failure.
//! - `classify_run` reads everything a run left behind when it ended **without** a `result`
//!   (`RunEnd`: the stderr tail, stdout's plain-text lines, the exit status, how far the run
//!   got) and names the case ([`RunFailure`]), with the recovery a turn may try and a message
//!   in Cursor's own words that says what to do. The gateway decides the answer's status from
//!   the case (`gateway::error`); nothing here speaks HTTP.
//!
//! Why the second level exists: the 2026.09–2026.10 builds of the CLI end every failure the same
//! way. Their stream emitter has no error `result` at all; a failed run closes stdout without a
//! `result`, writes a message to stderr (often ANSI-coloured, even with `TERM=dumb`) and exits
//! with code 1. The exit code says nothing; only the words tell a usage limit from a bad key.
//! The wordings matched, the CLI builds they were captured on and the resulting statuses are
//! listed in `docs/cursor-failures.md`.

use std::fmt;
use std::process::ExitStatus;

use thiserror::Error;

use super::CliFailure;
use super::bounded_line;
use crate::text::strip_ansi;

/// Most lines (blank ones included) a workspace-trust block may collect.
const TRUST_BLOCK_MAX_LINES: usize = 16;

/// Lower-case wordings of a rate limit, matched anywhere in a plain-text line.
const RATE_LIMIT_WORDS: [&str; 3] = ["rate limit", "rate-limit", "too many requests"];

/// Most characters of Cursor's words quoted in a message.
const QUOTE_CHARS: usize = 600;

/// How many of the last stderr lines an unrecognised failure quotes.
const LAST_LINES: usize = 5;

/// Classify one plain-text (non-JSON) line from the agent, stdout or stderr: `Some` failure
/// carrying the CLI's words (ANSI colours stripped, whitespace trimmed), or `None` for noise.
///
/// Recognised (case-insensitive): `Authentication required`, `Cannot use this model`,
/// `Workspace Trust Required` (the header line only; the stream parser joins the block with a
/// `TrustBlock`), and rate limits (`rate limit`, `rate-limit`, `too many requests`).
pub(crate) fn classify_plain_text(line: &str) -> Option<CliFailure> {
    let cleaned = strip_ansi(line);
    let words = cleaned.trim();
    if words.is_empty() {
        return None;
    }
    let lower = words.to_ascii_lowercase();
    let failure: fn(String) -> CliFailure = if lower.contains("workspace trust required") {
        CliFailure::WorkspaceTrust
    } else if lower.contains("authentication required") {
        CliFailure::AuthRequired
    } else if lower.contains("cannot use this model") {
        CliFailure::BadModel
    } else if RATE_LIMIT_WORDS.iter().any(|w| lower.contains(w)) {
        CliFailure::RateLimited
    } else {
        return None;
    };
    Some(failure(words.to_owned()))
}

/// The workspace-trust banner being collected by the stream parser: the header line first, then
/// its indented lines. It becomes one [`CliFailure::WorkspaceTrust`] carrying all its words when
/// a non-indented line, a JSON line or the end of the output closes it.
#[derive(Debug)]
pub(super) struct TrustBlock {
    words: String,
    lines: usize,
}

impl TrustBlock {
    /// A block opened by its header line (already cleaned by [`classify_plain_text`]).
    pub(super) fn new(header: String) -> Self {
        Self {
            words: header,
            lines: 1,
        }
    }

    /// Indented lines continue the block; blank lines are tolerated inside it.
    pub(super) fn accepts(&self, line: &str) -> bool {
        self.lines < TRUST_BLOCK_MAX_LINES
            && (line.trim().is_empty() || line.starts_with(char::is_whitespace))
    }

    /// Adds one line's words (blank lines only count towards the limit).
    pub(super) fn push(&mut self, line: &str) {
        self.lines += 1;
        let words = line.trim();
        if !words.is_empty() {
            self.words.push(' ');
            self.words.push_str(words);
        }
    }

    /// The finished block as one failure.
    pub(super) fn into_failure(self) -> CliFailure {
        CliFailure::WorkspaceTrust(self.words)
    }
}

/// How the agent's process ended, as the supervisor saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code (a shell wrapper reports a signal `n` as `128 + n`).
    Code(i32),
    /// This signal ended it.
    Signal(i32),
    /// No exit status was seen: it closed its output but had not exited in time.
    Unknown,
}

impl From<ExitStatus> for Exit {
    fn from(status: ExitStatus) -> Self {
        match (status.code(), crate::platform::exit_signal(status)) {
            (Some(code), _) => Exit::Code(code),
            (None, Some(signal)) => Exit::Signal(signal),
            (None, None) => Exit::Unknown,
        }
    }
}

impl From<Option<ExitStatus>> for Exit {
    fn from(status: Option<ExitStatus>) -> Self {
        status.map_or(Exit::Unknown, Exit::from)
    }
}

impl Exit {
    /// The signal behind this ending when it came from outside the CLI: a signal or its
    /// `128 + n` exit code, for SIGHUP, SIGINT (Ctrl-C, exit 130), SIGQUIT, SIGKILL (exit 137,
    /// also the kernel's out-of-memory killer) and SIGTERM (exit 143). A crash (SIGSEGV,
    /// SIGABRT, …) is not one.
    /// Its name is returned; the numbers are those of Linux and macOS alike (a Windows exit
    /// code above 128 names them only when a Unix-like shell made it so).
    pub(crate) fn outside_signal(self) -> Option<&'static str> {
        let number = match self {
            Exit::Signal(number) => number,
            Exit::Code(code) if code > 128 => code - 128,
            _ => return None,
        };
        match number {
            1 => Some("SIGHUP"),
            2 => Some("SIGINT"),
            3 => Some("SIGQUIT"),
            9 => Some("SIGKILL"),
            15 => Some("SIGTERM"),
            _ => None,
        }
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let signal = self.outside_signal();
        match (*self, signal) {
            (Exit::Code(code), Some(name)) => write!(f, "{name}, exit code {code}"),
            (Exit::Code(code), None) => write!(f, "exit code {code}"),
            (Exit::Signal(number), _) => match crate::platform::signal_name(number) {
                Some(name) => write!(f, "killed by {name}"),
                None => write!(f, "killed by signal {number}"),
            },
            (Exit::Unknown, _) => f.write_str("its output closed but it had not exited"),
        }
    }
}

/// How far a failed run got: decides what its message may say about the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    /// No `system/init` was seen: nothing ran.
    NotStarted,
    /// `system/init` was seen but no tool call was reported: nothing was changed.
    Started,
    /// A tool call was reported (started or completed): Cursor may have changed files.
    Acted,
}

impl Reached {
    /// From what the stream showed: `started` = a `system/init` was seen, `tool_called` = a
    /// `tool_call` event (started or completed) was seen.
    pub(crate) fn from_run(started: bool, tool_called: bool) -> Self {
        if tool_called {
            Reached::Acted
        } else if started {
            Reached::Started
        } else {
            Reached::NotStarted
        }
    }

    /// The closing sentence of a failure's message (with its leading space).
    fn sentence(self) -> &'static str {
        match self {
            Reached::NotStarted => " Nothing ran: Cursor stopped before starting the task.",
            Reached::Started => {
                " Cursor had started but reported no tool call, so it changed nothing in the workspace."
            }
            Reached::Acted => {
                " Cursor may have changed files before it stopped; check your workspace before retrying."
            }
        }
    }
}

/// What a run that ended without a `result` left behind: the input of [`classify_run`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunEnd<'a> {
    /// The newest bytes of the agent's stderr (the supervisor keeps a bounded tail; it may
    /// start inside a character).
    pub stderr: &'a [u8],
    /// The plain-text (non-JSON) lines of stdout the parser passed on, in order.
    pub stdout_text: &'a [String],
    /// A failure the stream parser recognised on stdout (e.g. the pre-2026.09 trust banner).
    pub stdout_failure: Option<&'a CliFailure>,
    /// How the process ended.
    pub exit: Exit,
    /// How far the run got.
    pub reached: Reached,
    /// The chat the run was asked to `--resume`, if any.
    pub resumed_chat: Option<&'a str>,
}

/// What a turn may try before answering with a [`RunFailure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Nothing: answer with the failure.
    None,
    /// Cursor refused to resume the chat: start a fresh chat instead (once).
    FreshChat,
    /// Another agent process still holds the chat: end that process group if it is provably
    /// ours, retry the resume once, then fall back to a fresh chat.
    ReclaimChat,
}

/// Why a run ended without a `result`, in Cursor's words (ANSI removed, on one line, bounded).
/// `Display` is the message for the user: what happened, what Cursor said, what to do, and what
/// the run may have done to the workspace ([`Reached`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunFailure {
    /// A usage or spend limit of the Cursor account (`You've hit your usage limit`,
    /// `ActionRequiredError: …`, `You're out of usage…`, `hard limit`, `spendLimitHit: true`,
    /// `reached your monthly limit`, `set a new on-demand limit`).
    #[error(
        "Cursor's usage limit is reached (Cursor said: “{said}”). To go on: switch to Cursor's Auto (`Auto via Cursor` in /model), which draws on a separate pool and may still have usage; raise the spend or on-demand limit in Cursor's dashboard (cursor.com/dashboard); or wait until the limit resets.{}",
        .reached.sentence()
    )]
    UsageLimit { said: String, reached: Reached },
    /// The account's plan runs only Auto (`ActionRequiredError: Named models unavailable Free
    /// plans can only use Auto.`, 2026.10.01, after `system/init`): sending the same request
    /// again fails the same way.
    #[error(
        "Cursor's plan on this account can only run Auto, not a named model (Cursor said: “{said}”). Choose `Auto via Cursor` in /model (`/model multi/cursor/default`), or upgrade the Cursor plan for named models.{}",
        .reached.sentence()
    )]
    AutoOnly { said: String, reached: Reached },
    /// Temporary capacity trouble on Cursor's side (`resource_exhausted`, high load or demand,
    /// a rate limit).
    #[error(
        "Cursor is short of capacity for now: high load or a rate limit, not your usage limit (Cursor said: “{said}”). This is temporary: wait a minute and send your message again, or pick another Cursor model in /model.{}",
        .reached.sentence()
    )]
    Capacity { said: String, reached: Reached },
    /// The key in `CURSOR_API_KEY` was refused (`⚠ Warning: The provided API key is invalid.`).
    ///
    #[error(
        "Cursor refused the API key in CURSOR_API_KEY as invalid (Cursor said: “{said}”). Set CURSOR_API_KEY to a valid key from Cursor's dashboard, or unset it and run `multi-cursor --cursor-login`.{}",
        .reached.sentence()
    )]
    InvalidApiKey { said: String, reached: Reached },
    /// Not logged in (both `Authentication required` wordings)., worded
    /// like every other logged-out answer.
    #[error("{}{}", with_period(CliFailure::AuthRequired(.said.clone())), .reached.sentence())]
    LoggedOut { said: String, reached: Reached },
    /// `Cannot use this model: <id>. Available models: …`.
    #[error(
        "{} Pick a model from `multi-cursor --cursor-models`.{}",
        with_period(CliFailure::BadModel(.said.clone())),
        .reached.sentence()
    )]
    BadModel { said: String, reached: Reached },
    /// The workspace-trust gate (`⚠ Workspace Trust Required …`).
    #[error(
        "{} Run `agent` once in this folder and trust it.{}",
        with_period(CliFailure::WorkspaceTrust(.said.clone())),
        .reached.sentence()
    )]
    WorkspaceTrust { said: String, reached: Reached },
    /// Cursor's server refused the request, after the CLI reconnected and retried
    /// (`RetriableError: [invalid_argument] …`).
    #[error(
        "Cursor's server refused the request after reconnecting (Cursor said: “{reason}”). Sending the same message again will fail the same way: try another Cursor model, or update the CLI with `agent update`.{}",
        .reached.sentence()
    )]
    ServerRefused { reason: String, reached: Reached },
    /// Cursor refused to resume the chat (not a UUID, `No previous chats found.`, or any refusal
    /// naming the chat before the run started). The turn starts a fresh chat instead
    /// ([`Recovery::FreshChat`]); the message is for when that is not possible.
    #[error(
        "Cursor could not resume {} (Cursor said: “{said}”).{}",
        chat_name(.chat_id.as_deref()),
        .reached.sentence()
    )]
    ResumeRefused {
        chat_id: Option<String>,
        said: String,
        reached: Reached,
    },
    /// `Error: Session ID "<id>" is already in use.`: a lingering agent process holds the chat
    /// ([`Recovery::ReclaimChat`]).
    #[error(
        "Cursor's {} is held by another Cursor agent that is still running (Cursor said: “{said}”). Wait for it to end (or end it), then send your message again.{}",
        chat_name(.chat_id.as_deref()),
        .reached.sentence()
    )]
    ChatInUse {
        chat_id: Option<String>,
        said: String,
        reached: Reached,
    },
    /// The agent was stopped from outside: SIGINT (exit 130), SIGTERM (exit 143), SIGKILL
    /// (exit 137), SIGHUP or SIGQUIT.
    #[error(
        "Cursor's agent was stopped from outside ({exit}) before it finished; if you did not stop it, something else on this machine did (a shutdown, a memory limit, another program).{}",
        .reached.sentence()
    )]
    Killed { exit: Exit, reached: Reached },
    /// Anything else: the exit status and the last stderr lines.
    #[error("Cursor ended without a result ({exit}{}.{}", last_words(.last_lines), .reached.sentence())]
    Other {
        exit: Exit,
        last_lines: String,
        reached: Reached,
    },
}

fn chat_name(chat_id: Option<&str>) -> String {
    chat_id.map_or_else(|| "the chat".to_owned(), |id| format!("chat {id}"))
}

/// A message part as a sentence: a full stop added unless it already ends one.
fn with_period(part: impl fmt::Display) -> String {
    let text = part.to_string();
    if text.ends_with(['.', '…', '!', '?']) {
        text
    } else {
        format!("{text}.")
    }
}

fn last_words(lines: &str) -> String {
    if lines.is_empty() {
        ") and printed no error".to_owned()
    } else {
        format!("; its last words: “{lines}”)")
    }
}

impl RunFailure {
    /// What the turn may try before answering with this failure.
    pub fn recovery(&self) -> Recovery {
        match self {
            RunFailure::ResumeRefused { .. } => Recovery::FreshChat,
            RunFailure::ChatInUse { .. } => Recovery::ReclaimChat,
            _ => Recovery::None,
        }
    }

    /// How far the run got.
    pub fn reached(&self) -> Reached {
        match self {
            RunFailure::UsageLimit { reached, .. }
            | RunFailure::AutoOnly { reached, .. }
            | RunFailure::Capacity { reached, .. }
            | RunFailure::InvalidApiKey { reached, .. }
            | RunFailure::LoggedOut { reached, .. }
            | RunFailure::BadModel { reached, .. }
            | RunFailure::WorkspaceTrust { reached, .. }
            | RunFailure::ServerRefused { reached, .. }
            | RunFailure::ResumeRefused { reached, .. }
            | RunFailure::ChatInUse { reached, .. }
            | RunFailure::Killed { reached, .. }
            | RunFailure::Other { reached, .. } => *reached,
        }
    }

    #[cfg(test)]
    /// The case's name, as the first column of `docs/cursor-failures.md`'s table of cases
    /// spells it: the page's status column is generated for each name from the gateway's
    /// mapping, its recovery column from [`RunFailure::recovery`] (a new case needs a row there
    /// and an entry in `one_of_each`).
    pub(crate) fn case(&self) -> &'static str {
        match self {
            RunFailure::Killed { .. } => "killed from outside",
            RunFailure::WorkspaceTrust { .. } => "workspace trust gate",
            RunFailure::InvalidApiKey { .. } => "invalid `CURSOR_API_KEY`",
            RunFailure::LoggedOut { .. } => "logged out",
            RunFailure::BadModel { .. } => "model refused",
            RunFailure::AutoOnly { .. } => "plan runs only Auto",
            RunFailure::UsageLimit { .. } => "usage or spend limit",
            RunFailure::Capacity { .. } => "temporary capacity",
            RunFailure::ChatInUse { .. } => "chat held by a lingering agent",
            RunFailure::ResumeRefused { .. } => "resume refused",
            RunFailure::ServerRefused { .. } => "server refusal after reconnects",
            RunFailure::Other { .. } => "anything else",
        }
    }

    /// One failure of each case, in the order of `docs/cursor-failures.md`'s table.
    #[cfg(test)]
    pub(crate) fn one_of_each() -> Vec<RunFailure> {
        let said = String::new();
        let reached = Reached::NotStarted;
        vec![
            RunFailure::Killed {
                exit: Exit::Signal(15),
                reached,
            },
            RunFailure::WorkspaceTrust {
                said: said.clone(),
                reached,
            },
            RunFailure::InvalidApiKey {
                said: said.clone(),
                reached,
            },
            RunFailure::LoggedOut {
                said: said.clone(),
                reached,
            },
            RunFailure::BadModel {
                said: said.clone(),
                reached,
            },
            RunFailure::AutoOnly {
                said: said.clone(),
                reached,
            },
            RunFailure::UsageLimit {
                said: said.clone(),
                reached,
            },
            RunFailure::Capacity {
                said: said.clone(),
                reached,
            },
            RunFailure::ChatInUse {
                chat_id: None,
                said: said.clone(),
                reached,
            },
            RunFailure::ResumeRefused {
                chat_id: None,
                said: said.clone(),
                reached,
            },
            RunFailure::ServerRefused {
                reason: said.clone(),
                reached,
            },
            RunFailure::Other {
                exit: Exit::Code(1),
                last_lines: said,
                reached,
            },
        ]
    }
}

/// A recognised case: the wordings that reveal it (lower-case, matched anywhere in a line) and
/// how to build it from Cursor's words.
struct Rule {
    words: &'static [&'static str],
    build: fn(said: String, end: &RunEnd<'_>) -> RunFailure,
}

/// The cases, most specific first: the first rule with a matching line wins.
const RULES: [Rule; 10] = [
    Rule {
        words: &["workspace trust required"],
        build: |said, end| RunFailure::WorkspaceTrust {
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &["api key is invalid", "invalid api key"],
        build: |said, end| RunFailure::InvalidApiKey {
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &["authentication required"],
        build: |said, end| RunFailure::LoggedOut {
            said,
            reached: end.reached,
        },
    },
    Rule {
        // Before the usage limit: it is an `ActionRequiredError` too.
        words: &["named models unavailable", "can only use auto"],
        build: |said, end| RunFailure::AutoOnly {
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &["cannot use this model"],
        build: |said, end| RunFailure::BadModel {
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &[
            "usage limit",
            "out of usage",
            "hard limit",
            "spendlimithit: true",
            "monthly limit",
            "on-demand limit",
            "spend limit",
            "free requests limit",
            "actionrequirederror",
        ],
        build: |said, end| RunFailure::UsageLimit {
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &[
            "resource_exhausted",
            "resource exhausted",
            "high load",
            "high demand",
            "overloaded",
            "rate limit",
            "rate-limit",
            "too many requests",
        ],
        build: |said, end| RunFailure::Capacity {
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &["is already in use"],
        build: |said, end| RunFailure::ChatInUse {
            chat_id: end.resumed_chat.map(str::to_owned),
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &[
            "no previous chats found",
            "failed to claim persistent session",
            "must be a uuid",
        ],
        build: |said, end| RunFailure::ResumeRefused {
            chat_id: end.resumed_chat.map(str::to_owned),
            said,
            reached: end.reached,
        },
    },
    Rule {
        words: &["retriableerror", "[invalid_argument]"],
        build: |reason, end| RunFailure::ServerRefused {
            reason,
            reached: end.reached,
        },
    },
];

/// Words that, before `system/init` of a resumed run, mean the CLI refused the chat.
const RESUME_WORDS: [&str; 4] = ["resume", "chat", "session", "conversation"];

/// Names why a run ended without a `result`. Pure: the same [`RunEnd`] always gives the same
/// answer.
///
/// Order: an ending from outside (a signal, or exit 129/130/137/143) wins; then the first
/// recognised wording, looked for in the stdout failure, the stdout text and the stderr lines,
/// in that order (most specific case first: trust gate, invalid key, logged out, bad model,
/// usage limit, temporary capacity, chat in use, resume refused, server refusal); then, for a
/// resumed run that never started, any words naming the chat or session are taken as a refused
/// resume; anything else is [`RunFailure::Other`] with the last stderr lines (stdout's text
/// when stderr is empty). Cursor's words are quoted from the matching line to the end of its
/// output (the multi-line usage banner stays whole), on one line and bounded.
pub(crate) fn classify_run(end: &RunEnd<'_>) -> RunFailure {
    if end.exit.outside_signal().is_some() {
        return RunFailure::Killed {
            exit: end.exit,
            reached: end.reached,
        };
    }
    let stderr = String::from_utf8_lossy(end.stderr);
    let stderr_lines = clean_lines(&stderr);
    let mut lines: Vec<String> = end
        .stdout_failure
        .map(|failure| cli_words(failure).to_owned())
        .into_iter()
        .chain(end.stdout_text.iter().flat_map(|text| clean_lines(text)))
        .collect();
    lines.extend(stderr_lines.iter().cloned());
    let lower: Vec<String> = lines.iter().map(|line| normalise(line)).collect();
    for rule in &RULES {
        let found = lower
            .iter()
            .position(|line| rule.words.iter().any(|word| line.contains(word)));
        if let Some(at) = found {
            return (rule.build)(quote(&lines[at..]), end);
        }
    }
    if end.resumed_chat.is_some()
        && end.reached == Reached::NotStarted
        && lower
            .iter()
            .any(|line| RESUME_WORDS.iter().any(|word| line.contains(word)))
    {
        return RunFailure::ResumeRefused {
            chat_id: end.resumed_chat.map(str::to_owned),
            said: quote(&lines),
            reached: end.reached,
        };
    }
    let source = if stderr_lines.is_empty() {
        &lines
    } else {
        &stderr_lines
    };
    let last = &source[source.len().saturating_sub(LAST_LINES)..];
    RunFailure::Other {
        exit: end.exit,
        last_lines: quote(last),
        reached: end.reached,
    }
}

/// The words a stream-parser failure carries.
fn cli_words(failure: &CliFailure) -> &str {
    match failure {
        CliFailure::AuthRequired(words)
        | CliFailure::BadModel(words)
        | CliFailure::WorkspaceTrust(words)
        | CliFailure::RateLimited(words) => words,
    }
}

/// The non-blank lines of `text`, ANSI removed and trimmed.
fn clean_lines(text: &str) -> Vec<String> {
    strip_ansi(text)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A line made comparable with the wordings: lower case, typographic apostrophes made plain.
fn normalise(line: &str) -> String {
    line.to_lowercase().replace('\u{2019}', "'")
}

/// Lines as one quoted, bounded line.
fn quote(lines: &[String]) -> String {
    bounded_line(&lines.join(" "), QUOTE_CHARS)
}

#[cfg(test)]
mod tests;
