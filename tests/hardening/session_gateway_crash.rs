//! A gateway killed mid-turn together with its watchdogs (SIGKILL: nothing of ours runs;
//! the watchdog alone is `launcher::sigkill_leaves_nothing`) leaves Cursor's process group
//! running and the record `interrupted` with `pendingRun`. The restarted gateway ends that
//! group (its leader's start time still matches), refuses to run the interrupted request a
//! second time, and on the next message streams the interruption notice, prepends it to
//! Cursor's prompt, and clears it once that turn completes.

use multi_cursor_test_support::crash;
use multi_cursor_test_support::scenario;

use crash::Crashing;

#[test]
fn a_restarted_gateway_ends_the_orphan_and_tells_cursor() {
    let (crashing, orphan) = Crashing::killed_halfway();
    assert!(
        !scenario::process_gone(orphan),
        "SIGKILL left Cursor running"
    );
    let left = crashing.gateway.record(crash::SESSION, "main");
    assert_eq!(left["interrupted"], true);
    assert_eq!(left["pendingRun"]["pgid"].as_u64(), Some(u64::from(orphan)));

    crash::a_restarted_gateway_continues(crashing.options, orphan);
}
