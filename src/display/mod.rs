//! What the user sees of a Cursor turn inside Claude Code: live rows for Cursor's native
//! actions, the plan of a plan-mode run, a progress line during long silences, the closing
//! summary, and the usage the answer reports.
//!
//! Everything here is pure (time is passed in), so the turn (`src/turn.rs`) drives it live and
//! tests drive it with made-up clocks. The turn streams whatever text a [`TurnDisplay`] method
//! returns as `text_delta`s; no row is ever a `tool_use`.
//!
//! # What the text looks like
//!
//! ```text
//! I'll list the directory, then count.
//!
//! ⎿ shell `ls -1 | wc -l; ls -1` · exit 0 · 464 ms · stream2.raw.jsonl
//! ⎿ edit `src/lib.rs` · +3 −1
//! ⎿ shell `uname -a` · denied by Cursor permissions
//!
//! There are **4** files.
//!
//! [Cursor] 3 native actions: 2 shell, 1 edit.
//! [Cursor] Changed: src/lib.rs.
//! [Cursor] Not completed: shell `uname -a` (denied by Cursor permissions).
//! ```
//!
//! - **Rows** start with `ROW_PREFIX` (`⎿ `, the glyph Claude Code uses for tool output), one
//!   line each, in a paragraph of their own (a blank line before the first and after the last,
//!   one row per line). Commands and paths are code spans, so Markdown never reinterprets them.
//!   ANSI escapes and control characters are removed, whitespace is collapsed, and each part is
//!   bounded (command `COMMAND_LIMIT`, path `PATH_LIMIT`, output tail `TAIL_LIMIT`, reason
//!   `REASON_LIMIT` characters). A row is shown when the action completes; one still running
//!   after [`LONG_ACTION`] also gets a `· running…` row when it starts to look long. `actions`
//!   follows each tool call from start to outcome; `rows` words it.
//! - **Paths** inside the workspace are shown relative to it; others as Cursor reported them.
//! - **Plan mode**: a `createPlanToolCall` is rendered as the plan itself (name, overview, plan
//!   text, todos), bounded to `PLAN_LIMIT` bytes. It is the answer, so it is not an action.
//! - **Thinking** is never shown. After `PROGRESS_EVERY` without any visible text, a
//!   `[Cursor] Still working (…)` line says how long the turn has run and what it is doing (a
//!   running tool: that it runs and Cursor prints nothing until it ends).
//! - **Print mode's refusals**: a call whose `interaction_query` was rejected says what Cursor
//!   wanted, that print mode could not approve it and the fix (`rows`); a rejected question
//!   says Cursor could not put it to the user.
//! - **Notes** about the run itself (a reconnect attempt, a background task's notification,
//!   background commands stopped) are `[Cursor]` lines, each said once (`notes`).
//! - **Quiet is not stalled**: `TurnDisplay::silence_allowed` tells the turn how long Cursor
//!   may stay silent: longer while a tool call is open.
//! - **Closing summary** (after every turn that used at least one native action):
//!   `[Cursor] N native actions: …` (every kind named, `kinds`), `[Cursor] Changed: …`
//!   (successful edits, at most `SUMMARY_LIST_LIMIT` paths), `[Cursor] Not completed: …`
//!   (failed or denied, a non-zero shell exit included), `[Cursor] Unconfirmed: …` (started,
//!   never reported an outcome) (`summary`).
//! - **Terminal suffix**: Cursor's `result` repeats every segment it streamed; only the part
//!   the deltas did not carry is added, so no sentence is shown twice.

mod actions;
pub(crate) mod kinds;
mod notes;
mod plan;
mod rows;
mod summary;
mod tokens;
mod usage;

pub(crate) use kinds::ActionKind;
pub(crate) use plan::render_plan;
pub use tokens::turn_tokens;
pub(crate) use usage::estimate_text_tokens;
pub(crate) use usage::run_tokens;
pub use usage::usage_json;
pub use usage::usage_source;

use std::collections::HashSet;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use serde_json::Value;

use crate::cursor::events::RunEvent;
use crate::cursor::events::RunResult;
use crate::cursor::sanitize::Sanitizer;
use crate::cursor::sanitize::sanitize;
use crate::text::clip_chars;
use crate::text::one_line;
use rows::describe;

/// First characters of every action row.
pub(crate) const ROW_PREFIX: &str = "⎿ ";

