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
use super::LiveRun;
use super::error::ApiError;
use super::hooks::DEFAULT_SESSION;
use super::passthrough;
use crate::anthropic::SseEvent;
use crate::anthropic::StreamEvent;
use crate::anthropic::Usage;
use crate::anthropic::events::answer_events;
use crate::anthropic::events::fold_message;
use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::catalog::ROUTE_PREFIX;
use crate::cursor::catalog::Resolved;
use crate::cursor::command::TurnSpec;
use crate::cursor::process::end_stray_run;
use crate::cursor::sanitize::sanitize;
use crate::policy;
use crate::rules::Rulebook;
use crate::session::conversation;
use crate::session::cursor_request::CursorRequest;
use crate::session::cursor_request::TurnPrompts;
use crate::session::exchange::Ending;
use crate::session::exchange::Exchange;
use crate::session::exchange::Observer;
use crate::session::exchange::exchange_key;
use crate::session::identity::Identity;
use crate::session::identity::MAIN_WORKER;
use crate::session::store::Admission;
use crate::session::store::BUSY_MESSAGE;
use crate::session::store::INTERRUPTED_NOTICE;
use crate::session::store::TurnPlan;
use crate::session::store::TurnRules;
use crate::session::store::keep_turn;
use crate::state::now_rfc3339;
use crate::turn;
use crate::turn::StreamRules;
use crate::turn::TurnHandle;
use crate::turn::TurnInput;
use std::sync::Arc;

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

