//! Starts `multi-cursor serve` for a test, with the fake agent as Cursor, an isolated state
//! folder and HOME, and helpers to call it.

use std::path::Path;
use std::path::PathBuf;
use std::process::Child;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::platform::places::HOME_VAR;

pub use crate::fake_agent::cursor_fixture;
pub use crate::fake_agent::fake_agent;
pub use crate::fake_agent::flag_value;
pub use crate::fake_agent::resumed_chat;

/// A running gateway.
pub struct TestGateway {
    pub url: String,
    pub token: String,
    pub pid: u32,
    pub dir: tempfile::TempDir,
    pub agent_log: PathBuf,
    pub state_dir: PathBuf,
    /// Where the test sees the state folder: `state_dir`, or that path inside the gateway's
    /// own mount namespace (`/proc/<pid>/root/…`) when it runs on a `state_tmpfs`.
    pub state_view: PathBuf,
    /// Whether the gateway runs in its own user and mount namespaces.
    namespaced: bool,
    workspace: PathBuf,
    child: Child,
}

/// How to start one.
#[derive(Default, Clone)]
pub struct GatewayOptions {
    pub permission_mode: Option<String>,
    pub upstream: Option<String>,
    pub env: Vec<(String, String)>,
    pub agent: Option<PathBuf>,
    /// Shared state folder (e.g. a second gateway, or a restart); default: a fresh one.
    pub state_dir: Option<PathBuf>,
    /// Working directory (the workspace of hook-less requests); default: a fresh one.
    pub workspace: Option<PathBuf>,
    /// Agent log file; default: a fresh one in this gateway's folder.
    pub agent_log: Option<PathBuf>,
    /// Runs the gateway in its own user and mount namespaces (`unshare`; no root needed where
    /// unprivileged user namespaces are allowed) with a tmpfs of this size (`"4m"`) on its state
    /// folder: a disk the test can fill or make read-only without touching the machine's.
    pub state_tmpfs: Option<String>,
    /// Starts the gateway under `prlimit --nofile=<this>` (`"1024:4096"`: soft and hard
    /// descriptor limits), for the connection-limit tests.
    pub nofile: Option<String>,
}

impl GatewayOptions {
    /// [`GatewayOptions::replaying`] with room for one open session at most
    /// (`MULTI_CURSOR_MAX_SESSIONS=1`), for the tests of a full gateway.
    pub fn single_session_replaying(scenario: impl AsRef<std::path::Path>) -> GatewayOptions {
        let mut options = GatewayOptions::replaying(scenario);
        options
            .env
            .insert(0, ("MULTI_CURSOR_MAX_SESSIONS".into(), "1".into()));
        options
    }

    /// A gateway in `bypassPermissions` mode whose fake agent replays `scenario` (a file, or a
    /// folder whose files are replayed in name order, one per run).
    pub fn replaying(scenario: impl AsRef<std::path::Path>) -> GatewayOptions {
        GatewayOptions {
            permission_mode: Some("bypassPermissions".into()),
            env: vec![(
                "FAKE_AGENT_SCENARIO".into(),
                scenario.as_ref().display().to_string(),
            )],
            ..GatewayOptions::default()
        }
    }
}

