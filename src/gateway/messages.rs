//! `POST /v1/messages` and `POST /v1/messages/count_tokens`: a `multi/cursor/*` model is
//! answered by a Cursor turn; any other model goes to the upstream byte for byte.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Body;
use axum::body::Bytes;
use axum::extract::Request;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::HeaderValue;
use axum::http::header;
use axum::response::IntoResponse;
use axum::response::Response;
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::Gateway;
use super::LimitedBody;
use super::LiveRun;
use super::error::ApiError;
use super::hooks::DEFAULT_SESSION;
use super::passthrough;
use crate::cursor::catalog::ROUTE_PREFIX;
use crate::cursor::command::TurnSpec;
use crate::policy;
use crate::session::conversation;
use crate::session::conversation::Continuation;
use crate::turn;
use crate::turn::SseEvent;
use crate::turn::TurnHandle;
use crate::turn::TurnInput;

/// SSE comment-free keepalive: a `ping` event after this much silence.
const PING_EVERY: Duration = Duration::from_secs(10);

/// Header carrying Claude Code's session id.
pub const SESSION_HEADER: &str = "x-claude-code-session-id";
/// Header present on a worker's (subagent's) requests.
pub const AGENT_HEADER: &str = "x-claude-code-agent-id";

#[derive(Deserialize)]
struct ModelOnly {
    #[serde(default)]
    model: Option<String>,
}

/// Whether `model` is one of ours.
pub fn is_cursor_model(model: &str) -> bool {
    model.starts_with(ROUTE_PREFIX)
}

/// Splits the request and reads its body under the cap.
async fn split(request: Request) -> Result<(axum::http::request::Parts, Bytes), Response> {
    let (parts, body) = request.into_parts();
    let rebuilt = Request::from_parts(parts.clone(), body);
    let LimitedBody(bytes) =
        <LimitedBody as axum::extract::FromRequest<()>>::from_request(rebuilt, &()).await?;
    Ok((parts, bytes))
}

/// `POST /v1/messages`.
pub async fn messages(State(gateway): State<Gateway>, request: Request) -> Response {
    let (parts, body) = match split(request).await {
        Ok(split) => split,
        Err(response) => return response,
    };
    match serde_json::from_slice::<ModelOnly>(&body) {
        Ok(ModelOnly { model: Some(model) }) if is_cursor_model(&model) => {
            match cursor_turn(&gateway, &parts.headers, &body).await {
                Ok(response) | Err(response) => response,
            }
        }
        Ok(_) => passthrough::forward(gateway.upstream(), parts, body).await,
        Err(error) => ApiError::bad_request(format!("the request body is not valid JSON: {error}"))
            .into_response(),
    }
}

/// `POST /v1/messages/count_tokens`: a local estimate for Cursor models, else passthrough.
pub async fn count_tokens(State(gateway): State<Gateway>, request: Request) -> Response {
    let (parts, body) = match split(request).await {
        Ok(split) => split,
        Err(response) => return response,
    };
    match serde_json::from_slice::<ModelOnly>(&body) {
        Ok(ModelOnly { model: Some(model) }) if is_cursor_model(&model) => {
            match conversation::parse_request(&body) {
                Ok(request) => {
                    let mut response = axum::Json(
                        json!({"input_tokens": conversation::estimate_tokens(&request)}),
                    )
                    .into_response();
                    response.headers_mut().insert(
                        "x-multi-cursor-token-count",
                        HeaderValue::from_static("estimate"),
                    );
                    response
                }
                Err(error) => ApiError::bad_request(error.to_string()).into_response(),
            }
        }
        Ok(_) => passthrough::forward(gateway.upstream(), parts, body).await,
        Err(error) => ApiError::bad_request(format!("the request body is not valid JSON: {error}"))
            .into_response(),
    }
}

/// Who a request belongs to: (canonical workspace, Claude session, worker id or "main").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identity {
    pub workspace: std::path::PathBuf,
    pub session: String,
    pub worker: String,
}

impl Identity {
    /// The compact JSON array spelling of DESIGN §6.
    pub fn key(&self) -> String {
        json!([self.workspace, self.session, self.worker]).to_string()
    }
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
}

