//! The rulebook: the project's guidance from Claude Code, Cursor, Windsurf and Cline files,
//! normalised into one list of `Rule`s so the Cursor worker follows what Claude would.
//!
//! [`Rulebook::load`] discovers the files (`discover.rs`), splits their frontmatter
//! (`frontmatter.rs`), maps each dialect's keys to one [`Activation`] (`activation.rs`),
//! validates every rule, then deduplicates by name (first wins; the others stay, shadowed, for
//! `multi-cursor rules --explain`). It never fails: every problem is a `Diagnostic`.
//!
//! What a turn does with it:
//! - the first prompt of a chat (and any prompt after [`Rulebook::digest`] changed) carries
//!   [`Rulebook::first_prompt_section`]: the Always bodies and an index of the rules Cursor
//!   should read on demand (`prompt.rs`);
//! - tool calls that touch a path matching a glob rule attach that rule to the next prompt,
//!   once per chat ([`Rulebook::attach_for_paths`], [`Rulebook::attach_for_tool_call`]);
//! - stream rules watch Cursor's text and tool arguments as they stream and interrupt the run
//!   when their `condition` matches ([`Rulebook::stream_watch`], `stream_rules.rs`);
//! - [`ChatRules`] keeps the per-chat state (digest, attached, fired, pending) the session
//!   record stores, and [`Rulebook::prompt_preamble`] turns it into the next prompt's prefix.
//!
//! Anything Cursor loads by itself — `.cursor/rules` of the workspace, `.cursorrules`, the root
//! `CLAUDE.md` — is listed but never sent again.
//!
//! Modules, each using only those listed before it (no cycles): `frontmatter` and `diagnostic`
//! (leaves), `glob` (matching), `rule` (the shared types), `reader` (lenient values), `discover`
//! (which files), `memory` (`CLAUDE.md` imports), `stream_rules` (conditions and the watch),
//! `activation` (a file → a `Rule`), `prompt` (what prompts carry), `chat` (per-chat state),
//! `book` ([`Rulebook`]), `report` (`multi-cursor rules`). This file only re-exports.

mod activation;
mod book;
mod chat;
pub(crate) mod diagnostic;
pub(crate) mod discover;
pub mod frontmatter;
mod glob;
mod memory;
mod prompt;
mod reader;
pub mod report;
pub(crate) mod rule;
mod stream_rules;

pub use book::Rulebook;
pub use chat::ChatRules;
pub use chat::FiredRule;
pub(crate) use chat::TurnRules;
pub(crate) use discover::git_root;
pub(crate) use glob::lexical as lexical_path;
pub use prompt::Attachment;
pub use prompt::render_interruption;
pub use rule::Activation;
pub use rule::StreamKind;
pub(crate) use stream_rules::Fired;
pub(crate) use stream_rules::StreamWatch;

#[cfg(test)]
mod tests;
