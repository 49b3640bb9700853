//! The gateway's listener: accepts loopback connections and serves them with HTTP/1.1 only,
//! under limits that keep idle or hostile connections from starving Claude Code's requests.
//!
//! - **HTTP/1.1 only.** Claude Code and every Anthropic client speak it. Cleartext HTTP/2 (prior
//!   knowledge) carries the authority in `:authority`, not in `Host`, so it would slip past the
//!   loopback Host rule; hyper's HTTP/1 connection builder is driven directly (`axum::serve`
//!   has no switch for this) and an HTTP/2 preface is not understood.
//! - **Idle limits, no request limit.** A connection must start its first request within
//!   [`FIRST_REQUEST_TIMEOUT`]; one that has presented the token may then wait
//!   [`AUTHENTICATED_IDLE`] between requests (Claude Code pools its connections); one that never
//!   did is closed after [`FIRST_REQUEST_TIMEOUT`] of idleness. A request being answered is never
//!   timed: a streamed Cursor turn may sit quiet behind `ping`s for an hour.
//! - **A cap on connections** ([`connection_cap`], from the descriptor limit): when it is
//!   reached, an idle connection that never presented the token is closed first, then any
//!   connection that never presented it, then the longest-idle authenticated one; only when
//!   every connection is busy and authenticated is the new one refused.
//! - 401 and 403 answers close their connection (the guard adds `Connection: close`).
//!
//! Shutdown stops accepting, lets each connection finish the request it is answering, and
//! waits for them all, as `axum::serve`'s graceful shutdown did.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::sync::watch;
use tokio::time::Instant;
use tower::ServiceExt;

/// How long a new connection may take to start its first request (headers included), and how
/// long a connection that never presented the token may stay idle between requests.
pub(crate) const FIRST_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a connection that presented the gateway token may stay idle between requests:
/// Claude Code keeps pooled connections and reuses them after pauses of a minute or more.
pub(crate) const AUTHENTICATED_IDLE: Duration = Duration::from_secs(300);

/// Descriptors kept out of the connection budget: the state folder, agent pipes, the upstream.
const RESERVED_DESCRIPTORS: u64 = 128;

/// Most connections served at once for a descriptor limit of `nofile`: half of what is left
/// after `RESERVED_DESCRIPTORS` (128; each turn also needs pipes), at least 16, at most 4,096.
pub(crate) fn connection_cap(nofile: u64) -> usize {
    let half = nofile.saturating_sub(RESERVED_DESCRIPTORS) / 2;
    usize::try_from(half.clamp(16, 4096)).unwrap_or(4096)
}

/// The limits one listener applies; [`ServerLimits::default`] is what the gateway uses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ServerLimits {
    /// See [`FIRST_REQUEST_TIMEOUT`].
    pub first_request: Duration,
    /// See [`AUTHENTICATED_IDLE`].
    pub authenticated_idle: Duration,
    /// Connections served at once.
    pub max_connections: usize,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            first_request: FIRST_REQUEST_TIMEOUT,
            authenticated_idle: AUTHENTICATED_IDLE,
            max_connections: connection_cap(crate::platform::descriptor_limit()),
        }
    }
}

/// One accepted connection as the listener tracks it. Every request carries a
/// [`ConnectionHandle`] to it, through which the guard marks the connection authenticated.
#[derive(Debug)]
pub(crate) struct Connection {
    id: u64,
    authenticated: AtomicBool,
    in_flight: AtomicUsize,
    idle_since: Mutex<Instant>,
    /// Told to close at once (shed to make room).
    close: Notify,
    /// A request ended: the idle deadline moved.
    activity: Notify,
}

impl Connection {
    fn new(id: u64) -> Connection {
        Connection {
            id,
            authenticated: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            idle_since: Mutex::new(Instant::now()),
            close: Notify::new(),
            activity: Notify::new(),
        }
    }

    fn is_authenticated(&self) -> bool {
        self.authenticated.load(Ordering::Relaxed)
    }

    fn is_idle(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
    }

