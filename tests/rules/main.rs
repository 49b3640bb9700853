//! Integration tests of one area, rules: discovery, dialects, precedence, delivery to Cursor,
//! stream rules, and the `multi-cursor rules` command.
//!
//! One module per behaviour, sharing `multi-cursor-test-support` (tests/support). Run one
//! module with `cargo test --test rules <module>::`.

// Helpers outside `#[test]` functions unwrap too (clippy's allow-unwrap-in-tests covers only
// `#[test]` functions); a panic is the failure report.
#![allow(clippy::unwrap_used)]

mod chat_preamble;
mod cli_json;
mod cli_text;
mod delivery;
mod dialect_snapshots;
mod discovery_sources;
mod first_prompt;
mod glob_attach;
mod glob_delivery;
mod memory_imports;
mod precedence;
mod special_files;
mod ttsr_claude;
mod ttsr_interrupt;
mod ttsr_limits;
mod ttsr_live;
mod yaml_fallback;
