//! `multi-cursor usage [--since 7d|YYYY-MM-DD] [--workspace DIR] [--json]`: the ledger summed
//! by day, by model and by Claude session. Days are local dates. Replays count in `replays`,
//! never in `runs`; a line that cannot be read is skipped and counted in `damaged_lines`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde::Serialize;
use serde::Serializer;
use serde::ser::SerializeMap;
use thiserror::Error;

use super::TokenFigures;
use super::format_count;
use super::ledger::Ledger;
use super::ledger::Purpose;
use super::ledger::RunOutcome;
use super::ledger::TokenSource;

/// The period `usage` covers when `--since` is not given, in days (today included).
pub(crate) const DEFAULT_DAYS: i64 = 30;

/// Largest ledger month file read (a month of very heavy use is a few MiB).
pub(crate) const MAX_MONTH_FILE: u64 = 1024 * 1024 * 1024;

/// Why `usage` could not run.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error(
        "--since {0:?} is neither a number of days (7d) nor a date (2026-11-30); use one of those"
    )]
    Since(String),
    #[error("reading the ledger: {0}")]
    Read(#[source] crate::state::StateError),
}

/// The `--json` document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UsageReport {
    /// The first local day counted, `YYYY-MM-DD`.
    pub since: String,
    pub totals: Totals,
    pub by_model: Vec<ModelRow>,
    pub by_day: Vec<DayRow>,
    pub by_session: Vec<SessionRow>,
}

/// Every counted line summed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub runs: u64,
    pub replays: u64,
    /// Runs that failed or that a stopped gateway interrupted.
    pub failed_runs: u64,
    /// Runs whose tokens are (partly) our estimate, or unknown.
    pub estimated_runs: u64,
    /// Their tokens, written as `input_tokens`, `output_tokens`, `cache_read_tokens` and
    /// `cache_write_tokens` (0 when no run gave a cache count).
    #[serde(flatten, serialize_with = "all_counts")]
    pub tokens: TokenFigures,
    pub duration_ms: u64,
    pub damaged_lines: u64,
}

/// Runs and tokens of one model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ModelRow {
    pub model: String,
    pub runs: u64,
    /// Written as `input_tokens` and `output_tokens`.
    #[serde(flatten, serialize_with = "in_out")]
    pub tokens: TokenFigures,
}

/// Runs and tokens of one local day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DayRow {
    pub day: String,
    pub runs: u64,
    /// Written as `input_tokens` and `output_tokens`.
    #[serde(flatten, serialize_with = "in_out")]
    pub tokens: TokenFigures,
}

/// Runs and tokens of one Claude session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SessionRow {
    pub session: String,
    pub workspace: String,
    pub runs: u64,
    /// Written as `input_tokens` and `output_tokens`.
    #[serde(flatten, serialize_with = "in_out")]
    pub tokens: TokenFigures,
}

/// A row's tokens in the `--json` document: input and output (whether a row holds an
/// estimate is the table's `(est.)`).
fn in_out<S: Serializer>(tokens: &TokenFigures, serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(2))?;
    map.serialize_entry("input_tokens", &tokens.input_tokens)?;
    map.serialize_entry("output_tokens", &tokens.output_tokens)?;
    map.end()
}

/// The totals' tokens in the `--json` document: input, output and both cache counts, 0 when
/// no run gave one.
fn all_counts<S: Serializer>(tokens: &TokenFigures, serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(4))?;
    map.serialize_entry("input_tokens", &tokens.input_tokens)?;
    map.serialize_entry("output_tokens", &tokens.output_tokens)?;
    map.serialize_entry("cache_read_tokens", &tokens.cache_read_tokens.unwrap_or(0))?;
    map.serialize_entry(
        "cache_write_tokens",
        &tokens.cache_write_tokens.unwrap_or(0),
    )?;
    map.end()
}

/// The first local day `--since` names: `Nd` is the last N days, today included; a date is
/// itself. `None` is the last `DEFAULT_DAYS` days.
pub fn since_day(
    since: Option<&str>,
    today: jiff::civil::Date,
) -> Result<jiff::civil::Date, ReportError> {
    let bad = || ReportError::Since(since.unwrap_or_default().to_string());
    let days = match since.map(str::trim) {
        None => DEFAULT_DAYS,
        Some(text) => match text.strip_suffix('d') {
            Some(n) => n
                .parse::<i64>()
                .ok()
                .filter(|n| (1..=36_600).contains(n))
                .ok_or_else(bad)?,
            None => return text.parse::<jiff::civil::Date>().map_err(|_| bad()),
        },
    };
    today
        .checked_sub(jiff::Span::new().days(days - 1))
        .map_err(|_| bad())
}

