//! A web page cannot use the gateway. Browsers send `Origin` on cross-site (and same-site
//! POST) requests, so any `Origin` is refused with 403 even with the right token; and a DNS
//! rebinding page (a hostile name re-pointed at 127.0.0.1) still sends its own name in `Host`,
//! so a `Host` that does not name a loopback address is refused with 403 too — on every route,
//! the preconnect included. Loopback spellings (`127.0.0.1`, any `127.x`, `localhost`, `[::1]`)
//! pass. Nothing runs for a refused request.

use multi_cursor_test_support::gateway;
use multi_cursor_test_support::security;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use security::exchange;

#[test]
fn origins_and_foreign_hosts_are_refused() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let token = format!("x-multi-cursor-token: {}", gw.token);
    let authority = security::authority(&gw.url);
    let port = authority.rsplit_once(':').unwrap().1.to_string();
    let body = cursor_request("multi/cursor/composer-2.5", "hello", false).to_string();
    let request = |method: &str, path: &str, extra: &[String], body: &str| {
        let mut head = vec![format!("{method} {path} HTTP/1.1")];
        head.extend(extra.iter().cloned());
        head.push(token.clone());
        head.push("x-claude-code-session-id: s-web".into());
        head.push("content-type: application/json".into());
        head.push(format!("content-length: {}", body.len()));
        exchange(&gw.url, &head, body.as_bytes())
    };
    let routes = [
        ("POST", "/v1/messages", body.as_str()),
        ("POST", "/v1/messages/count_tokens", body.as_str()),
        ("GET", "/multi-cursor/status", ""),
        ("HEAD", "/api/hello", ""),
    ];

    for origin in [
        "http://evil.example".to_string(),
        "null".to_string(),
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
    ] {
        for (method, path, body) in routes {
            let answer = request(
                method,
                path,
                &[format!("Host: {authority}"), format!("Origin: {origin}")],
                body,
            );
            let what = format!("{method} {path} with Origin {origin}");
            assert_eq!(answer.status, 403, "{what}: {}", answer.body);
            assert_eq!(answer.header("x-should-retry"), Some("false"), "{what}");
            if method != "HEAD" {
                assert!(answer.body.contains("Origin"), "{what}: {}", answer.body);
            }
        }
    }

    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1.evil.example:{port}"),
        format!("localhost.evil.example:{port}"),
        format!("0.0.0.0:{port}"),
        format!("10.0.0.1:{port}"),
        format!("[::ffff:127.0.0.1]:{port}"),
        format!("[fe80::1]:{port}"),
        String::new(),
    ] {
        for (method, path, body) in routes {
            let answer = request(method, path, &[format!("Host: {host}")], body);
            let what = format!("{method} {path} with Host {host:?}");
            assert_eq!(answer.status, 403, "{what}: {}", answer.body);
            if method != "HEAD" {
                assert!(answer.body.contains("Host"), "{what}: {}", answer.body);
            }
        }
    }
    assert!(gw.turns().is_empty(), "a refused request ran Cursor");

    for host in [
        authority,
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("127.0.0.2:{port}"),
        format!("[::1]:{port}"),
        "127.0.0.1".to_string(),
    ] {
        let answer = request(
            "GET",
            "/multi-cursor/status",
            &[format!("Host: {host}")],
            "",
        );
        assert_eq!(answer.status, 200, "Host {host}: {}", answer.body);
    }
}
