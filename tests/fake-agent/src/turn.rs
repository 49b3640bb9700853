//! One print-mode turn: read the prompt, log the call, pass the real CLI's gates (workspace
//! trust, login, model, resumable chat), then replay the scenario or the default stream.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::IsTerminal;
use std::io::Read;
use std::io::Write;
use std::time::Instant;

use crate::auth;
use crate::cli::Invocation;
use crate::cli_config;
use crate::config;
use crate::default_stream;
use crate::error::Error;
use crate::ids;
use crate::invocation_log;
use crate::invocation_log::TurnDetails;
use crate::models;
use crate::scenario;
use crate::select;
use crate::subst::Context;

/// What the CLI up to 2026.08 printed (on stdout, exit 0) in an untrusted workspace without
/// `--trust` (`FAKE_AGENT_TRUST_GATE=legacy`).
const LEGACY_TRUST_GATE: &str = "⚠ Workspace Trust Required
  Cursor Agent can execute code and access files in this directory.
  To proceed, you can either:
    • Run 'agent' interactively to decide
    • Pass --trust, --yolo, or -f if you trust this directory
";

/// What 2026.09.10–2026.09.15 print on stderr (exit 1, empty stdout), the workspace path in
/// the middle (`tests/fixtures/cursor-stream-2026/hcn0915-trust-gate.stderr.txt`).
const TRUST_GATE: [&str; 2] = [
    "\n⚠ Workspace Trust Required\n\n  Cursor Agent can execute code and access files in this directory.\n  Do you trust the contents of this directory?\n\n    ",
    "\n\n  To proceed, you can either:\n    • Run 'agent' interactively to decide\n    • Pass --trust, --yolo, or -f if you trust this directory\n",
];

/// Runs a turn; returns the exit code.
pub(crate) fn run(invocation: &Invocation, started: Instant) -> Result<i32, Error> {
    let stdin = read_stdin(invocation)?;
    let scenario = select::scenario();
    let details = TurnDetails {
        stdin: &stdin,
        scenario: scenario.as_ref().ok().and_then(Option::as_deref),
    };
    invocation_log::record(invocation, "turn", &details)?;
    let scenario = scenario?;
    if let Some(code) = gate(invocation)? {
        return Ok(code);
    }
    let Some(chat_id) = resolve_chat(invocation)? else {
        return Ok(1);
    };
    remember_chat(&chat_id)?;
    let context = context(invocation, &stdin, chat_id);
    match scenario {
        Some(path) => scenario::play(scenario::load(&path, &context)?, &context),
        None => default_stream::play(invocation, &context, started),
    }
}

