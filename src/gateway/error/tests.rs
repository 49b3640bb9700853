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

/// Every case of a run that ended without a `result`, with the status and error type the
/// gateway answers it with (the engine only names the case).
#[test]
fn every_run_failure_case_has_its_status() {
    use crate::anthropic::ErrorType;
    use crate::cursor::failure::Exit;
    use crate::cursor::failure::Reached;
    use crate::cursor::failure::RunFailure;

    let said = || "Cursor's words".to_owned();
    let reached = Reached::Started;
    let cases = [
        (
            RunFailure::UsageLimit {
                said: said(),
                reached,
            },
            429,
            ErrorType::RateLimit,
        ),
        (
            RunFailure::Capacity {
                said: said(),
                reached,
            },
            429,
            ErrorType::RateLimit,
        ),
        (
            RunFailure::AutoOnly {
                said: said(),
                reached,
            },
            424,
            ErrorType::Permission,
        ),
        (
            RunFailure::InvalidApiKey {
                said: said(),
                reached,
            },
            424,
            ErrorType::Permission,
        ),
        (
            RunFailure::LoggedOut {
                said: said(),
                reached,
            },
            424,
            ErrorType::Permission,
        ),
        (
            RunFailure::BadModel {
                said: said(),
                reached,
            },
            400,
            ErrorType::InvalidRequest,
        ),
        (
            RunFailure::WorkspaceTrust {
                said: said(),
                reached,
            },
            400,
            ErrorType::InvalidRequest,
        ),
        (
            RunFailure::ChatInUse {
                chat_id: None,
                said: said(),
                reached,
            },
            409,
            ErrorType::Conflict,
        ),
        (
            RunFailure::ServerRefused {
                reason: said(),
                reached,
            },
            502,
            ErrorType::Api,
        ),
        (
            RunFailure::ResumeRefused {
                chat_id: None,
                said: said(),
                reached,
            },
            502,
            ErrorType::Api,
        ),
        (
            RunFailure::Killed {
                exit: Exit::Signal(9),
                reached,
            },
            502,
            ErrorType::Api,
        ),
        (
            RunFailure::Other {
                exit: Exit::Code(1),
                last_lines: said(),
                reached,
            },
            502,
            ErrorType::Api,
        ),
    ];
    for (failure, status, kind) in cases {
        let row = super::run_failure_status(&failure);
        assert_eq!(
            (row.status.as_u16(), row.kind),
            (status, kind),
            "{failure:?}"
        );
    }
}

/// The spend route the status line asks is the one the router serves.
#[test]
fn the_spend_route_is_served() {
    let served = format!("{}/{{session}}", crate::spend::SPEND_ROUTE);
    assert!(
        crate::gateway::ENDPOINTS
            .iter()
            .any(|route| route.path == served),
        "{served} is not in ENDPOINTS"
    );
}

/// Each status appears once in the table, and every constructor answers with a row of it.
#[test]
fn the_status_table_has_each_status_once() {
    let mut statuses: Vec<u16> = super::STATUS_TABLE
        .iter()
        .map(|row| row.status.as_u16())
        .collect();
    statuses.dedup();
    assert_eq!(statuses.len(), super::STATUS_TABLE.len());
    for error in [
        ApiError::bad_request("x"),
        ApiError::unauthorized("x"),
        ApiError::forbidden("x"),
        ApiError::not_found("x"),
        ApiError::conflict("x"),
        ApiError::too_large("x"),
        ApiError::rate_limited("x"),
        ApiError::internal("x"),
        ApiError::run_failed("x"),
        ApiError::upstream_unreachable("x"),
    ] {
        assert!(
            super::STATUS_TABLE
                .iter()
                .any(|row| row.status == error.status && row.kind == error.kind),
            "{error}"
        );
    }
}
