//! Cursor's plain-text failures, classified from what the agent CLI printed.
//!
//! [`classify_plain_text`] reads ONE plain-text line (stdout or stderr) and recognises the
//! failures the stream parser reports as they arrive ([`CliFailure`]); [`TrustBlock`] joins the
//! multi-line workspace-trust banner into one failure.

use super::CliFailure;
use super::strip_ansi;

/// Most lines (blank ones included) a workspace-trust block may collect.
const TRUST_BLOCK_MAX_LINES: usize = 16;

/// Lower-case wordings of a rate limit, matched anywhere in a plain-text line.
const RATE_LIMIT_WORDS: [&str; 3] = ["rate limit", "rate-limit", "too many requests"];

/// Classify one plain-text (non-JSON) line from the agent, stdout or stderr: `Some` failure
/// carrying the CLI's words (ANSI colours stripped, whitespace trimmed), or `None` for noise.
///
/// Recognised (case-insensitive): `Authentication required`, `Cannot use this model`,
/// `Workspace Trust Required` (the header line only; the stream parser joins the block with a
/// [`TrustBlock`]), and rate limits (`rate limit`, `rate-limit`, `too many requests`).
pub fn classify_plain_text(line: &str) -> Option<CliFailure> {
    let cleaned = strip_ansi(line);
    let words = cleaned.trim();
    if words.is_empty() {
        return None;
    }
    let lower = words.to_ascii_lowercase();
    let failure: fn(String) -> CliFailure = if lower.contains("workspace trust required") {
        CliFailure::WorkspaceTrust
    } else if lower.contains("authentication required") {
        CliFailure::AuthRequired
    } else if lower.contains("cannot use this model") {
        CliFailure::BadModel
    } else if RATE_LIMIT_WORDS.iter().any(|w| lower.contains(w)) {
        CliFailure::RateLimited
    } else {
        return None;
    };
    Some(failure(words.to_owned()))
}

/// The workspace-trust banner being collected by the stream parser: the header line first, then
/// its indented lines. It becomes one [`CliFailure::WorkspaceTrust`] carrying all its words when
/// a non-indented line, a JSON line or the end of the output closes it.
#[derive(Debug)]
pub(super) struct TrustBlock {
    words: String,
    lines: usize,
}

impl TrustBlock {
    /// A block opened by its header line (already cleaned by [`classify_plain_text`]).
    pub(super) fn new(header: String) -> Self {
        Self {
            words: header,
            lines: 1,
        }
    }

    /// Indented lines continue the block; blank lines are tolerated inside it.
    pub(super) fn accepts(&self, line: &str) -> bool {
        self.lines < TRUST_BLOCK_MAX_LINES
            && (line.trim().is_empty() || line.starts_with(char::is_whitespace))
    }

    /// Adds one line's words (blank lines only count towards the limit).
    pub(super) fn push(&mut self, line: &str) {
        self.lines += 1;
        let words = line.trim();
        if !words.is_empty() {
            self.words.push(' ');
            self.words.push_str(words);
        }
    }

    /// The finished block as one failure.
    pub(super) fn into_failure(self) -> CliFailure {
        CliFailure::WorkspaceTrust(self.words)
    }
}
