//! `multi-cursor doctor` while a process holds a session record's OS lock
//! (`<state>/sessions/<digest>.v3.json.lock`, holding the owner's pid): the lock check fails
//! naming the record and the pid, and passes once the lock is released.

use multi_cursor_test_support::doctor;

#[test]
fn a_held_lock_is_reported_with_its_pid() {
    let check = doctor::Doctor::new();
    let sessions = check.state().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let lock_path = sessions.join(format!("{}.v3.json.lock", "ab".repeat(32)));
    std::fs::write(&lock_path, format!("{}\n", std::process::id())).unwrap();
    let holder = std::fs::File::open(&lock_path).unwrap();
    holder.lock().unwrap();

    let (output, dir) = check.run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let line = output.line("Session locks");
    assert!(line.starts_with("[FAIL]"), "{line}");
    assert!(
        line.contains(&format!(
            "{} held by pid {}",
            lock_path.display(),
            std::process::id()
        )),
        "{line}"
    );
    assert!(
        output
            .fix("Session locks")
            .contains(&format!("kill {}", std::process::id())),
        "{output:?}"
    );

    drop(holder);
    let mut again = doctor::Doctor::new();
    again = again.env("MULTI_CURSOR_STATE_DIR", dir.path().join("state"));
    let (output, _dir) = again.run();
    assert!(
        output.line("Session locks").starts_with("[pass]"),
        "{output:?}"
    );
}
