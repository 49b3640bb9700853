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

use super::Gateway;
use super::LimitedBody;
use super::error::ApiError;
use super::passthrough;
use crate::anthropic::StreamEvent;
use crate::anthropic::Usage;
use crate::anthropic::events::answer_events;
use crate::anthropic::events::fold_message;
use crate::anthropic::events::safeguard_results;
use crate::anthropic::request::MessagesRequest;
use crate::cursor::catalog::ROUTE_PREFIX;
use crate::cursor::sanitize::sanitize;
use crate::orchestrate;
use crate::orchestrate::Reply;
use crate::session::conversation;
use crate::session::cursor_request::CursorRequest;
use crate::session::exchange::Ending;
use crate::session::exchange::Observer;
use crate::session::hooks::DEFAULT_SESSION;

/// SSE comment-free keepalive: a `ping` event after this much silence.
const PING_EVERY: Duration = Duration::from_secs(10);

/// Header carrying Claude Code's session id.
pub(crate) const SESSION_HEADER: &str = "x-claude-code-session-id";
/// Header present on a worker's (subagent's) requests.
pub(crate) const AGENT_HEADER: &str = "x-claude-code-agent-id";

#[derive(Deserialize)]
struct ModelOnly {
    #[serde(default)]
    model: Option<String>,
}

