//! Where the fake agent and the captured Cursor streams are, for every integration test.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// Path of the fake agent, building it once if the workspace build did not.
pub fn fake_agent() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("test exe path");
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target dir")
            .to_path_buf();
        let path = dir.join(format!("fake-agent{}", std::env::consts::EXE_SUFFIX));
        if !path.exists() {
            let status = Command::new(env!("CARGO"))
                .args(["build", "-p", "fake-agent"])
                .status()
                .expect("cargo build -p fake-agent");
            assert!(status.success(), "building the fake agent failed");
        }
        path
    })
    .clone()
}

/// The value following `flag` in a logged agent invocation's argv (`--model`, `--resume`).
pub fn flag_value(invocation: &serde_json::Value, flag: &str) -> Option<String> {
    let argv = invocation["argv"]
        .as_array()
        .expect("a logged invocation has argv");
    let attached = format!("{flag}=");
    if let Some(value) = argv
        .iter()
        .find_map(|a| a.as_str()?.strip_prefix(attached.as_str()))
    {
        return Some(value.to_string());
    }
    let at = argv.iter().position(|a| a == flag)?;
    Some(argv.get(at + 1)?.as_str()?.to_string())
}

/// The chat a logged agent turn resumed (`--resume <chat>`), `None` for a new chat.
pub fn resumed_chat(turn: &serde_json::Value) -> Option<String> {
    flag_value(turn, "--resume")
}

/// Path of a shared Cursor fixture stream.
pub fn cursor_fixture(name: &str) -> PathBuf {
    crate::repo_root()
        .join("tests/fixtures/cursor-stream")
        .join(name)
}

/// `agent --help` of a Cursor CLI without `--auto-review` (before it was added): for the fake
/// agent's `FAKE_AGENT_HELP_FILE`.
pub const HELP_WITHOUT_AUTO_REVIEW: &str = "Usage: agent [options] [command] [prompt...]\n\nStart the Cursor Agent\n\nOptions:\n  -v, --version  Output the version number\n  -p, --print  Print responses to console\n  -f, --force  Force allow commands unless explicitly denied\n  -h, --help  Display help for command\n";

/// Writes [`HELP_WITHOUT_AUTO_REVIEW`] into `dir`; the file to give `FAKE_AGENT_HELP_FILE`.
pub fn help_without_auto_review(dir: &Path) -> PathBuf {
    let path = dir.join("help-without-auto-review.txt");
    std::fs::write(&path, HELP_WITHOUT_AUTO_REVIEW).unwrap();
    path
}
