//! Unit tests of the display: formatting helpers here, one module per behaviour below (each
//! renders stream-json lines through the parser, as a turn does).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests: a panic is the failure report"
)]

mod failed_edit;
mod progress_line;
mod rejected_shell;
mod support;
mod thinking_hidden;
mod tools;
mod unconfirmed;

use super::*;

#[test]
fn durations_read_naturally() {
    assert_eq!(format_duration(Duration::from_millis(464)), "464 ms");
    assert_eq!(format_duration(Duration::from_millis(2300)), "2.3 s");
    assert_eq!(format_duration(Duration::from_millis(30_400)), "30 s");
    assert_eq!(format_duration(Duration::from_secs(65)), "1 min 5 s");
}

#[test]
fn suffix_rule() {
    assert_eq!(terminal_suffix("Check", "Checking now."), "ing now.");
    assert_eq!(terminal_suffix("", "All."), "All.");
    assert_eq!(terminal_suffix("Same.", "Same."), "");
    assert_eq!(terminal_suffix("Other", "Different"), "");
}
