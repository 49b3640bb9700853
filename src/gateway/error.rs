//! The gateway's refusals and failures as Anthropic error responses: the one place where a
//! domain failure (a request, the catalog, a turn, a compaction) gets its HTTP status.
//!
//! Every error body is `{"type":"error","error":{"type":…,"message":"multi-cursor: …"}}` with
//! `x-should-retry: false`: Claude Code then shows the message once instead of retrying (a 400
//! is still re-sent quickly a few times; nothing runs for those).

use axum::http::HeaderValue;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::response::Response;

use crate::anthropic::ErrorType;
use crate::anthropic::StreamEvent;
use crate::anthropic::error::ErrorDetail;
use crate::anthropic::error::error_body;
use crate::compaction::CompactionError;
use crate::cursor::CliFailure;
use crate::cursor::catalog::CatalogError;
use crate::cursor::failure::RunFailure;
use crate::cursor::failure::classify_plain_text;
use crate::cursor::process::RunError;
use crate::orchestrate::Refusal;
use crate::session::conversation::RequestError;
use crate::session::exchange::ExchangeFailure;
use crate::session::lock::LockError;
use crate::session::record::RecordError;
use crate::session::store::StoreError;
use crate::spend::SpendRefusal;
use crate::turn::TurnError;

/// One status the gateway answers errors with: its Anthropic error type and the cases that get
/// it, in the words of the reference page (`docs/gateway.md`'s status table is generated from
/// `STATUS_TABLE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StatusRow {
    pub status: StatusCode,
    pub kind: ErrorType,
    pub cases: &'static str,
}

/// 400.
pub(crate) const BAD_REQUEST: StatusRow = StatusRow {
    status: StatusCode::BAD_REQUEST,
    kind: ErrorType::InvalidRequest,
    cases: "malformed JSON, no new user message, unsupported request feature, agent missing, a permission setting Cursor would not enforce, a Cursor configuration that widens accept edits or auto, Cursor refused the model or the workspace is not trusted, a request path that cannot be forwarded to the upstream, a message-thread continuation on a Cursor route (`capability_rejected: beta_header:message-threads-2026-08-12`, on which Claude Code sends the whole history)",
};
/// 401.
pub(crate) const UNAUTHORIZED: StatusRow = StatusRow {
    status: StatusCode::UNAUTHORIZED,
    kind: ErrorType::Authentication,
    cases: "missing or wrong token",
};
/// 403.
pub(crate) const FORBIDDEN: StatusRow = StatusRow {
    status: StatusCode::FORBIDDEN,
    kind: ErrorType::Permission,
    cases: "`Origin` header, non-loopback `Host`, no Anthropic login (placeholder credential)",
};
/// 424: Cursor's own login or plan stands in the way. Not 401 or 403: Claude Code puts its
/// own `Please run /login` (terminal) or `Failed to authenticate.` (`-p`) in front of those,
/// pointing at the Anthropic login; nor 400 or 422, which it sends again up to five times.
/// A 424 it shows as `API Error: 424 <our message>` once, in the terminal and with `-p`
/// (measured on Claude Code 2.1.328 and 2.1.337).
pub(crate) const CURSOR_LOGIN: StatusRow = StatusRow {
    status: StatusCode::FAILED_DEPENDENCY,
    kind: ErrorType::Permission,
    cases: "Cursor logged out (answered again without running Cursor until its login changes), Cursor refused the key in `CURSOR_API_KEY`, the account's plan runs only Auto",
};
/// 404.
pub(crate) const NOT_FOUND: StatusRow = StatusRow {
    status: StatusCode::NOT_FOUND,
    kind: ErrorType::NotFound,
    cases: "unknown path",
};
/// 409.
pub(crate) const CONFLICT: StatusRow = StatusRow {
    status: StatusCode::CONFLICT,
    kind: ErrorType::Conflict,
    cases: "a different request while this identity's turn runs; the session is open in another gateway; two records claim the chat; Cursor's chat held by another agent and no fresh chat possible",
};
/// 413.
pub(crate) const TOO_LARGE: StatusRow = StatusRow {
    status: StatusCode::PAYLOAD_TOO_LARGE,
    kind: ErrorType::RequestTooLarge,
    cases: "body over 8 MiB, declared or chunked",
};
/// 429.
pub(crate) const RATE_LIMITED: StatusRow = StatusRow {
    status: StatusCode::TOO_MANY_REQUESTS,
    kind: ErrorType::RateLimit,
    cases: "Cursor's usage or spend limit reached; Cursor short of capacity (`resource_exhausted`, high load, a rate limit); all `MULTI_CURSOR_MAX_SESSIONS` sessions busy; a spend budget or runaway guard ([spend.md](spend.md#budgets))",
};
/// 500.
pub(crate) const INTERNAL: StatusRow = StatusRow {
    status: StatusCode::INTERNAL_SERVER_ERROR,
    kind: ErrorType::Api,
    cases: "a session record that cannot be read or written; the workspace's rulebook could not be loaded",
};
/// 502.
pub(crate) const BAD_GATEWAY: StatusRow = StatusRow {
    status: StatusCode::BAD_GATEWAY,
    kind: ErrorType::Api,
    cases: "the Cursor run ended without a result for any other reason (server refusal after reconnects, stopped from outside, a crash, a refused resume with no fresh chat possible), stalled, or wrote no first event in time; the Anthropic upstream cannot be reached (the one error sent without `x-should-retry: false`: Claude Code's own retries suit a passing network problem)",
};

