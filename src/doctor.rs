//! `multi-cursor doctor [--live]`: checks that everything multi-cursor needs is in place and
//! says, for each check that fails, what to do.
//!
//! The checks, in order: Claude Code present and at least [`MIN_CLAUDE_VERSION`] (the version
//! our facts about it were measured on); Cursor's agent CLI present, really Cursor's, and its
//! version; logged in to Cursor; the model catalog reachable; no MCP configuration that would
//! stall Cursor's print mode; the state folder private (0700), writable, and no session record
//! locked by a running gateway. With `--live`, a real `claude -p` round trip through a private
//! gateway (`multi-cursor serve`) against Cursor.

use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use thiserror::Error;

use crate::cursor::account;
use crate::cursor::account::LoginState;
use crate::cursor::bounded_line;
use crate::cursor::catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::catalog::Route;
use crate::cursor::locate;
use crate::cursor::locate::AgentInfo;
use crate::cursor::locate::LocateError;
use crate::policy;
use crate::state;

use crate::launch::claude::CLAUDE_ENV;
use crate::launch::claude::MIN_VERSION as MIN_CLAUDE_VERSION;
use crate::launch::claude::Version;

pub use crate::session::store::SESSIONS_DIR;

/// How Claude Code is installed, quoted when it is missing or too old.
const CLAUDE_INSTALL: &str = "npm install -g @anthropic-ai/claude-code@latest";

/// How long `claude --version` may take.
const CLAUDE_VERSION_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the live round trip may take end to end.
const LIVE_TIMEOUT: Duration = Duration::from_secs(300);

/// How long `multi-cursor serve` may take to write its ready file.
const SERVE_READY_TIMEOUT: Duration = Duration::from_secs(20);

/// The prompt of the live round trip.
const LIVE_PROMPT: &str = "This is a connectivity check from `multi-cursor doctor`. Reply with one short sentence and do not use any tools.";

/// The route the live round trip runs on (Cursor's Auto).
const LIVE_MODEL: &str = "multi/cursor/default";

/// The result of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked, e.g. `Cursor agent`.
    pub name: &'static str,
    /// Whether it is in order.
    pub passed: bool,
    /// What was found.
    pub detail: String,
    /// What to do about a failure (always set when `passed` is false).
    pub fix: Option<String>,
}

