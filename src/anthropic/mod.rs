//! The Anthropic Messages protocol as types: what Claude Code sends (`request`), the events a
//! streamed answer is made of and the message they fold into (`events`), the usage an answer
//! reports (`usage`), and the error body (`error`).
//!
//! This module knows nothing else of the crate (no `use crate::`): the gateway, the turn, the
//! session records and compaction all speak the protocol through it, which keeps them from
//! depending on one another for it.

pub mod error;
pub mod events;
pub mod request;
pub(crate) mod usage;

pub use error::ErrorType;
pub use events::StreamEvent;
pub(crate) use request::MessagesRequest;
pub use usage::Usage;
pub(crate) use usage::UsageSource;
