//! Added latency of the passthrough: N sequential requests straight to a local upstream versus
//! through a loopback router that mounts `gateway::passthrough::forward`, for a small JSON answer
//! and a short SSE stream. Prints p50/p99 of both and the difference.
//!
//! `cargo bench --bench passthrough` (set `PASSTHROUGH_BENCH_N` to change the 2000 requests).

// A benchmark or tool that cannot set up reports it by panicking.
#![allow(clippy::expect_used)]

use std::net::SocketAddr;
use std::time::Duration;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::post;
use axum::serve::ListenerExt;
use bytes::Bytes;
use multi_cursor::gateway::passthrough::Upstream;
use multi_cursor::gateway::passthrough::forward;

use multi_cursor_test_support::bench::ms;
use multi_cursor_test_support::bench::percentile;

const WARM_UP: usize = 200;
const DEFAULT_N: usize = 2000;

const JSON: &str = r#"{"id":"msg_bench","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}"#;

const SSE: [&str; 7] = [
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_bench\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello \"}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"world\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":2}}\n\n",
    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
];

const REQUEST_BODY: &str = r#"{"model":"claude-sonnet-4-5","max_tokens":32000,"messages":[{"role":"user","content":"hi"}]}"#;

/// Serves `app` on loopback with `TCP_NODELAY` on every accepted connection, as the real gateway
/// must: without it, a streamed body written in several small writes stalls on Nagle's
/// algorithm against the client's delayed ACK (about 40 ms per response on Linux).
async fn serve(app: Router) -> SocketAddr {
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

async fn json_answer() -> Response {
    let mut resp = Response::new(Body::from(JSON));
    resp.headers_mut().insert(
        "content-type",
        axum::http::HeaderValue::from_static("application/json"),
    );
    resp
}

async fn sse_answer() -> Response {
    let chunks = SSE.map(|e| Ok::<_, std::io::Error>(Bytes::from_static(e.as_bytes())));
    let mut resp = Response::new(Body::from_stream(futures_util::stream::iter(chunks)));
    resp.headers_mut().insert(
        "content-type",
        axum::http::HeaderValue::from_static("text/event-stream"),
    );
    resp
}

/// The same settings `Upstream::new` uses for its own client.
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .tcp_nodelay(true)
        .no_proxy()
        .build()
        .expect("client")
}

async fn once(client: &reqwest::Client, url: &str) -> Duration {
    let start = Instant::now();
    let resp = client
        .post(url)
        .header("x-api-key", "sk-ant-bench")
        .header("anthropic-version", "2023-06-01")
        .header("x-multi-cursor-token", "bench-token")
        .header("content-type", "application/json")
        .body(REQUEST_BODY)
        .send()
        .await
        .expect("send");
    assert!(resp.status().is_success(), "status {}", resp.status());
    let body = resp.bytes().await.expect("body");
    assert!(!body.is_empty());
    start.elapsed()
}

async fn measure(name: &str, client: &reqwest::Client, direct: &str, via: &str, n: usize) {
    for _ in 0..WARM_UP {
        once(client, direct).await;
        once(client, via).await;
    }
    let mut d = Vec::with_capacity(n);
    let mut g = Vec::with_capacity(n);
    // Alternate so both see the same machine conditions.
    for _ in 0..n {
        d.push(once(client, direct).await);
        g.push(once(client, via).await);
    }
    d.sort();
    g.sort();
    let (d50, d99) = (percentile(&d, 0.50), percentile(&d, 0.99));
    let (g50, g99) = (percentile(&g, 0.50), percentile(&g, 0.99));
    println!(
        "{name:<5} n={n}: direct p50 {:.3} ms p99 {:.3} ms; via gateway p50 {:.3} ms p99 {:.3} ms; \
         added p50 {:.3} ms (goal < 1 ms), p99 {:.3} ms (goal < 5 ms)",
        ms(d50),
        ms(d99),
        ms(g50),
        ms(g99),
        ms(g50) - ms(d50),
        ms(g99) - ms(d99),
    );
}

fn main() {
    let n = std::env::var("PASSTHROUGH_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_N);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let upstream_addr = serve(
            Router::new()
                .route("/v1/messages", post(json_answer))
                .route("/sse/v1/messages", post(sse_answer)),
        )
        .await;
        let upstream = Upstream::new(&format!("http://{upstream_addr}")).expect("upstream");
        let gateway_addr = serve(Router::new().fallback(move |request: Request| {
            let upstream = upstream.clone();
            async move {
                let (parts, body) = request.into_parts();
                let body = axum::body::to_bytes(body, 8 << 20).await.expect("body");
                forward(&upstream, parts, body).await
            }
        }))
        .await;
        let client = client();
        measure(
            "json",
            &client,
            &format!("http://{upstream_addr}/v1/messages?beta=true"),
            &format!("http://{gateway_addr}/v1/messages?beta=true"),
            n,
        )
        .await;
        measure(
            "sse",
            &client,
            &format!("http://{upstream_addr}/sse/v1/messages?beta=true"),
            &format!("http://{gateway_addr}/sse/v1/messages?beta=true"),
            n,
        )
        .await;
    });
}
