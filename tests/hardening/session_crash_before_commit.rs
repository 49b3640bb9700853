//! A gateway killed after Cursor finished its turn but before the answer was recorded: the
//! gateway is stopped (SIGSTOP) while Cursor streams, Cursor writes its `result` and exits
//! into the pipe nobody reads, then the gateway is SIGKILLed. The record still says the turn
//! is running (`interrupted`, `pendingRun`), and Cursor's answer never reached Claude Code, so
//! the restarted gateway must treat the turn as interrupted: the re-sent request is refused
//! rather than run again (Cursor already did the work), and the next message continues the
//! chat with the interruption notice, so Cursor reports what it did.

use multi_cursor_test_support::crash;
use multi_cursor_test_support::scenario;

use crash::Crashing;
use nix::sys::signal::Signal;
use nix::sys::signal::kill;
use nix::unistd::Pid;

#[test]
fn a_gateway_killed_between_result_and_commit_does_not_rerun() {
    let mut crashing = Crashing::start(&[
        scenario::INIT,
        &scenario::delta("migrated"),
        // Time for the test to stop the gateway once the chat id is recorded.
        "#!sleep 1500ms",
        &scenario::result("migrated"),
    ]);
    let gateway = Pid::from_raw(crashing.gateway.pid as i32);
    kill(gateway, Signal::SIGSTOP).unwrap();
    let agent = crashing.agent_pid();
    assert!(
        scenario::wait_for(10, || scenario::process_gone(agent)),
        "Cursor finished its turn while the gateway was stopped"
    );
    crashing.kill_gateway();
    let left = crashing.gateway.record(crash::SESSION, "main");
    assert_eq!(left["interrupted"], true, "{left:#}");
    assert!(left["response"].is_null(), "the answer was never recorded");

    crash::a_restarted_gateway_continues(crashing.options.clone(), agent);
}
