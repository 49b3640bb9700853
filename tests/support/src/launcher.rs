//! Runs the launcher (`multi-cursor [claude args…]`) for a test: isolated HOME, project, state
//! folder and TMPDIR, the fake agent as Cursor, and either the real Claude Code (pinned
//! 2.1.328, `MULTI_CURSOR_TEST_CLAUDE`) or a scripted stand-in that records what it was given.

use std::collections::HashMap;
use std::path::Path;
use std::path::PathBuf;
use std::process::Child;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::platform::places::HOME_VAR;

pub use crate::claude::TEST_API_KEY;
use crate::claude::claude_binary;
use crate::fake_agent::fake_agent;
pub use crate::fake_agent::flag_value;
pub use crate::fake_agent::resumed_chat;

/// A stand-in for `claude`: answers `--version` (`$FAKE_CLAUDE_VERSION`, default 2.1.328) and
/// `auth status --json` (`loggedIn` = `$FAKE_CLAUDE_LOGGED_IN`, default false), counting
/// `--version` calls in `<dump>.version-calls`; any other run records its argv (one per line),
/// its environment (`env -0`), the `--settings` file (copy, mode, folder mode, path), then exits
/// `$FAKE_CLAUDE_EXIT` — or, with `FAKE_CLAUDE_WAIT_TERM=1`, writes `<dump>.ready` and waits
/// for SIGTERM, records it in `<dump>.term` and exits 42.
const FAKE_CLAUDE: &str = r#"#!/bin/sh
out="$FAKE_CLAUDE_DUMP"
case "$1" in
  --version) echo x >> "$out.version-calls"; echo "${FAKE_CLAUDE_VERSION:-2.1.328} (Claude Code)"; exit 0 ;;
  auth) printf '{"loggedIn": %s, "authMethod": "none"}\n' "${FAKE_CLAUDE_LOGGED_IN:-false}"; exit 1 ;;
esac
printf '%s\n' "$@" > "$out.argv"
env -0 > "$out.env"
ulimit -Sn > "$out.nofile"
prev=""
for a in "$@"; do
  if [ "$prev" = "--settings" ]; then
    cp "$a" "$out.settings.json"
    stat -c %a "$a" > "$out.settings.mode"
    stat -c %a "$(dirname "$a")" > "$out.dir.mode"
    printf '%s' "$a" > "$out.settings.path"
  fi
  prev="$a"
done
if [ -n "$FAKE_CLAUDE_WAIT_TERM" ]; then
  trap 'echo term > "$out.term"; exit 42' TERM
  echo ready > "$out.ready"
  while :; do sleep 0.02; done
fi
exit "${FAKE_CLAUDE_EXIT:-0}"
"#;

/// What one launcher run printed and how it ended.
pub use crate::claude::ClaudeOutput as LaunchOutput;
/// Waits for a launcher `child` (killed after a timeout) and collects its output.
pub use crate::claude::finish;

/// One launcher invocation and the folders it owns.
pub struct Launch {
    pub dir: tempfile::TempDir,
    pub home: PathBuf,
    pub project: PathBuf,
    pub state: PathBuf,
    pub tmp: PathBuf,
    pub agent_log: PathBuf,
    /// Where the scripted `claude` writes what it saw (`<dump>.argv`, …).
    pub dump: PathBuf,
    env: Vec<(String, std::ffi::OsString)>,
    args: Vec<std::ffi::OsString>,
    timeout: Duration,
}

impl Launch {
    /// The launcher with the real Claude Code (signed in with the test API key), the fake agent,
    /// `bypassPermissions`-capable (`IS_SANDBOX=1`) and an upstream nobody listens on.
    pub fn real() -> Launch {
        Launch::real_on(&claude_binary())
    }

    /// [`Launch::real`] with the given Claude Code (one of `claude::builds`).
    pub fn real_on(claude: &Path) -> Launch {
        let launch = Launch::bare();
        crate::claude::prepare_home(&launch.home, &launch.project);
        launch
            .env("MULTI_CURSOR_CLAUDE", claude)
            .env("ANTHROPIC_API_KEY", TEST_API_KEY)
    }