impl Check {
    fn pass(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            passed: true,
            detail: detail.into(),
            fix: None,
        }
    }

    fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
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

    /// One line per check (`[pass]` or `[FAIL]`, name, what was found), each failure followed
    /// by its fix, then a one-line verdict.
    pub fn render(&self) -> String {
        let width = self.checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for check in &self.checks {
            let mark = if check.passed { "[pass]" } else { "[FAIL]" };
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
        if failed == 0 {
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
}

impl DoctorOptions {
    /// Options from the environment and the current directory.
    pub fn from_env(live: bool) -> DoctorOptions {
        DoctorOptions {
            live,
            workspace: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            home: std::env::var_os("HOME").map(PathBuf::from),
            approve_mcps: std::env::var(policy::APPROVE_MCPS_ENV).is_ok_and(|v| v == "1"),
        }
    }
}

/// Runs every check (and the live round trip when asked) and returns the report.
pub async fn run(options: &DoctorOptions) -> Report {
    let mut report = Report::default();
    let claude = check_claude().await;
    report.checks.push(claude.check);
    let agent = check_agent().await;
    report.checks.push(agent.check);
    report.checks.push(match &agent.info {
        Some(info) => check_login(info).await,
        None => needs_agent("Cursor login"),
    });
    report.checks.push(match &agent.info {
        Some(info) => check_catalog(info).await,
        None => needs_agent("Cursor models"),
    });
    report.checks.push(check_mcp(options));
    report.checks.push(check_state_folder());
    report.checks.push(check_session_locks());
    if options.live {
        report.checks.push(match (&claude.path, &agent.info) {
            (Some(claude), Some(_)) if report.passed() => live_round_trip(claude).await,
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

// ---------------------------------------------------------------------------------------------
// Claude Code

struct ClaudeFound {
    check: Check,
    path: Option<PathBuf>,
}

/// Why Claude Code could not be found or asked for its version.
#[derive(Debug, Error)]
enum ClaudeError {
    #[error("{0}")]
    NotFound(String),
    #[error("{path} could not be run: {reason}")]
    Unusable { path: PathBuf, reason: String },
}

/// Claude Code where the launcher would find it.
fn find_claude() -> Result<PathBuf, ClaudeError> {
    crate::launch::claude::find_claude(
        std::env::var_os(CLAUDE_ENV).as_deref(),
        std::env::var_os("PATH").as_deref(),
        std::env::var_os("HOME").as_deref(),
    )
    .map_err(|e| ClaudeError::NotFound(e.to_string()))
}

async fn check_claude() -> ClaudeFound {
    const NAME: &str = "Claude Code";
    let path = match find_claude() {
        Ok(path) => path,
        Err(error) => {
            return ClaudeFound {
                check: Check::fail(
                    NAME,
                    error.to_string(),
                    format!(
                        "install Claude Code: `{CLAUDE_INSTALL}`, or set {CLAUDE_ENV} to its path"
                    ),
                ),
                path: None,
            };
        }
    };
    let output = match claude_version(&path).await {
        Ok(output) => output,
        Err(error) => {
            return ClaudeFound {
                check: Check::fail(
                    NAME,
                    error.to_string(),
                    format!(
                        "reinstall Claude Code (`{CLAUDE_INSTALL}`), or set {CLAUDE_ENV} to a working one"
                    ),
                ),
                path: None,
            };
        }
    };
    let minimum = MIN_CLAUDE_VERSION.to_string();
    let check = match Version::parse(&output) {
        Some(version) if version >= MIN_CLAUDE_VERSION => {
            Check::pass(NAME, format!("{} at {}", version, path.display()))
        }
        Some(version) => Check::fail(
            NAME,
            format!(
                "{} at {} is older than {minimum}, the version multi-cursor was measured on",
                version,
                path.display()
            ),
            format!("update Claude Code: `claude update` or `{CLAUDE_INSTALL}`"),
        ),
        None => Check::fail(
            NAME,
            format!(
                "{} answered `--version` with {:?}, which is not a Claude Code version",
                path.display(),
                output.trim()
            ),
            format!(
                "point {CLAUDE_ENV} at Claude Code's `claude`, or reinstall it (`{CLAUDE_INSTALL}`)"
            ),
        ),
    };
    let path = check.passed.then_some(path);
    ClaudeFound { check, path }
}

async fn claude_version(path: &Path) -> Result<String, ClaudeError> {
    let unusable = |reason: String| ClaudeError::Unusable {
        path: path.to_path_buf(),
        reason,
    };
    let mut command = tokio::process::Command::new(path);
    command
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("DISABLE_AUTOUPDATER", "1")
        .process_group(0)
        .kill_on_drop(true);
    let output = tokio::time::timeout(CLAUDE_VERSION_TIMEOUT, command.output())
        .await
        .map_err(|_| {
            unusable(format!(
                "`--version` did not answer within {}s",
                CLAUDE_VERSION_TIMEOUT.as_secs()
            ))
        })?
        .map_err(|e| unusable(e.to_string()))?;
    if !output.status.success() {
        return Err(unusable(format!(
            "`--version` exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

// ---------------------------------------------------------------------------------------------
// Cursor

struct AgentFound {
    check: Check,
    info: Option<AgentInfo>,
}

async fn check_agent() -> AgentFound {
    const NAME: &str = "Cursor agent";
    let found = match locate::find_agent_path() {
        Ok(path) => locate::identify(&path).await,
        Err(error) => Err(error),
    };
    match found {
        Ok(info) => {
            let mut detail = format!(
                "Cursor's agent CLI {} at {}",
                info.version,
                info.path.display()
            );
            if !info.supports_auto_review {
                detail.push_str(
                    " (no --auto-review: Claude's auto mode will be refused until `agent update`)",
                );
            }
            AgentFound {
                check: Check::pass(NAME, detail),
                info: Some(info),
            }
        }
        Err(error) => {
            let (detail, fix) = match &error {
                LocateError::NotFound { tried } => {
                    (format!("not found (looked for {tried})"), locate::INSTALL_HINT.to_string())
                }
                LocateError::NotCursor { path, looks_like } => (
                    format!("{} is not Cursor's agent CLI (it looks like {looks_like})", path.display()),
                    format!("{}, and put it before the other `agent` on PATH", locate::INSTALL_HINT),
                ),
                LocateError::Unusable { path, reason } => (
                    format!("{} could not be run ({reason})", path.display()),
                    "reinstall the Cursor CLI (`curl https://cursor.com/install -fsS | bash`), or set MULTI_CURSOR_AGENT to a working one".to_string(),
                ),
            };
            AgentFound {
                check: Check::fail(NAME, detail, fix),
                info: None,
            }
        }
    }
}

async fn check_login(agent: &AgentInfo) -> Check {
    const NAME: &str = "Cursor login";
    match account::login_state(&agent.path).await {
        Ok(LoginState::LoggedIn { who }) => Check::pass(NAME, format!("logged in as {who}")),
        Ok(LoginState::ApiKey) => Check::pass(
            NAME,
            format!("{} is set (the key is not shown)", account::API_KEY_ENV),
        ),
        Ok(LoginState::LoggedOut { said }) => Check::fail(
            NAME,
            format!("not logged in (Cursor said: {said})"),
            format!(
                "run `multi-cursor --cursor-login` (or /multi-cursor:login in Claude Code), or set {}",
                account::API_KEY_ENV
            ),
        ),
        Err(error) => Check::fail(
            NAME,
            error.to_string(),
            "check your network connection, then run `multi-cursor doctor` again",
        ),
    }
}

async fn check_catalog(agent: &AgentInfo) -> Check {
    const NAME: &str = "Cursor models";
    let catalog = match catalog::fetch_catalog(&agent.path).await {
        Ok(catalog) => catalog,
        Err(error) => {
            let fix = match &error {
                CatalogError::LoggedOut { .. } => format!(
                    "run `multi-cursor --cursor-login`, or set {}",
                    account::API_KEY_ENV
                ),
                CatalogError::Timeout { .. } => {
                    "check your network connection, then run `multi-cursor doctor` again"
                        .to_string()
                }
                _ => format!(
                    "run `{} --list-models` yourself to see Cursor's answer; `agent update` updates the CLI",
                    agent.path.display()
                ),
            };
            return Check::fail(NAME, error.to_string(), fix);
        }
    };
    if catalog.is_empty() {
        return Check::fail(
            NAME,
            "Cursor lists no models for this account",
            "check the account's plan on cursor.com, or log in with another account (`agent logout`, then `multi-cursor --cursor-login`)",
        );
    }
    let extra = catalog::extra_models_from_env();
    let picker = catalog.picker(&extra);
    if let Err(error) = picker.check() {
        return Check::fail(
            NAME,
            error.to_string(),
            format!(
                "remove that id from {} or use one `multi-cursor --cursor-models` lists",
                catalog::EXTRA_MODELS_ENV
            ),
        );
    }
    let rows: Vec<&str> = picker.rows.iter().map(Route::short_id).collect();
    Check::pass(
        NAME,
        format!(
            "{} models, {} routes; /model rows: {}",
            catalog.models().len(),
            catalog.routes().count(),
            if rows.is_empty() {
                "none".to_string()
            } else {
                rows.join(", ")
            }
        ),
    )
}

fn check_mcp(options: &DoctorOptions) -> Check {
    const NAME: &str = "MCP servers";
    let files = policy::mcp_config_files(&options.workspace, options.home.as_deref());
    let listed = || {
        files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match policy::check_mcp(
        &options.workspace,
        options.home.as_deref(),
        options.approve_mcps,
    ) {
        Ok(()) if files.is_empty() => Check::pass(NAME, "none configured for Cursor"),
        Ok(()) => Check::pass(
            NAME,
            format!(
                "configured in {}; {}=1 lets Cursor use them",
                listed(),
                policy::APPROVE_MCPS_ENV
            ),
        ),
        Err(refusal) => Check::fail(
            NAME,
            format!(
                "configured in {} and not approved: Cursor turns would be refused",
                listed()
            ),
            format!(
                "set {}=1 (then restart multi-cursor) to let Cursor use them, or remove them; {refusal}",
                policy::APPROVE_MCPS_ENV
            ),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// State folder

fn check_state_folder() -> Check {
    const NAME: &str = "State folder";
    let dir = match state::state_dir_path() {
        Ok(dir) => dir,
        Err(error) => {
            return Check::fail(
                NAME,
                error.to_string(),
                format!("set {} to a folder you own", state::STATE_DIR_ENV),
            );
        }
    };
    let existed = match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.file_type().is_symlink() || !meta.is_dir() => {
            return Check::fail(
                NAME,
                format!("{} is a symlink or not a folder", dir.display()),
                format!(
                    "point {} at a real folder you own, or remove {}",
                    state::STATE_DIR_ENV,
                    dir.display()
                ),
            );
        }
        Ok(meta) => {
            let mode = meta.permissions().mode() & 0o777;
            if mode != 0o700 {
                return Check::fail(
                    NAME,
                    format!(
                        "{} has mode {mode:04o}; records and tokens need 0700",
                        dir.display()
                    ),
                    format!("chmod 700 '{}'", dir.display()),
                );
            }
            true
        }
        Err(_) => false,
    };
    let probe = dir.join(format!(".doctor-probe.{}", std::process::id()));
    let written = state::ensure_private_dir(&dir)
        .and_then(|()| state::write_private_atomic(&probe, b"multi-cursor doctor"));
    let _ = std::fs::remove_file(&probe);
    match written {
        Ok(()) if existed => Check::pass(NAME, format!("{} (0700, writable)", dir.display())),
        Ok(()) => Check::pass(NAME, format!("{} (created, 0700, writable)", dir.display())),
        Err(error) => Check::fail(
            NAME,
            format!("cannot write in {}: {error}", dir.display()),
            format!(
                "make {} writable by you, or set {} to a folder you own",
                dir.display(),
                state::STATE_DIR_ENV
            ),
        ),
    }
}

/// A session record's lock currently held by a running process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldLock {
    /// The `<record>.lock` file.
    pub path: PathBuf,
    /// The owner's pid, as written in the lock file.
    pub pid: Option<u32>,
}

/// The `*.lock` files in `sessions` that some process holds right now (an OS lock, as a
/// gateway holds one while it owns a Claude session). Each is probed with a shared,
/// non-blocking lock that is released at once.
pub fn held_session_locks(sessions: &Path) -> std::io::Result<Vec<HeldLock>> {
    let entries = match std::fs::read_dir(sessions) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut held = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "lock") {
            continue;
        }
        if let Ok(Some(holder)) = crate::session::lock::holder(&path) {
            held.push(HeldLock {
                path,
                pid: holder.pid,
            });
        }
    }
    held.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(held)
}

/// The command line of `pid`, when /proc has it.
fn command_of(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let words: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

fn check_session_locks() -> Check {
    const NAME: &str = "Session locks";
    let Ok(dir) = state::state_dir_path() else {
        return Check::fail(
            NAME,
            "no state folder",
            format!("set {}", state::STATE_DIR_ENV),
        );
    };
    let sessions = dir.join(SESSIONS_DIR);
    match held_session_locks(&sessions) {
        Ok(held) if held.is_empty() => Check::pass(NAME, "no session record is locked"),
        Ok(held) => {
            let described: Vec<String> = held
                .iter()
                .map(|lock| match lock.pid {
                    Some(pid) => format!(
                        "{} held by pid {pid}{}",
                        lock.path.display(),
                        command_of(pid)
                            .map(|c| format!(" ({c})"))
                            .unwrap_or_default()
                    ),
                    None => format!(
                        "{} held by a process that wrote no pid",
                        lock.path.display()
                    ),
                })
                .collect();
            let pids: Vec<String> = held
                .iter()
                .filter_map(|l| l.pid.map(|p| p.to_string()))
                .collect();
            Check::fail(
                NAME,
                described.join("; "),
                format!(
                    "a running multi-cursor gateway owns {}; finish that Claude Code session first{}",
                    if held.len() == 1 {
                        "that session"
                    } else {
                        "those sessions"
                    },
                    if pids.is_empty() {
                        String::new()
                    } else {
                        format!(", or end it with `kill {}` if it is stuck", pids.join(" "))
                    }
                ),
            )
        }
        Err(error) => Check::fail(
            NAME,
            format!("cannot read {}: {error}", sessions.display()),
            format!("make {} readable by you", sessions.display()),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Live round trip

/// Why the live round trip failed.
#[derive(Debug, Error)]
enum LiveError {
    #[error("could not prepare a private folder: {0}")]
    Folder(#[from] state::StateError),
    #[error("could not start `multi-cursor serve`: {0}")]
    Serve(std::io::Error),
    #[error("`multi-cursor serve` wrote no ready file within {}s{}", SERVE_READY_TIMEOUT.as_secs(), exited(.0))]
    NotReady(Option<std::process::ExitStatus>),
    #[error("could not run `{path} -p`: {source}")]
    Claude {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("`claude -p` did not finish within {}s", LIVE_TIMEOUT.as_secs())]
    Timeout,
    #[error("`claude -p` exited with {status}: {said}")]
    Failed { status: String, said: String },
    #[error("`claude -p` succeeded but printed no answer")]
    Empty,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "thiserror hands the field to the message by reference"
)]
fn exited(status: &Option<std::process::ExitStatus>) -> String {
    status
        .map(|s| format!(" (it exited with {s})"))
        .unwrap_or_default()
}

async fn live_round_trip(claude: &Path) -> Check {
    const NAME: &str = "Live round trip";
    let started = Instant::now();
    match live(claude).await {
        Ok(answer) => Check::pass(
            NAME,
            format!(
                "Claude Code -> gateway -> Cursor ({LIVE_MODEL}) answered in {:.1}s: {answer}",
                started.elapsed().as_secs_f32()
            ),
        ),
        Err(error) => Check::fail(
            NAME,
            error.to_string(),
            "run it again with MULTI_CURSOR_LOG=debug to see the gateway's side; the checks above name the usual causes",
        ),
    }
}

/// Starts a private gateway (plan mode: Cursor may only read), runs `claude -p` through it in
/// an empty private workspace, and returns the first line of the answer.
async fn live(claude: &Path) -> Result<String, LiveError> {
    let base = state::state_dir()?.join(format!(
        "doctor-live.{}.{:08x}",
        std::process::id(),
        rand::random::<u32>()
    ));
    let workspace = base.join("workspace");
    state::ensure_private_dir(&workspace)?;
    let result = live_in(claude, &base, &workspace).await;
    let _ = std::fs::remove_dir_all(&base);
    result
}

async fn live_in(claude: &Path, base: &Path, workspace: &Path) -> Result<String, LiveError> {
    let ready = base.join("ready.json");
    let exe = std::env::current_exe().map_err(LiveError::Serve)?;
    let mut gateway = tokio::process::Command::new(exe)
        .args(["serve", "--permission-mode", "plan", "--ready-file"])
        .arg(&ready)
        .current_dir(workspace)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(LiveError::Serve)?;
    let info = wait_ready(&ready, &mut gateway).await;
    let result = match info {
        Ok(info) => run_claude(claude, workspace, &info).await,
        Err(error) => Err(error),
    };
    let _ = gateway.start_kill();
    let _ = gateway.wait().await;
    result
}

async fn wait_ready(
    ready: &Path,
    gateway: &mut tokio::process::Child,
) -> Result<crate::gateway::ReadyInfo, LiveError> {
    let deadline = Instant::now() + SERVE_READY_TIMEOUT;
    loop {
        if let Ok(bytes) = std::fs::read(ready)
            && let Ok(info) = serde_json::from_slice(&bytes)
        {
            return Ok(info);
        }
        if let Ok(Some(status)) = gateway.try_wait() {
            return Err(LiveError::NotReady(Some(status)));
        }
        if Instant::now() > deadline {
            return Err(LiveError::NotReady(None));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn run_claude(
    claude: &Path,
    workspace: &Path,
    info: &crate::gateway::ReadyInfo,
) -> Result<String, LiveError> {
    let mut command = tokio::process::Command::new(claude);
    command
        .args(["-p", LIVE_PROMPT, "--model", LIVE_MODEL])
        .current_dir(workspace)
        .env("ANTHROPIC_BASE_URL", &info.url)
        .env(
            "ANTHROPIC_CUSTOM_HEADERS",
            format!("x-multi-cursor-token: {}", info.token),
        )
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env_remove(crate::gateway::client::GATEWAY_URL_ENV)
        .env_remove(crate::gateway::client::GATEWAY_TOKEN_ENV)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    // Claude Code refuses to start without some credential; the gateway ignores it, and every
    // request of this run goes to the private gateway.
    if std::env::var_os("ANTHROPIC_API_KEY").is_none()
        && std::env::var_os("ANTHROPIC_AUTH_TOKEN").is_none()
    {
        command.env("ANTHROPIC_AUTH_TOKEN", "multi-cursor-doctor");
    }
    let output = tokio::time::timeout(LIVE_TIMEOUT, command.output())
        .await
        .map_err(|_| LiveError::Timeout)?
        .map_err(|source| LiveError::Claude {
            path: claude.display().to_string(),
            source,
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let said = [stdout.trim(), stderr.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        return Err(LiveError::Failed {
            status: output.status.to_string(),
            said: bounded_line(&said, 400),
        });
    }
    let first = stdout.lines().map(str::trim).find(|l| !l.is_empty());
    first
        .map(|line| bounded_line(line, 160))
        .ok_or(LiveError::Empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_shows_each_fix() {
        let report = Report {
            checks: vec![
                Check::pass("Claude Code", "2.1.328 at /bin/claude"),
                Check::fail("Cursor agent", "not found", "install it"),
            ],
        };
        assert!(!report.passed());
        let text = report.render();
        assert!(
            text.contains("[pass] Claude Code   2.1.328 at /bin/claude"),
            "{text}"
        );
        assert!(text.contains("[FAIL] Cursor agent  not found"), "{text}");
        assert!(text.contains("fix: install it"), "{text}");
        assert!(
            text.ends_with("1 of 2 checks failed; each fix is under it.\n"),
            "{text}"
        );
    }

    #[test]
    fn held_locks_are_found_and_free_ones_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let held_path = dir.path().join("a.v3.json.lock");
        let free_path = dir.path().join("b.v3.json.lock");
        std::fs::write(&held_path, "4242\n").unwrap();
        std::fs::write(&free_path, "17\n").unwrap();
        std::fs::write(dir.path().join("a.v3.json"), "{}").unwrap();
        let holder = std::fs::File::open(&held_path).unwrap();
        holder.lock().unwrap();
        let held = held_session_locks(dir.path()).unwrap();
        assert_eq!(
            held,
            vec![HeldLock {
                path: held_path,
                pid: Some(4242)
            }]
        );
        drop(holder);
        assert!(held_session_locks(dir.path()).unwrap().is_empty());
        assert!(
            held_session_locks(&dir.path().join("missing"))
                .unwrap()
                .is_empty()
        );
    }
}
