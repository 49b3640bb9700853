//! The turn's tokens at the end of its closing summary: every Cursor answer ends with what the
//! turn cost (`· 29.8k in / 178 out`, ` (est.)` when estimated), the same figures as the
//! answer's `usage`.
//!
//! ```text
//! [Cursor] 3 native actions: 2 shell, 1 edit.
//! [Cursor] Changed: src/lib.rs · 29.8k in / 178 out
//! ```
//!
//! The last summary line loses its full stop and gains ` · <in> in / <out> out`; a turn that
//! used no native action ends with a `[Cursor] 29.8k in / 178 out` line of its own.

use std::time::Instant;

use crate::anthropic::Usage as AnswerUsage;
use crate::anthropic::UsageSource;
use crate::anthropic::usage::UsageOrigin;
use crate::spend::TokenFigures;

use super::SUMMARY_PREFIX;
use super::Tail;
use super::TurnDisplay;

/// The figures of an answer's `usage` as the summary and the status line show them: input
/// and output tokens, estimated when its `multi_cursor_usage` says `estimate`.
pub fn turn_tokens(usage: &AnswerUsage, source: &UsageSource) -> TokenFigures {
    TokenFigures {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_read_tokens: usage.cache_read_input_tokens,
        cache_write_tokens: usage.cache_creation_input_tokens,
        estimated: source.source == UsageOrigin::Estimate,
    }
}

impl TurnDisplay {
    /// `tail` — what [`TurnDisplay::finish`] returned — ending with the turn's tokens on a line
    /// of their own, `[Cursor] 29.8k in / 178 out`: the closing summary's last line when
    /// native actions ran, else a paragraph of its own.
    pub fn with_tokens(&mut self, mut tail: String, tokens: &TokenFigures, now: Instant) -> String {
        let figures = tokens.in_out();
        if self.tail == Tail::Block && self.summary_lines().is_empty() {
            // A paragraph of its own, also after a row or a plan.
            self.tail = Tail::Prose(0);
        }
        let line = self.last_line(&format!("{SUMMARY_PREFIX} {figures}"), now);
        tail.push_str(&line);
        tail
    }
}

#[cfg(test)]
mod tests;
