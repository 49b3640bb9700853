//! Passthrough is byte for byte: what Claude Code sends reaches the upstream unchanged (minus our
//! token and hop-by-hop headers), and what the upstream answers — success or error, any status —
//! comes back unchanged.

use multi_cursor_test_support::fake_upstream;

use std::net::SocketAddr;

use fake_upstream::FakeUpstream;
use fake_upstream::ScriptedResponse;
use fake_upstream::passthrough_gateway;
use fake_upstream::raw;

async fn exchange(addr: SocketAddr, request: Vec<u8>) -> raw::RawResponse {
    tokio::task::spawn_blocking(move || raw::exchange(addr, &request))
        .await
        .expect("raw exchange")
}

fn all_bytes() -> Vec<u8> {
    (0..=255u8).cycle().take(3 * 256 + 17).collect()
}

fn pairs(list: &[(&str, &[u8])]) -> Vec<(String, Vec<u8>)> {
    list.iter()
        .map(|(n, v)| ((*n).to_owned(), v.to_vec()))
        .collect()
}

fn without(headers: &[(String, Vec<u8>)], names: &[&str]) -> Vec<(String, Vec<u8>)> {
    headers
        .iter()
        .filter(|(n, _)| !names.contains(&n.as_str()))
        .cloned()
        .collect()
}

/// The end-to-end headers of the request below, in wire order (lower-case names).
const END_TO_END: &[(&str, &[u8])] = &[
    ("accept", b"application/json"),
    ("content-type", b"application/json"),
    ("user-agent", b"claude-cli/2.1.328 (external, sdk-cli)"),
    (
        "x-claude-code-session-id",
        b"0b5e2c1e-8a51-4a3c-9d6e-2f1f0c9a7b11",
    ),
    ("x-api-key", b"sk-ant-test-SECRET"),
    ("anthropic-version", b"2023-06-01"),
    (
        "anthropic-beta",
        b"claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27",
    ),
    ("anthropic-dangerous-direct-browser-access", b"true"),
    ("x-app", b"cli"),
    ("x-foo", b"one"),
    ("x-foo", b"two,  three"),
    ("x-odd", b"caf\xc3\xa9 \"quoted\"; a=b,c  \t x"),
    ("accept-encoding", b"gzip, deflate, br, zstd"),
];

fn request_head(path: &str, end_to_end: &[(&str, &[u8])], framing: &str) -> Vec<u8> {
    let mut req = format!("POST {path} HTTP/1.1\r\nHost: gateway.invalid\r\n").into_bytes();
    for (name, value) in end_to_end {
        req.extend_from_slice(name.as_bytes());
        req.extend_from_slice(b": ");
        req.extend_from_slice(value);
        req.extend_from_slice(b"\r\n");
    }
    req.extend_from_slice(
        b"x-multi-cursor-token: gateway-token-123\r\n\
          Connection: close, X-Hop-Custom\r\n\
          X-Hop-Custom: only for the next hop\r\n\
          Keep-Alive: timeout=5\r\n\
          TE: trailers\r\n\
          Proxy-Authorization: Basic Zm9vOmJhcg==\r\n\
          Proxy-Connection: keep-alive\r\n",
    );
    req.extend_from_slice(framing.as_bytes());
    req.extend_from_slice(b"\r\n");
    req
}

