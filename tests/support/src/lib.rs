//! Helpers the multi-cursor integration-test harnesses (`tests/<area>/main.rs`) share: the
//! fake agent standing in for Cursor's CLI, a gateway or launcher under test, the real Claude
//! Code, fake Anthropic upstreams, fault injection and fixture loading.
//!
//! It is a dev-dependency of the root package only. Helpers panic on any failure (a test that
//! cannot set itself up should fail loudly), so unwrapping is the norm here. A helper's `new`
//! creates temporary folders and processes, which a `Default` would hide.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::new_without_default)]

use std::path::Path;
use std::path::PathBuf;

pub mod bench;
pub mod claude;
pub mod commit_fault;
pub mod crash;
pub mod cut_proxy;
pub mod display;
pub mod doctor;
pub mod fake_agent;
pub mod fake_upstream;
pub mod gateway;
pub mod launcher;
pub mod ledger;
pub mod parent;
pub mod plugin;
pub mod policy;
pub mod process;
pub mod rules;
pub mod scenario;
pub mod security;
pub mod sse_frames;
pub mod stream_lines;
pub mod tmux;
pub mod wrapper;

/// `base` joined with the `/`-separated `rel` one component at a time: a path as the product
/// spells it, in the system's separators (the product's own join, tested beside it).
pub use multi_cursor::platform::paths::joined;

/// A `/`-separated relative path as the system shows it (`.claude\rules\a.md` on Windows).
pub fn native(rel: &str) -> String {
    rel.replace('/', std::path::MAIN_SEPARATOR_STR)
}

/// Gives `path` the permission bits `mode`; on Windows, which has none (files keep their
/// folder's ACL), nothing.
pub fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
}

/// Makes `path` executable (mode 0755); on Windows, where a file runs by its extension,
/// nothing is needed.
pub fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Writes an executable shell script at `path` and returns the path. Write every script a test
/// needs before running any, so no concurrently forked child holds one open for writing
/// (ETXTBSY).
pub fn write_script(path: &Path, body: &str) -> PathBuf {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    make_executable(path);
    path.to_path_buf()
}

/// Copies the folder `from` to `to` (created when missing), recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The repository's root (this crate lives in `tests/support/`): where `tests/fixtures/`,
/// the plugin's marketplace and `Cargo.toml` are.
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .and_then(Path::parent)
        .expect("tests/support sits two folders below the repository root")
        .to_path_buf()
}

/// The `multi-cursor` binary under test. Cargo builds it next to the `deps/` folder that holds
/// the running test harness (`target/<profile>/deps/<harness>-<hash>`), before running any
/// integration test.
pub fn multi_cursor_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("the test harness's path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the harness runs from target/<profile>/deps");
    profile.join(format!("multi-cursor{}", std::env::consts::EXE_SUFFIX))
}

/// Runs `command` with `stdin` written to its standard input (then closed) and its output
/// captured: what a hook, the status line or an npm shim gets from Claude Code or a shell.
pub fn output_with_stdin(
    command: &mut std::process::Command,
    stdin: &[u8],
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}
