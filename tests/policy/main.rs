//! Integration tests of one area, Claude Code's permission settings carried to Cursor: their
//! sources, refusals and notices. The rule translation table and the managed folders of each OS
//! are unit tests of src/policy/translate.rs and src/policy/admission/tests.rs.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test policy <module>::`.

// Helpers outside `#[test]` functions unwrap and expect too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod claude_only_rules;
mod default_model_put_back;
mod global_cursor_config;
mod hooks_mcp_notice_kept;
mod hooks_mcp_notice_once;
mod mirrored_rules_run;
mod mode_disabled;
mod no_safe_mechanism;
mod notices_claude;
mod refusal_ask_claude;
mod refusal_deny_claude;
mod refusal_inexpressible_claude;
mod refusal_sandbox_claude;
mod refusal_unreadable_claude;
mod source_disallowed_tools;
mod source_flag_settings;
mod sources_every_layer;
mod status_per_session;
mod widening_notice;
