//! Unit tests of the display: formatting helpers here, one module per behaviour below.

mod tools;

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