#[cfg(test)]
/// Every error status, in the order of the reference page.
pub(crate) const STATUS_TABLE: [StatusRow; 10] = [
    BAD_REQUEST,
    UNAUTHORIZED,
    FORBIDDEN,
    CURSOR_LOGIN,
    NOT_FOUND,
    CONFLICT,
    TOO_LARGE,
    RATE_LIMITED,
    INTERNAL,
    BAD_GATEWAY,
];

#[cfg(test)]
/// [`STATUS_TABLE`] as the reference page's markdown table.
pub(crate) fn status_table_markdown() -> String {
    let mut out = String::from("| case | status | error type |\n|---|---|---|\n");
    for row in STATUS_TABLE {
        out.push_str(&format!(
            "| {} | {} | `{}` |\n",
            row.cases,
            row.status.as_u16(),
            row.kind.as_str()
        ));
    }
    out
}

/// One error answer: status, Anthropic error type and a message that names the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub kind: ErrorType,
    pub message: String,
    /// Whether Claude Code may retry on its own (only an unreachable upstream): otherwise the
    /// answer carries `x-should-retry: false`.
    pub retry: bool,
}

impl ApiError {
    fn of(row: StatusRow, message: impl Into<String>) -> Self {
        let message = message.into();
        let message = if message.starts_with("multi-cursor: ") {
            message
        } else {
            format!("multi-cursor: {message}")
        };
        ApiError {
            status: row.status,
            kind: row.kind,
            message,
            retry: false,
        }
    }

