//! Tampered state files are refused, never followed: a session record or a lock file that is a
//! symlink is refused with its path (500 / 409 as the status table says) and the link's target
//! is neither read as the record nor written; a record over 64 MiB is refused with its path and
//! size before it is read; a `pendingRun` naming a process of the user's with its exact start
//! time does not get that process signalled (only a leader carrying the run marker is ours).
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security::first_turn;
use multi_cursor_test_support::security::gateway_on;

use std::path::Path;

use gateway::cursor_request;
use multi_cursor::cursor::process::process_start_time;

fn sha(path: &Path) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(std::fs::read(path).unwrap()).to_vec()
}

#[test]
#[cfg(unix)] // File symlinks need Developer Mode or an administrator on Windows.
fn a_symlinked_record_is_refused_and_left_alone() {
    let root = tempfile::tempdir().unwrap();
    let record = first_turn(root.path(), "s-link");
    let elsewhere = root.path().join("elsewhere.json");
    std::fs::rename(&record, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &record).unwrap();
    let before = sha(&elsewhere);

    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-link",
        &cursor_request("multi/cursor/composer-2.5", "second", false),
    );
    assert_eq!(status, 500, "{body}");
    assert!(
        body.contains(&record.display().to_string()),
        "names the path: {body}"
    );
    assert!(body.contains("symlink"), "{body}");
    let meta = std::fs::symlink_metadata(&record).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert_eq!(sha(&elsewhere), before, "the target was changed");
    assert_eq!(gw.turns().len(), 1, "nothing ran");
}

#[test]
#[cfg(unix)] // File symlinks need Developer Mode or an administrator on Windows.
fn a_symlinked_lock_is_refused_and_its_target_untouched() {
    let root = tempfile::tempdir().unwrap();
    let record = first_turn(root.path(), "s-lock");
    let lock = std::path::PathBuf::from(format!("{}.lock", record.display()));
    let victim = root.path().join("victim.txt");
    std::fs::write(&victim, "precious line 1\nprecious line 2\n").unwrap();
    std::fs::remove_file(&lock).unwrap();
    std::os::unix::fs::symlink(&victim, &lock).unwrap();

    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-lock",
        &cursor_request("multi/cursor/composer-2.5", "second", false),
    );
    assert_eq!(status, 500, "{body}");
    assert!(
        body.contains(&lock.display().to_string()),
        "names the path: {body}"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "precious line 1\nprecious line 2\n",
        "the lock's target was written"
    );
    assert!(
        std::fs::symlink_metadata(&lock)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(gw.turns().len(), 1, "nothing ran");
}

#[test]
fn a_record_over_64_mib_is_refused_before_it_is_read() {
    let root = tempfile::tempdir().unwrap();
    let record = first_turn(root.path(), "s-big");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&record)
        .unwrap();
    file.set_len(64 * 1024 * 1024 + 1).unwrap();
    drop(file);
    let before = sha(&record);

    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-big",
        &cursor_request("multi/cursor/composer-2.5", "second", false),
    );
    assert_eq!(status, 500, "{body}");
    assert!(
        gateway::error_message(&body).contains(&record.display().to_string()),
        "names the path: {body}"
    );
    assert!(body.contains("67108865 bytes"), "names the size: {body}");
    assert_eq!(sha(&record), before, "the record was changed");
    assert_eq!(gw.turns().len(), 1, "nothing ran");
}

#[test]
fn a_forged_pending_run_does_not_end_a_stranger() {
    let root = tempfile::tempdir().unwrap();
    let record = first_turn(root.path(), "s-forged");
    // A process of the user's that lives until killed: the fake agent waiting for a login.
    let mut stranger = std::process::Command::new(gateway::fake_agent());
    stranger
        .arg("login")
        .env("FAKE_AGENT_LOGIN_DELAY_MS", "forever")
        .env("FAKE_AGENT_MAX_LIFETIME_MS", "300000")
        .stdout(std::process::Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut stranger, 0);
    let mut victim = stranger.spawn().unwrap();
    let pid = victim.id();
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    value["interrupted"] = true.into();
    value["pendingRun"] = serde_json::json!({
        "key": "0".repeat(64),
        "model": "composer-2.5",
        "pgid": pid,
        "startedAt": "2026-01-01T00:00:00Z",
        "processStart": process_start_time(i32::try_from(pid).unwrap()).unwrap(),
        "marker": "0123456789abcdef0123456789abcdef",
    });
    std::fs::write(&record, serde_json::to_vec(&value).unwrap()).unwrap();

    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-forged",
        &cursor_request("multi/cursor/composer-2.5", "second", false),
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        victim.try_wait().unwrap().is_none(),
        "the stranger named by a forged record was signalled"
    );
    victim.kill().unwrap();
    victim.wait().unwrap();
}