impl TestGateway {
    pub fn start(options: GatewayOptions) -> TestGateway {
        let dir = tempfile::tempdir().expect("tempdir");
        let ready = dir.path().join("ready.json");
        let agent_log = options
            .agent_log
            .clone()
            .unwrap_or_else(|| dir.path().join("agent-log.jsonl"));
        let home = dir.path().join("home");
        let workspace = options
            .workspace
            .clone()
            .unwrap_or_else(|| dir.path().join("workspace"));
        let state_dir = options
            .state_dir
            .clone()
            .unwrap_or_else(|| dir.path().join("state"));
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&workspace).unwrap();
        let gateway = crate::multi_cursor_bin();
        let mut command = match (&options.state_tmpfs, &options.nofile) {
            (None, Some(nofile)) => {
                let mut command = Command::new("prlimit");
                command.arg(format!("--nofile={nofile}")).arg(gateway);
                command
            }
            (None, None) => Command::new(gateway),
            (Some(size), _) => {
                std::fs::create_dir_all(&state_dir).unwrap();
                let mut command = Command::new("unshare");
                command
                    .args(["--user", "--map-root-user", "--mount", "sh", "-c"])
                    .arg(r#"mount -t tmpfs -o "size=$1,mode=0700" tmpfs "$2" && shift 2 && exec "$@""#)
                    .arg("sh")
                    .arg(size)
                    .arg(&state_dir)
                    .arg(gateway);
                command
            }
        };
        command
            .arg("serve")
            .arg("--ready-file")
            .arg(&ready)
            .current_dir(&workspace)
            .env("HOME", &home)
            .env(HOME_VAR, &home)
            .env("MULTI_CURSOR_STATE_DIR", &state_dir)
            .env(
                "MULTI_CURSOR_AGENT",
                options.agent.clone().unwrap_or_else(fake_agent),
            )
            .env("FAKE_AGENT_LOG", &agent_log)
            .env(
                "MULTI_CURSOR_UPSTREAM",
                options
                    .upstream
                    .clone()
                    .unwrap_or_else(|| "http://127.0.0.1:9".to_string()),
            )
            .env_remove("CURSOR_API_KEY")
            .env_remove("MULTI_CURSOR_APPROVE_MCPS")
            // Settings admission reads Claude's and Cursor's config: never the machine's.
            .env(
                "CLAUDE_CODE_MANAGED_SETTINGS_PATH",
                dir.path().join("managed"),
            )
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CURSOR_CONFIG_DIR")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // A file, not our stderr: a gateway leaked by a failing test must not hold the
            // test runner's pipe open. Its log is printed when the gateway is dropped.
            .stderr(std::fs::File::create(dir.path().join("gateway.log")).unwrap());
        if let Some(mode) = &options.permission_mode {
            command.arg("--permission-mode").arg(mode);
        }
        for (k, v) in &options.env {
            command.env(k, v);
        }
        let child = command.spawn().expect("spawn multi-cursor serve");
        let deadline = Instant::now() + Duration::from_secs(20);
        let info: serde_json::Value = loop {
            if let Ok(bytes) = std::fs::read(&ready)
                && let Ok(info) = serde_json::from_slice(&bytes)
            {
                break info;
            }
            assert!(
                Instant::now() < deadline,
                "gateway did not become ready: {}",
                std::fs::read_to_string(dir.path().join("gateway.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let pid = info["pid"].as_u64().unwrap() as u32;
        let namespaced = options.state_tmpfs.is_some();
        let state_view = if namespaced {
            let absolute = std::path::absolute(&state_dir).unwrap();
            PathBuf::from(format!("/proc/{pid}/root")).join(absolute.strip_prefix("/").unwrap())
        } else {
            state_dir.clone()
        };
        TestGateway {
            url: info["url"].as_str().unwrap().to_string(),
            token: info["token"].as_str().unwrap().to_string(),
            pid,
            dir,
            agent_log,
            state_dir,
            state_view,
            namespaced,
            workspace,
            child,
        }
    }

    /// The gateway's HOME (Claude's user settings, Cursor's global config).
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The managed-settings folder the gateway reads (`CLAUDE_CODE_MANAGED_SETTINGS_PATH`).
    pub fn managed_dir(&self) -> PathBuf {
        self.dir.path().join("managed")
    }

    pub fn workspace(&self) -> PathBuf {
        multi_cursor::platform::canonicalize(&self.workspace).unwrap()
    }

    /// Ends the gateway with SIGKILL, as a crash would (its Cursor children are left running).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Runs `command` (e.g. `mount …`, `umount …`) in the gateway's user and mount namespaces
    /// (a `state_tmpfs` gateway only).
    pub fn run_in_namespace(&self, command: &[&std::ffi::OsStr]) {
        assert!(
            self.namespaced,
            "only a state_tmpfs gateway has its own mounts"
        );
        let status = Command::new("nsenter")
            .arg("--target")
            .arg(self.pid.to_string())
            .args(["--user", "--mount", "--preserve-credentials"])
            .args(command)
            .status()
            .unwrap();
        assert!(status.success(), "{command:?} in the gateway's namespace");
    }

    /// The record file of (workspace, session, worker), as the test sees it.
    pub fn record_path(&self, session: &str, worker: &str) -> PathBuf {
        record_file(&self.state_view, &self.workspace(), session, worker)
    }

    /// The record of (session, worker) as JSON.
    pub fn record(&self, session: &str, worker: &str) -> serde_json::Value {
        let path = self.record_path(session, worker);
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("reading record {}: {e}", path.display()));
        serde_json::from_slice(&bytes).unwrap()
    }

    /// POST a Cursor request for `session` and return status and body text.
    pub fn ask(&self, session: &str, body: &serde_json::Value) -> (u16, String) {
        let response = self.post_with(
            "/v1/messages",
            body,
            &[("x-claude-code-session-id", session)],
        );
        let status = response.status().as_u16();
        (status, response.text().unwrap())
    }

    /// Every logged agent invocation (turns and probes alike), in order.
    pub fn agent_calls(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.agent_log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// Logged agent invocations that were turns (`-p`).
    pub fn turns(&self) -> Vec<serde_json::Value> {
        self.agent_calls()
            .into_iter()
            .filter(|c| {
                c["argv"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|x| x == "-p"))
            })
            .collect()
    }

    pub fn client(&self) -> reqwest::blocking::Client {
        reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap()
    }

    /// POST JSON with the token.
    pub fn post(&self, path: &str, body: &serde_json::Value) -> reqwest::blocking::Response {
        self.post_with(path, body, &[])
    }

    pub fn post_with(
        &self,
        path: &str,
        body: &serde_json::Value,
        headers: &[(&str, &str)],
    ) -> reqwest::blocking::Response {
        let mut request = self
            .client()
            .post(format!("{}{path}", self.url))
            .header("x-multi-cursor-token", &self.token)
            .header("content-type", "application/json")
            .body(body.to_string());
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request.send().expect("request")
    }

    /// `GET /multi-cursor/status` with the token, as JSON (`Null` when the answer is not JSON).
    pub fn status(&self) -> serde_json::Value {
        let response = self
            .client()
            .get(format!("{}/multi-cursor/status", self.url))
            .header("x-multi-cursor-token", &self.token)
            .send()
            .expect("status request");
        serde_json::from_str(&response.text().unwrap_or_default()).unwrap_or_default()
    }

    /// Waits until the gateway runs no Cursor turn (`/multi-cursor/status` lists no run; the
    /// ledger line and the record are written as a run ends, around the answer's last bytes).
    /// Gives up after 20 s: a run that never ends fails the test.
    pub fn wait_idle(&self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let status = self.status();
            if status["runs"].as_array().is_some_and(Vec::is_empty) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still running: {status}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends a hook payload as Claude Code would.
    pub fn hook(&self, payload: serde_json::Value) {
        let response = self.post("/multi-cursor/hook", &payload);
        assert_eq!(
            response.status(),
            200,
            "{}",
            response.text().unwrap_or_default()
        );
    }

    /// Reports `mode` for `session` (UserPromptSubmit) with the test workspace as cwd.
    pub fn set_mode(&self, session: &str, mode: &str) {
        self.hook(serde_json::json!({
            "session_id": session,
            "cwd": self.workspace(),
            "hook_event_name": "UserPromptSubmit",
            "permission_mode": mode,
            "prompt": "x"
        }));
    }
}

impl Drop for TestGateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Ok(log) = std::fs::read_to_string(self.dir.path().join("gateway.log"))
            && !log.is_empty()
        {
            eprintln!("--- gateway log ---\n{log}");
        }
    }
}

/// The record file of (workspace, session, worker) in the state folder `state`; `workspace`
/// as the gateway sees it (canonical).
pub fn record_file(state: &Path, workspace: &Path, session: &str, worker: &str) -> PathBuf {
    use sha2::Digest;
    let key = serde_json::json!([workspace, session, worker]).to_string();
    let digest = hex::encode(sha2::Sha256::digest(key.as_bytes()));
    state.join("sessions").join(format!("{digest}.v3.json"))
}

/// A minimal Messages request for a Cursor model.
pub fn cursor_request(model: &str, prompt: &str, stream: bool) -> serde_json::Value {
    serde_json::json!({
        "model": model,
        "max_tokens": 32000,
        "stream": stream,
        "messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}]
    })
}

/// Parses an SSE body into (event, data) pairs.
pub fn sse_events(body: &str) -> Vec<(String, serde_json::Value)> {
    body.split("\n\n")
        .filter(|f| !f.trim().is_empty())
        .map(|frame| {
            let mut event = String::new();
            let mut data = serde_json::Value::Null;
            for line in frame.lines() {
                if let Some(e) = line.strip_prefix("event: ") {
                    event = e.to_string();
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(d).unwrap_or(serde_json::Value::Null);
                }
            }
            (event, data)
        })
        .collect()
}

/// Reads a streamed answer until its bytes so far hold `text` (they stay unread past that
/// chunk); fails the test if the stream ends first.
pub fn read_until(response: &mut reqwest::blocking::Response, text: &str) {
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains(text) {
        let n = std::io::Read::read(response, &mut buf).unwrap();
        assert!(n > 0, "stream ended early");
        seen.extend_from_slice(&buf[..n]);
    }
}

/// The text of an SSE answer.
pub fn sse_text(body: &str) -> String {
    sse_events(body)
        .iter()
        .filter(|(e, _)| e == "content_block_delta")
        .filter_map(|(_, d)| d["delta"]["text"].as_str().map(str::to_string))
        .collect()
}

/// The `error.message` of an Anthropic error body (paths in it unescaped: a Windows path's `\`
/// is `\\` in the JSON).
pub fn error_message(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).unwrap();
    value["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message: {body}"))
        .to_string()
}