    /// 400: malformed request, unknown model, unsupported mode or feature, agent missing.
    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        Self::of(BAD_REQUEST, message)
    }

    /// 400 whose message is exactly `message`, without our name: a `capability_rejected: …`
    /// token, which Claude Code matches as the whole message to send the request again
    /// without the capability (it says what to do next to Claude Code, not to a person).
    pub(crate) fn capability_rejected(message: impl Into<String>) -> Self {
        ApiError {
            status: BAD_REQUEST.status,
            kind: BAD_REQUEST.kind,
            message: message.into(),
            retry: false,
        }
    }

    /// 401: missing or wrong gateway token.
    pub(crate) fn unauthorized(message: impl Into<String>) -> Self {
        Self::of(UNAUTHORIZED, message)
    }

    /// 403: browser origin, foreign Host, no Anthropic login.
    pub(crate) fn forbidden(message: impl Into<String>) -> Self {
        Self::of(FORBIDDEN, message)
    }

    /// 424: Cursor is logged out, refused its API key, or its plan runs only Auto.
    pub(crate) fn cursor_login(message: impl Into<String>) -> Self {
        Self::of(CURSOR_LOGIN, message)
    }

    /// 404: unknown path.
    pub(crate) fn not_found(message: impl Into<String>) -> Self {
        Self::of(NOT_FOUND, message)
    }

    /// 409: a different request while this identity's turn runs, or another gateway owns it.
    pub(crate) fn conflict(message: impl Into<String>) -> Self {
        Self::of(CONFLICT, message)
    }

    /// 413: body over the cap.
    pub(crate) fn too_large(message: impl Into<String>) -> Self {
        Self::of(TOO_LARGE, message)
    }

    /// 429: Cursor's rate limit.
    pub(crate) fn rate_limited(message: impl Into<String>) -> Self {
        Self::of(RATE_LIMITED, message)
    }

    /// 502: the Cursor run failed after it may have acted.
    pub(crate) fn run_failed(message: impl Into<String>) -> Self {
        Self::of(BAD_GATEWAY, message)
    }

    /// 502 without `x-should-retry: false`: the Anthropic upstream could not be reached, a
    /// passing network problem Claude Code's own retries suit.
    pub(crate) fn upstream_unreachable(message: impl Into<String>) -> Self {
        ApiError {
            retry: true,
            ..Self::of(BAD_GATEWAY, message)
        }
    }

    /// 500: multi-cursor itself could not do its part (a record it cannot read or write).
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Self::of(INTERNAL, message)
    }

    /// The JSON body Anthropic clients expect.
    pub(crate) fn body(&self) -> serde_json::Value {
        error_body(self.kind, &self.message)
    }

    /// The streamed `error` event of an answer that fails after it started.
    pub(crate) fn event(&self) -> StreamEvent {
        StreamEvent::Error {
            error: ErrorDetail {
                kind: self.kind,
                message: self.message.clone(),
            },
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        if !self.retry {
            response
                .headers_mut()
                .insert("x-should-retry", HeaderValue::from_static("false"));
        }
        response
    }
}

impl ApiError {
    /// The answer with `Connection: close`, for a refusal whose connection must not be kept: a
    /// guard's refusal (whoever sent it gets no idle connection), and a body over the cap, which
    /// is left unread, so the connection cannot carry another request (a client that pooled it
    /// would send its next request into the unread body's bytes and read an incomplete answer).
    pub(crate) fn into_closing_response(self) -> Response {
        let mut response = self.into_response();
        response.headers_mut().insert(
            axum::http::header::CONNECTION,
            HeaderValue::from_static("close"),
        );
        response
    }
}

// ---------------------------------------------------------------------------------------------
// The status table: every domain failure → status, Anthropic error type and message
// ---------------------------------------------------------------------------------------------

impl From<&SpendRefusal> for ApiError {
    /// 429 for every budget and runaway guard: nothing was run, and a retry would be refused
    /// again (`x-should-retry: false`, like every error here).
    fn from(refusal: &SpendRefusal) -> Self {
        ApiError::rate_limited(refusal.to_string())
    }
}

impl From<&RequestError> for ApiError {
    /// 400 for everything the request itself causes; 502 when an image could not be saved.
    fn from(error: &RequestError) -> Self {
        let message = error.to_string();
        match error {
            RequestError::ImageWrite(_) => ApiError::run_failed(message),
            RequestError::InvalidJson(_)
            | RequestError::InvalidRequest(_)
            | RequestError::ForcedToolChoice(_)
            | RequestError::ToolChoiceNone
            | RequestError::UnknownToolChoice(_)
            | RequestError::StopSequences
            | RequestError::OutputFormat
            | RequestError::Document
            | RequestError::NoUserMessage
            | RequestError::NoNewUserMessage
            | RequestError::InvalidImage(_)
            | RequestError::TooManySafeguards { .. } => ApiError::bad_request(message),
            RequestError::ThreadContinuation => ApiError::capability_rejected(message),
        }
    }
}

