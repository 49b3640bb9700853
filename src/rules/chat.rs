//! The rulebook state of one Cursor chat, as the session record keeps it.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;
use serde::Serialize;

use super::Rulebook;
use super::prompt::Attachment;
use super::stream_rules::Fired;

/// Per-chat rule state, stored in the session record next to the chat id (the record's
/// `rulebookDigest`, `attachedRules` and `firedRules` fields; `pendingRules` holds what the next
/// prompt must carry so a restart does not lose it). Serialises with those camelCase names;
/// [`Rulebook::prompt_preamble`](super::book::Rulebook::prompt_preamble) reads and updates it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ChatRules {
    /// Digest of the rulebook the chat last received
    /// ([`Rulebook::digest`](super::book::Rulebook::digest)).
    pub rulebook_digest: Option<String>,
    /// Glob (and mentioned manual) rules already attached in this chat: never attached again.
    pub attached_rules: BTreeSet<String>,
    /// Stream rules that fired in this chat: never fired again.
    pub fired_rules: BTreeSet<String>,
    /// Rules the next prompt must carry, in order (attached by paths during the last turn, or
    /// fired without an interrupt).
    pub pending_rules: Vec<String>,
}

impl ChatRules {
    /// Records glob attachments seen during a turn (from
    /// [`Rulebook::attach_for_tool_call`](super::book::Rulebook::attach_for_tool_call)):
    /// they go with the next prompt and are never attached again in this chat.
    pub fn note_attachments(&mut self, attachments: &[Attachment<'_>]) {
        for attachment in attachments {
            let name = &attachment.rule.name;
            if self.attached_rules.insert(name.clone()) {
                self.pending_rules.push(name.clone());
            }
        }
    }

    /// Records stream rules that fired: never fired again in this chat; those not delivered
    /// by an interrupted run's resume prompt go with the next prompt.
    pub fn note_fired(&mut self, fired: &[FiredRule]) {
        for f in fired {
            if self.fired_rules.insert(f.name.clone())
                && !f.delivered
                && !self.pending_rules.contains(&f.name)
            {
                self.pending_rules.push(f.name.clone());
            }
        }
    }
}

/// A stream rule that fired during a turn, as the turn reports it to the record keeper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FiredRule {
    /// The rule's name.
    pub name: String,
    /// Whether the rule already reached Cursor, in the prompt that resumed the run it
    /// interrupted ([`render_interruption`](super::prompt::render_interruption)); otherwise it
    /// goes with the next prompt.
    pub delivered: bool,
}

impl From<&Fired<'_>> for FiredRule {
    /// An interrupting match is delivered by the resume; any other waits for the next prompt.
    fn from(fired: &Fired<'_>) -> FiredRule {
        FiredRule {
            name: fired.rule.name.clone(),
            delivered: fired.interrupt,
        }
    }
}
/// What the rulebook delivered with a turn's prompt, to be recorded once Cursor has it.
#[derive(Debug, Clone)]
pub(crate) struct TurnRules {
    pub book: Arc<Rulebook>,
    /// The chat's rule state after this turn's prompt, for the resumed chat.
    pub chat: ChatRules,
    /// The same for a fresh chat, when Cursor could not resume and the turn started a new one.
    pub fresh: Option<ChatRules>,
    /// The chat this turn asked to resume.
    pub resumed: Option<String>,
}

impl TurnRules {
    /// The chat's rule state once the turn ran in `chat_id`, touched `paths` and fired the
    /// stream rules `fired`: glob rules matching those paths, and stream rules the resume of
    /// an interrupted run did not deliver, go with the next prompt; each is given once per
    /// chat.
    pub(crate) fn settle(
        &self,
        chat_id: Option<&str>,
        paths: &[PathBuf],
        fired: &[FiredRule],
    ) -> ChatRules {
        let started_fresh = self.resumed.is_some() && chat_id != self.resumed.as_deref();
        let mut chat = match (&self.fresh, started_fresh) {
            (Some(fresh), true) => fresh.clone(),
            _ => self.chat.clone(),
        };
        let attached = self.book.attach_for_paths(paths, &chat.attached_rules);
        chat.note_attachments(&attached);
        chat.note_fired(fired);
        chat
    }
}