/// Sums the ledger from local day `since` on, only lines of `workspace` when given.
pub fn build(
    ledger: &Ledger,
    since: jiff::civil::Date,
    workspace: Option<&str>,
) -> Result<UsageReport, ReportError> {
    let tz = jiff::tz::TimeZone::system();
    let today = jiff::ZonedDateTime::now().date();
    let mut acc = Accumulator::default();
    let mut month = since.first_of_month();
    while month <= today {
        let path = ledger
            .dir()
            .join(format!("{}.jsonl", month.strftime("%Y-%m")));
        if let Some(bytes) =
            crate::state::read_state_file(&path, MAX_MONTH_FILE).map_err(ReportError::Read)?
        {
            acc.read(&bytes, &tz, since, workspace);
        }
        match month.checked_add(jiff::Span::new().months(1)) {
            Ok(next) => month = next,
            Err(_) => break,
        }
    }
    Ok(acc.finish(since))
}

/// The fields of a ledger line the report reads, borrowed from the file's bytes (no copy of
/// a string without escapes): 100,000 lines are read in well under the 300 ms budget.
#[derive(Deserialize)]
struct LineView<'a> {
    /// Required, so a JSON object that is not a ledger line counts as damaged.
    #[serde(rename = "v")]
    _version: u32,
    #[serde(borrow)]
    time: Cow<'a, str>,
    #[serde(borrow)]
    workspace: Cow<'a, str>,
    #[serde(borrow)]
    session: Cow<'a, str>,
    #[serde(borrow)]
    model: Cow<'a, str>,
    purpose: Purpose,
    duration_ms: u64,
    outcome: RunOutcome,
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
    #[serde(default)]
    cache_read_tokens: Option<u64>,
    #[serde(default)]
    cache_write_tokens: Option<u64>,
    token_source: TokenSource,
}

impl LineView<'_> {
    /// The line's tokens, as [`super::ledger::LedgerLine::tokens`] reads them.
    fn tokens(&self) -> TokenFigures {
        self.token_source.figures(
            self.input_tokens,
            self.output_tokens,
            self.cache_read_tokens,
            self.cache_write_tokens,
        )
    }
}

#[derive(Default)]
struct Accumulator {
    totals: Totals,
    models: BTreeMap<String, ModelRow>,
    days: BTreeMap<jiff::civil::Date, DayRow>,
    /// Session → workspace → row.
    sessions: BTreeMap<String, BTreeMap<String, SessionRow>>,
    /// The local day of the last line's minute (`2026-12-01T16:20`): lines come in time order,
    /// so most lines skip the time-zone conversion.
    last_minute: Option<(String, jiff::civil::Date)>,
}

/// Runs `f` on the row of `key` in `map`, made when missing (the key is copied only then).
fn with_row<T: Default>(map: &mut BTreeMap<String, T>, key: &str, f: impl FnOnce(&mut T)) {
    match map.get_mut(key) {
        Some(row) => f(row),
        None => {
            let mut row = T::default();
            f(&mut row);
            map.insert(key.to_string(), row);
        }
    }
}

impl Accumulator {
    fn read(
        &mut self,
        bytes: &[u8],
        tz: &jiff::tz::TimeZone,
        since: jiff::civil::Date,
        workspace: Option<&str>,
    ) {
        for raw in bytes.split(|b| *b == b'\n') {
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let Ok(line) = serde_json::from_slice::<LineView<'_>>(raw) else {
                self.totals.damaged_lines += 1;
                continue;
            };
            let Some(day) = self.day_of(&line.time, tz) else {
                self.totals.damaged_lines += 1;
                continue;
            };
            if day < since || workspace.is_some_and(|w| w != line.workspace) {
                continue;
            }
            self.add(&line, day);
        }
    }

    /// The local day of an RFC 3339 time, `None` when it is not one.
    fn day_of(&mut self, time: &str, tz: &jiff::tz::TimeZone) -> Option<jiff::civil::Date> {
        let minute = time.get(..16)?;
        if let Some((last, day)) = &self.last_minute
            && last == minute
        {
            return Some(*day);
        }
        let at = time.parse::<jiff::Timestamp>().ok()?;
        let day = tz.to_datetime(at).date();
        self.last_minute = Some((minute.to_string(), day));
        Some(day)
    }

    /// Counts `line`. Sums saturate: a damaged or forged line with huge figures shows the
    /// largest number, never a small wrapped one.
    fn add(&mut self, line: &LineView<'_>, day: jiff::civil::Date) {
        if line.purpose == Purpose::Replay {
            self.totals.replays += 1;
            return;
        }
        let tokens = line.tokens();
        let t = &mut self.totals;
        t.runs += 1;
        t.failed_runs += u64::from(matches!(
            line.outcome,
            RunOutcome::Failed | RunOutcome::Interrupted
        ));
        t.estimated_runs += u64::from(tokens.estimated);
        t.tokens.add(tokens);
        t.duration_ms = t.duration_ms.saturating_add(line.duration_ms);
        with_row(&mut self.models, &line.model, |model: &mut ModelRow| {
            model.runs += 1;
            model.tokens.add(tokens);
        });
        let row_of_day = self.days.entry(day).or_default();
        row_of_day.runs += 1;
        row_of_day.tokens.add(tokens);
        with_row(&mut self.sessions, &line.session, |workspaces| {
            with_row(workspaces, &line.workspace, |session: &mut SessionRow| {
                session.runs += 1;
                session.tokens.add(tokens);
            });
        });
    }

    fn finish(self, since: jiff::civil::Date) -> UsageReport {
        let mut by_model: Vec<ModelRow> = self
            .models
            .into_iter()
            .map(|(model, row)| ModelRow { model, ..row })
            .collect();
        by_model.sort_by(|a, b| b.runs.cmp(&a.runs).then(a.model.cmp(&b.model)));
        let by_day = self
            .days
            .into_iter()
            .map(|(day, row)| DayRow {
                day: day.to_string(),
                ..row
            })
            .collect();
        let mut by_session: Vec<SessionRow> = self
            .sessions
            .into_iter()
            .flat_map(|(session, workspaces)| {
                workspaces
                    .into_iter()
                    .map(move |(workspace, row)| SessionRow {
                        session: session.clone(),
                        workspace,
                        ..row
                    })
            })
            .collect();
        by_session.sort_by_key(|row| std::cmp::Reverse(row.tokens.billed()));
        UsageReport {
            since: since.to_string(),
            totals: self.totals,
            by_model,
            by_day,
            by_session,
        }
    }
}

