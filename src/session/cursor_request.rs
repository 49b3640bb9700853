//! A `multi/cursor/*` request read once: the parsed Messages request with everything the way
//! down needs from it (whose it is, its digest, its model effort), and the
//! prompts it gives Cursor for a chat's first turn or for a chat that continues.
//!
//! The gateway builds a [`CursorRequest`] from the body and headers, then carries it down to the
//! session and the turn; nothing below goes back to the raw body.

use std::path::Path;
use std::path::PathBuf;

use crate::anthropic::MessagesRequest;
use crate::anthropic::request::MAX_SAFEGUARDS;
use crate::session::conversation;
use crate::session::conversation::Continuation;
use crate::session::conversation::DEFAULT_TRANSCRIPT_LIMIT;
use crate::session::conversation::Prompt;
use crate::session::conversation::RequestError;
use crate::session::identity::Identity;
use crate::session::identity::MAIN_WORKER;

/// One Cursor request, parsed once.
#[derive(Debug, Clone)]
pub(crate) struct CursorRequest {
    /// The Messages request as sent.
    pub request: MessagesRequest,
    /// Claude Code's session id: the header, else `metadata.user_id`, else the default.
    pub session: String,
    /// The worker (subagent) id when the request is a worker's.
    pub worker: Option<String>,
    /// The canonical digest of the body without `stream` (part of the exchange key).
    pub digest: [u8; 32],
}

/// What Cursor is given for a turn.
#[derive(Debug, Clone)]
pub(crate) struct TurnPrompts {
    /// The prompt for the chat this turn runs in (the recorded one, or a new one).
    pub prompt: Prompt,
    /// When a recorded chat continues: the prompt for a fresh chat (the whole bounded
    /// transcript), used if Cursor will not resume it. A worker's `model:` line is already
    /// taken off it.
    pub fresh: Option<Prompt>,
    /// Cursor's recorded answer is no longer in the conversation Claude Code sent: the user is
    /// told ([`conversation::OUTER_HISTORY_NOTICE`]).
    pub history_changed: bool,
}

impl CursorRequest {
    /// Reads `body` once. Refused here, before anything answers them: a request that continues
    /// a server-side thread (it may carry only the newest messages), and one asking for more
    /// than [`MAX_SAFEGUARDS`] action checks. `session_header` and `worker_header` are Claude Code's
    /// `X-Claude-Code-Session-Id` and `X-Claude-Code-Agent-Id` (empty counts as absent);
    /// `default_session` is used when neither the header nor the metadata names a session.
    pub(crate) fn parse(
        body: &[u8],
        session_header: Option<&str>,
        worker_header: Option<&str>,
        default_session: &str,
    ) -> Result<CursorRequest, RequestError> {
        let request = conversation::parse_request(body)?;
        if request.continues_a_thread() {
            return Err(RequestError::ThreadContinuation);
        }
        let checks = request.safeguards.as_ref().map_or(0, Vec::len);
        if checks > MAX_SAFEGUARDS {
            return Err(RequestError::TooManySafeguards {
                count: checks,
                limit: MAX_SAFEGUARDS,
            });
        }
        let digest = conversation::exchange_body_digest_bytes(body)?;
        let session = session_header
            .map(str::to_string)
            .or_else(|| conversation::session_id_from_metadata(&request))
            .unwrap_or_else(|| default_session.to_string());
        Ok(CursorRequest {
            request,
            session,
            worker: worker_header.map(str::to_string),
            digest,
        })
    }

    /// Who the request's Cursor conversation belongs to in `workspace`: its session, and its
    /// worker or [`MAIN_WORKER`].
    pub(crate) fn identity(&self, workspace: PathBuf) -> Identity {
        Identity {
            workspace,
            session: self.session.clone(),
            worker: self
                .worker
                .clone()
                .unwrap_or_else(|| MAIN_WORKER.to_string()),
        }
    }

    /// The model variant Claude Code asked for (`output_config.effort`).
    pub(crate) fn effort(&self) -> Option<&str> {
        self.request
            .output_config
            .as_ref()
            .and_then(|c| c.effort.as_deref())
    }

    /// The prompts of a turn in a chat that has `chat_id` and recorded `answer` (both `None`
    /// on a chat's first turn). Base64 images of the newest turn are written to `images`.
    pub(crate) fn prompts(
        &self,
        chat_id: Option<&str>,
        answer: Option<&str>,
        images: &Path,
    ) -> Result<TurnPrompts, RequestError> {
        let limit = DEFAULT_TRANSCRIPT_LIMIT;
        let request = &self.request;
        let (prompt, history_changed) = match (chat_id, answer) {
            (Some(_), Some(answer)) => {
                match conversation::continuation_prompt(request, answer, limit, images)? {
                    Continuation::Continue(prompt) => (prompt, false),
                    Continuation::HistoryChanged(prompt) => (prompt, true),
                }
            }
            _ => (
                conversation::first_turn_prompt(request, limit, images)?,
                false,
            ),
        };
        let fresh = match chat_id {
            Some(_) => {
                let mut fresh = conversation::first_turn_prompt(request, limit, images)?;
                if self.worker.is_some() {
                    fresh.take_worker_model_line();
                }
                Some(fresh)
            }
            None => None,
        };
        Ok(TurnPrompts {
            prompt,
            fresh,
            history_changed,
        })
    }
}
