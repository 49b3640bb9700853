//! The usage a Cursor answer reports: Cursor's token counts as Anthropic's `usage`, and the
//! `multi_cursor_usage` object saying where they came from.

use crate::anthropic::Usage as AnswerUsage;
use crate::anthropic::UsageSource;
use crate::anthropic::usage::UsageOrigin;
use crate::cursor::events::RunUsage;
use crate::spend::TokenFigures;

/// Tokens estimated from text: its bytes / 4, rounded up (not a tokenizer).
pub(crate) fn estimate_text_tokens(text: &str) -> u64 {
    (text.len() as u64).div_ceil(4)
}

/// Anthropic usage from Cursor's counts, field by field (`inputTokens` → `input_tokens`,
/// `outputTokens` → `output_tokens`, `cacheReadTokens` → `cache_read_input_tokens`,
/// `cacheWriteTokens` → `cache_creation_input_tokens`); where Cursor gave none, the local
/// input estimate and `ceil(answer bytes / 4)` output tokens.
pub fn usage_json(usage: Option<RunUsage>, input_estimate: u64, answer: &str) -> AnswerUsage {
    let usage = usage.unwrap_or_default();
    AnswerUsage {
        input_tokens: usage.input_tokens.unwrap_or(input_estimate),
        output_tokens: usage
            .output_tokens
            .unwrap_or_else(|| estimate_text_tokens(answer)),
        cache_read_input_tokens: usage.cache_read_tokens,
        cache_creation_input_tokens: usage.cache_write_tokens,
    }
}

/// The `multi_cursor_usage` object: `source` is `provider` when Cursor reported both input
/// and output tokens, else `estimate` (some or all counts are ours); `model` is the Cursor
/// model id that ran.
pub fn usage_source(usage: Option<RunUsage>, cursor_model: &str) -> UsageSource {
    UsageSource {
        source: if reported_in_full(usage) {
            UsageOrigin::Provider
        } else {
            UsageOrigin::Estimate
        },
        model: cursor_model.to_string(),
        replayed: false,
    }
}

/// The tokens of one run as its ledger line records them: the same counts as the answer's
/// `usage` ([`usage_json`]), an estimate unless Cursor reported both input and output tokens
/// (as [`usage_source`] decides).
pub(crate) fn run_tokens(
    usage: Option<RunUsage>,
    input_estimate: u64,
    answer: &str,
) -> TokenFigures {
    let counted = usage_json(usage, input_estimate, answer);
    TokenFigures {
        input_tokens: counted.input_tokens,
        output_tokens: counted.output_tokens,
        cache_read_tokens: counted.cache_read_input_tokens,
        cache_write_tokens: counted.cache_creation_input_tokens,
        estimated: !reported_in_full(usage),
    }
}

/// Whether Cursor reported both input and output tokens (else some counts are ours).
fn reported_in_full(usage: Option<RunUsage>) -> bool {
    usage.is_some_and(|u| u.input_tokens.is_some() && u.output_tokens.is_some())
}
