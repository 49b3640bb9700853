//! Integration tests of one area, `multi-cursor serve` answering Claude Code: Messages requests on
//! Cursor routes (`conversation_*`), passthrough of Claude models (`passthrough_*`), compaction
//! (`compaction_*`), status codes and routes, and the real Claude Code printing a Cursor answer.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test gateway <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod catalog_recheck;
mod claude_cursor_answer;
mod compaction_bounded;
mod compaction_claude;
mod compaction_no_summary;
mod conversation_after_compaction;
mod conversation_compaction;
mod conversation_continuation;
mod conversation_digest;
mod conversation_estimate;
mod conversation_history_changed;
mod conversation_images;
mod conversation_main_request;
mod conversation_parse_errors;
mod conversation_plugin_command;
mod conversation_subagent;
mod conversation_task_notification;
mod conversation_transcript;
mod conversation_transcript_bound;
mod conversation_validation;
mod conversation_worker_model_line;
mod count_tokens;
mod cursor_failures;
mod cursor_failures_resume;
mod fixtures;
mod hook_cli;
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
mod worker_model;
