//! Drives `multi-cursor-claude` (wrap mode) as the VS Code extension's Agent SDK does: the real
//! Claude Code as the first argument, the SDK's stream-json flags after it, an `initialize`
//! control request and user messages written to stdin as NDJSON, stdout read line by line.
//! The folders and environment are a [`Launch`]'s (isolated HOME, project, state, TMPDIR, the
//! fake agent as Cursor).

use std::ffi::OsString;
use std::io::BufRead;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::process::Child;
use std::process::ChildStdin;
use std::process::Command;
use std::process::Stdio;
use std::sync::mpsc::Receiver;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::platform::places::HOME_VAR;

use crate::claude::TEST_API_KEY;
use crate::claude::claude_binary;
use crate::launcher::Launch;

/// The flags the Agent SDK 0.3.333 always passes, then the extension's usual options.
pub const SDK_FLAGS: [&str; 8] = [
    "--output-format",
    "stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
    "--permission-prompt-tool=stdio",
    "--include-partial-messages",
    "--model=multi/cursor/default",
];

/// The `multi-cursor-claude` binary under test (beside `multi-cursor`).
pub fn wrapper_bin() -> PathBuf {
    crate::multi_cursor_bin().with_file_name(format!(
        "multi-cursor-claude{}",
        std::env::consts::EXE_SUFFIX
    ))
}

/// A command running `program` with `launch`'s folders and environment, as the launcher
/// tests set them up (the real Claude Code signed in with the test key).
pub fn command(launch: &Launch, program: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(&launch.project)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &launch.home)
        .env(HOME_VAR, &launch.home)
        .env("TMPDIR", &launch.tmp)
        .env("MULTI_CURSOR_STATE_DIR", &launch.state)
        .env("MULTI_CURSOR_AGENT", crate::fake_agent::fake_agent())
        .env("FAKE_AGENT_LOG", &launch.agent_log)
        .env("MULTI_CURSOR_UPSTREAM", "http://127.0.0.1:9")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("IS_SANDBOX", "1")
        .env(
            "CLAUDE_CODE_MANAGED_SETTINGS_PATH",
            launch.dir.path().join("managed"),
        )
        .env("ANTHROPIC_API_KEY", TEST_API_KEY)
        .env("CLAUDE_CODE_ENTRYPOINT", "claude-vscode");
    command
}

/// A running wrapper with its stdin and a channel of its stdout lines.
pub struct Wrapped {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every stdout line read so far.
    pub seen: Vec<String>,
}

impl Wrapped {
    /// Starts `multi-cursor-claude <real claude> <args…>` for `launch`, as the VS Code panel.
    pub fn start(launch: &Launch, args: &[OsString]) -> Wrapped {
        Wrapped::start_with(launch, &claude_binary(), args, "claude-vscode")
    }

    /// [`Wrapped::start`] with the given Claude Code (one of `claude::builds`).
    pub fn start_on(launch: &Launch, claude: &Path, args: &[OsString]) -> Wrapped {
        Wrapped::start_with(launch, claude, args, "claude-vscode")
    }

    /// [`Wrapped::start`] with `CLAUDE_CODE_ENTRYPOINT` set to `entrypoint` (`sdk-ts`: what
    /// the TypeScript Agent SDK sets when its caller did not).
    pub fn start_from(launch: &Launch, args: &[OsString], entrypoint: &str) -> Wrapped {
        Wrapped::start_with(launch, &claude_binary(), args, entrypoint)
    }

    /// `multi-cursor-claude <claude> <args…>` with `CLAUDE_CODE_ENTRYPOINT` set to `entrypoint`.
    fn start_with(launch: &Launch, claude: &Path, args: &[OsString], entrypoint: &str) -> Wrapped {
        let mut command = command(launch, &wrapper_bin());
        command
            .env("CLAUDE_CODE_ENTRYPOINT", entrypoint)
            .arg(claude)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("spawn multi-cursor-claude");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Wrapped {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Writes one NDJSON message to Claude Code's stdin.
    pub fn send(&mut self, message: &serde_json::Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// The `initialize` control request the SDK sends first.
    pub fn initialize(&mut self) -> serde_json::Value {
        self.send(&serde_json::json!({
            "type": "control_request",
            "request_id": "i1",
            "request": {"subtype": "initialize", "hooks": null},
        }));
        self.until(|v| v["type"] == "control_response")
    }

    /// One user message, as the SDK sends it.
    pub fn user(&mut self, text: &str) {
        self.send(&serde_json::json!({
            "type": "user",
            "message": {"role": "user", "content": text},
            "parent_tool_use_id": null,
            "session_id": "",
        }));
    }

    /// Reads stdout lines until one parses and matches `want` (panics after 90 s).
    pub fn until(&mut self, want: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no matching line; saw {:#?}", self.seen));
            self.seen.push(line.clone());
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(&line)
                && want(&value)
            {
                return value;
            }
        }
    }

    /// Closes stdin (the SDK's first step of `close()`).
    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits up to `timeout` for the wrapper to exit; its code (`None` if it had to be killed).
    pub fn wait(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }

    /// The pids of the wrapper's direct children (Claude Code).
    pub fn children(&self) -> Vec<i32> {
        children_of(self.child.id() as i32)
    }
}

/// The direct children of `pid`, from `/proc/<pid>/task/*/children`.
pub fn children_of(pid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return out;
    };
    for task in tasks.flatten() {
        let text = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok()),
        );
    }
    out
}

/// Whether `pid` is still a live process (not a zombie).
pub fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}