impl From<Refusal> for ApiError {
    /// A Cursor request the orchestrator did not run: 400 for the request, a missing agent,
    /// the policy and an unknown model; 409 while a different request runs; 500 when the
    /// rulebook could not be loaded; the catalog, store and compaction cases as their own
    /// errors map.
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Request(error) => ApiError::from(&error),
            Refusal::Agent(error) => ApiError::bad_request(error.to_string()),
            Refusal::Policy(refusal) => ApiError::bad_request(refusal.to_string()),
            Refusal::CatalogUnavailable(error) => ApiError::from(&error),
            Refusal::Model(error) => ApiError::from(&error),
            Refusal::Compaction(error) => ApiError::from(&error),
            Refusal::Store(error) => ApiError::from(&error),
            refusal @ Refusal::Busy => ApiError::conflict(refusal.to_string()),
            refusal @ Refusal::Rulebook(_) => ApiError::internal(refusal.to_string()),
            Refusal::Spend(refusal) => ApiError::from(&refusal),
        }
    }
}

impl From<&StoreError> for ApiError {
    /// A session that could not be opened: 409 when another gateway holds its lock or two
    /// records claim its chat, 429 when every session slot is busy, 500 for the rest (an
    /// unreadable, refused or unwritable record, lock or folder).
    fn from(error: &StoreError) -> Self {
        let message = error.to_string();
        match error {
            StoreError::Locked(LockError::Held { .. })
            | StoreError::Record(RecordError::Ambiguous { .. }) => ApiError::conflict(message),
            StoreError::Full { .. } => ApiError::rate_limited(message),
            StoreError::Locked(LockError::Io { .. } | LockError::Refused(_))
            | StoreError::Record(
                RecordError::Corrupted { .. }
                | RecordError::UnknownVersion { .. }
                | RecordError::Write { .. },
            )
            | StoreError::Folder { .. }
            | StoreError::Load(_)
            | StoreError::RecordFile(_) => ApiError::internal(message),
        }
    }
}

impl From<&CatalogError> for ApiError {
    /// 424 when Cursor is logged out; 400 for the rest (an unknown model, the agent missing or
    /// failing to list its models, a cache that cannot be written).
    fn from(error: &CatalogError) -> Self {
        let message = error.to_string();
        match error {
            CatalogError::LoggedOut { .. } => ApiError::cursor_login(message),
            CatalogError::AgentMissing { .. }
            | CatalogError::Spawn { .. }
            | CatalogError::Timeout { .. }
            | CatalogError::Failed { .. }
            | CatalogError::UnrecognisedOutput { .. }
            | CatalogError::UnknownModel { .. }
            | CatalogError::ExtraModelUnavailable { .. }
            | CatalogError::PickerSetting { .. }
            | CatalogError::Cache(_)
            | CatalogError::Encode(_) => ApiError::bad_request(message),
        }
    }
}

impl From<&ExchangeFailure> for ApiError {
    /// A failed exchange, as every request joined to it is answered: a failed turn as
    /// `turn_failure` says; 502 for a turn a stopped gateway left unfinished or whose reports
    /// stopped; 500 when multi-cursor could not write the record (before the prompt, or of
    /// the answer).
    fn from(failure: &ExchangeFailure) -> Self {
        let message = failure.to_string();
        match failure {
            ExchangeFailure::Turn(failure) => turn_failure(failure.error.as_ref(), message),
            ExchangeFailure::Unfinished | ExchangeFailure::EndedUnexpectedly => {
                ApiError::run_failed(message)
            }
            ExchangeFailure::NotStarted(_) | ExchangeFailure::NotRecorded(_) => {
                ApiError::internal(message)
            }
        }
    }
}

impl From<&TurnError> for ApiError {
    /// A failed turn with its own message (`turn_failure`).
    fn from(error: &TurnError) -> Self {
        turn_failure(error, error.to_string())
    }
}

/// A failed turn: the CLI's own class where it has one (424 logged out, 429 rate limited,
/// 400 for a bad model, an untrusted workspace or a missing agent); a run that ended without
/// a `result` with its [`run_failure_status`] (429 for a usage limit or a capacity shortage,
/// 424 for a refused API key, 409 for a chat held by another agent, …); else 502. `message`
/// is the error's `Display`, possibly followed by what Cursor ran before it stopped.
fn turn_failure(error: &TurnError, message: String) -> ApiError {
    match error {
        TurnError::Spawn(_) => ApiError::bad_request(message),
        TurnError::Cli(failure) => cli_failure(failure, message),
        TurnError::Failed(failure) => run_failure(failure, message),
        TurnError::Cancelled(_)
        | TurnError::Run(_)
        | TurnError::Reported(_)
        | TurnError::StoppedBeforeStart
        | TurnError::CancelledBeforeFinish
        | TurnError::FreshChatFailed
        | TurnError::NoResult => ApiError::run_failed(message),
    }
}

