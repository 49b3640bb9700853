//! Anthropic error bodies: `{"type":"error","error":{"type":…,"message":…}}`, the same object
//! whether it is an HTTP response's body or the data of a streamed `error` event.

use serde::Deserialize;
use serde::Serialize;

/// The `error.type` of an Anthropic error: which class of failure a client sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorType {
    /// 400: the request cannot be answered as sent.
    #[serde(rename = "invalid_request_error")]
    InvalidRequest,
    /// 401: missing or wrong credentials.
    #[serde(rename = "authentication_error")]
    Authentication,
    /// 403: not allowed.
    #[serde(rename = "permission_error")]
    Permission,
    /// 404: no such route.
    #[serde(rename = "not_found_error")]
    NotFound,
    /// 409: the request conflicts with one in progress (this gateway's own type).
    #[serde(rename = "conflict_error")]
    Conflict,
    /// 413: the body is too large.
    #[serde(rename = "request_too_large")]
    RequestTooLarge,
    /// 429: a rate limit.
    #[serde(rename = "rate_limit_error")]
    RateLimit,
    /// 5xx: the server side failed.
    #[serde(rename = "api_error")]
    Api,
}

impl ErrorType {
    /// The wire spelling, e.g. `invalid_request_error`.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            ErrorType::InvalidRequest => "invalid_request_error",
            ErrorType::Authentication => "authentication_error",
            ErrorType::Permission => "permission_error",
            ErrorType::NotFound => "not_found_error",
            ErrorType::Conflict => "conflict_error",
            ErrorType::RequestTooLarge => "request_too_large",
            ErrorType::RateLimit => "rate_limit_error",
            ErrorType::Api => "api_error",
        }
    }
}

impl std::fmt::Display for ErrorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `error` object of an error body: its type and a message for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// The class of failure.
    #[serde(rename = "type")]
    pub kind: ErrorType,
    /// What went wrong and what to do.
    pub message: String,
}

/// The whole error body, `{"type":"error","error":{…}}`: the body of an HTTP error response.
/// A streamed failure sends the same object as [`super::events::StreamEvent::Error`].
pub(crate) fn error_body(kind: ErrorType, message: &str) -> serde_json::Value {
    serde_json::json!({"type": "error", "error": ErrorDetail { kind, message: message.to_string() }})
}