/// First word of the summary, notice and progress lines.
pub(crate) const SUMMARY_PREFIX: &str = "[Cursor]";

/// An action still running after this long gets a `running…` row.
pub const LONG_ACTION: Duration = Duration::from_secs(5);

/// Silence (no visible text) after which a progress line is shown, and between two of them.
pub(crate) const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// Most characters of a command shown in a row.
pub(crate) const COMMAND_LIMIT: usize = 100;

/// Most characters of a path shown in a row (the end is kept).
pub(crate) const PATH_LIMIT: usize = 100;

/// Most characters of the output tail of a shell row (the end is kept).
pub(crate) const TAIL_LIMIT: usize = 60;

/// Most characters of a failure or refusal reason.
pub(crate) const REASON_LIMIT: usize = 120;

/// Most paths or actions listed on one summary line.
pub(crate) const SUMMARY_LIST_LIMIT: usize = 8;

/// Most bytes of a rendered plan.
pub(crate) const PLAN_LIMIT: usize = 32 * 1024;

/// How much longer than its own hard timeout an open tool call may keep Cursor quiet.
pub(crate) const QUIET_MARGIN: Duration = Duration::from_secs(60);

/// The CLI's own hard timeout of a shell call (`hardTimeout: 86400000` in its arguments): the
/// longest a tool call may keep Cursor quiet when the call names no timeout of its own.
pub(crate) const CURSOR_HARD_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// Most actions itemised in the summary (all are counted).
pub(crate) const TRACKED_ACTIONS: usize = 512;

/// How an action ended, as far as the stream said.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Running,
    Done,
    /// Failed: the reason (an error, or a non-zero shell exit).
    Failed(String),
    /// Refused by Cursor's permissions.
    Denied(String),
    /// Refused because print mode could not approve it: the row's words (what Cursor wanted,
    /// why, the fix) and the summary's short form.
    Unapproved {
        row: String,
        short: String,
    },
    /// Completed without an outcome we recognise.
    Unreported,
}

#[derive(Debug, Clone)]
struct Action {
    call_id: String,
    tool: String,
    kind: ActionKind,
    args: Value,
    started: Instant,
    running_row_shown: bool,
    state: State,
    /// The path shown in `Changed:` for a successful edit.
    changed: Option<String>,
}

/// What the streamed text ended with, to place the next piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// Nothing streamed yet.
    Empty,
    /// Prose (or a notice) ending with this many newlines (0, 1 or 2 = at least two).
    Prose(usize),
    /// A row, the plan or a summary line (no newline after it yet).
    Block,
}

/// The display state of one Cursor turn: feed it the run's events, stream what it returns.
#[derive(Debug)]
pub struct TurnDisplay {
    workspace: PathBuf,
    started: Instant,
    last_visible: Instant,
    thinking_since_visible: bool,
    tail: Tail,
    /// Cursor's own text streamed by the current run (no rows, no notices): compared with its
    /// `result`.
    prose: String,
    /// Strips control sequences from Cursor's prose as it streams, one delta at a time, so a
    /// sequence split over two deltas neither leaks nor eats the text around it. One per run.
    sanitizer: Sanitizer,
    actions: Vec<Action>,
    /// Actions counted per summary label, in first-seen order (sorted by kind when shown).
    counts: Vec<(ActionKind, String, usize)>,
    untracked: usize,
    /// What the `[Cursor]` notes about the run itself already said.
    notes: notes::Notes,
    plans_shown: HashSet<String>,
    touched: Vec<PathBuf>,
    touched_seen: HashSet<PathBuf>,
    /// The Fast variant Cursor served though the id asked for was not one (`system/init`'s
    /// display name), said at the end of the summary.
    served_fast: Option<String>,
    /// The last row or plan left with its line's newline ([`Ending::Ended`]); the next piece
    /// starts with one newline less, so the answer's text is what it would be without.
    newline_sent: bool,
    /// Cursor's questions go to Claude Code's question dialog after the answer
    /// ([`TurnDisplay::questions_in_dialog`]).
    questions_in_dialog: bool,
}

/// How a row, progress line or plan leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// With the newline that ends its line: Claude Code's TUI shows a streamed line only
    /// once its newline has arrived (measured on 2.1.328: a row sent as `\n\n⎿ read …` stayed
    /// off screen until Cursor's next words, 6 s later; with its newline it showed at once).
    /// Every row while Cursor works.
    Ended,
    /// Without it: the closing summary and the tokens, the last lines of the answer.
    Open,
}