impl From<&CompactionError> for ApiError {
    /// A failed compaction: the run's own status where it has one (a rate limit stays a 429, a
    /// logged-out Cursor a 424), else 400 for a bad request or model and 502 for the rest. The
    /// message says the conversation is unchanged and how to compact instead.
    fn from(error: &CompactionError) -> Self {
        let message = format!(
            "multi-cursor: compaction failed: {error}. The conversation is unchanged; run /compact again, or switch to a Claude model with /model to compact."
        );
        match error {
            CompactionError::Request(RequestError::ImageWrite(_)) => ApiError::run_failed(message),
            CompactionError::Request(_) | CompactionError::Model(_) => {
                ApiError::bad_request(message)
            }
            CompactionError::Run(run) => match run {
                RunError::Spawn { .. } => ApiError::bad_request(message),
                RunError::Failed(failure) => run_failure(failure, message),
                RunError::Stalled { .. }
                | RunError::NoFirstEvent { .. }
                | RunError::OutputTooLarge { .. }
                | RunError::Stream(_)
                | RunError::Cancelled
                | RunError::Io(_) => ApiError::run_failed(message),
            },
            CompactionError::Cursor(text) => match classify_plain_text(text) {
                Some(failure) => cli_failure(&failure, message),
                None => ApiError::run_failed(message),
            },
            CompactionError::NoResult
            | CompactionError::TimedOut
            | CompactionError::NoSummary(_) => ApiError::run_failed(message),
        }
    }
}

/// A failure the CLI reported in words: 424 logged out, 429 rate limited, 400 for an unknown
/// model or an untrusted workspace.
fn cli_failure(failure: &CliFailure, message: String) -> ApiError {
    match failure {
        CliFailure::AuthRequired(_) => ApiError::cursor_login(message),
        CliFailure::RateLimited(_) => ApiError::rate_limited(message),
        CliFailure::BadModel(_) | CliFailure::WorkspaceTrust(_) => ApiError::bad_request(message),
    }
}

/// The status and Anthropic error type of a run that ended without a `result`, by its case:
/// an account limit or Cursor's capacity is 429 (Claude Code may retry later); a refusal that
/// the same request meets again (key, login, plan) is 424 ([`CURSOR_LOGIN`]); a model or workspace the user must
/// change is 400; a chat held by another agent is 409; Cursor's server or process failing is
/// 502.
pub(crate) fn run_failure_status(failure: &RunFailure) -> StatusRow {
    match failure {
        RunFailure::UsageLimit { .. } | RunFailure::Capacity { .. } => RATE_LIMITED,
        RunFailure::InvalidApiKey { .. }
        | RunFailure::LoggedOut { .. }
        | RunFailure::AutoOnly { .. } => CURSOR_LOGIN,
        RunFailure::BadModel { .. } | RunFailure::WorkspaceTrust { .. } => BAD_REQUEST,
        RunFailure::ChatInUse { .. } => CONFLICT,
        RunFailure::ServerRefused { .. }
        | RunFailure::ResumeRefused { .. }
        | RunFailure::Killed { .. }
        | RunFailure::Other { .. } => BAD_GATEWAY,
    }
}

/// The status of each case of a run that ended without a `result`, by the case's name: the
/// status column of `docs/cursor-failures.md` is generated from it.
#[cfg(test)]
pub(crate) fn run_failure_statuses() -> Vec<(&'static str, StatusRow)> {
    RunFailure::one_of_each()
        .iter()
        .map(|failure| (failure.case(), run_failure_status(failure)))
        .collect()
}

/// A run that ended without a `result`, answered with [`run_failure_status`]; `message` is its
/// `Display`, possibly framed by the caller.
fn run_failure(failure: &RunFailure, message: String) -> ApiError {
    ApiError::of(run_failure_status(failure), message)
}

#[cfg(test)]
mod tests;
