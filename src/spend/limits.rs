//! The limits a gateway puts on Cursor spend, read from the environment when it starts, and the
//! refusal a turn gets when one of them is reached.
//!
//! Budgets (off unless set): [`BUDGET_TURNS_ENV`] and [`BUDGET_TOKENS_ENV`] per gateway, its
//! workers included, and [`BUDGET_DAILY_TOKENS_ENV`] across the user's gateways, summed from
//! the ledger since local midnight. Runaway guards (on by default): [`LOOP_LIMIT_ENV`] (the
//! same task starting a new worker again and again) and [`MAX_TURNS_PER_MINUTE_ENV`]. A value
//! that is not a whole number keeps the gateway from starting, with a message naming the
//! variable: a budget the user meant to set is never silently ignored.

use crate::env::BUDGET_DAILY_TOKENS_ENV;
use crate::env::BUDGET_TOKENS_ENV;
use crate::env::BUDGET_TURNS_ENV;
use crate::env::DEFAULT_LOOP_LIMIT;
use crate::env::DEFAULT_TURNS_PER_MINUTE;
use crate::env::LOOP_LIMIT_ENV;
use crate::env::MAX_TURNS_PER_MINUTE_ENV;
use std::time::Duration;

use thiserror::Error;

use super::Budget;
use super::BudgetUse;

/// The window the loop guard counts starts in.
pub(crate) const LOOP_WINDOW: Duration = Duration::from_secs(10 * 60);
/// The rate guard's window.
pub(crate) const RATE_WINDOW: Duration = Duration::from_secs(60);

/// The spend limits of one gateway; `None` (or 0 for the guards) is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SpendLimits {
    pub turns: Option<u64>,
    pub tokens: Option<u64>,
    pub daily_tokens: Option<u64>,
    /// The start of the same task refused (0: off).
    pub loop_limit: u64,
    /// Turns a minute (0: off).
    pub turns_per_minute: u64,
}

impl Default for SpendLimits {
    fn default() -> Self {
        SpendLimits {
            turns: None,
            tokens: None,
            daily_tokens: None,
            loop_limit: DEFAULT_LOOP_LIMIT,
            turns_per_minute: DEFAULT_TURNS_PER_MINUTE,
        }
    }
}

/// A spend variable that is not a whole number.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "{name}={value:?} is not a whole number of {unit}; set it to one (for example {name}={example}) or unset it"
)]
pub(crate) struct LimitError {
    pub name: &'static str,
    pub value: String,
    pub unit: &'static str,
    pub example: &'static str,
}

impl SpendLimits {
    /// The limits from the process environment.
    pub(crate) fn from_env() -> Result<SpendLimits, LimitError> {
        SpendLimits::from_lookup(|name| std::env::var(name).ok())
    }

    /// The limits from `lookup` (a variable's value, if set); an empty value is unset.
    pub(crate) fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<SpendLimits, LimitError> {
        let read =
            |name: &'static str, unit: &'static str, example: &'static str| match lookup(name)
                .map(|v| v.trim().to_string())
            {
                None => Ok(None),
                Some(value) if value.is_empty() => Ok(None),
                Some(value) => value.parse::<u64>().map(Some).map_err(|_| LimitError {
                    name,
                    value,
                    unit,
                    example,
                }),
            };
        let defaults = SpendLimits::default();
        Ok(SpendLimits {
            turns: read(BUDGET_TURNS_ENV, "turns", "200")?,
            tokens: read(BUDGET_TOKENS_ENV, "tokens", "5000000")?,
            daily_tokens: read(BUDGET_DAILY_TOKENS_ENV, "tokens", "20000000")?,
            loop_limit: read(LOOP_LIMIT_ENV, "starts", "5")?.unwrap_or(defaults.loop_limit),
            turns_per_minute: read(MAX_TURNS_PER_MINUTE_ENV, "turns", "120")?
                .unwrap_or(defaults.turns_per_minute),
        })
    }

    /// Each budget that is set (turns, tokens, daily tokens, in that order) with its use and
    /// what is left, given the turns and tokens this gateway used and today's tokens across
    /// gateways: the figures `multi-cursor status` and the spend route both show.
    pub(crate) fn uses(&self, turns: u64, tokens: u64, daily_tokens: u64) -> Vec<BudgetUse> {
        [
            (Budget::Turns, self.turns, turns),
            (Budget::Tokens, self.tokens, tokens),
            (Budget::DailyTokens, self.daily_tokens, daily_tokens),
        ]
        .into_iter()
        .filter_map(|(variable, limit, used)| {
            limit.map(|limit| BudgetUse {
                variable,
                limit,
                used,
                left: limit.saturating_sub(used),
            })
        })
        .collect()
    }
}

