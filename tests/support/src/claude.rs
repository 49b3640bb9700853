//! Runs the real Claude Code binary (pinned 2.1.328, installed by `scripts/test` and named by
//! `MULTI_CURSOR_TEST_CLAUDE`) in an isolated HOME and project folder, pointed at a gateway.

use std::io::Read;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::platform::places::HOME_VAR;

/// The API key Claude Code is given in tests (the gateway never checks it).
pub const TEST_API_KEY: &str = "sk-test";

/// The real `claude` executable. Fails the test with the fix when it is not configured:
/// `scripts/test` (the README's test command) installs it and sets the variable.
pub fn claude_binary() -> PathBuf {
    let path = std::env::var_os(multi_cursor::env::TEST_CLAUDE_ENV).unwrap_or_else(|| {
        panic!(
            "MULTI_CURSOR_TEST_CLAUDE is not set: run the tests with scripts/test, which installs \
             Claude Code 2.1.328 into .tools/claude and sets it"
        )
    });
    let path = PathBuf::from(path);
    assert!(
        path.exists(),
        "MULTI_CURSOR_TEST_CLAUDE={} does not exist; run scripts/test to install Claude Code",
        path.display()
    );
    path
}

/// The newest Claude Code (`MULTI_CURSOR_TEST_CLAUDE_LATEST`: `scripts/test` installs the one
/// bundled in the newest Agent SDK's platform package, 2.1.337), for behaviour the pinned version
/// does not have. Fails the test with the fix when it is not set.
pub fn latest_claude_binary() -> PathBuf {
    let path = std::env::var_os(multi_cursor::env::TEST_CLAUDE_LATEST_ENV).unwrap_or_else(|| {
        panic!(
            "MULTI_CURSOR_TEST_CLAUDE_LATEST is not set: run the tests with scripts/test, which \
             installs the newest Claude Code into .tools/claude-latest and sets it"
        )
    });
    let path = PathBuf::from(path);
    assert!(
        path.exists(),
        "MULTI_CURSOR_TEST_CLAUDE_LATEST={} does not exist",
        path.display()
    );
    path
}

/// The builds a version-sensitive test runs on, oldest first: the pinned 2.1.328 and the newest.
/// Both must be configured (the test fails with the fix otherwise).
pub fn builds() -> [PathBuf; 2] {
    [claude_binary(), latest_claude_binary()]
}

/// `claude --version`'s first word for `binary` (`2.1.337`), for messages and version gates.
pub fn version_of(binary: &Path) -> String {
    let output = Command::new(binary)
        .arg("--version")
        .env("DISABLE_AUTOUPDATER", "1")
        .output()
        .expect("claude --version");
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A scratch HOME for Claude Code with onboarding done and the test key approved, so the
/// non-interactive runs never stop at a first-run screen.
pub fn prepare_home(home: &Path, project: &Path) {
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let state = serde_json::json!({
        "hasCompletedOnboarding": true,
        "customApiKeyResponses": {"approved": [TEST_API_KEY], "rejected": []},
        "projects": {project.to_string_lossy(): {"hasTrustDialogAccepted": true}},
    });
    std::fs::write(home.join(".claude.json"), state.to_string()).unwrap();
}

/// What one `claude` (or launcher) run printed and how it ended.
#[derive(Debug)]
pub struct ClaudeOutput {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// One `claude` invocation: isolated HOME and project, environment cleared to the minimum.
pub struct ClaudeRun {
    command: Command,
    timeout: Duration,
}

impl ClaudeRun {
    /// `claude` with `home` as HOME and `project` as working directory; nothing is inherited
    /// from the test's environment but PATH.
    pub fn new(home: &Path, project: &Path) -> ClaudeRun {
        ClaudeRun::on(&claude_binary(), home, project)
    }

    /// [`ClaudeRun::new`] with the given Claude Code (one of [`builds`]).
    pub fn on(binary: &Path, home: &Path, project: &Path) -> ClaudeRun {
        std::fs::create_dir_all(project).unwrap();
        prepare_home(home, project);
        let mut command = Command::new(binary);
        command
            .current_dir(project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home)
            .env(HOME_VAR, home)
            .env("ANTHROPIC_API_KEY", TEST_API_KEY)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("IS_SANDBOX", "1")
            // Never the machine's managed policy (a test may point it at its own folder).
            .env(
                "CLAUDE_CODE_MANAGED_SETTINGS_PATH",
                home.join(".no-managed-settings"),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        ClaudeRun {
            command,
            timeout: Duration::from_secs(120),
        }
    }

    /// Points Claude Code at a gateway: base URL and the token header.
    pub fn gateway(mut self, url: &str, token: &str) -> ClaudeRun {
        self.command
            .env("ANTHROPIC_BASE_URL", url)
            .env(
                "ANTHROPIC_CUSTOM_HEADERS",
                format!("x-multi-cursor-token: {token}"),
            )
            .env("MULTI_CURSOR_GATEWAY_URL", url)
            .env("MULTI_CURSOR_GATEWAY_TOKEN", token);
        self
    }

    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> ClaudeRun {
        self.command.env(key, value);
        self
    }

    /// Removes a variable `new` set (e.g. `ANTHROPIC_API_KEY`: with it and no gateway, the
    /// `claude plugin …` commands spend ~18 s in DNS retries offline — measured).
    pub fn env_remove(mut self, key: &str) -> ClaudeRun {
        self.command.env_remove(key);
        self
    }

    pub fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> ClaudeRun {
        self.command.arg(arg);
        self
    }

    pub fn args<I, S>(mut self, args: I) -> ClaudeRun
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        self.command.args(args);
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> ClaudeRun {
        self.timeout = timeout;
        self
    }

    /// Runs to completion (killed after the timeout) and returns what it printed.
    pub fn run(mut self) -> ClaudeOutput {
        let mut child = self.command.spawn().expect("spawn claude");
        finish(&mut child, self.timeout)
    }
}

/// Waits for `child` (killed after `timeout`) and collects what it printed on its piped
/// stdout and stderr.
pub fn finish(child: &mut std::process::Child, timeout: Duration) -> ClaudeOutput {
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    ClaudeOutput {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}
