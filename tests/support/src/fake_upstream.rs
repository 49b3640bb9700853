//! A scripted fake Anthropic upstream for integration tests, plus a raw HTTP/1.1 client.
//!
//! [`FakeUpstream::start`] runs an axum server on `127.0.0.1:0` on its own thread and tokio
//! runtime, so it works from sync tests and from `#[tokio::test]` alike (whatever the test's
//! runtime flavour) and never depends on the test's runtime making progress. It records every
//! request in arrival order ([`FakeUpstream::requests`]) and answers each from its script: first
//! the queued responses ([`FakeUpstream::push`]), in order; when the queue is empty, the closure
//! given to [`FakeUpstream::respond_with`]; failing both, a 500 Anthropic error saying nothing was
//! scripted. The server stops when the `FakeUpstream` is dropped.
//!
//! A [`ScriptedResponse`] is a status, headers and a body made of steps: chunks, delays, waits on
//! a [`Gate`] the test opens, gates the upstream opens when it gets there, and an abort
//! ([`ScriptedResponse::reset`]). A body of chunks only is sent with a `content-length`; any other
//! body is streamed with chunked encoding, each chunk flushed as it comes. [`anthropic`] builds
//! Messages API bodies: SSE text streams, non-streamed messages, `Agent` tool calls, errors.
//!
//! [`raw`] is a tiny HTTP/1.1 client over a plain `TcpStream` for tests that must control or see
//! exact bytes (hop-by-hop headers, chunk framing, whether a chunked body ended cleanly).

pub mod anthropic;
pub mod raw;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::MutexGuard;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::extract::State;
use axum::http::HeaderName;
use axum::http::HeaderValue;
use axum::http::StatusCode;
use axum::response::Response;
use axum::serve::ListenerExt;
use bytes::Bytes;
use multi_cursor::gateway::passthrough::Upstream;
use multi_cursor::gateway::passthrough::forward;
use tokio::sync::Notify;

/// One request as the fake upstream received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedRequest {
    /// `POST`, `GET`, …
    pub method: String,
    /// The path, e.g. `/v1/messages` (with any base prefix the sender added).
    pub path: String,
    /// The raw query string without `?`, e.g. `Some("beta=true")`.
    pub query: Option<String>,
    /// Every header in the order the server saw them (values of one name stay together), names
    /// in lower case, values as bytes.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The complete body.
    pub body: Bytes,
}

impl RecordedRequest {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of header `name` as UTF-8 (panics if it is not).
    pub fn header_str(&self, name: &str) -> Option<&str> {
        self.header(name)
            .map(|v| std::str::from_utf8(v).expect("header value is not UTF-8"))
    }

    /// `path` plus `?query` when there is one.
    pub fn path_and_query(&self) -> String {
        match &self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.clone(),
        }
    }

    /// The body parsed as JSON (panics if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("request body is not JSON")
    }

    /// The body's `model` field, if the body is JSON with one.
    pub fn model(&self) -> Option<String> {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()?
            .get("model")?
            .as_str()
            .map(str::to_owned)
    }
}

/// A one-shot signal between a test and a scripted body. Clones share the same signal.
///
/// Use [`ScriptedResponse::wait_for`] to make the upstream pause until the test calls
/// [`Gate::open`].
#[derive(Clone, Debug, Default)]
pub struct Gate {
    inner: Arc<GateInner>,
}

#[derive(Debug, Default)]
struct GateInner {
    open: AtomicBool,
    notify: Notify,
}

impl Gate {
    /// A closed gate.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens the gate for good, waking every waiter (from any thread or runtime).
    pub fn open(&self) {
        self.inner.open.store(true, Ordering::SeqCst);
        self.inner.notify.notify_waiters();
    }

    /// Whether the gate has been opened.
    pub fn is_open(&self) -> bool {
        self.inner.open.load(Ordering::SeqCst)
    }

    /// Waits until the gate is open.
    pub async fn wait(&self) {
        loop {
            let notified = self.inner.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_open() {
                return;
            }
            notified.await;
        }
    }
}

/// One step of a scripted body.
#[derive(Clone, Debug)]
pub enum Step {
    /// Send these bytes (as one chunk, flushed).
    Chunk(Bytes),
    /// Pause.
    Delay(Duration),
    /// Pause until the test opens the gate.
    WaitFor(Gate),
    /// Abort the response here: the body stream fails, so the server drops the connection
    /// without ending the body (no final chunk, or fewer bytes than `content-length`).
    Reset,
}