type Answer = Result<Response, Response>;

fn request_error(error: &conversation::RequestError) -> ApiError {
    if error.status() == 400 {
        ApiError::bad_request(error.to_string())
    } else {
        ApiError::run_failed(error.to_string())
    }
}

fn refuse(error: ApiError) -> Response {
    error.into_response()
}

/// Runs (or refuses) one Cursor turn for a `multi/cursor/*` request.
async fn cursor_turn(gateway: &Gateway, headers: &HeaderMap, body: &Bytes) -> Answer {
    let request = conversation::parse_request(body).map_err(|e| refuse(request_error(&e)))?;
    let session = header_str(headers, SESSION_HEADER)
        .map(str::to_string)
        .or_else(|| conversation::session_id_from_metadata(&request))
        .unwrap_or_else(|| DEFAULT_SESSION.to_string());
    let worker = header_str(headers, AGENT_HEADER).map(str::to_string);
    let agent = gateway
        .agent()
        .await
        .map_err(|e| refuse(ApiError::bad_request(e.to_string())))?;
    let (mode, hook_workspace) = gateway.sessions().lookup(&session, worker.as_deref());
    let mode = mode.or(gateway.config().default_mode).ok_or_else(|| {
        refuse(ApiError::bad_request(
            policy::PolicyRefusal::ModeUnknown.to_string(),
        ))
    })?;
    let cursor_mode = policy::cursor_mode(mode, agent.supports_auto_review, &agent.version)
        .map_err(|e| refuse(ApiError::bad_request(e.to_string())))?;
    let workspace = hook_workspace.unwrap_or_else(|| gateway.config().working_dir.clone());
    policy::check_mcp(
        &workspace,
        gateway.config().home.as_deref(),
        gateway.config().approve_mcps,
    )
    .map_err(|e| refuse(ApiError::bad_request(e.to_string())))?;
    conversation::validate_for_cursor(&request).map_err(|e| refuse(request_error(&e)))?;
    let catalog = gateway.catalog(&agent.path).await.map_err(refuse)?;

    let identity = Identity {
        workspace: workspace.clone(),
        session: session.clone(),
        worker: worker.clone().unwrap_or_else(|| "main".to_string()),
    };
    let chat = gateway
        .chats()
        .get(&identity.key())
        .cloned()
        .unwrap_or_default();
    let images = gateway.config().state_dir.join("images");
    let mut notices = Vec::new();
    let limit = conversation::DEFAULT_TRANSCRIPT_LIMIT;
    let prompt = match &chat.last_answer {
        Some(answer) => match conversation::continuation_prompt(&request, answer, limit, &images) {
            Ok(Continuation::Continue(prompt)) => Ok(prompt),
            Ok(Continuation::HistoryChanged(prompt)) => {
                notices.push(conversation::OUTER_HISTORY_NOTICE.to_string());
                Ok(prompt)
            }
            Err(error) => Err(error),
        },
        None => conversation::first_turn_prompt(&request, limit, &images),
    };
    let mut prompt = prompt.map_err(|e| refuse(request_error(&e)))?;

    // A worker picks its model with a first prompt line `model: <id>`, which never reaches Cursor.
    let mut requested = request.model.clone();
    if worker.is_some()
        && let Some(id) = prompt.take_worker_model_line()
    {
        let spelled = if is_cursor_model(&id) {
            id.clone()
        } else {
            format!("{ROUTE_PREFIX}{id}")
        };
        if catalog.resolve(&spelled, None).is_err() {
            let valid: Vec<String> = catalog
                .picker(&[])
                .rows
                .iter()
                .map(|r| r.short_id().to_string())
                .collect();
            let text = format!(
                "[Cursor] Unknown model \"{id}\" on the worker's `model:` line; nothing was run. Valid ids: {}. See `multi-cursor --cursor-models` for every route.",
                valid.join(", ")
            );
            return Ok(local_answer(&request.model, &text, request.stream));
        }
        requested = spelled;
    }
    let effort = request
        .output_config
        .as_ref()
        .and_then(|c| c.effort.clone());
    let resolved = catalog
        .resolve(&requested, effort.as_deref())
        .map_err(|e| refuse(ApiError::bad_request(e.to_string())))?;
    let prompt = prompt.text();
    let input = TurnInput {
        agent: agent.path.clone(),
        spec: TurnSpec {
            workspace,
            model: resolved.cursor_model.clone(),
            chat_id: chat.chat_id.clone(),
            mode: cursor_mode,
            approve_mcps: gateway.config().approve_mcps,
            prompt,
        },
        requested_model: request.model.clone(),
        input_estimate: conversation::estimate_tokens(&request),
        notices,
        limits: gateway.config().limits,
    };
    let handle = turn::start(input).map_err(refuse)?;
    let run_id = gateway.add_run(LiveRun {
        session: identity.session.clone(),
        worker: identity.worker.clone(),
        model: resolved.cursor_model,
        pgid: handle.pgid,
        started_at: now_rfc3339(),
    });
    let TurnHandle {
        events, outcome, ..
    } = handle;
    let keeper = gateway.clone();
    tokio::spawn(async move {
        if let Ok(outcome) = outcome.await {
            let mut chats = keeper.chats();
            let entry = chats.entry(identity.key()).or_default();
            if outcome.chat_id.is_some() {
                entry.chat_id = outcome.chat_id;
            }
            if outcome.result.is_ok() {
                entry.last_answer = Some(outcome.answer);
            }
        }
        keeper.remove_run(run_id);
    });
    if request.stream {
        stream_answer(events).await
    } else {
        collect_answer(events).await
    }
}