#[tokio::test(flavor = "multi_thread")]
async fn request_reaches_upstream_byte_for_byte() {
    let fake = FakeUpstream::start();
    fake.push(ScriptedResponse::message("claude-sonnet-4-5", "ok"));
    let gw = passthrough_gateway(&fake.url()).await;

    let mut body =
        br#"{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"h\u00e9llo"}]}  "#
            .to_vec();
    body.extend(all_bytes());
    let mut request = request_head(
        "/v1/messages?beta=true",
        END_TO_END,
        &format!("Content-Length: {}\r\n", body.len()),
    );
    request.extend_from_slice(&body);
    let resp = exchange(gw, request).await;
    assert_eq!(
        resp.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&resp.body)
    );

    let got = fake.requests();
    assert_eq!(got.len(), 1);
    let got = &got[0];
    assert_eq!(got.method, "POST");
    assert_eq!(got.path, "/v1/messages");
    assert_eq!(got.query.as_deref(), Some("beta=true"));
    assert_eq!(got.body.as_ref(), body.as_slice(), "body bytes differ");
    assert_eq!(
        without(&got.headers, &["host", "content-length"]),
        pairs(END_TO_END),
        "end-to-end headers differ (token or hop-by-hop header leaked, or a header changed)"
    );
    assert_eq!(
        got.header_str("host"),
        Some(fake.addr().to_string().as_str())
    );
    assert_eq!(
        got.header_str("content-length"),
        Some(body.len().to_string().as_str())
    );
    for gone in [
        "x-multi-cursor-token",
        "connection",
        "x-hop-custom",
        "keep-alive",
        "te",
        "proxy-authorization",
        "proxy-connection",
        "transfer-encoding",
    ] {
        assert!(got.header(gone).is_none(), "{gone} reached the upstream");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn chunked_request_body_is_reframed_with_a_length() {
    let fake = FakeUpstream::start();
    fake.push(ScriptedResponse::message("claude-sonnet-4-5", "ok"));
    let gw = passthrough_gateway(&fake.url()).await;

    let parts: [&[u8]; 3] = [
        b"{\"model\":",
        b"\"claude-haiku-5-5\",",
        b"\"messages\":[]}",
    ];
    let mut request = request_head(
        "/v1/messages?beta=true",
        END_TO_END,
        "Transfer-Encoding: chunked\r\n",
    );
    for part in parts {
        request.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
        request.extend_from_slice(part);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let resp = exchange(gw, request).await;
    assert_eq!(resp.status, 200);

    let got = fake.last_request();
    let whole = parts.concat();
    assert_eq!(got.body.as_ref(), whole.as_slice());
    assert_eq!(
        got.header_str("content-length"),
        Some(whole.len().to_string().as_str())
    );
    assert!(got.header("transfer-encoding").is_none());
    assert_eq!(
        without(&got.headers, &["host", "content-length"]),
        pairs(END_TO_END)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn base_prefix_method_and_query_are_kept() {
    let fake = FakeUpstream::start();
    fake.respond_with(|_| ScriptedResponse::json(200, &serde_json::json!({"input_tokens": 7})));
    let gw = passthrough_gateway(&format!("{}/anthropic/", fake.url())).await;

    let resp = exchange(
        gw,
        b"POST /v1/messages/count_tokens?beta=true&x=a%20b HTTP/1.1\r\nHost: g\r\n\
          Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
            .to_vec(),
    )
    .await;
    assert_eq!(resp.status, 200);
    assert_eq!(resp.body, br#"{"input_tokens":7}"#);

    let resp = exchange(
        gw,
        b"GET /v1/models?limit=2 HTTP/1.1\r\nHost: g\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
            .to_vec(),
    )
    .await;
    assert_eq!(resp.status, 200);

    let got = fake.requests();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].method, "POST");
    assert_eq!(
        got[0].path_and_query(),
        "/anthropic/v1/messages/count_tokens?beta=true&x=a%20b"
    );
    assert_eq!(got[0].body.as_ref(), b"{}");
    assert_eq!(got[1].method, "GET");
    assert_eq!(got[1].path_and_query(), "/anthropic/v1/models?limit=2");
    assert!(got[1].body.is_empty());
    assert!(
        got[1].header("content-length").is_none(),
        "a bodiless GET gained a content-length"
    );
}

/// Sends a plain request and returns the raw answer.
async fn simple_post(gw: SocketAddr) -> raw::RawResponse {
    exchange(
        gw,
        b"POST /v1/messages?beta=true HTTP/1.1\r\nHost: g\r\nAccept: application/json\r\n\
          x-api-key: sk-ant-test\r\nx-multi-cursor-token: t\r\nContent-Type: application/json\r\n\
          Content-Length: 2\r\nConnection: close\r\n\r\n{}"
            .to_vec(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn response_comes_back_byte_for_byte() {
    let fake = FakeUpstream::start();
    let scripted_headers: &[(&str, &[u8])] = &[
        ("content-type", b"application/octet-stream"),
        ("content-encoding", b"gzip"),
        ("request-id", b"req_011CabcDEF"),
        ("x-foo", b"bar"),
        ("x-multi", b"1"),
        ("x-multi", b"2, 3"),
        ("anthropic-ratelimit-requests-remaining", b"49"),
        ("x-odd", b"caf\xc3\xa9  \"q\""),
    ];
    let mut scripted = ScriptedResponse::new(201);
    for (name, value) in scripted_headers {
        scripted = scripted.header(name, value);
    }
    // Hop-by-hop on the way back: dropped.
    scripted = scripted
        .header("connection", "x-up-hop")
        .header("x-up-hop", "only for the next hop")
        .header("keep-alive", "timeout=5");
    let body = all_bytes();
    fake.push(scripted.chunk(body.clone()));
    let gw = passthrough_gateway(&fake.url()).await;

    let resp = simple_post(gw).await;
    assert_eq!(resp.status, 201);
    assert!(resp.complete);
    assert_eq!(resp.body, body, "body bytes differ (was it decoded?)");
    assert_eq!(
        without(&resp.headers, &["connection", "date", "content-length"]),
        pairs(scripted_headers),
        "end-to-end response headers differ"
    );
    assert_eq!(
        resp.header("content-length"),
        Some(body.len().to_string().as_bytes())
    );
    assert_eq!(resp.header_all("date").len(), 1);
    assert!(resp.header("x-up-hop").is_none());
    assert!(resp.header("keep-alive").is_none());
    assert!(
        resp.header_all("connection")
            .iter()
            .all(|v| !String::from_utf8_lossy(v).contains("x-up-hop"))
    );
}

/// A scripted answer: status, headers, body.
type Case = (u16, Vec<(&'static str, &'static str)>, String);

#[tokio::test(flavor = "multi_thread")]
async fn error_statuses_pass_through_unchanged() {
    let fake = FakeUpstream::start();
    let cases: Vec<Case> = vec![
        (
            529,
            vec![
                ("content-type", "application/json"),
                ("x-should-retry", "false"),
                ("request-id", "req_529"),
            ],
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
                .to_owned(),
        ),
        (
            429,
            vec![
                ("content-type", "application/json"),
                ("retry-after", "3"),
                ("anthropic-ratelimit-tokens-reset", "2026-11-30T08:00:00Z"),
            ],
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#
                .to_owned(),
        ),
        (
            401,
            vec![("content-type", "application/json"), ("x-should-retry", "false")],
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#
                .to_owned(),
        ),
        // Redirects are not followed: the 307 itself comes back.
        (
            307,
            vec![("location", "https://elsewhere.invalid/v1/messages")],
            String::new(),
        ),
    ];
    for (status, headers, body) in &cases {
        let mut scripted = ScriptedResponse::new(*status);
        for (n, v) in headers {
            scripted = scripted.header(n, v);
        }
        fake.push(scripted.chunk(body.clone()));
    }
    let gw = passthrough_gateway(&fake.url()).await;

    for (status, headers, body) in &cases {
        let resp = simple_post(gw).await;
        assert_eq!(resp.status, *status);
        assert_eq!(resp.body, body.as_bytes());
        let expected: Vec<(String, Vec<u8>)> = headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec()))
            .collect();
        assert_eq!(
            without(&resp.headers, &["connection", "date", "content-length"]),
            expected,
            "headers of the {status} differ"
        );
    }
    assert_eq!(fake.request_count(), cases.len(), "a redirect was followed");
}
