//! The wrapper's life follows the host's: SIGTERM (the SDK's second step of `close()`) is
//! passed on and the wrapper exits with Claude Code's code, removing its temporary folder; a
//! SIGKILLed wrapper leaves no Claude Code behind (Linux parent-death signal). Commands that
//! start no session go to `claude` untouched: `--version` and `plugin list --json` print
//! byte for byte what `claude` prints.

use std::ffi::OsString;
use std::time::Duration;
use std::time::Instant;

use multi_cursor_test_support::claude;
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::wrapper;

use launcher::Launch;
use wrapper::SDK_FLAGS;
use wrapper::Wrapped;

fn started() -> (Launch, Wrapped, i32) {
    let launch = Launch::real();
    let args: Vec<OsString> = SDK_FLAGS
        .iter()
        .chain(&["--permission-mode=bypassPermissions"])
        .map(OsString::from)
        .collect();
    let mut wrapped = Wrapped::start(&launch, &args);
    wrapped.initialize();
    let claude = wrapped.children();
    assert_eq!(claude.len(), 1, "{claude:?}");
    (launch, wrapped, claude[0])
}

fn gone_within(pid: i32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if !wrapper::alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn sigterm_is_passed_on_and_the_folder_removed() {
    let (launch, mut wrapped, claude) = started();
    let pid = nix::unistd::Pid::from_raw(wrapped.child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let code = wrapped.wait(Duration::from_secs(7));
    assert!(code.is_some(), "the wrapper stopped within the SDK's 7 s");
    assert!(
        gone_within(claude, Duration::from_secs(2)),
        "Claude Code is gone"
    );
    let ours: Vec<_> = launch
        .tmp_entries()
        .into_iter()
        .filter(|e| e.starts_with("multi-cursor-"))
        .collect();
    assert!(ours.is_empty(), "temporary folder removed: {ours:?}");
}

#[test]
fn a_killed_wrapper_leaves_no_claude() {
    let (_launch, mut wrapped, claude) = started();
    wrapped.child.kill().unwrap();
    let _ = wrapped.child.wait();
    assert!(
        gone_within(claude, Duration::from_secs(5)),
        "Claude Code outlived its SIGKILLed wrapper"
    );
}

#[test]
fn no_session_commands_are_byte_identical() {
    let launch = Launch::real();
    for args in [&["--version"][..], &["plugin", "list", "--json"][..]] {
        let direct = wrapper::command(&launch, &claude::claude_binary())
            .args(args)
            .output()
            .unwrap();
        let wrapped = wrapper::command(&launch, &wrapper::wrapper_bin())
            .arg(claude::claude_binary())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(direct.status.code(), wrapped.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&direct.stdout),
            String::from_utf8_lossy(&wrapped.stdout),
            "{args:?}"
        );
        assert!(!direct.stdout.is_empty(), "{args:?}");
        // The bare form finds claude itself (MULTI_CURSOR_CLAUDE).
        let bare = wrapper::command(&launch, &wrapper::wrapper_bin())
            .env("MULTI_CURSOR_CLAUDE", claude::claude_binary())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(direct.stdout, bare.stdout, "{args:?}");
    }
}
