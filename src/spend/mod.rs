//! Cursor spend: what the gateway's Cursor runs cost, how it is shown and how it is bounded.
//!
//! This module holds the pieces every spend surface shares: the one token count
//! ([`TokenFigures`]: a run's, a session's, a report row's) and how users read it
//! ([`format_count`]), and the answer of the gateway's spend route
//! ([`SessionSpend`], served at `SPEND_ROUTE``/<session id>` and read by
//! `multi-cursor statusline`), and each budget's use ([`BudgetUse`]), which both that answer and
//! `multi-cursor status` carry.
//!
//! - [`ledger`]: the run ledger, one JSON line per Cursor run in `<state>/ledger/<YYYY-MM>.jsonl`.
//! - `book`: one gateway's spend book: figures per Claude session, live runs, admission.
//! - `limits`: the budgets and runaway guards from the environment; `SpendRefusal`.
//! - `daily`: today's tokens across gateways, read incrementally from the ledger.
//! - [`report`]: `multi-cursor usage`, the ledger summed by day, model and session.

pub(crate) mod book;
pub(crate) mod daily;
pub mod ledger;
pub(crate) mod limits;
pub mod report;

pub(crate) use book::RunTap;
pub(crate) use book::SpendBook;
pub(crate) use ledger::RunEnded;
pub(crate) use limits::SpendRefusal;

use serde::Deserialize;
use serde::Serialize;

/// The gateway route that answers one Claude session's spend as a [`SessionSpend`] JSON:
/// `GET /multi-cursor/spend/<session id>` with the gateway's token, like every route.
pub(crate) const SPEND_ROUTE: &str = "/multi-cursor/spend";

/// A token (or run) count as users read it: plain below 10,000 (`9999`), then thousands with
/// one decimal (`12.3k`, `999.9k`), then millions with one decimal (`1.2M`). Rounds down, so a
/// figure is never shown larger than it is (`10_049` → `10.0k`).
pub fn format_count(count: u64) -> String {
    if count < 10_000 {
        count.to_string()
    } else if count < 1_000_000 {
        let tenths = count / 100;
        format!("{}.{}k", tenths / 10, tenths % 10)
    } else {
        let tenths = count / 100_000;
        format!("{}.{}M", tenths / 10, tenths % 10)
    }
}

/// The tokens of a Cursor run, or of several summed (a turn, a session, a report row): input
/// and output, the cache counts when Cursor gave them, and whether any count is our estimate
/// rather than Cursor's own. The one token count of the ledger, the spend book, the spend
/// route, `usage` and the closing summary; a ledger line's fields are read into it
/// (`ledger::TokenSource::figures`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenFigures {
    /// Input tokens (prompt, context), as Cursor reported them or as estimated.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Input tokens read from Cursor's cache, when it said (in a sum: when any run said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    /// Input tokens written to Cursor's cache, when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// True when at least one of the counts is an estimate (or unknown).
    pub estimated: bool,
}

impl TokenFigures {
    /// `29.8k in / 178 out`, with ` (est.)` when estimated: the closing `[Cursor]` summary
    /// line and the status line both end with it.
    pub(crate) fn in_out(&self) -> String {
        let estimate = if self.estimated { " (est.)" } else { "" };
        format!(
            "{} in / {} out{estimate}",
            format_count(self.input_tokens),
            format_count(self.output_tokens)
        )
    }

    /// Adds `other` to these figures (saturating: a forged huge count shows the largest
    /// number, never a small wrapped one); the sum is an estimate when either part is, and has
    /// a cache count when either part has one.
    pub(crate) fn add(&mut self, other: TokenFigures) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.cache_read_tokens = add_known(self.cache_read_tokens, other.cache_read_tokens);
        self.cache_write_tokens = add_known(self.cache_write_tokens, other.cache_write_tokens);
        self.estimated |= other.estimated;
    }

    /// Input plus output tokens: what the budgets count.
    pub(crate) fn billed(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// The sum of two counts that may be unknown: unknown only when both are.
fn add_known(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        _ => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    }
}

/// A Cursor run going on right now in a session, as the spend route reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveSpend {
    /// The Cursor model id that runs (`auto` for Auto).
    pub model: String,
    /// Whole seconds since the run started.
    pub running_secs: u64,
    /// The last action row Cursor reported (`Read src/lib.rs`), if any yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_action: Option<String>,
}

/// What one Claude session's Cursor use cost so far in this gateway, its workers included:
/// the body of `GET /multi-cursor/spend/<session id>`. A session that never used Cursor has
/// `runs == 0`, `replays == 0` and no `live` run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionSpend {
    /// Claude Code's session id.
    pub session: String,
    /// The Cursor model id of the session's latest run, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Cursor runs started for the session (replays not counted).
    pub runs: u64,
    /// Answers served again from a record (they cost nothing).
    pub replays: u64,
    /// Tokens of those runs.
    #[serde(flatten)]
    pub tokens: TokenFigures,
    /// The run going on now, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<LiveSpend>,
    /// Each budget set on this gateway (not this session's share): what it allows, what was
    /// used and what is left, as `multi-cursor status` shows them. Empty, and left out of the
    /// JSON, when no budget is set (and in the answers of gateways older than the field).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub budgets: Vec<BudgetUse>,
}

