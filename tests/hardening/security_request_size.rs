//! Requests are bounded before they cost memory: a body over 8 MiB gets 413 with
//! `x-should-retry: false` — refused from its declared length before a byte of it is read, and
//! from its bytes when it comes chunked without a length — on every route that takes a body;
//! exactly 8 MiB is still read. An oversized header section (one huge header, or too many
//! headers) is refused by the HTTP layer (hyper) with 431 before any route runs. After all of
//! it the gateway still answers, and nothing ran.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use std::io::Read;
use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use gateway::GatewayOptions;
use gateway::TestGateway;
use security::exchange;

const MAX_BODY: usize = 8 * 1024 * 1024;

/// Sends a chunked body of `size` bytes on one connection while reading the answer on the
/// same connection from another thread (the gateway may answer before the body is done).
fn chunked(gw: &TestGateway, path: &str, size: usize) -> security::Answer {
    let mut stream = TcpStream::connect(security::authority(&gw.url)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut reader = stream.try_clone().unwrap();
    let read = std::thread::spawn(move || {
        let mut raw = Vec::new();
        let _ = reader.read_to_end(&mut raw);
        raw
    });
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nx-multi-cursor-token: {}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nConnection: close\r\n\r\n",
        security::authority(&gw.url),
        gw.token
    );
    let _ = stream.write_all(head.as_bytes());
    let piece = vec![b' '; 64 * 1024];
    let mut sent = 0;
    while sent < size {
        let n = piece.len().min(size - sent);
        if stream
            .write_all(format!("{n:x}\r\n").as_bytes())
            .and_then(|()| stream.write_all(&piece[..n]))
            .and_then(|()| stream.write_all(b"\r\n"))
            .is_err()
        {
            break;
        }
        sent += n;
    }
    let _ = stream.write_all(b"0\r\n\r\n");
    let raw = read.join().unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no answer to a chunked body of {size} bytes: {text:?}"));
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    security::Answer {
        status,
        headers: head
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect(),
        body: body.to_string(),
        raw,
    }
}

#[test]
fn oversized_bodies_and_headers_are_refused() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let host = format!("Host: {}", security::authority(&gw.url));
    let token = format!("x-multi-cursor-token: {}", gw.token);

    for path in [
        "/v1/messages",
        "/v1/messages/count_tokens",
        "/multi-cursor/hook",
    ] {
        // Declared too long: refused without sending the body at all.
        let answer = exchange(
            &gw.url,
            &[
                format!("POST {path} HTTP/1.1"),
                host.clone(),
                token.clone(),
                "content-type: application/json".into(),
                format!("content-length: {}", MAX_BODY + 1),
            ],
            b"",
        );
        assert_eq!(answer.status, 413, "{path} declared: {}", answer.body);
        assert_eq!(answer.header("x-should-retry"), Some("false"), "{path}");
        assert!(answer.body.contains("8 MiB"), "{path}: {}", answer.body);

        // Chunked, no length: refused from the bytes.
        let answer = chunked(&gw, path, MAX_BODY + 64 * 1024);
        assert_eq!(answer.status, 413, "{path} chunked: {}", answer.body);
        assert_eq!(answer.header("x-should-retry"), Some("false"), "{path}");
    }

    // Exactly the limit is read (and then refused for what it is: not a request).
    let answer = chunked(&gw, "/v1/messages", MAX_BODY);
    assert_eq!(answer.status, 400, "8 MiB body: {}", answer.body);

    // One 1 MiB header, and 500 small ones: the HTTP layer answers 431.
    let huge = format!("x-padding: {}", "a".repeat(1024 * 1024));
    let answer = exchange(
        &gw.url,
        &[
            "GET /multi-cursor/status HTTP/1.1".into(),
            host.clone(),
            token.clone(),
            huge,
        ],
        b"",
    );
    assert_eq!(answer.status, 431, "a 1 MiB header");
    let mut head = vec![
        "GET /multi-cursor/status HTTP/1.1".to_string(),
        host.clone(),
        token.clone(),
    ];
    head.extend((0..500).map(|i| format!("x-h{i}: v")));
    let answer = exchange(&gw.url, &head, b"");
    assert_eq!(answer.status, 431, "500 headers");

    // Still serving; nothing ran.
    let answer = exchange(
        &gw.url,
        &["GET /multi-cursor/status HTTP/1.1".into(), host, token],
        b"",
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(gw.turns().is_empty(), "a refused request ran Cursor");
}
