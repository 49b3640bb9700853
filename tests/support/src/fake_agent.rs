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
        let path = dir.join("fake-agent");
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
