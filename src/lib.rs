//! multi-cursor: use Cursor's agent as a native coding worker inside Claude Code.
//!
//! The binary's entry is `main.rs`; everything it runs lives here so integration tests and
//! benchmarks can drive the same code. See ARCHITECTURE.md for the module map.

pub mod anthropic;
pub mod cli;
pub mod compaction;
pub mod cursor;
pub mod dialog;
pub mod display;
pub mod doctor;
pub mod env;
mod exec;
pub mod gateway;
pub mod launch;
pub mod orchestrate;
pub mod platform;
mod policy;
mod random;
pub mod rules;
pub mod session;
pub mod skills;
pub mod spend;
pub mod state;
mod text;
pub mod turn;

#[cfg(test)]
mod repository_tests;
