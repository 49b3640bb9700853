//! `multi-cursor statusline`: the Cursor segment of Claude Code's terminal status line.
//!
//! Claude Code runs the `statusLine` command after each assistant message (and every
//! `refreshInterval` seconds) with a JSON object on stdin naming the `session_id`. This command
//! asks the running gateway (`MULTI_CURSOR_GATEWAY_URL`, `MULTI_CURSOR_GATEWAY_TOKEN`, which
//! Claude Code's children inherit from the launcher) what that session's Cursor use cost, at
//! `GET /multi-cursor/spend/<session id>`, and prints one line:
//!
//! ```text
//! Cursor composer-2.5 · running 42 s · Read src/lib.rs      (a Cursor run is live)
//! Cursor composer-2.5 · 3 runs · 29.8k in / 1204 out        (otherwise; `(est.)` when estimated)
//! ```
//!
//! With a budget set on the gateway, the tightest one (least left for its limit) ends the line,
//! `· 12.3k of 50.0k tokens left today` or `· budget reached (MULTI_CURSOR_BUDGET_TURNS)`, and
//! a session that never used Cursor shows `Cursor` with it; without one, nothing of ours for
//! such a session. Our part answers within
//! `OUR_DEADLINE` and never breaks Claude Code's line: on any error it prints what it can and
//! exits 0. With `--chain <command>` (the user's own status line, which the launcher keeps), the
//! user's command gets the same stdin and runs at the same time under `CHAIN_TIMEOUT`; its
//! output comes first and ours ends its last line after ` · ` (see `chain`).
//! `MULTI_CURSOR_STATUSLINE=0` leaves ours out.

pub(crate) mod chain;

use crate::env::STATUSLINE_ENV;
use std::io::Read;
use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;
use std::time::Instant;

use serde::Deserialize;

use crate::cursor::sanitize::sanitize;
use crate::gateway::client::GatewayAddress;
use crate::gateway::client::request;
use crate::spend::BudgetUse;
use crate::spend::SPEND_ROUTE;
use crate::spend::SessionSpend;
use crate::spend::format_count;
use crate::text::clip_chars;
use crate::text::one_line;
use chain::UserCommand;

/// The longest our part may take, from process start to the gateway's answer read; past it,
/// our segment is left out of this refresh.
pub(crate) const OUR_DEADLINE: Duration = Duration::from_millis(45);

/// The client's own socket timeout (connect, write, read), below [`OUR_DEADLINE`].
const CLIENT_TIMEOUT: Duration = Duration::from_millis(40);

/// How long the user's chained status-line command may run before its line is left out.
pub(crate) const CHAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// Most bytes of Claude Code's status-line JSON read from stdin.
const MAX_INPUT: u64 = 1024 * 1024;

/// Most characters of a model id or a last action shown.
const PART_LIMIT: usize = 60;

/// The fields of Claude Code's status-line JSON this command reads.
#[derive(Debug, Default, Deserialize)]
struct StatusInput {
    /// Claude Code's session id: the `X-Claude-Code-Session-Id` the gateway sees.
    #[serde(default)]
    session_id: Option<String>,
}

/// Whether our segment is on: anything but `MULTI_CURSOR_STATUSLINE=0`.
pub(crate) fn enabled() -> bool {
    std::env::var(STATUSLINE_ENV).map_or(true, |v| v.trim() != "0")
}

/// `multi-cursor statusline [--chain <command>]`: reads stdin, prints the line, always succeeds
/// (a failing status-line command would blank Claude Code's line).
pub fn run(chain: Option<&str>) {
    let started = Instant::now();
    let mut input = Vec::new();
    let read = std::io::stdin().take(MAX_INPUT).read_to_end(&mut input);
    if read.is_err() {
        input.clear();
    }
    // The user's command starts first, so it runs while we ask the gateway.
    let theirs = chain.and_then(|command| UserCommand::spawn(command, &input));
    let ours = if enabled() {
        our_segment(&input, started + OUR_DEADLINE)
    } else {
        None
    };
    let theirs = theirs.and_then(|command| command.output(started + CHAIN_TIMEOUT));
    let line = chain::compose(theirs.as_deref(), ours.as_deref());
    if !line.is_empty() {
        let mut stdout = std::io::stdout().lock();
        let _ignored = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
    }
}

/// Our segment for the session named in `input`, or `None` (no session id, no gateway, no
/// answer by `deadline`, a session that never used Cursor).
pub(crate) fn our_segment(input: &[u8], deadline: Instant) -> Option<String> {
    let session = serde_json::from_slice::<StatusInput>(input)
        .ok()?
        .session_id
        .filter(|s| !s.is_empty())?;
    let address = GatewayAddress::from_env().ok()?;
    let spend = fetch_spend(address, &session, deadline)?;
    render(&spend)
}

