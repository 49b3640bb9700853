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

/// The third probe: two launchers of one user share the temporary folder, one in a PID
/// namespace of its own (a container); the other's start removed the first's folder, since the
/// pid in its name was not running outside. Here the first runs in its own PID namespace
/// (`unshare`, root only) as a pid that no process outside has, and keeps its folder (and its
/// `--settings`) while the second launcher starts and sweeps.
#[test]
fn a_launcher_in_another_pid_namespace_keeps_its_folder() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: a PID namespace of our own needs root");
        return;
    }
    let namespace = ["--pid", "--mount-proc", "--kill-child"];
    match std::process::Command::new("unshare")
        .args(namespace)
        .arg("true")
        .output()
    {
        Ok(output) if output.status.success() => {}
        other => {
            eprintln!("skipped: unshare cannot make a PID namespace here: {other:?}");
            return;
        }
    }
    // A pid no process has outside the namespace; the launcher gets it inside.
    let pid = (20_000..30_000)
        .find(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists())
        .unwrap();
    let mut inside = Launch::scripted()
        .env("FAKE_CLAUDE_WAIT_TERM", "1")
        .args(["-p", "hi"]);
    let wrapper = inside.dir.path().join("in-namespace.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec unshare {} /bin/sh -c 'echo {} > /proc/sys/kernel/ns_last_pid && \"$0\" \"$@\"' '{}' \"$@\"\n",
            namespace.join(" "),
            pid - 1,
            multi_cursor_test_support::multi_cursor_bin().display()
        ),
    )
    .unwrap();
    multi_cursor_test_support::make_executable(&wrapper);
    /// Ends `unshare` (and with it the namespace) however the test ends.
    struct Ended(std::process::Child);
    impl Drop for Ended {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let first = Ended(inside.spawn_program(&wrapper));
    launcher::wait_for_file(
        &inside.dump.with_extension("ready"),
        std::time::Duration::from_secs(60),
    );
    let settings = std::path::PathBuf::from(inside.dumped("settings.path").unwrap());
    let folder = settings.parent().unwrap().to_path_buf();
    let name = folder.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(&format!("multi-cursor-{pid}-")), "{name}");

    let mut outside = Launch::scripted()
        .env("TMPDIR", &inside.tmp)
        .args(["-p", "hi"]);
    let output = outside.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let swept = std::path::PathBuf::from(outside.dumped("settings.path").unwrap());
    assert!(swept.starts_with(&inside.tmp), "{}", swept.display());
    assert!(
        settings.exists(),
        "the launcher in the other namespace lost its --settings folder {}",
        folder.display()
    );

    // Ending `unshare` ends its namespace, the launcher and its Claude Code with it.
    drop(first);
}
