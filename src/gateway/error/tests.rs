//! The status table for what a request itself causes: a 400 (Claude Code re-sends a 400 a few
//! times at once, and nothing runs for any of these), except an image multi-cursor could not
//! save, a 502.

use axum::http::StatusCode;

use super::ApiError;
use crate::session::conversation::RequestError;
use crate::session::conversation::parse_request;

#[test]
fn request_errors_are_400() {
    let invalid_json = parse_request(b"{\"model\": ").unwrap_err();
    let refusals = [
        invalid_json,
        RequestError::InvalidRequest("missing field `messages`".into()),
        RequestError::ForcedToolChoice("Bash".into()),
        RequestError::ToolChoiceNone,
        RequestError::UnknownToolChoice("any".into()),
        RequestError::StopSequences,
        RequestError::OutputFormat,
        RequestError::Document,
        RequestError::NoUserMessage,
        RequestError::NoNewUserMessage,
        RequestError::InvalidImage("invalid base64".into()),
    ];
    for refusal in &refusals {
        let error = ApiError::from(refusal);
        assert_eq!(error.status, StatusCode::BAD_REQUEST, "{refusal:?}");
        assert_eq!(error.message, refusal.to_string(), "{refusal:?}");
    }
}

#[test]
fn an_image_that_could_not_be_saved_is_502() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"").unwrap();
    let unwritable = crate::state::ensure_private_dir(&file.join("images")).unwrap_err();
    let error = ApiError::from(&RequestError::ImageWrite(unwritable));
    assert_eq!(error.status, StatusCode::BAD_GATEWAY);
}