/// What the fake upstream answers to one request.
#[derive(Clone, Debug)]
pub struct ScriptedResponse {
    /// The status code.
    pub status: u16,
    /// Headers in order (names as given; values as bytes).
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body, step by step.
    pub body: Vec<Step>,
}

impl ScriptedResponse {
    /// A response with `status`, no headers and an empty body.
    pub fn new(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// Adds a header (several with one name are all sent, in order).
    pub fn header(mut self, name: &str, value: impl AsRef<[u8]>) -> Self {
        self.headers
            .push((name.to_owned(), value.as_ref().to_vec()));
        self
    }

    /// Appends a body chunk.
    pub fn chunk(mut self, bytes: impl Into<Bytes>) -> Self {
        self.body.push(Step::Chunk(bytes.into()));
        self
    }

    /// Appends a pause.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.body.push(Step::Delay(delay));
        self
    }

    /// Appends a wait until the test opens `gate`.
    pub fn wait_for(mut self, gate: &Gate) -> Self {
        self.body.push(Step::WaitFor(gate.clone()));
        self
    }

    /// Appends an abort: the connection is dropped mid-body.
    pub fn reset(mut self) -> Self {
        self.body.push(Step::Reset);
        self
    }

    /// A JSON response (`content-type: application/json`).
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Self::new(status)
            .header("content-type", "application/json")
            .chunk(value.to_string())
    }

    /// An Anthropic error response `{"type":"error","error":{"type":kind,"message":message}}`.
    pub fn anthropic_error(status: u16, kind: &str, message: &str) -> Self {
        Self::json(status, &anthropic::error_json(kind, message))
    }

    /// A 200 non-streamed Messages answer with one text block.
    pub fn message(model: &str, text: &str) -> Self {
        Self::json(200, &anthropic::message_json(model, text))
    }

    /// A 200 SSE response (`content-type: text/event-stream`, `cache-control: no-cache`) with
    /// no body yet; add events with [`ScriptedResponse::chunk`].
    pub fn sse_head() -> Self {
        Self::new(200)
            .header("content-type", "text/event-stream; charset=utf-8")
            .header("cache-control", "no-cache")
    }

    /// A 200 SSE response sending each event as its own chunk.
    pub fn sse<I, S>(events: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<Bytes>,
    {
        events
            .into_iter()
            .fold(Self::sse_head(), ScriptedResponse::chunk)
    }

    /// Like [`ScriptedResponse::sse`] with `delay` between consecutive events.
    pub fn sse_with_delay<I, S>(events: I, delay: Duration) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<Bytes>,
    {
        let mut resp = Self::sse_head();
        for (i, event) in events.into_iter().enumerate() {
            if i > 0 {
                resp = resp.delay(delay);
            }
            resp = resp.chunk(event);
        }
        resp
    }

    /// A streamed Messages answer with one text block (see [`anthropic::text_events`]).
    pub fn text_stream(model: &str, text: &str) -> Self {
        Self::sse(anthropic::text_events(model, text))
    }

    /// A streamed Messages answer calling tool `name` with `input` (see
    /// [`anthropic::tool_use_events`]).
    pub fn tool_use_stream(
        model: &str,
        tool_use_id: &str,
        name: &str,
        input: &serde_json::Value,
    ) -> Self {
        Self::sse(anthropic::tool_use_events(model, tool_use_id, name, input))
    }

    /// The whole body if it is chunks only, else `None`.
    fn plain_body(&self) -> Option<Bytes> {
        let mut out = Vec::new();
        for step in &self.body {
            match step {
                Step::Chunk(b) => out.extend_from_slice(b),
                _ => return None,
            }
        }
        Some(Bytes::from(out))
    }

    fn into_response(self) -> Response {
        let body = match self.plain_body() {
            Some(bytes) => Body::from(bytes),
            None => {
                let steps = self.body.clone().into_iter();
                Body::from_stream(futures_util::stream::unfold(
                    steps,
                    |mut steps| async move {
                        loop {
                            match steps.next()? {
                                Step::Chunk(b) => return Some((Ok(b), steps)),
                                Step::Delay(d) => tokio::time::sleep(d).await,
                                Step::WaitFor(gate) => gate.wait().await,
                                Step::Reset => {
                                    let err = std::io::Error::new(
                                        std::io::ErrorKind::ConnectionReset,
                                        "fake upstream: scripted reset",
                                    );
                                    return Some((Err(err), Vec::new().into_iter()));
                                }
                            }
                        }
                    },
                ))
            }
        };
        let mut response = Response::new(body);
        *response.status_mut() =
            StatusCode::from_u16(self.status).expect("scripted status is not a valid code");
        for (name, value) in &self.headers {
            response.headers_mut().append(
                HeaderName::from_bytes(name.as_bytes()).expect("scripted header name is invalid"),
                HeaderValue::from_bytes(value).expect("scripted header value is invalid"),
            );
        }
        response
    }
}

