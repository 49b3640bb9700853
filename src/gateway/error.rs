//! The gateway's refusals and failures as Anthropic error responses (DESIGN §3 status table).
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

/// One error answer: status, Anthropic error type and a message that names the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub kind: ErrorType,
    pub message: String,
}

impl ApiError {
    fn new(status: StatusCode, kind: ErrorType, message: impl Into<String>) -> Self {
        let message = message.into();
        let message = if message.starts_with("multi-cursor: ") {
            message
        } else {
            format!("multi-cursor: {message}")
        };
        ApiError {
            status,
            kind,
            message,
        }
    }

    /// 400: malformed request, unknown model, unsupported mode or feature, agent missing.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorType::InvalidRequest, message)
    }

    /// 401: missing or wrong gateway token.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ErrorType::Authentication, message)
    }

    /// 403: browser origin, foreign Host, Cursor logged out.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, ErrorType::Permission, message)
    }

    /// 404: unknown path.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorType::NotFound, message)
    }

    /// 409: a different request while this identity's turn runs, or another gateway owns it.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, ErrorType::Conflict, message)
    }

    /// 413: body over the cap.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorType::RequestTooLarge,
            message,
        )
    }

    /// 429: Cursor's rate limit.
    pub fn rate_limited(message: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorType::RateLimit, message)
    }

    /// 502: the Cursor run failed after it may have acted.
    pub fn run_failed(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_GATEWAY, ErrorType::Api, message)
    }

    /// 500: multi-cursor itself could not do its part (a record it cannot read or write).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorType::Api, message)
    }

    /// The JSON body Anthropic clients expect.
    pub fn body(&self) -> serde_json::Value {
        error_body(self.kind, &self.message)
    }

    /// The streamed `error` event of an answer that fails after it started.
    pub fn event(&self) -> StreamEvent {
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
        response
            .headers_mut()
            .insert("x-should-retry", HeaderValue::from_static("false"));
        response
    }
}