/// Whether `model` is one of ours.
pub(crate) fn is_cursor_model(model: &str) -> bool {
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

/// Bodies up to this many bytes are read on the async worker; larger ones (up to the 8 MiB
/// cap) are parsed, digested and checked on a blocking thread, so one big request never holds
/// a worker that other connections (the status route, hooks, passthrough) need.
pub(crate) const INLINE_PARSE_BYTES: usize = 64 * 1024;

/// Runs `work` on `body`: inline for a body of at most [`INLINE_PARSE_BYTES`], else on a
/// blocking thread. `None` only if that thread panicked or the runtime is shutting down.
async fn off_worker<T, F>(body: &Bytes, work: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce(&[u8]) -> T + Send + 'static,
{
    if body.len() <= INLINE_PARSE_BYTES {
        return Some(work(body));
    }
    let body = body.clone();
    tokio::task::spawn_blocking(move || work(&body)).await.ok()
}

/// What a `/v1/messages` body is, read once.
enum Route {
    /// A `multi/cursor/*` model: the request as read (or why it is not one).
    Cursor(Result<Box<CursorRequest>, conversation::RequestError>),
    /// Any other model: forwarded as is.
    Upstream,
    /// Not JSON.
    NotJson(String),
}

/// Reads `body` into its [`Route`]; `session` and `worker` are the request's session and
/// worker headers.
fn route(body: &[u8], session: Option<&str>, worker: Option<&str>) -> Route {
    match serde_json::from_slice::<ModelOnly>(body) {
        Ok(ModelOnly { model: Some(model) }) if is_cursor_model(&model) => Route::Cursor(
            CursorRequest::parse(body, session, worker, DEFAULT_SESSION).map(Box::new),
        ),
        Ok(_) => Route::Upstream,
        Err(error) => Route::NotJson(error.to_string()),
    }
}

/// `POST /v1/messages`.
pub(crate) async fn messages(State(gateway): State<Gateway>, request: Request) -> Response {
    let (parts, body) = match split(request).await {
        Ok(split) => split,
        Err(response) => return response,
    };
    let session = header_str(&parts.headers, SESSION_HEADER).map(str::to_string);
    let worker = header_str(&parts.headers, AGENT_HEADER).map(str::to_string);
    let read = off_worker(&body, move |body| {
        route(body, session.as_deref(), worker.as_deref())
    })
    .await;
    match read {
        Some(Route::Cursor(Ok(parsed))) => match cursor_turn(&gateway, &parsed).await {
            Ok(response) | Err(response) => response,
        },
        Some(Route::Cursor(Err(error))) => refuse(request_error(&error)),
        Some(Route::Upstream) => passthrough::forward(gateway.upstream(), parts, body).await,
        Some(Route::NotJson(error)) => {
            ApiError::bad_request(format!("the request body is not valid JSON: {error}"))
                .into_response()
        }
        None => ApiError::internal("the request body could not be read").into_response(),
    }
}

/// `POST /v1/messages/count_tokens`: a local estimate for Cursor models, else passthrough.
pub(crate) async fn count_tokens(State(gateway): State<Gateway>, request: Request) -> Response {
    let (parts, body) = match split(request).await {
        Ok(split) => split,
        Err(response) => return response,
    };
    let read = off_worker(&body, |body| {
        match serde_json::from_slice::<ModelOnly>(body) {
            Ok(ModelOnly { model: Some(model) }) if is_cursor_model(&model) => Ok(Some(
                conversation::parse_request(body)
                    .map(|request| conversation::estimate_tokens(&request)),
            )),
            Ok(_) => Ok(None),
            Err(error) => Err(error.to_string()),
        }
    })
    .await;
    match read {
        Some(Ok(Some(Ok(tokens)))) => {
            let mut response = axum::Json(json!({"input_tokens": tokens})).into_response();
            response.headers_mut().insert(
                "x-multi-cursor-token-count",
                HeaderValue::from_static("estimate"),
            );
            response
        }
        Some(Ok(Some(Err(error)))) => ApiError::from(&error).into_response(),
        Some(Ok(None)) => passthrough::forward(gateway.upstream(), parts, body).await,
        Some(Err(error)) => {
            ApiError::bad_request(format!("the request body is not valid JSON: {error}"))
                .into_response()
        }
        None => ApiError::internal("the request body could not be read").into_response(),
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
    ApiError::from(error)
}

/// The error as an HTTP answer, its message without control characters (it may echo the
/// request's model id or what Cursor said).
fn refuse(error: ApiError) -> Response {
    clean(error).into_response()
}

/// `error` with control characters and escape sequences removed from its message: Claude Code
/// prints it to the user's terminal.
fn clean(mut error: ApiError) -> ApiError {
    error.message = sanitize(&error.message);
    error
}

/// Runs (or refuses) one Cursor turn for a `multi/cursor/*` request read into a
/// [`CursorRequest`]: the orchestrator carries it down, and its outcome or refusal
/// comes back as HTTP.
async fn cursor_turn(gateway: &Gateway, parsed: &CursorRequest) -> Answer {
    let request = &parsed.request;
    let edge = Edge::of(request);
    // The plugin's slash commands (`/multi-cursor:…`) and bash mode's `!command` are answered
    // locally: no Cursor run, and no agent, login or mode needed (see plugin_commands.rs and
    // `conversation::is_bash_mode_only`).
    if let Some(text) = super::plugin_commands::local_answer_text(request) {
        return Ok(local_answer(&request.model, &text, &edge));
    }
    if conversation::is_bash_mode_only(request) {
        return Ok(local_answer(
            &request.model,
            conversation::BASH_MODE_NOTE,
            &edge,
        ));
    }
    match orchestrate::run(gateway.services(), parsed).await {
        Ok(Reply::Exchange(observer)) => answer(observer, edge).await,
        Ok(Reply::Local(text)) => Ok(local_answer(&request.model, &text, &edge)),
        Ok(Reply::Events(events)) => Ok(events_answer(events, &edge)),
        Err(refusal) => Err(refuse(ApiError::from(refusal))),
    }
}

/// How a Cursor-route answer leaves the gateway besides its events: streamed or not, served
/// again (a replay), and the answer to Claude Code's action check when the request asked.
struct Edge {
    stream: bool,
    replayed: bool,
    /// [`safeguard_results`] for the checks the request's `safeguards` named.
    safeguards: Option<serde_json::Value>,
}

impl Edge {
    fn of(request: &MessagesRequest) -> Edge {
        Edge {
            stream: request.stream,
            replayed: false,
            safeguards: request
                .safeguards
                .as_ref()
                .map(|checks| safeguard_results(checks.iter().map(|c| c.kind.as_str()))),
        }
    }

    /// An event as served: a replayed answer's usage says `"replayed": true`, and the final
    /// `message_delta` carries the action check's results.
    fn serve(&self, mut event: StreamEvent) -> StreamEvent {
        if self.replayed {
            event.mark_replayed();
        }
        if let Some(results) = &self.safeguards {
            event.add_safeguard_results(results);
        }
        event
    }
}

/// Answers one client from an exchange, streamed or not. A client that joins an exchange that
/// had already ended (a replay) is told so in `x-multi-cursor-replayed`.
async fn answer(observer: Observer, mut edge: Edge) -> Answer {
    // A failure that is already over is answered as itself, without its partial events.
    if let Some(Ending::Failed { error, .. }) = observer.exchange().ending() {
        return Err(refuse(ApiError::from(&error)));
    }
    let replayed = observer.exchange().is_replay() || !observer.exchange().is_running();
    edge.replayed = replayed;
    let result = if edge.stream {
        stream_answer(observer, edge).await
    } else {
        collect_answer(observer, edge).await
    };
    result.map(|mut response| {
        if replayed {
            response
                .headers_mut()
                .insert("x-multi-cursor-replayed", HeaderValue::from_static("true"));
        }
        response
    })
}

/// Answers locally with one text message (nothing runs), streamed or not: for refusals that
/// are better read as an answer, such as an unknown worker model, and the plugin's commands.
fn local_answer(model: &str, text: &str, edge: &Edge) -> Response {
    let text = &sanitize(text);
    // The model is echoed as asked, less any control sequence in it.
    let model = &sanitize(model);
    let usage = Usage {
        input_tokens: 0,
        output_tokens: crate::display::estimate_text_tokens(text),
        ..Usage::default()
    };
    events_answer(answer_events(model, text, 0, usage, None), edge)
}

/// A complete answer made of `events`, as SSE frames or folded into one Messages JSON.
fn events_answer(events: Vec<StreamEvent>, edge: &Edge) -> Response {
    let events: Vec<StreamEvent> = events.into_iter().map(|event| edge.serve(event)).collect();
    if edge.stream {
        sse_response(futures_util::stream::iter(
            events
                .into_iter()
                .map(|e| Ok::<_, Infallible>(Bytes::from(e.frame()))),
        ))
    } else {
        axum::Json(fold_message(&events)).into_response()
    }
}

/// Non-streamed: every event, then one Messages JSON (or the error with its status).
async fn collect_answer(mut observer: Observer, edge: Edge) -> Answer {
    let mut all = Vec::new();
    while let Some(item) = observer.next().await {
        let event = item.map_err(|e| refuse(ApiError::from(&e)))?;
        all.push(edge.serve(event));
    }
    Ok(axum::Json(fold_message(&all)).into_response())
}

/// Streamed: waits for the first event so early failures keep their status, then relays
/// events as SSE frames as they come, with `ping` while quiet. Dropping the body (the client
/// left) drops the observer, which cancels the turn if it was the last one watching.
async fn stream_answer(mut observer: Observer, edge: Edge) -> Answer {
    let first = match observer.next().await {
        Some(Ok(event)) => edge.serve(event),
        Some(Err(error)) => return Err(refuse(ApiError::from(&error))),
        None => {
            return Err(refuse(ApiError::run_failed(
                "the Cursor turn ended before it said anything",
            )));
        }
    };
    let head = futures_util::stream::once(async move { Ok(Bytes::from(first.frame())) });
    let rest = futures_util::stream::unfold((observer, edge), |(mut observer, edge)| async move {
        let item = match tokio::time::timeout(PING_EVERY, observer.next()).await {
            Err(_) => Some(Bytes::from(StreamEvent::Ping.frame())),
            Ok(Some(Ok(event))) => Some(Bytes::from(edge.serve(event).frame())),
            Ok(Some(Err(error))) => {
                Some(Bytes::from(clean(ApiError::from(&error)).event().frame()))
            }
            Ok(None) => None,
        };
        item.map(|bytes| (Ok::<_, Infallible>(bytes), (observer, edge)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn big_bodies_are_read_off_the_async_worker() {
        // A thread id, not a time: the work on a body past the limit runs on a blocking
        // thread, never on the runtime's worker.
        let worker = std::thread::current().id();
        let small = Bytes::from(vec![b' '; INLINE_PARSE_BYTES]);
        let big = Bytes::from(vec![b' '; INLINE_PARSE_BYTES + 1]);
        let ran_on = |body: Bytes| async move {
            off_worker(&body, |_| std::thread::current().id())
                .await
                .unwrap()
        };
        assert_eq!(ran_on(small).await, worker);
        assert_ne!(ran_on(big).await, worker);
    }
}