type Responder = dyn Fn(&RecordedRequest) -> ScriptedResponse + Send + Sync;

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<RecordedRequest>>,
    queue: Mutex<VecDeque<ScriptedResponse>>,
    responder: Mutex<Option<Arc<Responder>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The running fake upstream. Dropping it stops the server (open connections are cut).
pub struct FakeUpstream {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl FakeUpstream {
    /// Starts the server on `127.0.0.1:<free port>` on its own thread and runtime.
    pub fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("set_nonblocking");
        let addr = listener.local_addr().expect("local_addr");
        let shared = Arc::new(Shared::default());
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::clone(&shared));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("fake-upstream".to_owned())
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("fake upstream runtime");
                rt.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)
                        .expect("tokio listener")
                        .tap_io(|tcp| {
                            let _ = tcp.set_nodelay(true);
                        });
                    tokio::select! {
                        _ = axum::serve(listener, app) => {}
                        _ = rx => {}
                    }
                });
                rt.shutdown_background();
            })
            .expect("spawn fake upstream thread");
        Self {
            addr,
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// The socket address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, `http://127.0.0.1:<port>` (no trailing `/`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Queues a response; queued responses answer requests in order.
    pub fn push(&self, response: ScriptedResponse) {
        lock(&self.shared.queue).push_back(response);
    }

    /// Answers with `f` whenever the queue is empty.
    pub fn respond_with<F>(&self, f: F)
    where
        F: Fn(&RecordedRequest) -> ScriptedResponse + Send + Sync + 'static,
    {
        *lock(&self.shared.responder) = Some(Arc::new(f));
    }

    /// Every request received so far, in arrival order. A request is recorded before its
    /// response starts, so once a client has the response head, its request is here.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// How many requests have arrived.
    pub fn request_count(&self) -> usize {
        lock(&self.shared.requests).len()
    }

    /// The most recent request (panics if none arrived).
    pub fn last_request(&self) -> RecordedRequest {
        lock(&self.shared.requests)
            .last()
            .cloned()
            .expect("the fake upstream received no request")
    }
}

impl Drop for FakeUpstream {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn handle(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let recorded = RecordedRequest {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| (n.as_str().to_owned(), v.as_bytes().to_vec()))
            .collect(),
        body,
    };
    lock(&shared.requests).push(recorded.clone());
    let queued = lock(&shared.queue).pop_front();
    let scripted = match queued {
        Some(r) => r,
        None => {
            let responder = lock(&shared.responder).clone();
            match responder {
                Some(f) => f(&recorded),
                None => ScriptedResponse::anthropic_error(
                    500,
                    "api_error",
                    &format!(
                        "fake upstream: no scripted response for {} {}",
                        recorded.method,
                        recorded.path_and_query()
                    ),
                ),
            }
        }
    };
    scripted.into_response()
}

/// Serves `app` on `127.0.0.1:<free port>` in the current tokio runtime, with `TCP_NODELAY` on
/// each connection like the real gateway; returns the address. The server runs until the
/// runtime ends.
pub async fn serve_on_loopback(app: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local_addr");
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

/// A gateway that does nothing but forward to the upstream at `base` (`passthrough::forward`,
/// bodies up to 8 MiB), served on loopback: the passthrough tests' gateway. Returns its address.
pub async fn passthrough_gateway(base: &str) -> SocketAddr {
    let upstream = Upstream::new(base).expect("upstream");
    let app = Router::new().fallback(move |request: Request| {
        let upstream = upstream.clone();
        async move {
            let (parts, body) = request.into_parts();
            let body = axum::body::to_bytes(body, 8 << 20).await.expect("body");
            forward(&upstream, parts, body).await
        }
    });
    serve_on_loopback(app).await
}