/// Why a Cursor turn was refused before anything was spawned: 429 `rate_limit_error` with
/// `x-should-retry: false`. Each message names the variable, the limit and what was used.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub(crate) enum SpendRefusal {
    #[error(
        "this gateway's Cursor turn budget is used up: {BUDGET_TURNS_ENV} is {limit} and {used} {} started; nothing was run. Raise or unset {BUDGET_TURNS_ENV} and start multi-cursor again",
        if *used == 1 { "turn was" } else { "turns were" }
    )]
    Turns { limit: u64, used: u64 },
    #[error(
        "this gateway's Cursor token budget is used up: {BUDGET_TOKENS_ENV} is {limit} and its runs used {used} tokens (input + output); nothing was run. Raise or unset {BUDGET_TOKENS_ENV} and start multi-cursor again"
    )]
    Tokens { limit: u64, used: u64 },
    #[error(
        "today's Cursor token budget is used up: {BUDGET_DAILY_TOKENS_ENV} is {limit} and {used} tokens (input + output) were used since midnight across your multi-cursor sessions; nothing was run. It resets at midnight; raise or unset {BUDGET_DAILY_TOKENS_ENV} to go on now"
    )]
    DailyTokens { limit: u64, used: u64 },
    #[error(
        "the same task was handed to a new Cursor worker {starts} times within {} minutes in this session, which looks like a loop, so this start was refused and nothing was run. To go on, continue the existing worker's conversation, change the task, wait, or set {LOOP_LIMIT_ENV} higher ({LOOP_LIMIT_ENV}=0 turns this guard off; it is {limit})",
        LOOP_WINDOW.as_secs() / 60
    )]
    Loop { starts: u64, limit: u64 },
    #[error(
        "more than {limit} Cursor turns were started in the last minute in this gateway ({MAX_TURNS_PER_MINUTE_ENV} is {limit}); nothing was run. Wait a minute, or raise {MAX_TURNS_PER_MINUTE_ENV} (0 turns this guard off)"
    )]
    Rate { limit: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pairs: &[(&str, &str)]) -> Result<SpendLimits, LimitError> {
        SpendLimits::from_lookup(|name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_string())
        })
    }

    #[test]
    fn defaults_guard_and_do_not_budget() {
        assert_eq!(from(&[]), Ok(SpendLimits::default()));
        let limits = from(&[(BUDGET_TURNS_ENV, " 5 "), (LOOP_LIMIT_ENV, "0")]).unwrap();
        assert_eq!(limits.turns, Some(5));
        assert_eq!(limits.loop_limit, 0);
        assert_eq!(from(&[(BUDGET_TOKENS_ENV, "")]).unwrap().tokens, None);
    }

    #[test]
    fn uses_list_the_budgets_set_with_what_is_left() {
        assert_eq!(SpendLimits::default().uses(5, 500, 900), Vec::new());
        let limits = SpendLimits {
            turns: Some(10),
            daily_tokens: Some(800),
            ..SpendLimits::default()
        };
        assert_eq!(
            limits.uses(4, 500, 900),
            vec![
                BudgetUse {
                    variable: Budget::Turns,
                    limit: 10,
                    used: 4,
                    left: 6
                },
                BudgetUse {
                    variable: Budget::DailyTokens,
                    limit: 800,
                    used: 900,
                    left: 0
                },
            ]
        );
    }

    #[test]
    fn a_bad_value_names_the_variable() {
        let error = from(&[(BUDGET_DAILY_TOKENS_ENV, "2M")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "MULTI_CURSOR_BUDGET_DAILY_TOKENS=\"2M\" is not a whole number of tokens; set it to one (for example MULTI_CURSOR_BUDGET_DAILY_TOKENS=20000000) or unset it"
        );
        assert!(from(&[(MAX_TURNS_PER_MINUTE_ENV, "-1")]).is_err());
    }

    #[test]
    fn refusals_name_variable_limit_and_use() {
        let text = SpendRefusal::Tokens {
            limit: 1000,
            used: 1200,
        }
        .to_string();
        assert!(
            text.contains("MULTI_CURSOR_BUDGET_TOKENS is 1000"),
            "{text}"
        );
        assert!(text.contains("used 1200 tokens"), "{text}");
        let text = SpendRefusal::Loop {
            starts: 3,
            limit: 3,
        }
        .to_string();
        assert!(text.contains("3 times within 10 minutes"), "{text}");
        assert!(text.contains("MULTI_CURSOR_LOOP_LIMIT=0"), "{text}");
    }
}
