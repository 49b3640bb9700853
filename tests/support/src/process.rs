//! Shared helpers for the `process_*` supervision tests: the fake agent behind a per-test
//! wrapper script (so no test mutates the process environment), a turn spec, draining a run,
//! and checks that a process group is really gone.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::cursor::command::CursorMode;
use multi_cursor::cursor::command::TurnSpec;
use multi_cursor::cursor::process::CursorRun;
use multi_cursor::cursor::process::RunError;
use multi_cursor::cursor::process::RunLimits;
use multi_cursor::cursor::process::RunOutput;

pub use crate::fake_agent::cursor_fixture;
pub use crate::fake_agent::fake_agent;
pub use crate::fake_agent::resumed_chat;

/// "Text file busy" (Linux and macOS: 26): a freshly written script still open for writing in
/// a forked child.
const ETXTBSY: i32 = 26;

/// Variables a wrapper always clears so the fake sees only what the test chose.
const CLEARED: &[&str] = &[
    "CURSOR_API_KEY",
    "CURSOR_AUTH_TOKEN",
    "FAKE_AGENT_LOG",
    "FAKE_AGENT_SCENARIO",
    "FAKE_AGENT_COUNTER",
    "FAKE_AGENT_CHAT_ID",
    "FAKE_AGENT_KNOWN_CHATS",
    "FAKE_AGENT_CHATS_FILE",
    "FAKE_AGENT_UNKNOWN_RESUME",
    "FAKE_AGENT_REPLY",
    "FAKE_AGENT_STRICT_MODELS",
    "FAKE_AGENT_LOGGED_OUT",
    "FAKE_AGENT_LOGIN_MARKER",
    "FAKE_AGENT_UNTRUSTED",
    "FAKE_AGENT_LINGERER_PIDFILE",
    "FAKE_AGENT_MAX_LIFETIME_MS",
];

/// One test's sandbox: a temp dir holding a workspace, an invocation log, an optional scenario
/// and the agent: a wrapper script that exports the chosen `FAKE_AGENT_*` variables and execs
/// the fake (on Windows, a copy of the fake with those variables in a file beside it).
pub struct Sandbox {
    pub dir: tempfile::TempDir,
    pub workspace: PathBuf,
    pub log: PathBuf,
    pub agent: PathBuf,
}

impl Sandbox {
    /// A sandbox whose fake agent replays `scenario` (None: the default stream) with `env`.
    pub fn new(scenario: Option<&str>, env: &[(&str, &str)]) -> Sandbox {
        let dir = tempfile::tempdir().expect("tempdir");
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(&workspace).expect("workspace");
        let log = dir.path().join("agent-log.jsonl");
        let scenario_path = scenario.map(|text| {
            let path = dir.path().join("scenario.txt");
            std::fs::write(&path, text).expect("write scenario");
            path
        });
        Sandbox::with_scenario_path(dir, workspace, log, scenario_path, env)
    }

    /// A sandbox replaying an existing scenario file.
    pub fn from_file(scenario: &Path, env: &[(&str, &str)]) -> Sandbox {
        let dir = tempfile::tempdir().expect("tempdir");
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(&workspace).expect("workspace");
        let log = dir.path().join("agent-log.jsonl");
        Sandbox::with_scenario_path(dir, workspace, log, Some(scenario.to_path_buf()), env)
    }

    fn with_scenario_path(
        dir: tempfile::TempDir,
        workspace: PathBuf,
        log: PathBuf,
        scenario: Option<PathBuf>,
        env: &[(&str, &str)],
    ) -> Sandbox {
        let mut vars: Vec<(String, String)> = vec![(
            "FAKE_AGENT_LOG".into(),
            log.to_str().expect("utf-8 path").into(),
        )];
        // A safety net: no fake outlives a broken test for long.
        vars.push(("FAKE_AGENT_MAX_LIFETIME_MS".into(), "60000".into()));
        if let Some(path) = &scenario {
            let path = path.to_str().expect("utf-8 path");
            vars.push(("FAKE_AGENT_SCENARIO".into(), path.into()));
        }
        for (key, value) in env {
            vars.push(((*key).into(), (*value).into()));
        }
        let agent = write_agent(dir.path(), &vars);
        Sandbox {
            dir,
            workspace,
            log,
            agent,
        }
    }

