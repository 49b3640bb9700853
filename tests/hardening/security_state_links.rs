//! State files through links, after all: a catalog cache that is a FIFO does not hang `serve`
//! at start (it is ignored and rebuilt); a lock or a ledger file with a second name (a hard
//! link) is never written, so the other name's file is untouched. (The record is read from the
//! descriptor that was checked: `session::record::tests::a_symlinked_record_is_not_loaded`.)
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security::first_turn;
use multi_cursor_test_support::security::gateway_on;

use std::path::Path;
use std::path::PathBuf;

use gateway::cursor_request;

/// Replaces `path` by a second name of a new file `victim` holding `text`.
fn hard_link_victim(root: &Path, path: &Path, text: &str) -> PathBuf {
    let victim = root.join("victim.txt");
    std::fs::write(&victim, text).unwrap();
    std::fs::remove_file(path).unwrap();
    std::fs::hard_link(&victim, path).unwrap();
    victim
}

#[test]
#[cfg(unix)] // A FIFO is a Unix file.
fn a_catalog_cache_fifo_does_not_hang_serve() {
    let root = tempfile::tempdir().unwrap();
    let state = root.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    nix::unistd::mkfifo(
        &state.join("catalog.json"),
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .unwrap();
    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-fifo-cache",
        &cursor_request("multi/cursor/composer-2.5", "hello", false),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_hard_linked_lock_is_refused_and_its_other_name_untouched() {
    let root = tempfile::tempdir().unwrap();
    let record = first_turn(root.path(), "s-hard-lock");
    let lock = PathBuf::from(format!("{}.lock", record.display()));
    let victim = hard_link_victim(root.path(), &lock, "precious line 1\nprecious line 2\n");

    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-hard-lock",
        &cursor_request("multi/cursor/composer-2.5", "second", false),
    );
    assert_eq!(status, 500, "{body}");
    assert!(
        gateway::error_message(&body).contains(&lock.display().to_string()),
        "{body}"
    );
    assert!(body.contains("hard link"), "{body}");
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "precious line 1\nprecious line 2\n",
        "the lock's other name was written"
    );
    assert_eq!(gw.turns().len(), 1, "nothing ran");
}

#[test]
fn a_hard_linked_ledger_file_is_not_appended_to() {
    let root = tempfile::tempdir().unwrap();
    first_turn(root.path(), "s-hard-ledger");
    let ledger_dir = root.path().join("state/ledger");
    let month = std::fs::read_dir(&ledger_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .expect("the first turn's ledger file");
    let victim = hard_link_victim(root.path(), &month, "precious\n");

    let gw = gateway_on(root.path());
    let (status, body) = gw.ask(
        "s-hard-ledger",
        &cursor_request("multi/cursor/composer-2.5", "second", false),
    );
    assert_eq!(
        status, 200,
        "a ledger that cannot be written fails no turn: {body}"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "precious\n",
        "the ledger's other name was appended to"
    );
}
