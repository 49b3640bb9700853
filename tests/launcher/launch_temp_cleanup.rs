//! The launcher's temporary folder (the settings file) is gone once Claude Code exits, and a
//! folder left by a launcher that was killed outright is swept by the next launch: one whose
//! `.lock` no one holds. A live launcher's folder is kept even when the pid in its name is not
//! running here (a launcher in another PID namespace, whose lock every namespace sees).

use multi_cursor_test_support::launcher;

use launcher::Launch;

#[test]
fn temporary_files_are_removed() {
    let launch = Launch::scripted().args(["-p", "hi"]);
    // A pid that cannot be running (above the kernel's maximum).
    let stale = launch.tmp.join("multi-cursor-99999999-0123456789abcdef");
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("settings.json"), "{}").unwrap();
    std::fs::write(stale.join(".lock"), "").unwrap();
    // A live launcher in another PID namespace: its pid means nothing here, its lock is held.
    let elsewhere = launch.tmp.join("multi-cursor-99999998-fedcba9876543210");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("settings.json"), "{}").unwrap();
    let held = std::fs::File::create(elsewhere.join(".lock")).unwrap();
    held.try_lock().unwrap();
    let unrelated = launch.tmp.join("multi-cursor-notes");
    std::fs::create_dir(&unrelated).unwrap();

    let mut launch = launch;
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let used = std::path::PathBuf::from(launch.dumped("settings.path").unwrap());
    assert!(used.starts_with(&launch.tmp), "{}", used.display());
    assert!(!used.exists(), "settings file left behind");
    assert!(
        !used.parent().unwrap().exists(),
        "settings folder left behind"
    );
    assert!(!stale.exists(), "a dead launcher's folder is swept");
    assert!(unrelated.exists(), "only our pattern is touched");
    assert!(
        elsewhere.join("settings.json").exists(),
        "a live launcher's folder is kept"
    );
    drop(held);
}