    /// A path inside the sandbox (for pid files).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A turn spec for this sandbox's workspace.
    pub fn spec(&self, chat_id: Option<&str>) -> TurnSpec {
        TurnSpec {
            workspace: self.workspace.clone(),
            model: "auto".into(),
            chat_id: chat_id.map(str::to_string),
            mode: CursorMode::Force,
            approve_mcps: false,
            prompt: "hello from the test".into(),
        }
    }

    /// The invocation log's lines.
    pub fn log_lines(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("log line is JSON"))
            .collect()
    }
}

/// The fake agent behind a `#!/bin/sh` wrapper that clears [`CLEARED`], exports `vars` and
/// execs the fake (same pid, so group checks see the fake itself).
#[cfg(unix)]
fn write_agent(dir: &Path, vars: &[(String, String)]) -> PathBuf {
    let mut script = String::from("#!/bin/sh\n");
    for key in CLEARED {
        script.push_str(&format!("unset {key}\n"));
    }
    for (key, value) in vars {
        script.push_str(&format!("export {key}={}\n", quote_str(value)));
    }
    script.push_str(&format!(
        "exec {} \"$@\"\n",
        quote_str(&fake_agent().to_string_lossy())
    ));
    let agent = dir.join("agent");
    std::fs::write(&agent, script).expect("write wrapper");
    crate::make_executable(&agent);
    agent
}

/// Windows runs no shebang: a copy of the fake as `agent.exe` with its variables in
/// `agent.env` beside it, which the fake applies first (tests/fake-agent/src/sidecar.rs).
#[cfg(not(unix))]
fn write_agent(dir: &Path, vars: &[(String, String)]) -> PathBuf {
    let mut sidecar = String::new();
    for key in CLEARED {
        sidecar.push_str(&format!("{key}\n"));
    }
    for (key, value) in vars {
        assert!(!value.contains('\n'), "{key}'s value is one line");
        sidecar.push_str(&format!("{key}={value}\n"));
    }
    let fake = fake_agent();
    let agent = dir.join("agent.exe");
    std::fs::copy(&fake, &agent).expect("copy the fake agent");
    // The DLLs beside the fake go with it (under Wine, the bcryptprimitives.dll shim that
    // scripts/test-windows puts there).
    let folder = fake.parent().expect("the fake's folder");
    for entry in std::fs::read_dir(folder).expect("the fake's folder") {
        let path = entry.expect("a folder entry").path();
        if path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("dll"))
        {
            std::fs::copy(&path, dir.join(path.file_name().expect("a file name")))
                .expect("copy a DLL beside the fake agent");
        }
    }
    std::fs::write(dir.join("agent.env"), sidecar).expect("write the agent's variables");
    agent
}

#[cfg(unix)]
fn quote_str(value: &str) -> String {
    format!("'{}'", value.replace('\'', "'\\''"))
}

/// Short limits for tests.
pub fn limits() -> RunLimits {
    RunLimits {
        inactivity: Duration::from_secs(2),
        result_grace: Duration::from_millis(200),
        ..RunLimits::default()
    }
}

/// Everything a run yielded: its outputs and, when it failed, the error. Panics if the run
/// does not end within `within`.
pub async fn drain(run: &mut CursorRun, within: Duration) -> (Vec<RunOutput>, Option<RunError>) {
    let mut outputs = Vec::new();
    let mut error = None;
    let all = async {
        while let Some(item) = run.next().await {
            match item {
                Ok(output) => outputs.push(output),
                Err(e) => {
                    assert!(error.is_none(), "two errors: {error:?} then {e:?}");
                    error = Some(e);
                }
            }
        }
    };
    tokio::time::timeout(within, all)
        .await
        .expect("the run did not end in time");
    (outputs, error)
}

/// The events among a run's outputs.
pub fn events(outputs: &[RunOutput]) -> Vec<&multi_cursor::cursor::events::RunEvent> {
    outputs
        .iter()
        .filter_map(|o| match o {
            RunOutput::Event(e) => Some(e),
            RunOutput::ChatReplaced { .. } => None,
        })
        .collect()
}