    /// The launcher with the scripted `claude` stand-in (see `FAKE_CLAUDE`), signed in to
    /// Anthropic through `ANTHROPIC_API_KEY`.
    pub fn scripted() -> Launch {
        let launch = Launch::bare();
        let script = launch.dir.path().join("bin/claude");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, FAKE_CLAUDE).unwrap();
        crate::make_executable(&script);
        let dump = launch.dump.clone();
        launch
            .env("MULTI_CURSOR_CLAUDE", script)
            .env("FAKE_CLAUDE_DUMP", dump)
            .env("ANTHROPIC_API_KEY", TEST_API_KEY)
    }

    fn bare() -> Launch {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let home = root.join("home");
        let project = root.join("project");
        let state = root.join("state");
        let tmp = root.join("tmp");
        for d in [&home, &project, &tmp] {
            std::fs::create_dir_all(d).unwrap();
        }
        let agent_log = root.join("agent-log.jsonl");
        let dump = root.join("claude-dump");
        let launch = Launch {
            dir,
            home: home.clone(),
            project,
            state: state.clone(),
            tmp: tmp.clone(),
            agent_log: agent_log.clone(),
            dump,
            env: Vec::new(),
            args: Vec::new(),
            timeout: Duration::from_secs(120),
        };
        launch
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &home)
            .env(HOME_VAR, &home)
            .env("TMPDIR", &tmp)
            .env("MULTI_CURSOR_STATE_DIR", &state)
            .env("MULTI_CURSOR_AGENT", fake_agent())
            .env("FAKE_AGENT_LOG", &agent_log)
            .env("MULTI_CURSOR_UPSTREAM", "http://127.0.0.1:9")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("IS_SANDBOX", "1")
            // Claude Code and the gateway read managed settings from here, not the machine's.
            .env("CLAUDE_CODE_MANAGED_SETTINGS_PATH", root.join("managed"))
    }

    /// Sets an environment variable of the launcher (nothing else is inherited but what
    /// [`Launch::real`] / [`Launch::scripted`] set).
    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Launch {
        self.env.retain(|(k, _)| k != key);
        self.env
            .push((key.to_string(), value.as_ref().to_os_string()));
        self
    }

    pub fn env_remove(mut self, key: &str) -> Launch {
        self.env.retain(|(k, _)| k != key);
        self
    }

    pub fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> Launch {
        self.args.push(arg.as_ref().to_os_string());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Launch
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Forgets the arguments, keeping the folders and environment (for a second launch).
    pub fn clear_args(mut self) -> Launch {
        self.args.clear();
        self
    }

    /// Starts the launcher and returns the running child (stdout/stderr piped).
    pub fn spawn(&mut self) -> Child {
        self.spawn_program(&crate::multi_cursor_bin())
    }

    /// Starts the wrapper (`multi-cursor-claude`, which finds `claude` through
    /// `MULTI_CURSOR_CLAUDE`) with this launch's folders, environment and arguments.
    pub fn spawn_wrapper(&mut self) -> Child {
        self.spawn_program(&crate::wrapper::wrapper_bin())
    }

    /// Runs `program` (a copy of the launcher elsewhere) to completion with this launch's
    /// folders, environment and arguments (killed after the timeout).
    pub fn run_program(&mut self, program: &Path) -> LaunchOutput {
        let mut child = self.spawn_program(program);
        finish(&mut child, self.timeout)
    }

    /// Starts `program` (a copy of the launcher elsewhere, or a script running it) with this
    /// launch's folders, environment and arguments (stdout/stderr piped).
    pub fn spawn_program(&mut self, program: &Path) -> Child {
        let mut command = Command::new(program);
        command
            .current_dir(&self.project)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", program.display()))
    }

    /// A shell script that runs this launch (its environment only, in the project folder, with
    /// `TERM`): for a terminal test (tmux) where the launcher cannot be spawned with pipes.
    pub fn script(&self) -> PathBuf {
        let quote =
            |text: &std::ffi::OsStr| format!("'{}'", text.to_string_lossy().replace('\'', r"'\''"));
        let mut text = format!(
            "#!/bin/sh\ncd {} || exit 1\nexec env -i",
            quote(self.project.as_os_str())
        );
        for (key, value) in &self.env {
            text.push_str(&format!(" {key}={}", quote(value)));
        }
        text.push_str(" TERM=xterm-256color ");
        text.push_str(&quote(crate::multi_cursor_bin().as_os_str()));
        for arg in &self.args {
            text.push(' ');
            text.push_str(&quote(arg));
        }
        text.push('\n');
        let path = self.dir.path().join("launch.sh");
        std::fs::write(&path, text).unwrap();
        crate::make_executable(&path);
        path
    }

    /// Runs the launcher to completion (killed after the timeout).
    pub fn run(&mut self) -> LaunchOutput {
        let mut child = self.spawn();
        finish(&mut child, self.timeout)
    }

    /// Logged agent invocations that were turns (`-p`), in order.
    pub fn turns(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.agent_log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|c| c["kind"] == "turn")
            .collect()
    }

    /// The scripted `claude`'s argv, or `None` if it never ran past `--version`.
    pub fn claude_argv(&self) -> Option<Vec<String>> {
        let text = std::fs::read_to_string(self.dump.with_extension("argv")).ok()?;
        Some(text.lines().map(str::to_string).collect())
    }

    /// The scripted `claude`'s environment.
    pub fn claude_env(&self) -> HashMap<String, String> {
        let bytes = std::fs::read(self.dump.with_extension("env")).expect("claude ran");
        bytes
            .split(|b| *b == 0)
            .filter_map(|entry| {
                let text = String::from_utf8_lossy(entry);
                let (k, v) = text.split_once('=')?;
                Some((k.to_string(), v.to_string()))
            })
            .collect()
    }

    /// The `--settings` file the scripted `claude` was given, parsed.
    pub fn claude_settings(&self) -> serde_json::Value {
        let bytes = std::fs::read(self.dump.with_extension("settings.json")).expect("settings");
        serde_json::from_slice(&bytes).unwrap()
    }

    /// A dump file's text (`"settings.mode"`, `"dir.mode"`, `"settings.path"`, `"term"`, …).
    pub fn dumped(&self, what: &str) -> Option<String> {
        std::fs::read_to_string(self.dump.with_extension(what)).ok()
    }

    /// The value after `option` in the scripted `claude`'s argv.
    pub fn claude_option(&self, option: &str) -> Option<String> {
        let argv = self.claude_argv()?;
        let at = argv.iter().position(|a| a == option)?;
        argv.get(at + 1).cloned()
    }

    /// The `--agents` JSON the scripted `claude` was given.
    pub fn claude_agents(&self) -> serde_json::Value {
        serde_json::from_str(&self.claude_option("--agents").expect("--agents")).unwrap()
    }

    /// Entries of the isolated TMPDIR.
    pub fn tmp_entries(&self) -> Vec<String> {
        std::fs::read_dir(&self.tmp)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

/// Waits until `path` exists (panics after `timeout`).
pub fn wait_for_file(path: &Path, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} did not appear",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The `type:"result"` line of a `--output-format stream-json` run.
pub fn stream_result(stdout: &str) -> serde_json::Value {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .rfind(|v| v["type"] == "result")
        .unwrap_or_else(|| panic!("no result line in {stdout}"))
}

/// Runs `multi-cursor statusline [args]` with `stdin` as Claude Code's status-line JSON and
/// only `PATH` and `env` in its environment; returns (exit code, stdout).
pub fn run_statusline(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let output = crate::output_with_stdin(
        std::process::Command::new(crate::multi_cursor_bin())
            .arg("statusline")
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(env.iter().copied()),
        stdin.as_bytes(),
    );
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}
