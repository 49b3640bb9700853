//! A gateway killed mid-turn together with its watchdogs (SIGKILL: nothing of ours runs;
//! the watchdog alone is `launcher::sigkill_leaves_nothing`) leaves Cursor's process group
//! running and the record `interrupted` with `pendingRun`. The restarted gateway ends that
//! group (its leader's start time still matches), refuses to run the interrupted request a
//! second time, and on the next message streams the interruption notice, prepends it to
//! Cursor's prompt, and clears it once that turn completes. On Windows the gateway's Job Object
//! ends Cursor with it (`TerminateProcess`), and the rest holds the same: one run in the
//! agent's log, the request refused, the next message told.

use multi_cursor_test_support::crash;
use multi_cursor_test_support::scenario;

use crash::Crashing;

#[test]
fn a_restarted_gateway_ends_the_orphan_and_tells_cursor() {
    let (crashing, orphan) = Crashing::killed_halfway();
    if cfg!(windows) {
        // The Job Object ends Cursor's tree with the gateway that made it (TerminateProcess
        // closes the job's last handle); the restarted gateway has nothing left to end.
        assert!(
            scenario::wait_for(10, || scenario::process_gone(orphan)),
            "Cursor outlived the gateway's Job Object"
        );
    } else {
        assert!(
            !scenario::process_gone(orphan),
            "SIGKILL left Cursor running"
        );
    }
    let left = crashing.gateway.record(crash::SESSION, "main");
    assert_eq!(left["interrupted"], true);
    assert_eq!(left["pendingRun"]["pgid"].as_u64(), Some(u64::from(orphan)));

    crash::a_restarted_gateway_continues(crashing.options, orphan);
}
