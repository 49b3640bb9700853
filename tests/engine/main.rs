//! Integration tests of one area, Cursor's agent CLI under our supervision: the child process and
//! its group (`process_*`), the 2026 captures end to end (`capture_2026`), a quiet tool call
//! (`agent_*`), fetching the model catalog
//! from the agent (`catalog_fetch_*`) and what the user sees of a turn (`display_*`). The
//! catalog's library-only tests (parsing, routes, rendering, cache) are unit tests in
//! src/cursor/catalog/tests/.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test engine <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_quiet_tool_call;
mod capture_2026;
// The agent is a `#!/bin/sh` script (Windows runs no shebang; the fake agent's catalog runs
// through the gateway harness's catalog_recheck under Wine).
#[cfg(unix)]
mod catalog_fetch_logged_out;
// The agent is a `#!/bin/sh` script (Windows runs no shebang).
#[cfg(unix)]
mod catalog_fetch_ok;
// A `#!/bin/sh` agent whose group is checked through /proc (Windows: the Job Object unit tests).
#[cfg(unix)]
mod catalog_fetch_timeout;
mod display_failure_summary;
mod display_fixtures;
mod display_long_action;
mod display_plan_mode;
mod display_terminal_suffix;
mod display_touched;
mod display_usage_absent;
mod display_usage_present;
mod display_usage_replayed;
mod process_credentials;
mod process_drop_kills_group;
// Process groups, /proc/<pid>/environ and killpg: a restarted gateway never ends a recorded run
// on Windows (docs/install.md#windows).
#[cfg(unix)]
mod process_end_stray_run;
mod process_fixture_replay;
mod process_hang_after_result;
mod process_lingering_grandchild;
mod process_long_lines;
mod process_no_result_exit;
mod process_output_cap;
mod process_plain_text_failures;
mod process_resume;
mod process_sigkill_only;
mod process_stall_before_result;
// A `sh` group ignoring SIGTERM, ended by killpg; the Windows watchdog is the Job Object, tested
// by the unit tests in src/platform/windows.rs.
#[cfg(unix)]
mod process_watchdog;
mod summary_tokens;
