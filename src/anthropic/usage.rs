//! The usage an answer reports: Anthropic's `usage` object, and this gateway's
//! `multi_cursor_usage` object saying where those counts came from.

use serde::Deserialize;
use serde::Serialize;

/// Top-level field of the final `message_delta` (and of a folded message) naming where the
/// answer's usage came from.
pub(crate) const USAGE_FIELD: &str = "multi_cursor_usage";

/// Anthropic's `usage` object: input and output tokens, and the cache counts when known.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens read as input.
    pub input_tokens: u64,
    /// Tokens written as output.
    pub output_tokens: u64,
    /// Input tokens read from the provider's cache, when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_input_tokens: Option<u64>,
    /// Input tokens written to the provider's cache, when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_creation_input_tokens: Option<u64>,
}

/// Where an answer's token counts came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UsageOrigin {
    /// The provider reported both input and output tokens.
    Provider,
    /// Some or all counts are the gateway's estimate.
    Estimate,
}

/// The `multi_cursor_usage` object: where the counts came from and which model ran; a
/// recorded answer served again says `"replayed": true`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageSource {
    /// `provider` or `estimate`.
    pub source: UsageOrigin,
    /// The provider's model id that ran.
    pub model: String,
    /// The answer is a recorded one served again (nothing ran for it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}
