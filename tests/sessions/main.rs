//! Integration tests, area `sessions`: Sessions and their records: resuming Cursor chats, joining identical requests,
//! replaying completed turns, migration, capacity and cancellation.
//!
//! One module per behaviour; run one with `cargo test --test sessions <module>::`.

// Helpers outside `#[test]` functions unwrap too; a panic is the failure report.
#![allow(clippy::unwrap_used)]

mod bad_records;
mod capacity;
mod claude_busy;
mod esc_cancel;
mod identical_join;
mod migration;
mod record_lifecycle;
mod restart_replay;
mod resume_fallback;
mod same_failure;
mod slow_reader;
mod store_open;
mod two_gateways;