    /// When an idle connection is closed; `None` while a request is being answered.
    fn deadline(&self, limits: &ServerLimits) -> Option<Instant> {
        if !self.is_idle() {
            return None;
        }
        let since = *self
            .idle_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let allowed = if self.is_authenticated() {
            limits.authenticated_idle
        } else {
            limits.first_request
        };
        Some(since + allowed)
    }
}

/// The request extension naming the connection a request arrived on.
#[derive(Debug, Clone)]
pub(crate) struct ConnectionHandle(Arc<Connection>);

impl ConnectionHandle {
    /// Notes that a request on this connection presented the gateway token: it may now stay
    /// idle for [`AUTHENTICATED_IDLE`] and is shed last.
    pub(crate) fn mark_authenticated(&self) {
        self.0.authenticated.store(true, Ordering::Relaxed);
    }
}

/// A request being answered; dropped when its response body is done (or dropped).
struct Busy(Arc<Connection>);

impl Busy {
    fn start(connection: Arc<Connection>) -> Busy {
        connection.in_flight.fetch_add(1, Ordering::AcqRel);
        Busy(connection)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        *self
            .0
            .idle_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
        self.0.activity.notify_one();
    }
}

/// The open connections, oldest first.
#[derive(Debug)]
struct Registry {
    open: Mutex<Vec<Arc<Connection>>>,
    cap: usize,
    /// The last connection went away.
    emptied: Notify,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Connection>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `connection`, first shedding one when the cap is reached; false when every open
    /// connection is busy and authenticated (the new one is then refused).
    fn accept(&self, connection: &Arc<Connection>) -> bool {
        // The descriptor limit may have been lowered since we started (`prlimit --pid`).
        let cap = self
            .cap
            .min(connection_cap(crate::platform::descriptor_limit()));
        let mut open = self.lock();
        if open.len() >= cap {
            match pick_victim(&open) {
                Some(index) => {
                    let victim = open.remove(index);
                    victim.close.notify_one();
                }
                None => return false,
            }
        }
        open.push(Arc::clone(connection));
        true
    }

    /// Sheds one connection that never presented the token (descriptors ran out).
    fn shed_unauthenticated(&self) {
        let mut open = self.lock();
        if let Some(index) = pick_victim(&open)
            && !open[index].is_authenticated()
        {
            let victim = open.remove(index);
            victim.close.notify_one();
        }
    }

    fn remove(&self, id: u64) {
        let mut open = self.lock();
        open.retain(|c| c.id != id);
        if open.is_empty() {
            self.emptied.notify_waiters();
        }
    }

    fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

/// Which connection to close to make room: the oldest idle one that never presented the
/// token, else the oldest that never presented it, else the oldest idle authenticated one.
fn pick_victim(open: &[Arc<Connection>]) -> Option<usize> {
    let first = |wanted: &dyn Fn(&Connection) -> bool| open.iter().position(|c| wanted(c));
    first(&|c| !c.is_authenticated() && c.is_idle())
        .or_else(|| first(&|c| !c.is_authenticated()))
        .or_else(|| first(&|c| c.is_idle()))
}

/// Serves `router` on `listener` until `shutdown` resolves, then waits for the open
/// connections to finish what they are answering.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ServerLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let registry = Arc::new(Registry {
        open: Mutex::new(Vec::new()),
        cap: limits.max_connections.max(1),
        emptied: Notify::new(),
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    let next_id = AtomicU64::new(1);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let tcp = match accepted {
            Ok((tcp, _peer)) => tcp,
            Err(error) => {
                // Out of descriptors (EMFILE/ENFILE) or a connection that failed before we
                // took it: make room if we can, and never spin.
                tracing::debug!(%error, "accepting a connection failed");
                registry.shed_unauthenticated();
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        // Without TCP_NODELAY, small SSE frames wait ~40 ms on Nagle + delayed ACK (measured).
        let _ = tcp.set_nodelay(true);
        let connection = Arc::new(Connection::new(next_id.fetch_add(1, Ordering::Relaxed)));
        if !registry.accept(&connection) {
            tracing::warn!(
                cap = registry.cap,
                "refused a connection: every connection is busy"
            );
            continue;
        }
        tokio::spawn(serve_connection(
            tcp,
            router.clone(),
            connection,
            Arc::clone(&registry),
            stop_rx.clone(),
            limits,
        ));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    loop {
        let emptied = registry.emptied.notified();
        if registry.is_empty() {
            break;
        }
        emptied.await;
    }
    Ok(())
}

/// Serves one connection until it closes, is shed, stays idle too long, or the gateway stops.
async fn serve_connection(
    tcp: TcpStream,
    router: Router,
    connection: Arc<Connection>,
    registry: Arc<Registry>,
    mut stop: watch::Receiver<bool>,
    limits: ServerLimits,
) {
    let for_requests = Arc::clone(&connection);
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let router = router.clone();
        let connection = Arc::clone(&for_requests);
        async move {
            let busy = Busy::start(Arc::clone(&connection));
            let mut request = request.map(Body::new);
            request
                .extensions_mut()
                .insert(ConnectionHandle(connection));
            let response = router.oneshot(request).await?;
            // The request counts as answered only once its body has been sent (or dropped).
            Ok::<_, Infallible>(response.map(|body| {
                Body::new(body.map_frame(move |frame| {
                    let _ = &busy;
                    frame
                }))
            }))
        }
    });
    let served =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(tcp), service);
    tokio::pin!(served);
    let mut stopping = *stop.borrow();
    if stopping {
        served.as_mut().graceful_shutdown();
    }
    loop {
        let deadline = connection.deadline(&limits);
        let idle_deadline = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            result = served.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, "connection ended with an error");
                }
                break;
            }
            () = connection.close.notified() => {
                tracing::debug!(id = connection.id, "connection shed to make room");
                break;
            }
            () = connection.activity.notified() => {}
            changed = stop.changed(), if !stopping => {
                if changed.is_err() || *stop.borrow() {
                    stopping = true;
                    served.as_mut().graceful_shutdown();
                }
            }
            () = idle_deadline => {
                if connection.deadline(&limits).is_some_and(|at| at <= Instant::now()) {
                    tracing::debug!(id = connection.id, "idle connection closed");
                    break;
                }
            }
        }
    }
    registry.remove(connection.id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(id: u64, authenticated: bool, busy: bool) -> Arc<Connection> {
        let c = Arc::new(Connection::new(id));
        c.authenticated.store(authenticated, Ordering::Relaxed);
        if busy {
            c.in_flight.store(1, Ordering::Relaxed);
        }
        c
    }

    #[test]
    fn unauthenticated_idle_connections_go_first() {
        let open = vec![
            conn(1, true, false),
            conn(2, false, true),
            conn(3, false, false),
        ];
        assert_eq!(pick_victim(&open), Some(2));
        let open = vec![conn(1, true, false), conn(2, false, true)];
        assert_eq!(pick_victim(&open), Some(1));
        let open = vec![conn(1, true, true), conn(2, true, false)];
        assert_eq!(pick_victim(&open), Some(1));
        let open = vec![conn(1, true, true)];
        assert_eq!(pick_victim(&open), None);
    }

    #[test]
    fn cap_follows_the_descriptor_limit() {
        assert_eq!(connection_cap(1024), 448);
        assert_eq!(connection_cap(64), 16);
        assert_eq!(connection_cap(1 << 20), 4096);
    }

    #[test]
    fn an_authenticated_connection_waits_longer() {
        let limits = ServerLimits {
            first_request: Duration::from_secs(10),
            authenticated_idle: Duration::from_secs(300),
            max_connections: 4,
        };
        let c = conn(1, false, false);
        let first = c.deadline(&limits).unwrap();
        c.authenticated.store(true, Ordering::Relaxed);
        let later = c.deadline(&limits).unwrap();
        assert_eq!(later - first, Duration::from_secs(290));
        c.in_flight.store(1, Ordering::Relaxed);
        assert_eq!(
            c.deadline(&limits),
            None,
            "a request being answered is never timed"
        );
    }
}
