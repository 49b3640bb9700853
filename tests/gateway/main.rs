//! Integration tests of one area, `multi-cursor serve` answering Claude Code: Messages requests on
//! Cursor routes, passthrough of Claude models (`passthrough_*`), compaction
//! (`compaction_*`), status codes and routes, and the real Claude Code printing a Cursor answer.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test gateway <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bash_mode;
mod catalog_recheck;
mod claude_cursor_answer;
mod claude_doctor;
mod compaction_bounded;
mod compaction_claude;
mod compaction_no_summary;
mod count_tokens;
mod cursor_failures;
mod cursor_failures_resume;
mod fast_served;
mod fixtures;
mod hook_cli;
mod message_threads;
mod modes;
mod no_result;
mod passthrough;
mod passthrough_bytes;
mod passthrough_reset;
mod passthrough_sse_streaming;
mod passthrough_unreachable;
mod resume;
mod status_codes;
mod status_route;
mod stream_frames;
mod worker_model;
