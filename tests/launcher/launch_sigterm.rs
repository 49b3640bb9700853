//! SIGTERM to the launcher reaches Claude Code; the launcher then exits with Claude Code's exit
//! code and removes its temporary folder. SIGINT is left to Claude Code (it shares the
//! terminal and gets Ctrl-C itself): the launcher neither dies of it nor passes it on.

use multi_cursor_test_support::launcher;

use std::time::Duration;

use launcher::Launch;
use nix::sys::signal::Signal;
use nix::sys::signal::kill;
use nix::unistd::Pid;

#[test]
fn sigterm_is_forwarded_and_sigint_is_not() {
    let mut launch = Launch::scripted()
        .env("FAKE_CLAUDE_WAIT_TERM", "1")
        .args(["-p", "hi"]);
    let mut child = launch.spawn();
    launcher::wait_for_file(
        &launch.dump.with_extension("ready"),
        Duration::from_secs(20),
    );
    assert_eq!(
        launch.tmp_entries().len(),
        1,
        "the settings folder exists while claude runs"
    );
    let pid = Pid::from_raw(child.id() as i32);

    kill(pid, Signal::SIGINT).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "SIGINT must not end the launcher"
    );
    assert!(launch.dumped("term").is_none());

    kill(pid, Signal::SIGTERM).unwrap();
    let output = launcher::finish(&mut child, Duration::from_secs(20));
    assert_eq!(
        launch.dumped("term").as_deref(),
        Some("term\n"),
        "claude got SIGTERM"
    );
    assert_eq!(output.status, Some(42), "claude's exit code: {output:?}");
    assert!(
        launch.tmp_entries().is_empty(),
        "temp left: {:?}",
        launch.tmp_entries()
    );
}