impl TurnDisplay {
    /// A display for a turn running in `workspace` (canonical), started at `now`.
    pub fn new(workspace: impl Into<PathBuf>, now: Instant) -> TurnDisplay {
        TurnDisplay {
            workspace: workspace.into(),
            started: now,
            last_visible: now,
            thinking_since_visible: false,
            tail: Tail::Empty,
            prose: String::new(),
            sanitizer: Sanitizer::new(),
            actions: Vec::new(),
            counts: Vec::new(),
            untracked: 0,
            notes: notes::Notes::default(),
            plans_shown: HashSet::new(),
            newline_sent: false,
            served_fast: None,
            touched: Vec::new(),
            touched_seen: HashSet::new(),
            questions_in_dialog: false,
        }
    }

    /// Cursor's questions go to Claude Code's question dialog at the end of this answer: their
    /// rows say so instead of "could not put to you".
    pub(crate) fn questions_in_dialog(&mut self) {
        self.questions_in_dialog = true;
    }

    /// Text the turn streams that does not come from this display (a notice such as the outer
    /// history notice): returned without control characters, remembered so the next piece is
    /// placed after it.
    pub fn external(&mut self, text: &str, now: Instant) -> String {
        self.paragraph(&sanitize(text), now)
    }

    /// One extra row (e.g. a rule attached or fired), sanitised and bounded like an action row,
    /// on its own line. `row` is shown as given after sanitising: give it its own prefix.
    pub(crate) fn row(&mut self, row: &str, now: Instant) -> String {
        let line = clip_chars(&one_line(row), COMMAND_LIMIT + REASON_LIMIT + PATH_LIMIT);
        self.block_line(&line, now)
    }

    /// One run event in, the text to stream now out (often empty). `Init`, `UserEcho` and
    /// `Result` give nothing here; see [`TurnDisplay::finish`] for the result.
    pub fn event(&mut self, event: &RunEvent, now: Instant) -> String {
        match event {
            RunEvent::Text { text } => self.prose_text(text, now),
            RunEvent::Thinking { .. } => {
                self.thinking_since_visible = true;
                String::new()
            }
            RunEvent::ToolStarted { call } => self.tool_started(call, now),
            RunEvent::ToolCompleted { call, outcome } => self.tool_completed(call, outcome, now),
            RunEvent::Status(status) => match self.notes.note(status) {
                Some(line) => self.block_line(&line, now),
                None => String::new(),
            },
            RunEvent::Init { .. } | RunEvent::UserEcho { .. } | RunEvent::Result(_) => {
                String::new()
            }
        }
    }

    /// When [`TurnDisplay::tick`] may have something to show: the next long-action row or
    /// progress line.
    pub fn next_wake(&self) -> Instant {
        let progress = self.last_visible + PROGRESS_EVERY;
        self.actions
            .iter()
            .filter(|a| a.state == State::Running && !a.running_row_shown)
            .filter(|a| a.kind != ActionKind::Plan)
            .map(|a| a.started + LONG_ACTION)
            .fold(progress, Instant::min)
    }

    /// How long Cursor may stay silent from now on before its run counts as stalled. Without
    /// an open tool call (started, not completed) it is `inactivity`. A tool call prints nothing
    /// until it ends (a build, a test suite: an hour is normal), so while one is open it is the
    /// longest open call's own hard timeout (`hardTimeout` in its arguments, else
    /// [`CURSOR_HARD_TIMEOUT`]) plus [`QUIET_MARGIN`], and never less than `inactivity`.
    pub(crate) fn silence_allowed(&self, inactivity: Duration) -> Duration {
        let open = self
            .actions
            .iter()
            .filter(|a| a.state == State::Running)
            .map(|a| {
                let own = a
                    .args
                    .get("hardTimeout")
                    .and_then(Value::as_u64)
                    .map_or(CURSOR_HARD_TIMEOUT, Duration::from_millis);
                own.min(CURSOR_HARD_TIMEOUT) + QUIET_MARGIN
            })
            .max();
        open.map_or(inactivity, |allowed| allowed.max(inactivity))
    }