/// Asks the gateway for `session`'s spend; `None` unless it answers 200 with a
/// [`SessionSpend`] by `deadline`. The request runs on its own thread so the deadline holds
/// whatever the socket does.
pub(crate) fn fetch_spend(
    address: GatewayAddress,
    session: &str,
    deadline: Instant,
) -> Option<SessionSpend> {
    let path = format!("{SPEND_ROUTE}/{}", path_segment(session));
    let (tx, rx) = mpsc::sync_channel(1);
    let timeout = CLIENT_TIMEOUT.min(deadline.saturating_duration_since(Instant::now()));
    if timeout.is_zero() {
        return None;
    }
    std::thread::Builder::new()
        .name("statusline-client".into())
        .spawn(move || {
            let answer = request(&address, "GET", &path, b"", timeout);
            let _gone = tx.send(answer);
        })
        .ok()?;
    let wait = deadline.saturating_duration_since(Instant::now());
    let (status, body) = rx.recv_timeout(wait).ok()?.ok()?;
    if status != 200 {
        return None;
    }
    serde_json::from_slice(&body).ok()
}

/// The line for a session's spend: the live run, else the session's runs and tokens, then the
/// tightest budget if one is set ([`budget_part`]); `None` for a session that never ran Cursor
/// on a gateway without budgets (replays alone cost nothing and show nothing).
pub(crate) fn render(spend: &SessionSpend) -> Option<String> {
    let budget = budget_part(&spend.budgets);
    match (use_part(spend), budget) {
        (Some(line), Some(budget)) => Some(format!("{line} · {budget}")),
        (Some(line), None) => Some(line),
        (None, Some(budget)) => Some(format!("Cursor · {budget}")),
        (None, None) => None,
    }
}

/// The tightest of `budgets` (the least left for its limit; the first of equals), as
/// `12.3k of 50.0k tokens left today` (`today` for the daily budget) or
/// `budget reached (MULTI_CURSOR_BUDGET_TOKENS)` when nothing is left; `None` without budgets.
pub(crate) fn budget_part(budgets: &[BudgetUse]) -> Option<String> {
    let tightest = budgets.iter().min_by(|a, b| {
        // Used up first, then the smallest left / limit (compared without division).
        (a.left > 0).cmp(&(b.left > 0)).then_with(|| {
            (u128::from(a.left) * u128::from(b.limit))
                .cmp(&(u128::from(b.left) * u128::from(a.limit)))
        })
    })?;
    if tightest.left == 0 {
        return Some(format!("budget reached ({})", tightest.variable.variable()));
    }
    let today = if tightest.variable.is_daily() {
        " today"
    } else {
        ""
    };
    Some(format!(
        "{} of {} {} left{today}",
        format_count(tightest.left),
        format_count(tightest.limit),
        tightest.variable.unit()
    ))
}

/// The session's own part: its live run, else its runs and tokens; `None` when it never ran
/// Cursor.
fn use_part(spend: &SessionSpend) -> Option<String> {
    if let Some(live) = &spend.live {
        let mut line = format!(
            "Cursor {} · running {}",
            shown(&live.model),
            running(live.running_secs)
        );
        // The row's words without its Markdown: the status line is plain text, where a row's
        // backticks would show as such (`read `a.txt`` → `read a.txt`).
        let action = live
            .last_action
            .as_deref()
            .map(|row| shown(&row.replace('`', "")))
            .unwrap_or_default();
        if !action.is_empty() {
            line.push_str(" · ");
            line.push_str(&action);
        }
        return Some(line);
    }
    if spend.runs == 0 {
        return None;
    }
    let head = match spend.model.as_deref().map(shown) {
        Some(model) if !model.is_empty() => format!("Cursor {model}"),
        _ => "Cursor".to_string(),
    };
    let runs = if spend.runs == 1 {
        "1 run".to_string()
    } else {
        format!("{} runs", format_count(spend.runs))
    };
    Some(format!("{head} · {runs} · {}", spend.tokens.in_out()))
}

/// How long a live run has gone: `42 s`, `3 min 5 s`, `1 h 2 min`.
fn running(secs: u64) -> String {
    if secs < 60 {
        format!("{secs} s")
    } else if secs < 3600 {
        format!("{} min {} s", secs / 60, secs % 60)
    } else {
        format!("{} h {} min", secs / 3600, secs % 3600 / 60)
    }
}

/// A part of the line as the gateway gave it, made safe for one terminal row: escape sequences
/// and control characters removed, on one line, at most [`PART_LIMIT`] characters.
fn shown(text: &str) -> String {
    clip_chars(&one_line(&sanitize(text)), PART_LIMIT)
}

/// `session` as one URL path segment: unreserved characters kept, every other byte
/// percent-encoded.
fn path_segment(session: &str) -> String {
    let mut out = String::with_capacity(session.len());
    for byte in session.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
