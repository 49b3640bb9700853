//! Where the fake agent and the captured Cursor streams are, for every integration test.
#![allow(dead_code)]

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

/// Path of a shared Cursor fixture stream.
pub fn cursor_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream")
        .join(name)
}