/// State letter of `pid` (`/proc/<pid>/stat` field 3) and its process group, or None when gone.
pub fn proc_state(pid: i32) -> Option<(char, i32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let pgrp = fields.nth(1)?.parse().ok()?;
    Some((state, pgrp))
}

/// Live (non-zombie) members of process group `pgid` (none found without `/proc`).
pub fn live_members(pgid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| matches!(proc_state(pid), Some((state, g)) if g == pgid && state != 'Z'))
        .collect()
}

/// True when the group is gone: no process has it, or every member is a zombie (Windows: the
/// Job Object we made for it has no active process, or, without one, its leader has ended).
pub fn group_gone(pgid: i32) -> bool {
    assert!(pgid > 1, "bad pgid {pgid}");
    if cfg!(windows) {
        return !multi_cursor::platform::group_alive(pgid);
    }
    !multi_cursor::platform::group_alive(pgid) || live_members(pgid).is_empty()
}

/// Asserts the group ends within `within` (polling; the supervisor ends it asynchronously only
/// for a dropped run, otherwise it is already gone).
pub async fn assert_group_gone(pgid: i32, within: Duration) {
    let until = Instant::now() + within;
    while !group_gone(pgid) {
        assert!(
            Instant::now() < until,
            "process group {pgid} still has live members: {:?}",
            live_members(pgid)
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Reads a pid file, waiting for it to appear.
pub async fn read_pidfile(path: &Path) -> i32 {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < until, "no pid in {}", path.display());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The `system/init` line scenarios start with.
pub const INIT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}"#;

/// A successful `result` line whose text is `done`.
pub const RESULT: &str = r#"{"type":"result","subtype":"success","duration_ms":5,"duration_api_ms":5,"is_error":false,"result":"done","session_id":"{{chat_id}}","request_id":"{{request_id}}"}"#;

/// An assistant line saying `done`.
pub const ASSISTANT: &str = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]},"session_id":"{{chat_id}}"}"#;

/// `spawn_turn`, retried while the kernel reports the freshly written wrapper script as busy
/// (`ETXTBSY`: another test thread forked while the script's write handle was open; the
/// handle closes at that child's exec).
pub fn spawn(agent: &Path, spec: &TurnSpec, limits: RunLimits) -> Result<CursorRun, RunError> {
    let mut attempts = 0;
    loop {
        match multi_cursor::cursor::process::spawn_turn(agent, spec, limits) {
            Err(RunError::Spawn { source, .. })
                if source.raw_os_error() == Some(ETXTBSY) && attempts < 50 =>
            {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// The watchdogs (`mc-watchdog`, see `multi_cursor::platform::watchdog`) whose pipe
/// `pid` holds the other end of: each reads, on its stdin, a pipe that is open in `pid`.
pub fn watchdogs_of(pid: u32) -> Vec<i32> {
    let pipes_of = |pid: &str| -> Vec<String> {
        std::fs::read_dir(format!("/proc/{pid}/fd"))
            .map(|fds| {
                fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
                    .map(|link| link.display().to_string())
                    .filter(|link| link.starts_with("pipe:"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let held = pipes_of(&pid.to_string());
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|other| {
            std::fs::read_to_string(format!("/proc/{other}/comm"))
                .is_ok_and(|comm| comm.trim_end() == "mc-watchdog")
        })
        .filter(|other| {
            std::fs::read_link(format!("/proc/{other}/fd/0"))
                .is_ok_and(|link| held.contains(&link.display().to_string()))
        })
        .collect()
}

/// SIGKILLs the watchdogs of `pid` ([`watchdogs_of`]; each leads a session and group of its
/// own, so its group is just itself): for a test of what a restarted gateway
/// cleans up itself when they died too.
pub fn kill_watchdogs_of(pid: u32) {
    for watchdog in watchdogs_of(pid) {
        let _ = multi_cursor::platform::stop_group(watchdog, multi_cursor::platform::Stop::Kill);
    }
}
