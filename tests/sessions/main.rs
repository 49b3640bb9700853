//! Integration tests of one area, sessions and their records: resuming Cursor chats, joining
//! identical requests, replaying completed turns, migration, capacity and cancellation.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test sessions <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bad_records;
mod capacity;
mod claude_busy;
mod dialogs;
mod esc_cancel;
mod identical_join;
mod interrupt_hook;
mod migration;
mod reclaim_chat;
mod record_lifecycle;
mod restart_replay;
mod resume_fallback;
mod same_failure;
mod slow_reader;
mod two_gateways;
