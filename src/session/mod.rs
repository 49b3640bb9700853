//! A Claude Code session as Cursor sees it: identity, the conversation (what text Cursor
//! receives for a request), exchanges, records, locks and migration (DESIGN §6).
//!
//! `conversation` reads an Anthropic Messages request and decides what Cursor is sent; it is
//! pure apart from writing the newest turn's images into a folder it is given.

pub mod conversation;