/// Reads the prompt from stdin until end-of-file, unless the prompt is on the command line or
/// stdin is a terminal.
fn read_stdin(invocation: &Invocation) -> Result<String, Error> {
    let stdin = std::io::stdin();
    if !invocation.prompt_words().is_empty() || stdin.is_terminal() {
        return Ok(String::new());
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|error| Error::new(format!("reading stdin: {error}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The real CLI's refusals before a turn starts; `Some(exit code)` when one applies.
fn gate(invocation: &Invocation) -> Result<Option<i32>, Error> {
    let trusted = invocation.has("--trust") || invocation.force() || config::flag(config::TRUSTED);
    if !trusted {
        if config::var(config::TRUST_GATE).as_deref() == Some("legacy") {
            print!("{LEGACY_TRUST_GATE}");
            return Ok(Some(0));
        }
        let workspace = workspace(invocation);
        eprint!("{}{workspace}{}", TRUST_GATE[0], TRUST_GATE[1]);
        return Ok(Some(1));
    }
    if !auth::logged_in(invocation) {
        return Ok(Some(auth::fail_auth()));
    }
    if config::flag(config::STRICT_MODELS) {
        let available = models::available_ids()?;
        if !available.iter().any(|id| id == invocation.model()) {
            eprintln!(
                "Cannot use this model: {}. Available models: {}",
                invocation.model(),
                available.join(", ")
            );
            return Ok(Some(1));
        }
    }
    if let Some(model) = invocation.value("--model") {
        cli_config::remember_model(model)?;
    }
    Ok(None)
}

/// `--workspace`, else the working directory.
fn workspace(invocation: &Invocation) -> String {
    invocation.value("--workspace").map_or_else(
        || {
            std::env::current_dir()
                .map(|dir| dir.to_string_lossy().into_owned())
                .unwrap_or_default()
        },
        str::to_owned,
    )
}

/// The substitution context of this turn.
fn context(invocation: &Invocation, stdin: &str, chat_id: String) -> Context {
    let words = invocation.prompt_words();
    let prompt = if words.is_empty() {
        stdin.to_owned()
    } else {
        words.join(" ")
    };
    let workspace = workspace(invocation);
    Context {
        chat_id,
        prompt,
        workspace,
        model: invocation.model().to_owned(),
        model_name: models::display_name(invocation.model()),
        request_id: ids::uuid(),
        api_key_source: auth::key_source(invocation)
            .map_or("login", auth::KeySource::as_str)
            .to_owned(),
    }
}

/// What an unknown `--resume` id does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UnknownResume {
    /// Plain-text error on stderr, exit 1.
    Fail,
    /// Silently start a new chat.
    New,
}

/// `FAKE_AGENT_UNKNOWN_RESUME` (`fail` when unset).
fn unknown_resume() -> Result<UnknownResume, Error> {
    match config::non_empty(config::UNKNOWN_RESUME).as_deref() {
        None | Some("fail") => Ok(UnknownResume::Fail),
        Some("new") => Ok(UnknownResume::New),
        Some(other) => Err(Error::new(format!(
            "{}={other:?} must be `fail` or `new`",
            config::UNKNOWN_RESUME
        ))),
    }
}

/// The chat id of this turn, or `None` after printing the resume failure.
fn resolve_chat(invocation: &Invocation) -> Result<Option<String>, Error> {
    let Some(asked) = invocation.resume_id() else {
        return Ok(Some(new_chat_id()));
    };
    if known_chats()?.is_none_or(|known| known.contains(asked)) {
        return Ok(Some(asked.to_owned()));
    }
    match unknown_resume()? {
        UnknownResume::New => Ok(Some(new_chat_id())),
        UnknownResume::Fail if !ids::is_uuid(asked) => {
            // The 2026.09 CLI's words, exit 1 (captured with 2026.09.10 and .15).
            eprintln!(
                "Failed to claim persistent session for chat \"{asked}\": Persistent-session chat ID must be a UUID"
            );
            Ok(None)
        }
        UnknownResume::Fail => {
            // A UUID Cursor's store no longer has: the real CLI starts a new chat under that id
            // (exit 0), which no stream tells apart; the fake refuses it in its own words so a
            // test can drive the fallback.
            eprintln!("Error: Could not resume session {asked}: chat not found");
            Ok(None)
        }
    }
}

/// The ids `--resume` accepts, or `None` when the check is off (neither `FAKE_AGENT_KNOWN_CHATS`
/// nor `FAKE_AGENT_CHATS_FILE` set).
fn known_chats() -> Result<Option<BTreeSet<String>>, Error> {
    let listed = config::var(config::KNOWN_CHATS);
    let file = config::path(config::CHATS_FILE);
    if listed.is_none() && file.is_none() {
        return Ok(None);
    }
    let mut known: BTreeSet<String> = listed
        .iter()
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(path) = file.filter(|path| path.exists()) {
        let text =
            std::fs::read_to_string(&path).map_err(|error| Error::io("reading", &path, &error))?;
        known.extend(
            text.lines()
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(str::to_owned),
        );
    }
    Ok(Some(known))
}

/// A new chat id: `FAKE_AGENT_CHAT_ID`, else a fresh UUID.
pub(crate) fn new_chat_id() -> String {
    config::non_empty(config::CHAT_ID).unwrap_or_else(ids::uuid)
}

/// Adds `chat_id` to `FAKE_AGENT_CHATS_FILE` (when set) unless it is already there.
pub(crate) fn remember_chat(chat_id: &str) -> Result<(), Error> {
    let Some(path) = config::path(config::CHATS_FILE) else {
        return Ok(());
    };
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(&path)
        .map_err(|error| Error::io("opening", &path, &error))?;
    file.lock()
        .map_err(|error| Error::io("locking", &path, &error))?;
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|error| Error::io("reading", &path, &error))?;
    if text.lines().any(|line| line.trim() == chat_id) {
        return Ok(());
    }
    let separator = if text.is_empty() || text.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    file.write_all(format!("{separator}{chat_id}\n").as_bytes())
        .map_err(|error| Error::io("appending to", &path, &error))
}
