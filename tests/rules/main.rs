//! Integration tests of one area, rules: delivery to Cursor, stream rules against a running
//! agent, and the `multi-cursor rules` command. Tests that only call the library (discovery,
//! dialects, precedence, memory imports, the stream rules' limits) are unit tests in
//! src/rules/tests/.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test rules <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli_json;
mod cli_text;
mod delivery;
mod glob_attach;
mod glob_delivery;
mod ttsr_claude;
mod ttsr_interrupt;
mod ttsr_live;
