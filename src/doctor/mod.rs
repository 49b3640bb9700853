//! `multi-cursor doctor [--live]`: checks that everything multi-cursor needs is in place and
//! says, for each check that fails, what to do.
//!
//! The checks, in order: Claude Code present and at least
//! [`MIN_VERSION`](crate::launch::claude::MIN_VERSION), the version our facts about it were
//! measured on (`claude.rs`); Cursor's agent CLI present, really Cursor's, and its version;
//! logged in to Cursor; the model catalog reachable; no MCP configuration that would stall
//! Cursor's print mode (`cursor.rs`); the state folder private (0700), writable, and no session
//! record locked by a running gateway (`locks.rs`); no Cursor route saved as the model of plain
//! `claude` (`claude.rs`); multi-cursor's hooks and status line in force (`parts.rs`); and each code editor's Claude Code settings in order for
//! `multi-cursor-claude`, the VS Code panel's door (`editors.rs`). With `--live`, a real `claude -p` round trip
//! through a private gateway (`multi-cursor serve`) against Cursor (`live.rs`).

mod attribution;
mod claude;
mod cursor;
mod editors;
mod live;
pub(crate) mod locks;
mod parts;

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::policy;

/// The result of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked, e.g. `Cursor agent`.
    pub name: &'static str,
    /// Whether it is in order.
    pub passed: bool,
    /// What was found.
    pub detail: String,
    /// What to do about a failure (always set when `passed` is false). Set on a passed check,
    /// it makes the check a warning: something to fix that does not fail `doctor`.
    pub fix: Option<String>,
}

impl Check {
    pub(super) fn pass(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            passed: true,
            detail: detail.into(),
            fix: None,
        }
    }

    /// A passed check with advice, shown as `[warn]`: `doctor` still exits 0.
    pub(super) fn warn(
        name: &'static str,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check {
            name,
            passed: true,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }

    pub(super) fn fail(
        name: &'static str,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check {
            name,
            passed: false,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

/// Every check's result, in order; printed by `multi-cursor doctor`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// The checks, in the order they ran.
    pub checks: Vec<Check>,
}

impl Report {
    /// True when every check passed (the command then exits 0).
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }

    /// One line per check (`[pass]`, `[warn]` or `[FAIL]`, name, what was found), each
    /// failure and warning followed by its fix, then a one-line verdict.
    pub fn render(&self) -> String {
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for check in &self.checks {
            let mark = match (check.passed, &check.fix) {
                (false, _) => "[FAIL]",
                (true, Some(_)) => "[warn]",
                (true, None) => "[pass]",
            };
            let _ = writeln!(
                out,
                "{mark} {:<width$}  {}",
                check.name,
                check.detail.trim()
            );
            if let Some(fix) = &check.fix {
                let _ = writeln!(out, "       {:<width$}  fix: {}", "", fix.trim());
            }
        }
        let failed = self.checks.iter().filter(|c| !c.passed).count();
        let warned = self
            .checks
            .iter()
            .filter(|c| c.passed && c.fix.is_some())
            .count();
        if failed == 0 && warned > 0 {
            let _ = writeln!(
                out,
                "All checks passed, with {warned} warning{}; each fix is under it.",
                if warned == 1 { "" } else { "s" }
            );
        } else if failed == 0 {
            out.push_str("All checks passed.\n");
        } else {
            let _ = writeln!(
                out,
                "{failed} of {} checks failed; each fix is under it.",
                self.checks.len()
            );
        }
        out
    }
}

/// What `doctor` looks at; [`DoctorOptions::from_env`] is what the command uses.
#[derive(Debug, Clone)]
pub struct DoctorOptions {
    /// Also run the live round trip.
    pub live: bool,
    /// The workspace whose MCP configuration is checked (the current directory).
    pub workspace: PathBuf,
    /// The user's home (for `~/.cursor/mcp.json`).
    pub home: Option<PathBuf>,
    /// `MULTI_CURSOR_APPROVE_MCPS=1`.
    pub approve_mcps: bool,
    /// `$CLAUDE_CONFIG_DIR`, where Claude Code's user settings are instead of `~/.claude`.
    pub claude_config_dir: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`, where the code editors keep their settings on Linux instead of
    /// `~/.config`.
    pub config_home: Option<PathBuf>,
}

impl DoctorOptions {
    /// Options from the environment and the current directory.
    pub fn from_env(live: bool) -> DoctorOptions {
        DoctorOptions {
            live,
            workspace: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            home: crate::platform::places::home().map(PathBuf::from),
            approve_mcps: std::env::var(crate::env::APPROVE_MCPS_ENV).is_ok_and(|v| v == "1"),
            claude_config_dir: std::env::var_os(policy::settings::CLAUDE_CONFIG_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            config_home: std::env::var_os("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute()),
        }
    }
}

/// Runs every check (and the live round trip when asked) and returns the report.
pub async fn run(options: &DoctorOptions) -> Report {
    let mut report = Report::default();
    let claude = claude::check_claude().await;
    report.checks.push(claude.check);
    let agent = cursor::check_agent().await;
    report.checks.push(agent.check);
    if let (Some(info), Ok(state_dir)) = (&agent.info, crate::state::state_dir_path()) {
        report
            .checks
            .push(cursor::check_agent_probe(info, &state_dir));
    }
    report.checks.push(match &agent.info {
        Some(info) => cursor::check_login(info).await,
        None => needs_agent("Cursor login"),
    });
    report.checks.push(match &agent.info {
        Some(info) => cursor::check_catalog(info).await,
        None => needs_agent("Cursor models"),
    });
    report.checks.push(cursor::check_mcp(options));
    if let Some(info) = &agent.info {
        report
            .checks
            .push(cursor::check_claude_config(options, info));
        report
            .checks
            .push(attribution::check_attribution(options, info));
    }
    report.checks.push(locks::check_state_folder());
    report.checks.push(locks::check_session_locks());
    report.checks.push(claude::check_saved_model(options));
    report.checks.push(parts::check_hooks(options));
    report.checks.push(parts::check_status_line(options));
    report.checks.push(parts::check_plugin_fetched(options));
    report.checks.extend(editors::check_editors(options));
    if options.live {
        report.checks.push(match (&claude.path, &agent.info) {
            (Some(claude), Some(_)) if report.passed() => live::live_round_trip(claude).await,
            _ => Check::fail(
                "Live round trip",
                "not run: an earlier check failed",
                "fix the failures above, then run `multi-cursor doctor --live` again",
            ),
        });
    }
    report
}

fn needs_agent(name: &'static str) -> Check {
    Check::fail(
        name,
        "not checked: no usable Cursor agent CLI",
        "fix the Cursor agent check above first",
    )
}

#[cfg(test)]
mod tests;
