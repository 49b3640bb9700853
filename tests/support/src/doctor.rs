//! Runs `multi-cursor doctor` for a test: environment cleared to a minimal PATH, an isolated
//! HOME and state folder, the real Claude Code (`MULTI_CURSOR_TEST_CLAUDE`) and the fake agent
//! as Cursor unless the test says otherwise.

use std::path::PathBuf;
use std::process::Command;

use multi_cursor::platform::places::HOME_VAR;

use crate::fake_agent::fake_agent;

/// One doctor invocation being prepared.
pub struct Doctor {
    pub dir: tempfile::TempDir,
    command: Command,
}

/// What doctor printed and its exit code.
#[derive(Debug)]
pub struct DoctorOutput {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl DoctorOutput {
    /// The report line of the check named `name` (`[pass] <name> …` or `[FAIL] <name> …`).
    pub fn line(&self, name: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.get(7..).is_some_and(|rest| rest.starts_with(name)))
            .unwrap_or_else(|| panic!("no {name} line in {}", self.stdout))
    }

    /// The `fix:` line right after the check named `name`.
    pub fn fix(&self, name: &str) -> &str {
        let lines: Vec<&str> = self.stdout.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.get(7..).is_some_and(|rest| rest.starts_with(name)))
            .unwrap();
        let next = lines.get(at + 1).copied().unwrap_or_default();
        assert!(
            next.trim_start().starts_with("fix: "),
            "{name} has no fix: {}",
            self.stdout
        );
        next.trim_start()
    }
}

impl Doctor {
    /// `multi-cursor doctor` with the fake agent, the real claude, HOME and state in a temp dir,
    /// run in `<dir>/project`.
    pub fn new() -> Doctor {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        let mut command = Command::new(crate::multi_cursor_bin());
        command
            .arg("doctor")
            .current_dir(&project)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &home)
            .env(HOME_VAR, &home)
            .env("MULTI_CURSOR_STATE_DIR", dir.path().join("state"))
            .env("MULTI_CURSOR_AGENT", fake_agent())
            .env("FAKE_AGENT_LOG", dir.path().join("agent-log.jsonl"))
            .env("MULTI_CURSOR_CLAUDE", claude_binary());
        Doctor { dir, command }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    pub fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    pub fn agent_log(&self) -> PathBuf {
        self.dir.path().join("agent-log.jsonl")
    }

    pub fn arg(mut self, arg: &str) -> Doctor {
        self.command.arg(arg);
        self
    }

    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Doctor {
        self.command.env(key, value);
        self
    }

    pub fn env_remove(mut self, key: &str) -> Doctor {
        self.command.env_remove(key);
        self
    }

    pub fn run(mut self) -> (DoctorOutput, tempfile::TempDir) {
        let output = self.command.output().unwrap();
        (
            DoctorOutput {
                code: output.status.code(),
                stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            },
            self.dir,
        )
    }
}

/// The real `claude` (`MULTI_CURSOR_TEST_CLAUDE`, set by scripts/test).
pub fn claude_binary() -> PathBuf {
    let path = std::env::var_os(multi_cursor::env::TEST_CLAUDE_ENV).unwrap_or_else(|| {
        panic!("MULTI_CURSOR_TEST_CLAUDE is not set: run the tests with scripts/test")
    });
    PathBuf::from(path)
}
