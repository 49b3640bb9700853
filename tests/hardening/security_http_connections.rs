//! The gateway speaks HTTP/1.1 only and keeps idle connections from starving real requests:
//! cleartext HTTP/2 (which carries the authority in `:authority`, past the loopback Host rule)
//! is never answered 200; 401/403 answers close their connection; a connection that sends
//! nothing is closed within the first-request timeout; 1,100 idle sockets do not stop a real
//! request, whether the descriptor limit could be raised or the hard limit is 1,024; an
//! authenticated pooled connection is reused after 12 s idle; a streamed turn quiet for 70 s
//! (behind pings) completes.
use multi_cursor_test_support::gateway;

use std::io::Read;
use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;
use std::time::Instant;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

fn authority(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// Lets this test process hold a thousand-odd sockets.
#[cfg(unix)] // Descriptor limits (RLIMIT_NOFILE, /proc/<pid>/limits) are Unix-only.
fn raise_own_descriptor_limit() {
    use nix::sys::resource::Resource;
    let (soft, hard) = nix::sys::resource::getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    if soft < hard {
        nix::sys::resource::setrlimit(Resource::RLIMIT_NOFILE, hard, hard).unwrap();
    }
    assert!(
        hard >= 2048,
        "this test needs a hard descriptor limit of 2,048 (got {hard})"
    );
}

/// Reads one HTTP/1.1 response with a Content-Length body (none for a HEAD) off `stream`;
/// `None` when the connection closed first.
fn read_response(stream: &mut TcpStream, head_request: bool) -> Option<(u16, String)> {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(0) | Err(_) => return None,
            Ok(_) => raw.push(byte[0]),
        }
    }
    let head = String::from_utf8_lossy(&raw).to_string();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0u8; if head_request { 0 } else { length }];
    stream.read_exact(&mut body).ok()?;
    Some((status, head))
}

/// True when the server closes `stream` within `within` (reads return end-of-file).
fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn cleartext_http2_is_never_answered() {
    let gw = TestGateway::start(GatewayOptions::default());
    let token = format!("x-multi-cursor-token: {}", gw.token);
    let curl = |extra: &[&str]| {
        let out = std::process::Command::new("curl")
            .args(["-s", "-o", "/dev/null", "-m", "10"])
            .args(["-w", "%{http_version} %{http_code}"])
            .args(extra)
            .args(["-H", &token, "-H", "Host: evil.com"])
            .arg(format!("{}/multi-cursor/status", gw.url))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert_eq!(curl(&[]), "1.1 403", "HTTP/1.1 with a foreign Host");
    let h2 = curl(&["--http2-prior-knowledge"]);
    assert!(!h2.ends_with(" 200"), "HTTP/2 prior knowledge got {h2:?}");
    assert!(!h2.starts_with('2'), "the gateway spoke HTTP/2: {h2:?}");
}

#[test]
fn refusals_close_their_connection_and_silent_connections_are_closed() {
    let gw = TestGateway::start(GatewayOptions::default());
    let address = authority(&gw.url);
    for (head, status) in [
        (
            "GET /multi-cursor/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            401,
        ),
        (
            "HEAD /api/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\r\n",
            403,
        ),
    ] {
        let mut stream = TcpStream::connect(&address).unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let (got, response) =
            read_response(&mut stream, head.starts_with("HEAD")).expect("an answer");
        assert_eq!(got, status, "{response}");
        assert!(
            response.to_ascii_lowercase().contains("connection: close"),
            "{response}"
        );
        assert!(closed_within(&mut stream, Duration::from_secs(5)), "{head}");
    }
    let started = Instant::now();
    let mut silent = TcpStream::connect(&address).unwrap();
    assert!(closed_within(&mut silent, Duration::from_secs(20)));
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(9) && waited <= Duration::from_secs(12),
        "a connection that sent nothing was closed after {waited:?}"
    );
}