/// A spend budget, named in JSON by the environment variable that sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Budget {
    /// `crate::env::BUDGET_TURNS_ENV`: turns one gateway may start.
    #[serde(rename = "MULTI_CURSOR_BUDGET_TURNS")]
    Turns,
    /// `crate::env::BUDGET_TOKENS_ENV`: input + output tokens one gateway's runs may use.
    #[serde(rename = "MULTI_CURSOR_BUDGET_TOKENS")]
    Tokens,
    /// `crate::env::BUDGET_DAILY_TOKENS_ENV`: input + output tokens all gateways may use since
    /// local midnight.
    #[serde(rename = "MULTI_CURSOR_BUDGET_DAILY_TOKENS")]
    DailyTokens,
}

impl Budget {
    /// The environment variable that sets it.
    pub(crate) fn variable(self) -> &'static str {
        match self {
            Budget::Turns => crate::env::BUDGET_TURNS_ENV,
            Budget::Tokens => crate::env::BUDGET_TOKENS_ENV,
            Budget::DailyTokens => crate::env::BUDGET_DAILY_TOKENS_ENV,
        }
    }

    /// What it counts, as a plural noun: `turns` or `tokens`.
    pub(crate) fn unit(self) -> &'static str {
        match self {
            Budget::Turns => "turns",
            Budget::Tokens | Budget::DailyTokens => "tokens",
        }
    }

    /// True for the budget that starts again at local midnight.
    pub(crate) fn is_daily(self) -> bool {
        self == Budget::DailyTokens
    }
}

/// One budget that is set, with its use: `{"variable": "MULTI_CURSOR_BUDGET_TURNS", "limit":
/// 10, "used": 4, "left": 6}`. Computed in one place (`limits::SpendLimits::uses`) for
/// `multi-cursor status` and the spend route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetUse {
    /// Which budget.
    pub variable: Budget,
    /// The limit set.
    pub limit: u64,
    /// What was used so far (turns started, or input + output tokens).
    pub used: u64,
    /// What is left: the limit less the use, never below 0.
    pub left: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_users_expect() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(178), "178");
        assert_eq!(format_count(9_999), "9999");
        assert_eq!(format_count(10_000), "10.0k");
        assert_eq!(format_count(10_049), "10.0k");
        assert_eq!(format_count(29_812), "29.8k");
        assert_eq!(format_count(999_999), "999.9k");
        assert_eq!(format_count(1_000_000), "1.0M");
        assert_eq!(format_count(1_249_999), "1.2M");
        assert_eq!(format_count(u64::MAX), "18446744073709.5M");
    }

    #[test]
    fn in_out_marks_estimates() {
        let provider = TokenFigures {
            input_tokens: 29_812,
            output_tokens: 178,
            ..TokenFigures::default()
        };
        assert_eq!(provider.in_out(), "29.8k in / 178 out");
        let mut sum = provider;
        sum.add(TokenFigures {
            input_tokens: 1,
            output_tokens: 2,
            cache_read_tokens: Some(5),
            cache_write_tokens: None,
            estimated: true,
        });
        assert_eq!(sum.in_out(), "29.8k in / 180 out (est.)");
        assert_eq!(sum.billed(), 29_993);
        assert_eq!(
            (sum.cache_read_tokens, sum.cache_write_tokens),
            (Some(5), None)
        );
        sum.add(TokenFigures {
            input_tokens: u64::MAX,
            cache_read_tokens: Some(u64::MAX),
            ..TokenFigures::default()
        });
        assert_eq!(
            (sum.input_tokens, sum.cache_read_tokens),
            (u64::MAX, Some(u64::MAX))
        );
    }

    #[test]
    fn the_spend_answer_is_flat_json() {
        let spend = SessionSpend {
            session: "s1".into(),
            model: Some("auto".into()),
            runs: 2,
            replays: 1,
            tokens: TokenFigures {
                input_tokens: 10,
                output_tokens: 5,
                estimated: true,
                ..TokenFigures::default()
            },
            live: None,
            budgets: Vec::new(),
        };
        let json = serde_json::to_value(&spend).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"session": "s1", "model": "auto", "runs": 2, "replays": 1,
                "input_tokens": 10, "output_tokens": 5, "estimated": true})
        );
        let back: SessionSpend = serde_json::from_value(json).unwrap();
        assert_eq!(back, spend);
    }

    #[test]
    fn budgets_are_named_by_their_variable() {
        for budget in [Budget::Turns, Budget::Tokens, Budget::DailyTokens] {
            assert_eq!(
                serde_json::to_value(budget).unwrap(),
                serde_json::json!(budget.variable())
            );
        }
        let spend = SessionSpend {
            session: "s1".into(),
            budgets: vec![BudgetUse {
                variable: Budget::DailyTokens,
                limit: 50,
                used: 60,
                left: 0,
            }],
            ..SessionSpend::default()
        };
        let json = serde_json::to_value(&spend).unwrap();
        assert_eq!(
            json["budgets"],
            serde_json::json!([{"variable": "MULTI_CURSOR_BUDGET_DAILY_TOKENS",
                "limit": 50, "used": 60, "left": 0}])
        );
        assert_eq!(serde_json::from_value::<SessionSpend>(json).unwrap(), spend);
    }

    /// The serde names (attributes need literals) are the variables' own names.
    #[test]
    fn a_budget_is_named_by_its_variable_in_json() {
        for budget in [Budget::Turns, Budget::Tokens, Budget::DailyTokens] {
            assert_eq!(
                serde_json::to_value(budget).unwrap(),
                serde_json::json!(budget.variable())
            );
        }
    }
}
