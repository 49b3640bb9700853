//! Integration tests of one area, Cursor spend: the run ledger a gateway appends, the spend
//! route, budgets and runaway guards (429 before anything runs), `multi-cursor usage` and the
//! spend part of `multi-cursor status`.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support) and
//! [`common`]. Run one module with `cargo test --test spend <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod budget_refusals;
mod claude_ledger;
mod common;
mod compaction_limits;
mod estimate_basis;
mod interrupted_line;
mod ledger_edges;
mod ledger_lines;
mod live_run;
mod loop_guard;
mod rate_guard;
mod run_purposes;
mod spend_route;
mod status_spend;
mod usage_command;