/// Answers locally with one text message (nothing runs), streamed or not.
fn local_answer(model: &str, text: &str, stream: bool) -> Response {
    let events = turn::local_events(model, text);
    if stream {
        sse_response(futures_util::stream::iter(
            events
                .into_iter()
                .map(|e| Ok::<_, Infallible>(Bytes::from(e.frame()))),
        ))
    } else {
        axum::Json(turn::fold_message(&events)).into_response()
    }
}

/// Non-streamed: every event, then one Messages JSON (or the error with its status).
async fn collect_answer(mut events: mpsc::Receiver<Result<SseEvent, ApiError>>) -> Answer {
    let mut all = Vec::new();
    while let Some(item) = events.recv().await {
        all.push(item.map_err(refuse)?);
    }
    Ok(axum::Json(turn::fold_message(&all)).into_response())
}

/// Streamed: waits for the first event so early failures keep their status, then relays
/// events as SSE frames as they come, with `ping` while quiet.
async fn stream_answer(mut events: mpsc::Receiver<Result<SseEvent, ApiError>>) -> Answer {
    let first = match events.recv().await {
        Some(Ok(event)) => event,
        Some(Err(error)) => return Err(refuse(error)),
        None => {
            return Err(refuse(ApiError::run_failed(
                "the Cursor turn ended before it said anything",
            )));
        }
    };
    let head = futures_util::stream::once(async move { Ok(Bytes::from(first.frame())) });
    let rest = futures_util::stream::unfold(events, |mut events| async move {
        let item = match tokio::time::timeout(PING_EVERY, events.recv()).await {
            Err(_) => Some(Bytes::from_static(
                b"event: ping\ndata: {\"type\":\"ping\"}\n\n",
            )),
            Ok(Some(Ok(event))) => Some(Bytes::from(event.frame())),
            Ok(Some(Err(error))) => Some(Bytes::from(format!(
                "event: error\ndata: {}\n\n",
                error.body()
            ))),
            Ok(None) => None,
        };
        item.map(|bytes| (Ok::<_, Infallible>(bytes), events))
    });
    Ok(sse_response(head.chain(rest)))
}

fn sse_response<S>(stream: S) -> Response
where
    S: futures_util::Stream<Item = Result<Bytes, Infallible>> + Send + 'static,
{
    let mut response = Response::new(Body::from_stream(stream));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Now as RFC 3339 (UTC), for status and records.
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_422), (2025, 11, 30));
    }
}