/// `1 run`, `3 runs`.
fn runs(n: u64) -> String {
    if n == 1 {
        String::from("1 run")
    } else {
        format!("{n} runs")
    }
}

fn est(estimated: bool) -> &'static str {
    if estimated { " (est.)" } else { "" }
}

impl UsageReport {
    /// The table for people: totals, then by day and by model; `(est.)` marks a row with an
    /// estimated figure.
    pub(crate) fn render(&self, ledger_dir: &Path) -> String {
        let t = &self.totals;
        let mut out = format!(
            "Cursor usage since {} (ledger: {})\n",
            self.since,
            ledger_dir.display()
        );
        if t.runs == 0 && t.replays == 0 {
            out.push_str("No Cursor runs in this period.\n");
        } else {
            out.push_str(&format!(
                "{} ({} failed), {} replayed · {} in / {} out{} · cache {} read / {} written · {} s of Cursor time\n",
                runs(t.runs),
                t.failed_runs,
                t.replays,
                format_count(t.tokens.input_tokens),
                format_count(t.tokens.output_tokens),
                est(t.estimated_runs > 0),
                format_count(t.tokens.cache_read_tokens.unwrap_or(0)),
                format_count(t.tokens.cache_write_tokens.unwrap_or(0)),
                t.duration_ms / 1000,
            ));
        }
        if !self.by_day.is_empty() {
            out.push_str("\nBy day\n");
            for row in &self.by_day {
                out.push_str(&format!(
                    "  {:<12} {:>9}  {:>7} in  {:>7} out{}\n",
                    row.day,
                    runs(row.runs),
                    format_count(row.tokens.input_tokens),
                    format_count(row.tokens.output_tokens),
                    est(row.tokens.estimated)
                ));
            }
        }
        if !self.by_model.is_empty() {
            out.push_str("\nBy model\n");
            for row in &self.by_model {
                out.push_str(&format!(
                    "  {:<24} {:>9}  {:>7} in  {:>7} out{}\n",
                    row.model,
                    runs(row.runs),
                    format_count(row.tokens.input_tokens),
                    format_count(row.tokens.output_tokens),
                    est(row.tokens.estimated)
                ));
            }
        }
        if t.damaged_lines > 0 {
            out.push_str(&format!(
                "\n{} damaged ledger line(s) skipped.\n",
                t.damaged_lines
            ));
        }
        out
    }
}

/// What `multi-cursor usage` was asked for (`main` fills it from the command line).
#[derive(Debug, Clone)]
pub struct UsageOptions {
    /// The first day counted (`--since`): a number of days (`7d`) or a date; `None`: the last
    /// `DEFAULT_DAYS`.
    pub since: Option<String>,
    /// Only runs in this workspace folder (`--workspace`).
    pub workspace: Option<std::path::PathBuf>,
    /// Print JSON (`--json`).
    pub json: bool,
}

/// `multi-cursor usage`: the report of the state folder's ledger, as a table or JSON.
pub fn run(args: &UsageOptions) -> anyhow::Result<std::process::ExitCode> {
    use anyhow::Context;
    let state = crate::state::state_dir_path().context("finding the state folder")?;
    let ledger = Ledger::new(&state);
    let since = since_day(args.since.as_deref(), jiff::ZonedDateTime::now().date())?;
    // The ledger names the workspace as the gateway saw it: the folder's canonical path.
    let workspace = args
        .workspace
        .as_ref()
        .map(|dir| {
            crate::platform::canonicalize(dir)
                .with_context(|| format!("reading the workspace folder {}", dir.display()))
        })
        .transpose()?
        .map(|dir| dir.to_string_lossy().into_owned());
    let report = build(&ledger, since, workspace.as_deref())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).context("encoding the report")?
        );
    } else {
        // Model names, sessions and workspaces are the ledger's: no control sequence of a
        // damaged or forged line reaches the terminal.
        print!(
            "{}",
            crate::cursor::sanitize::sanitize(&report.render(ledger.dir()))
        );
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
