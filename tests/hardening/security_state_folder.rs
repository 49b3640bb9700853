//! A state folder that is a symlink, or that belongs to another user, is refused by the gateway
//! (`multi-cursor serve`) and by the launcher before anything starts: no ready file, no Claude
//! Code, nothing written into the folder, and the folder left as it was (its mode included:
//! even root does not "fix" another user's folder). The message names the folder and
//! `MULTI_CURSOR_STATE_DIR`.

use multi_cursor_test_support::launcher;

use std::os::unix::fs::MetadataExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::process::Stdio;

use launcher::Launch;

/// Runs `multi-cursor serve` on `state` and returns (exit code, stderr, ready file written).
fn serve(state: &Path) -> (Option<i32>, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let ready = dir.path().join("ready.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_multi-cursor"))
        .arg("serve")
        .arg("--ready-file")
        .arg(&ready)
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("MULTI_CURSOR_STATE_DIR", state)
        .env("MULTI_CURSOR_AGENT", "/nonexistent/agent")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = launcher::finish(&mut child, std::time::Duration::from_secs(60));
    (output.status, output.stderr, ready.exists())
}

/// Names and modes of everything in `dir`, to compare before and after.
fn snapshot(dir: &Path) -> Vec<(String, u32, u32)> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                meta.mode(),
                meta.uid(),
            )
        })
        .collect();
    entries.sort();
    let meta = std::fs::symlink_metadata(dir).unwrap();
    entries.push((".".into(), meta.mode(), meta.uid()));
    entries
}

fn assert_refused(what: &str, folder: &Path, code: Option<i32>, stderr: &str, needle: &str) {
    assert!(
        code.is_some_and(|c| c != 0),
        "{what}: exit {code:?}\n{stderr}"
    );
    assert!(
        stderr.contains(&folder.display().to_string()),
        "{what}: {stderr}"
    );
    assert!(
        stderr.contains("MULTI_CURSOR_STATE_DIR"),
        "{what}: {stderr}"
    );
    assert!(stderr.contains(needle), "{what}: {stderr}");
}

#[test]
fn a_symlinked_state_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();
    let link = dir.path().join("state-link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let before = snapshot(&real);

    let (code, stderr, ready) = serve(&link);
    assert_refused("serve", &link, code, &stderr, "symlink");
    assert!(!ready, "the gateway wrote its ready file");

    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_STATE_DIR", &link)
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_refused("launcher", &link, output.status, &output.stderr, "symlink");
    assert!(launch.claude_argv().is_none(), "Claude Code was started");

    assert_eq!(snapshot(&real), before, "the link's target was changed");
}

#[test]
fn a_state_folder_owned_by_another_user_is_refused() {
    if !nix::unistd::geteuid().is_root() {
        println!("skipped: only root can make a folder owned by another user");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::set_permissions(&foreign, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(foreign.join("theirs.txt"), "another user's file").unwrap();
    let nobody = nix::unistd::Uid::from_raw(65_534);
    nix::unistd::chown(&foreign, Some(nobody), None).unwrap();
    nix::unistd::chown(&foreign.join("theirs.txt"), Some(nobody), None).unwrap();
    let before = snapshot(&foreign);

    let (code, stderr, ready) = serve(&foreign);
    assert_refused("serve", &foreign, code, &stderr, "belongs to uid 65534");
    assert!(!ready, "the gateway wrote its ready file");

    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_STATE_DIR", &foreign)
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_refused(
        "launcher",
        &foreign,
        output.status,
        &output.stderr,
        "belongs to uid 65534",
    );
    assert!(launch.claude_argv().is_none(), "Claude Code was started");

    assert_eq!(
        snapshot(&foreign),
        before,
        "another user's folder was changed"
    );
}