    /// Time passed: `running…` rows for actions running longer than [`LONG_ACTION`], and a
    /// progress line after `PROGRESS_EVERY` of silence.
    pub fn tick(&mut self, now: Instant) -> String {
        let mut out = String::new();
        let long: Vec<usize> = (0..self.actions.len())
            .filter(|&i| {
                let a = &self.actions[i];
                a.state == State::Running
                    && !a.running_row_shown
                    && a.kind != ActionKind::Plan
                    && now.duration_since(a.started) >= LONG_ACTION
            })
            .collect();
        for index in long {
            self.actions[index].running_row_shown = true;
            let line = format!(
                "{ROW_PREFIX}{} · running…",
                describe(&self.actions[index], self)
            );
            out.push_str(&self.block_line(&line, now));
        }
        if now.duration_since(self.last_visible) >= PROGRESS_EVERY {
            let line = self.progress_line(now);
            out.push_str(&self.block_line(&line, now));
        }
        out
    }

    /// Cursor's `result` arrived: the part of its text the deltas did not carry, any plan not
    /// shown yet, and the closing summary.
    pub fn finish(&mut self, result: &RunResult, now: Instant) -> String {
        let mut out = String::new();
        let suffix = terminal_suffix(&self.prose, &result.text).to_string();
        out.push_str(&self.prose_text(&suffix, now));
        // The prose is over: an escape sequence still open at its end is dropped.
        let rest = self.sanitizer.finish();
        out.push_str(&self.paragraph(&rest, now));
        let unshown: Vec<usize> = (0..self.actions.len())
            .filter(|&i| {
                self.actions[i].kind == ActionKind::Plan
                    && !self.plans_shown.contains(&self.actions[i].call_id)
            })
            .collect();
        for index in unshown {
            let action = self.actions[index].clone();
            out.push_str(&self.plan_block(&action.call_id, &action.args, Ending::Open, now));
        }
        for (index, line) in self.summary_lines().into_iter().enumerate() {
            if index == 0 && self.tail == Tail::Block {
                // The summary is a paragraph of its own, also after a row.
                self.tail = Tail::Prose(0);
            }
            out.push_str(&self.last_line(&line, now));
        }
        out
    }

    /// Notes the model `system/init` named (`served`, a display name such as `Composer 2.5
    /// Fast`) for a run asked to run Cursor id `asked`: a Fast variant the id does not name is
    /// said in the summary ([`TurnDisplay::served_fast`]). Some integrators saw a bare
    /// `composer-2.5` served as its Fast variant.
    pub(crate) fn note_served(&mut self, served: &str, asked: &str) {
        let fast_name = served
            .split_whitespace()
            .any(|word| word.eq_ignore_ascii_case("fast"));
        let fast_id = asked.ends_with("-fast") || asked.contains("fast=true");
        if fast_name && !fast_id {
            self.served_fast = Some(clip_chars(&one_line(&sanitize(served)), PATH_LIMIT));
        } else {
            self.served_fast = None;
        }
    }

    /// The Fast variant served unasked, if any ([`TurnDisplay::note_served`]).
    pub(crate) fn served_fast(&self) -> Option<&str> {
        self.served_fast.as_deref()
    }

    /// The newest action Cursor started or finished, in a row's words without the glyph
    /// (`read \`src/lib.rs\``): what the status line shows as the live run's last action.
    pub(crate) fn last_action(&self) -> Option<String> {
        self.actions
            .last()
            .map(|action| rows::describe(action, self))
    }

    /// Every path Cursor's read, list, search and edit calls named in this turn, absolute
    /// (relative ones joined to the workspace), each once, in first-seen order. Calls that
    /// failed or were refused count too: Cursor was working with those files.
    pub fn touched(&self) -> Vec<PathBuf> {
        self.touched.clone()
    }

    /// Another Cursor run of the same turn starts (a stream rule interrupted the last one):
    /// its `result` only covers what it streams itself.
    pub(crate) fn next_run(&mut self) {
        self.prose.clear();
        // A new run is a new text stream: a sequence the last one left open is dropped.
        let _dropped = self.sanitizer.finish();
    }

    fn prose_text(&mut self, text: &str, now: Instant) -> String {
        if text.is_empty() {
            return String::new();
        }
        self.prose.push_str(text);
        let shown = self.sanitizer.push(text);
        self.paragraph(&shown, now)
    }