/// Runs (or refuses) one Cursor turn for a `multi/cursor/*` request.
async fn cursor_turn(gateway: &Gateway, headers: &HeaderMap, body: &Bytes) -> Answer {
    let parsed = CursorRequest::parse(
        body,
        header_str(headers, SESSION_HEADER),
        header_str(headers, AGENT_HEADER),
        DEFAULT_SESSION,
    )
    .map_err(|e| refuse(request_error(&e)))?;
    let request = &parsed.request;
    // The plugin's slash commands (`/multi-cursor:…`) are answered from their own output: no
    // Cursor run, and no agent, login or mode needed (see plugin_commands.rs).
    if let Some(text) = super::plugin_commands::local_answer_text(request) {
        return Ok(local_answer(&request.model, &text, request.stream));
    }
    let session = parsed.session.clone();
    let worker = parsed.worker.clone();
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
    // Claude's permission settings must bind Cursor, or nothing runs (src/policy/admission.rs);
    // the outcome is shown per session by `multi-cursor status`.
    let admitted = policy::admit_request(&gateway.config().policy, mode, &workspace).await;
    gateway
        .sessions()
        .note_policy(&session, policy::status_text(&admitted));
    let admitted = admitted.map_err(|e| {
        refuse(ApiError::bad_request(
            policy::PolicyRefusal::from(e).to_string(),
        ))
    })?;
    conversation::validate_for_cursor(request).map_err(|e| refuse(request_error(&e)))?;
    let mut catalog = gateway.catalog(&agent.path).await.map_err(refuse)?;
    // `/compact`: a separate read-only Cursor run writes the summary; the session's record and
    // its Cursor chat are not touched (compaction.rs).
    if conversation::is_compaction_request(request) {
        let setup = crate::compaction::Setup {
            agent: agent.path.clone(),
            workspace: workspace.clone(),
            approve_mcps: gateway.config().approve_mcps,
            limits: gateway.config().limits,
            images_dir: gateway.config().state_dir.join("images"),
            spend: Some(super::spend::compaction_tap(
                gateway,
                &workspace,
                &session,
                worker.as_deref(),
                &request.model,
                &catalog
                    .resolve(&request.model, parsed.effort())
                    .map(|r| r.cursor_model)
                    .unwrap_or_default(),
            )),
        };
        return match crate::compaction::answer(request, &catalog, setup).await {
            Ok(events) => Ok(events_answer(events, request.stream)),
            Err(error) => {
                tracing::warn!(%error, "compaction failed");
                Err(refuse(ApiError::from(&error)))
            }
        };
    }
    let effort = parsed.effort();
    // The main session's route is resolved before its session is opened, so an unknown id (and
    // the catalog recheck it may cause) never holds the session's lock; a worker's route can
    // still change with its `model:` line, so it is resolved once the prompt is known.
    let main_route = match worker {
        None => Some(
            resolve_model(gateway, &agent.path, &mut catalog, &request.model, effort)
                .await
                .map_err(|e| refuse(ApiError::from(&e)))?,
        ),
        Some(_) => None,
    };

    let identity = Identity {
        workspace: workspace.clone(),
        session: session.clone(),
        worker: worker.clone().unwrap_or_else(|| MAIN_WORKER.to_string()),
    };
    let policy_text =
        policy::describe(mode, &cursor_mode, gateway.config().approve_mcps, &admitted);
    let key = exchange_key(&identity.key(), &parsed.digest, &policy_text);
    let open = gateway
        .store()
        .open(&identity)
        .await
        .map_err(|e| refuse(ApiError::from(&e)))?;
    let mut session = open.lock().await;
    // A turn a stopped gateway left running is ended first, whatever this request is. Only a
    // group whose leader has the recorded start time and carries the recorded marker is
    // signalled; a record without a marker (written by the previous release) never is.
    if let Some(left) = session.take_inherited_run() {
        let lost = super::spend::place(&identity, &request.model, &left.model, &cursor_mode);
        gateway.spend().note_interrupted(&lost, &left.started_at);
        match left.process_start {
            Some(start) if end_stray_run(left.pgid, start, left.marker.as_deref()).await => {
                tracing::warn!(
                    pgid = left.pgid,
                    "ended a Cursor run left by an earlier gateway"
                );
            }
            _ => {}
        }
    }

    match session.admit(&key) {
        Admission::Join(exchange) => {
            drop(session);
            // An answer served again (a failure repeated is not one, and costs nothing either).
            if matches!(exchange.ending(), Some(Ending::Completed)) {
                let model = main_route.as_ref().map_or("", |r| r.cursor_model.as_str());
                let place = super::spend::place(&identity, &request.model, model, &cursor_mode);
                gateway.spend().note_replay(&place);
            }
            return answer(exchange.observe(), request.stream).await;
        }
        Admission::Busy => return Err(refuse(ApiError::conflict(BUSY_MESSAGE))),
        Admission::Start => {}
    }
    let images = gateway.config().state_dir.join("images");
    let interrupted_before = session.record.interrupted;
    let mut notices = Vec::new();
    // Policy notices: a widening warning first; the hooks/MCP note until an answer carrying it
    // completes once in this Claude session (remembered in the gateway's SessionBook).
    let session_note = admitted
        .session_notice()
        .filter(|note| !gateway.sessions().was_shown(&identity.session, note));
    notices.extend(admitted.widening_notice());
    notices.extend(session_note.clone());
    if interrupted_before {
        notices.push(INTERRUPTED_NOTICE.to_string());
    }
    let chat_id = session.record.chat_id.clone();
    let recorded_answer = session.record.answer_text();
    let TurnPrompts {
        mut prompt,
        fresh: fresh_prompt,
        history_changed,
    } = parsed
        .prompts(chat_id.as_deref(), recorded_answer.as_deref(), &images)
        .map_err(|e| refuse(request_error(&e)))?;
    if history_changed {
        notices.push(conversation::OUTER_HISTORY_NOTICE.to_string());
    }

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
        if resolve_model(gateway, &agent.path, &mut catalog, &spelled, None)
            .await
            .is_err()
        {
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
    let resolved = match main_route {
        Some(resolved) => resolved,
        None => resolve_model(gateway, &agent.path, &mut catalog, &requested, effort)
            .await
            .map_err(|e| refuse(ApiError::from(&e)))?,
    };
    // The rulebook: what this chat has not been given yet goes in front of the conversation.
    let book = load_rulebook(gateway, &workspace, &mut notices).await?;
    let chat_before = session.record.chat_rules();
    let mut chat_rules = chat_before.clone();
    let preamble = book.prompt_preamble(&mut chat_rules, chat_id.is_none(), &prompt.request);
    let prompt_text = with_rules(preamble, prompt.text());
    let (fresh_prompt, fresh_rules) = match fresh_prompt {
        Some(fresh) => {
            let mut rules = chat_before;
            let preamble = book.prompt_preamble(&mut rules, true, &fresh.request);
            let text = with_rules(preamble, fresh.text());
            (
                Some(with_interruption(text, interrupted_before)),
                Some(rules),
            )
        }
        None => (None, None),
    };
    let stream_rules = StreamRules {
        book: Arc::clone(&book),
        fired: chat_rules.fired_rules.clone(),
    };
    let turn_rules = TurnRules {
        book,
        chat: chat_rules,
        fresh: fresh_rules,
        resumed: chat_id.clone(),
    };
    let new_worker_task =
        (worker.is_some() && chat_id.is_none()).then(|| crate::spend::book::task_digest(request));
    gateway
        .spend()
        .admit(&crate::spend::book::TurnAsk {
            session: &identity.session,
            new_worker_task,
        })
        .map_err(|e| refuse(ApiError::from(&e)))?;
    let place = super::spend::place(&identity, &requested, &resolved.cursor_model, &cursor_mode);
    let input = TurnInput {
        agent: agent.path.clone(),
        spec: TurnSpec {
            workspace,
            model: resolved.cursor_model.clone(),
            chat_id,
            mode: cursor_mode,
            approve_mcps: gateway.config().approve_mcps,
            prompt: with_interruption(prompt_text, interrupted_before),
        },
        fresh_prompt,
        requested_model: request.model.clone(),
        input_estimate: parsed.estimate,
        notices,
        limits: gateway.config().limits,
        stream_rules: Some(stream_rules),
    };
    session.record.policy = Some(policy_text);
    let TurnHandle { items, cancel } = turn::start(input);
    let exchange = Exchange::running(key.clone(), cancel);
    session.remember(Arc::clone(&exchange));
    let observer = exchange.observe();
    drop(session);

    let run_id = gateway.add_run(LiveRun {
        session: identity.session.clone(),
        worker: identity.worker.clone(),
        model: resolved.cursor_model.clone(),
        pgid: 0,
        started_at: now_rfc3339(),
    });
    let plan = TurnPlan {
        key,
        model: resolved.cursor_model,
        interrupted_before,
        rules: turn_rules,
        spend: gateway.spend().tap(place),
    };
    let keeper = gateway.clone();
    let spawned = gateway.clone();
    let (noted, claude_session) = (gateway.clone(), identity.session.clone());
    let on_recorded = move || {
        if let Some(note) = session_note {
            noted.sessions().notice_shown(&claude_session, &note);
        }
    };
    tokio::spawn(async move {
        keep_turn(
            open,
            exchange,
            items,
            plan,
            move |pgid| spawned.set_run_pgid(run_id, pgid),
            on_recorded,
        )
        .await;
        keeper.remove_run(run_id);
    });
    answer(observer, request.stream).await
}

/// Resolves `model` in `catalog`. An unknown one is checked with Cursor again (once per id for
/// a while, [`Gateway::recheck_catalog`]): Cursor may have added it since the catalog was
/// cached; `catalog` then holds the fresh list.
async fn resolve_model(
    gateway: &Gateway,
    agent: &std::path::Path,
    catalog: &mut Catalog,
    model: &str,
    effort: Option<&str>,
) -> Result<Resolved, CatalogError> {
    match catalog.resolve(model, effort) {
        Err(CatalogError::UnknownModel { .. }) => {
            if let Some(fresh) = gateway.recheck_catalog(agent, model).await {
                *catalog = fresh;
            }
            catalog.resolve(model, effort)
        }
        resolved => resolved,
    }
}

/// Loads the workspace's rulebook and links its skills (blocking file I/O, off the runtime's
/// threads). A skills change is announced as a notice; a skills failure is logged, not fatal.
async fn load_rulebook(
    gateway: &Gateway,
    workspace: &std::path::Path,
    notices: &mut Vec<String>,
) -> Result<Arc<Rulebook>, Response> {
    let home = gateway.config().home.clone();
    let workspace = workspace.to_path_buf();
    let (book, skills) = tokio::task::spawn_blocking(move || {
        let skills = crate::skills::sync(&workspace);
        (Rulebook::load(&workspace, home.as_deref()), skills)
    })
    .await
    .map_err(|e| {
        refuse(ApiError::internal(format!(
            "loading the rulebook failed: {e}"
        )))
    })?;
    match skills {
        Ok(sync) => notices.extend(sync.row()),
        Err(error) => tracing::warn!(%error, "could not link the project's skills for Cursor"),
    }
    Ok(Arc::new(book))
}

/// The prompt with the rules preamble in front, when there is one.
fn with_rules(preamble: Option<String>, prompt: String) -> String {
    match preamble {
        Some(rules) => format!("{rules}\n\n{prompt}"),
        None => prompt,
    }
}

/// The prompt with the interruption notice in front, when the last turn did not finish.
fn with_interruption(prompt: String, interrupted: bool) -> String {
    if interrupted {
        format!("{INTERRUPTED_NOTICE}\n\n{prompt}")
    } else {
        prompt
    }
}

/// Answers one client from an exchange, streamed or not. A client that joins an exchange that
/// had already ended (a replay) is told so in `x-multi-cursor-replayed`.
async fn answer(observer: Observer, stream: bool) -> Answer {
    // A failure that is already over is answered as itself, without its partial events.
    if let Some(Ending::Failed { error, .. }) = observer.exchange().ending() {
        return Err(refuse(error));
    }
    let replayed = observer.exchange().is_replay() || !observer.exchange().is_running();
    let result = if stream {
        stream_answer(observer, replayed).await
    } else {
        collect_answer(observer, replayed).await
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
fn local_answer(model: &str, text: &str, stream: bool) -> Response {
    let text = &sanitize(text);
    let usage = Usage {
        input_tokens: 0,
        output_tokens: (text.len() as u64).div_ceil(4),
        ..Usage::default()
    };
    events_answer(answer_events(model, text, 0, usage, None), stream)
}

/// A complete answer made of `events`, as SSE frames or folded into one Messages JSON.
fn events_answer(events: Vec<StreamEvent>, stream: bool) -> Response {
    let events: Vec<SseEvent> = events.iter().map(SseEvent::from).collect();
    if stream {
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
async fn collect_answer(mut observer: Observer, replayed: bool) -> Answer {
    let mut all = Vec::new();
    while let Some(item) = observer.next().await {
        all.push(served(item.map_err(refuse)?, replayed));
    }
    Ok(axum::Json(fold_message(&all)).into_response())
}

/// Streamed: waits for the first event so early failures keep their status, then relays
/// events as SSE frames as they come, with `ping` while quiet. Dropping the body (the client
/// left) drops the observer, which cancels the turn if it was the last one watching.
async fn stream_answer(mut observer: Observer, replayed: bool) -> Answer {
    let first = match observer.next().await {
        Some(Ok(event)) => served(event, replayed),
        Some(Err(error)) => return Err(refuse(error)),
        None => {
            return Err(refuse(ApiError::run_failed(
                "the Cursor turn ended before it said anything",
            )));
        }
    };
    let head = futures_util::stream::once(async move { Ok(Bytes::from(first.frame())) });
    let rest = futures_util::stream::unfold(observer, move |mut observer| async move {
        let item = match tokio::time::timeout(PING_EVERY, observer.next()).await {
            Err(_) => Some(Bytes::from(StreamEvent::Ping.frame())),
            Ok(Some(Ok(event))) => Some(Bytes::from(served(event, replayed).frame())),
            Ok(Some(Err(error))) => Some(Bytes::from(clean(error).event().frame())),
            Ok(None) => None,
        };
        item.map(|bytes| (Ok::<_, Infallible>(bytes), observer))
    });
    Ok(sse_response(head.chain(rest)))
}

/// An event as served: a replayed answer's usage says `"replayed": true`.
fn served(mut event: SseEvent, replayed: bool) -> SseEvent {
    if replayed {
        event.mark_replayed();
    }
    event
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
