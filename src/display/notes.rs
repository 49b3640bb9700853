//! `[Cursor]` notes about the run itself: a lost connection being retried, a background task's
//! notification, background commands stopped at the end. Each is said once: the CLI reports
//! one reconnect attempt twice (`connection/reconnecting`, then `retry/starting`), and a
//! notification repeated word for word adds nothing.

use std::collections::HashSet;

use super::REASON_LIMIT;
use super::SUMMARY_PREFIX;
use crate::cursor::events::CursorStatus;
use crate::text::clip_chars;
use crate::text::one_line;

/// Most distinct notification texts remembered (beyond it, repeats may show again).
const MAX_REMEMBERED: usize = 64;

/// What the notes of one turn already said.
#[derive(Debug, Default)]
pub(super) struct Notes {
    /// The reconnect attempt last announced, until the CLI says it is connected again.
    attempt_shown: Option<Option<u64>>,
    said: HashSet<String>,
    background_stopped: bool,
}

impl Notes {
    /// The note a status calls for, or `None` when it was already said (or says nothing).
    pub(super) fn note(&mut self, status: &CursorStatus) -> Option<String> {
        match status {
            CursorStatus::Reconnecting { attempt } => {
                if self.attempt_shown == Some(*attempt) {
                    return None;
                }
                self.attempt_shown = Some(*attempt);
                Some(match attempt {
                    Some(n) => {
                        format!("{SUMMARY_PREFIX} Connection lost; reconnecting (attempt {n})…")
                    }
                    None => format!("{SUMMARY_PREFIX} Connection lost; reconnecting…"),
                })
            }
            CursorStatus::Reconnected => {
                self.attempt_shown = None;
                None
            }
            CursorStatus::TaskNotification { text } => {
                let text = clip_chars(&one_line(text), REASON_LIMIT * 2);
                if self.said.len() >= MAX_REMEMBERED || !self.said.insert(text.clone()) {
                    return None;
                }
                Some(if text.is_empty() {
                    format!("{SUMMARY_PREFIX} A background task reported back.")
                } else {
                    format!("{SUMMARY_PREFIX} Background task: {text}")
                })
            }
            CursorStatus::BackgroundShellTimeout => {
                if std::mem::replace(&mut self.background_stopped, true) {
                    return None;
                }
                Some(format!(
                    "{SUMMARY_PREFIX} Cursor finished its reply and stopped background commands that were still running."
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reconnect_attempt_is_announced_once() {
        let mut notes = Notes::default();
        let first = CursorStatus::Reconnecting { attempt: Some(2) };
        assert_eq!(
            notes.note(&first).as_deref(),
            Some("[Cursor] Connection lost; reconnecting (attempt 2)…")
        );
        assert_eq!(notes.note(&first), None);
        assert_eq!(notes.note(&CursorStatus::Reconnected), None);
        assert!(notes.note(&first).is_some());
    }

    #[test]
    fn notifications_and_the_background_stop_are_said_once() {
        let mut notes = Notes::default();
        let done = CursorStatus::TaskNotification {
            text: String::from("build finished"),
        };
        assert_eq!(
            notes.note(&done).as_deref(),
            Some("[Cursor] Background task: build finished")
        );
        assert_eq!(notes.note(&done), None);
        assert!(notes.note(&CursorStatus::BackgroundShellTimeout).is_some());
        assert_eq!(notes.note(&CursorStatus::BackgroundShellTimeout), None);
    }
}