/// 1,100 connections that send nothing, then a real request on a new connection.
#[cfg(unix)] // Descriptor limits (RLIMIT_NOFILE, /proc/<pid>/limits) are Unix-only.
fn idle_sockets_do_not_starve(gw: &TestGateway) {
    raise_own_descriptor_limit();
    let address = authority(&gw.url);
    let idle: Vec<TcpStream> = (0..1100)
        .map(|_| TcpStream::connect(&address).unwrap())
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let started = Instant::now();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let response = client
        .post(format!("{}/v1/messages", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .header("x-claude-code-session-id", "s-idle")
        .header("content-type", "application/json")
        .body(cursor_request("multi/cursor/composer-2.5", "hello", false).to_string())
        .send()
        .expect("the real request was answered within 30 s");
    let status = response.status().as_u16();
    let body = response.text().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(started.elapsed() < Duration::from_secs(30));
    drop(idle);
}

#[cfg(unix)] // Descriptor limits (RLIMIT_NOFILE, /proc/<pid>/limits) are Unix-only.
fn soft_limit(pid: u32) -> String {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    line.split_whitespace().nth(3).unwrap().to_string()
}

#[test]
#[cfg(unix)] // Descriptor limits (RLIMIT_NOFILE, /proc/<pid>/limits) are Unix-only.
fn idle_sockets_with_a_raisable_descriptor_limit() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        nofile: Some("1024:4096".into()),
        ..GatewayOptions::default()
    });
    assert_eq!(
        soft_limit(gw.pid),
        "4096",
        "the soft limit was raised to the hard one"
    );
    idle_sockets_do_not_starve(&gw);
}

#[test]
#[cfg(unix)] // Descriptor limits (RLIMIT_NOFILE, /proc/<pid>/limits) are Unix-only.
fn idle_sockets_with_the_hard_limit_at_1024() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        nofile: Some("1024:1024".into()),
        ..GatewayOptions::default()
    });
    assert_eq!(soft_limit(gw.pid), "1024");
    idle_sockets_do_not_starve(&gw);
}

#[test]
fn a_pooled_connection_is_reused_after_twelve_idle_seconds() {
    let gw = TestGateway::start(GatewayOptions::default());
    let mut stream = TcpStream::connect(authority(&gw.url)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let request = format!(
        "GET /multi-cursor/status HTTP/1.1\r\nHost: 127.0.0.1\r\nx-multi-cursor-token: {}\r\n\r\n",
        gw.token
    );
    for round in 0..2 {
        if round == 1 {
            std::thread::sleep(Duration::from_secs(12));
        }
        stream.write_all(request.as_bytes()).unwrap();
        let (status, head) = read_response(&mut stream, false)
            .unwrap_or_else(|| panic!("round {round}: the connection was closed"));
        assert_eq!(status, 200, "round {round}: {head}");
    }
}

#[test]
fn a_streamed_turn_quiet_for_seventy_seconds_completes() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("quiet.scenario");
    let basic = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fake-agent/scenarios/basic-reply.ndjson"),
    )
    .unwrap();
    let mut lines: Vec<&str> = basic.lines().collect();
    lines.insert(2, "#!sleep 70s");
    std::fs::write(&scenario, lines.join("\n") + "\n").unwrap();
    let gw = TestGateway::start(GatewayOptions::replaying(&scenario));
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    let started = Instant::now();
    let response = client
        .post(format!("{}/v1/messages", gw.url))
        .header("x-multi-cursor-token", &gw.token)
        .header("x-claude-code-session-id", "s-quiet")
        .header("content-type", "application/json")
        .body(cursor_request("multi/cursor/composer-2.5", "hello", true).to_string())
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body = response.text().unwrap();
    assert!(started.elapsed() >= Duration::from_secs(70));
    let events = gateway::sse_events(&body);
    assert!(events.iter().any(|(name, _)| name == "ping"), "{body}");
    assert_eq!(events.last().map(|(n, _)| n.as_str()), Some("message_stop"));
    assert!(
        gateway::sse_text(&body).contains("Hello from the fake Cursor agent."),
        "{body}"
    );
}

#[test]
#[cfg(unix)] // Descriptor limits (RLIMIT_NOFILE, /proc/<pid>/limits) are Unix-only.
fn agent_children_get_the_original_descriptor_limit_back() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nofile.txt");
    let wrapper = dir.path().join("agent");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$1 $(ulimit -Sn)\" >> '{}'\nexec '{}' \"$@\"\n",
            out.display(),
            gateway::fake_agent().display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        nofile: Some("1024:4096".into()),
        agent: Some(wrapper),
        ..GatewayOptions::default()
    });
    assert_eq!(soft_limit(gw.pid), "4096");
    let (status, body) = gw.ask(
        "s-limit",
        &cursor_request("multi/cursor/composer-2.5", "hello", false),
    );
    assert_eq!(status, 200, "{body}");
    let seen = std::fs::read_to_string(&out).unwrap();
    let checked: Vec<&str> = seen.lines().collect();
    assert!(
        checked.iter().any(|l| l.starts_with("--list-models")),
        "the model listing ran: {seen:?}"
    );
    assert!(
        checked.len() >= 4,
        "probes, the listing and the turn: {seen:?}"
    );
    assert!(checked.iter().all(|l| l.ends_with(" 1024")), "{seen:?}");
}
