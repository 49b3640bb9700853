//! A Claude Code session as Cursor sees it: identity, the conversation (what text Cursor
//! receives for a request), exchanges, records, locks and migration.
//!
//! - `identity`: who a Cursor chat belongs to, and the record's file name.
//! - `cursor_request`: a Cursor request read once, and the prompts it gives a turn.
//! - `conversation`: reads an Anthropic Messages request and decides what Cursor is sent; pure
//!   apart from writing the newest turn's images into a folder it is given.
//! - `record`: the v3 record, the legacy v2 record, validation and migration.
//! - `lock`: the OS file lock held while a gateway owns an identity.
//! - `exchange`: one request's answer, shared by identical requests (join, replay, same failure).
//! - `store`: the identities a gateway has open, admission of a request, and the record's
//!   writes.

pub mod conversation;
pub(crate) mod cursor_request;
pub mod exchange;
pub(crate) mod hooks;
pub mod identity;
pub(crate) mod lock;
pub mod record;
pub mod store;
