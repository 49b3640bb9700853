//! The closing summary: `[Cursor] N native actions: …`, `Changed: …`, `Not completed: …`,
//! `Unconfirmed: …` and the Fast variant served unasked, as lines and as one sentence for an
//! error message.

use super::ActionKind;
use super::SUMMARY_LIST_LIMIT;
use super::SUMMARY_PREFIX;
use super::State;
use super::TRACKED_ACTIONS;
use super::TurnDisplay;
use super::rows::describe;
use crate::cursor::sanitize::sanitize;

impl TurnDisplay {
    /// The closing summary's lines (empty when no native action ran and nothing else needs
    /// saying).
    pub(crate) fn summary_lines(&self) -> Vec<String> {
        let mut lines = self.action_lines();
        if let Some(served) = &self.served_fast {
            lines.push(format!(
                "{SUMMARY_PREFIX} Cursor ran {served}, a Fast variant, though a model that is not Fast was asked for."
            ));
        }
        lines
    }

    /// The summary's lines about native actions (empty when none ran).
    fn action_lines(&self) -> Vec<String> {
        let total: usize = self.counts.iter().map(|(_, _, n)| n).sum();
        if total == 0 {
            return Vec::new();
        }
        let mut ordered: Vec<&(ActionKind, String, usize)> = self.counts.iter().collect();
        // A stable sort: tools counted under their own name stay in first-seen order.
        ordered.sort_by_key(|(kind, _, _)| kind.rank());
        let counts: Vec<String> = ordered
            .into_iter()
            .map(|(_, label, n)| format!("{n} {label}"))
            .collect();
        let noun = if total == 1 { "action" } else { "actions" };
        let mut lines = vec![format!(
            "{SUMMARY_PREFIX} {total} native {noun}: {}.",
            counts.join(", ")
        )];
        let tracked = self.actions.iter().filter(|a| a.kind != ActionKind::Plan);
        let mut changed: Vec<String> = Vec::new();
        for path in tracked.clone().filter_map(|a| a.changed.clone()) {
            if !changed.contains(&path) {
                changed.push(path);
            }
        }
        if !changed.is_empty() {
            lines.push(format!(
                "{SUMMARY_PREFIX} Changed: {}.",
                listed(&changed, ", ")
            ));
        }
        let mut failed: Vec<(String, usize)> = Vec::new();
        for action in tracked.clone() {
            let why = match &action.state {
                State::Failed(why) | State::Denied(why) => why,
                State::Unapproved { short, .. } => short,
                _ => continue,
            };
            let item = format!("{} ({why})", describe(action, self));
            match failed.iter_mut().find(|(text, _)| *text == item) {
                Some((_, n)) => *n += 1,
                None => failed.push((item, 1)),
            }
        }
        if !failed.is_empty() {
            let items: Vec<String> = failed
                .into_iter()
                .map(|(text, n)| if n > 1 { format!("{text} ×{n}") } else { text })
                .collect();
            lines.push(format!(
                "{SUMMARY_PREFIX} Not completed: {}.",
                listed(&items, "; ")
            ));
        }
        let unconfirmed = tracked
            .filter(|a| matches!(a.state, State::Running | State::Unreported))
            .count();
        if unconfirmed > 0 {
            let noun = if unconfirmed == 1 {
                "action"
            } else {
                "actions"
            };
            lines.push(format!(
                "{SUMMARY_PREFIX} Unconfirmed: {unconfirmed} {noun} ended without a reported outcome."
            ));
        }
        if self.untracked > 0 {
            lines.push(format!(
                "{SUMMARY_PREFIX} Only the first {TRACKED_ACTIONS} actions are itemised above; {} more ran.",
                self.untracked
            ));
        }
        lines
    }

    /// The summary on one line (for an error message), or `None` when no action ran.
    pub(crate) fn summary_sentence(&self) -> Option<String> {
        let lines = self.summary_lines();
        if lines.is_empty() {
            return None;
        }
        let sentence = lines
            .iter()
            .map(|l| l.trim_start_matches(SUMMARY_PREFIX).trim())
            .collect::<Vec<_>>()
            .join(" ");
        Some(sanitize(&sentence))
    }
}

/// Items joined, at most [`SUMMARY_LIST_LIMIT`], then `and N more`.
fn listed(items: &[String], separator: &str) -> String {
    let shown = items
        .iter()
        .take(SUMMARY_LIST_LIMIT)
        .cloned()
        .collect::<Vec<_>>()
        .join(separator);
    if items.len() > SUMMARY_LIST_LIMIT {
        format!(
            "{shown}{separator}and {} more",
            items.len() - SUMMARY_LIST_LIMIT
        )
    } else {
        shown
    }
}
