//! Helpers shared by the fake-agent integration tests: a clean command for the built binary and
//! scratch folders.

#![allow(
    clippy::expect_used,
    reason = "test support: a failed setup step should panic with its name"
)]

use std::io::Read;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Output;
use std::process::Stdio;

/// The built `fake-agent` binary.
pub(crate) const FAKE_AGENT: &str = env!("CARGO_BIN_EXE_fake-agent");

/// A command for the fake with no `FAKE_AGENT_*` or Cursor credentials inherited from the
/// developer's environment.
pub(crate) fn fake() -> Command {
    let mut command = Command::new(FAKE_AGENT);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("FAKE_AGENT_") || key.starts_with("CURSOR_") {
            command.env_remove(key.as_ref());
        }
    }
    command
}

/// The argv of a typical turn, as the plugin passes it.
pub(crate) fn turn_args(workspace: &Path) -> Vec<String> {
    [
        "-p",
        "--output-format",
        "stream-json",
        "--stream-partial-output",
        "--trust",
        "--workspace",
    ]
    .iter()
    .map(|arg| (*arg).to_owned())
    .chain([
        workspace.display().to_string(),
        "--model".to_owned(),
        "auto".to_owned(),
    ])
    .collect()
}

/// Runs `command` with `stdin` written and closed, and waits for it.
pub(crate) fn run_with_stdin(command: &mut Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fake-agent");
    let mut pipe = child.stdin.take().expect("stdin pipe");
    pipe.write_all(stdin.as_bytes()).expect("write stdin");
    drop(pipe);
    child.wait_with_output().expect("wait for fake-agent")
}

/// A fresh, empty scratch folder for one test, removed when dropped.
pub(crate) struct Scratch(pub PathBuf);

impl Scratch {
    /// Creates `<tmp>/fake-agent-<test>-<pid>`.
    pub(crate) fn new(test: &str) -> Self {
        let path = std::env::temp_dir().join(format!("fake-agent-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create scratch folder");
        Self(path)
    }

    /// A path inside the folder.
    pub(crate) fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `contents` to `name` inside the folder and returns its path.
    pub(crate) fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent folder");
        }
        std::fs::write(&path, contents).expect("write scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The captured Cursor streams the repository carries (`tests/fixtures/cursor-stream`, copied
/// verbatim from the shared captures).
pub(crate) fn fixtures_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cursor-stream");
    assert!(
        dir.is_dir(),
        "captured Cursor streams not found at {}",
        dir.display()
    );
    dir
}

/// A scenario shipped in this crate's `scenarios/` folder.
pub(crate) fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name)
}

/// Runs a turn of `scenario` and reads its stdout with small reads, returning each read's bytes.
pub(crate) fn read_in_pieces(scenario: &Path) -> Vec<Vec<u8>> {
    let mut child = fake()
        .args(["-p", "--trust"])
        .env("FAKE_AGENT_SCENARIO", scenario)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start fake-agent");
    let mut stdout = child.stdout.take().expect("stdout pipe");
    let mut reads = Vec::new();
    let mut buffer = [0u8; 64];
    loop {
        let count = stdout.read(&mut buffer).expect("read stdout");
        if count == 0 {
            break;
        }
        reads.push(buffer[..count].to_vec());
    }
    assert!(child.wait().expect("wait for fake-agent").success());
    reads
}

/// The JSON lines of the invocation log at `path` (none when it does not exist yet).
pub(crate) fn log_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("log line is JSON"))
        .collect()
}

/// The `session_id` of the first (`system/init`) line of a stream.
pub(crate) fn init_session(stdout: &[u8]) -> String {
    let first = String::from_utf8_lossy(stdout)
        .lines()
        .next()
        .expect("an init line")
        .to_owned();
    let init: serde_json::Value = serde_json::from_str(&first).expect("init is JSON");
    init["session_id"]
        .as_str()
        .expect("init has a session_id")
        .to_owned()
}

/// Sends `signal` to `target` (a pid, or `-pgid` for a group) with kill(1).
pub(crate) fn send_signal(signal: &str, target: &str) {
    let status = Command::new("kill")
        .args([format!("-{signal}").as_str(), "--", target])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {target} failed");
}