    /// Text that continues or starts prose: after a row, it opens a new paragraph.
    fn paragraph(&mut self, text: &str, now: Instant) -> String {
        if text.is_empty() {
            return String::new();
        }
        let mut out = String::new();
        if self.tail == Tail::Block {
            let leading = text.chars().take_while(|c| *c == '\n').count().min(2);
            out.push_str(&"\n".repeat(2 - leading));
        }
        out.push_str(text);
        self.note_prose_tail(&out, now);
        self.after_newline(out)
    }

    /// `text` as it leaves after a piece that already sent its line's newline: one newline
    /// less at its start.
    fn after_newline(&mut self, mut text: String) -> String {
        if self.newline_sent && !text.is_empty() {
            if text.starts_with('\n') {
                text.remove(0);
            }
            self.newline_sent = false;
        }
        text
    }

    /// Ends a row's or plan's text with its newline when `ending` says so.
    fn ended(&mut self, mut text: String, ending: Ending) -> String {
        if ending == Ending::Ended && !text.is_empty() {
            text.push('\n');
            self.newline_sent = true;
        }
        text
    }

    fn note_prose_tail(&mut self, text: &str, now: Instant) {
        if text.is_empty() {
            return;
        }
        let trailing = text.chars().rev().take_while(|c| *c == '\n').count();
        let before = match self.tail {
            Tail::Prose(n) if trailing == text.chars().count() => n,
            _ => 0,
        };
        self.tail = Tail::Prose((before + trailing).min(2));
        self.visible(now);
    }

    /// A line in a paragraph of rows: after prose, a blank line first; after a row, a newline.
    fn block_line(&mut self, line: &str, now: Instant) -> String {
        self.line_ending(line, Ending::Ended, now)
    }

    /// [`TurnDisplay::block_line`] for the answer's last lines (the summary and the tokens),
    /// which leave without a newline.
    fn last_line(&mut self, line: &str, now: Instant) -> String {
        self.line_ending(line, Ending::Open, now)
    }

    fn line_ending(&mut self, line: &str, ending: Ending, now: Instant) -> String {
        let lead = match self.tail {
            Tail::Empty | Tail::Prose(2) => "",
            Tail::Prose(1) | Tail::Block => "\n",
            Tail::Prose(_) => "\n\n",
        };
        self.tail = Tail::Block;
        self.visible(now);
        let text = self.after_newline(format!("{lead}{}", sanitize(line)));
        self.ended(text, ending)
    }

    fn visible(&mut self, now: Instant) {
        self.last_visible = now;
        self.thinking_since_visible = false;
    }

    fn progress_line(&self, now: Instant) -> String {
        let elapsed = format_duration(now.duration_since(self.started));
        let running = self
            .actions
            .iter()
            .rev()
            .find(|a| a.state == State::Running && a.kind != ActionKind::Plan);
        let doing = match running {
            Some(action) => format!(
                ": {} is running, and Cursor prints nothing until it ends",
                describe(action, self)
            ),
            None if self.thinking_since_visible => String::from(": thinking"),
            None => String::new(),
        };
        format!("{SUMMARY_PREFIX} Still working ({elapsed}){doing}.")
    }

    /// A path as rows show it: relative to the workspace when inside it.
    fn show_path(&self, path: &str) -> String {
        let p = Path::new(path);
        match p.strip_prefix(&self.workspace) {
            Ok(rel) if rel.as_os_str().is_empty() => String::from("."),
            Ok(rel) => rel.to_string_lossy().into_owned(),
            Err(_) => path.to_string(),
        }
    }
}

/// The part of `result` the deltas did not carry. `result` concatenates every segment, so
/// when it starts with what was streamed only the rest is new; when nothing was streamed all
/// of it is; when the two disagree otherwise, nothing is added (the deltas were shown and
/// adding `result` would repeat them).
pub(crate) fn terminal_suffix<'a>(streamed: &str, result: &'a str) -> &'a str {
    if let Some(rest) = result.strip_prefix(streamed) {
        return rest;
    }
    if streamed.trim().is_empty() {
        return result;
    }
    tracing::debug!("Cursor's result text differs from its streamed text; keeping the stream");
    ""
}

/// `464 ms`, `2.3 s`, `45 s`, `1 min 5 s`.
pub(crate) fn format_duration(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 10_000 {
        format!("{:.1} s", duration.as_secs_f64())
    } else if ms < 60_000 {
        format!("{} s", duration.as_secs())
    } else {
        let secs = duration.as_secs();
        format!("{} min {} s", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests;
