//! Shared helpers for the `security_*` tests: credential markers, a raw HTTP/1.1 exchange with
//! the gateway, a search for secrets in bytes and files, a launched session kept alive for
//! inspection, and the sockets a process listens on (from `/proc`).

use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

/// A Cursor API key no real account has; searched for wherever a credential must not appear.
pub const CURSOR_KEY: &str = "cursor-key-MARKER-7c1d0e9a4b";
/// An Anthropic API key (the launcher's Claude Code login in these tests).
pub const ANTHROPIC_KEY: &str = "sk-ant-api03-MARKER-3f5e2a1c9d";
/// An Anthropic auth token (an `ANTHROPIC_AUTH_TOKEN` login).
pub const ANTHROPIC_TOKEN: &str = "anthropic-token-MARKER-8b2c4d6e";

/// A response read off the wire.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    /// Header lines, names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Every byte received (head and body), to search for secrets.
    pub raw: Vec<u8>,
}

impl Answer {
    /// The first value of a header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `host:port` of a gateway URL (`http://127.0.0.1:PORT`).
pub fn authority(url: &str) -> String {
    url.strip_prefix("http://")
        .unwrap()
        .trim_end_matches('/')
        .to_string()
}

/// Sends `head` (request line and header lines, each without CRLF; `Connection: close` is
/// added) and `body`, and reads the whole answer.
pub fn exchange(url: &str, head: &[String], body: &[u8]) -> Answer {
    let mut request = head.join("\r\n").into_bytes();
    request.extend_from_slice(b"\r\nConnection: close\r\n\r\n");
    request.extend_from_slice(body);
    exchange_bytes(url, &request)
}

/// Sends raw bytes (write errors are ignored: a server may answer and close before reading
/// everything) and reads until the server closes.
pub fn exchange_bytes(url: &str, request: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(authority(url)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let _ = stream.write_all(request);
    parse(crate::fake_upstream::raw::read_until_closed(&mut stream))
}

fn parse(raw: Vec<u8>) -> Answer {
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line in {head:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
        raw,
    }
}

/// Panics when any of `secrets` occurs in `haystack`, naming `what` and the secret's label.
pub fn assert_no_secret(what: &str, haystack: &[u8], secrets: &[(&str, &str)]) {
    for (label, secret) in secrets {
        assert!(!secret.is_empty(), "empty secret {label}");
        let found = haystack
            .windows(secret.len())
            .any(|w| w == secret.as_bytes());
        assert!(!found, "{label} appears in {what}");
    }
}

/// Every regular file under `dir` (recursively, symlinks not followed).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every entry under `dir` (itself included) with its permission bits.
pub fn modes_under(dir: &Path) -> Vec<(PathBuf, bool, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let mode = multi_cursor::platform::mode(&meta).unwrap_or(0);
        out.push((path.clone(), meta.is_dir(), mode));
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        }
    }
    out.sort();
    out
}

/// Waits for `ready()` (panics after `limit`, so a broken run fails instead of hanging).
pub fn wait_until(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A process's argv as read from `/proc/<pid>/cmdline` (NUL-separated, raw bytes).
pub fn cmdline(pid: u32) -> Vec<u8> {
    std::fs::read(format!("/proc/{pid}/cmdline")).unwrap()
}

/// The pids whose parent is `pid`.
pub fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // pid (comm) state ppid …; comm may hold spaces and parentheses.
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let ppid = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(child);
        }
    }
    out
}

/// One TCP socket in LISTEN state owned by a process: its local address as `/proc` shows it
/// (hex) and decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listener {
    pub family: &'static str,
    pub local: std::net::SocketAddr,
}

/// The listening TCP sockets (IPv4 and IPv6) of process `pid`: its socket inodes from
/// `/proc/<pid>/fd`, matched against `/proc/<pid>/net/tcp` and `tcp6` rows in state `0A`.
pub fn listening_sockets(pid: u32) -> Vec<Listener> {
    let mut inodes = std::collections::HashSet::new();
    for entry in std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .flatten()
    {
        if let Ok(target) = std::fs::read_link(entry.path()) {
            let target = target.to_string_lossy().into_owned();
            if let Some(inode) = target
                .strip_prefix("socket:[")
                .and_then(|t| t.strip_suffix(']'))
            {
                inodes.insert(inode.to_string());
            }
        }
    }
    let mut out = Vec::new();
    for (family, file) in [("tcp", "tcp"), ("tcp6", "tcp6")] {
        let Ok(table) = std::fs::read_to_string(format!("/proc/{pid}/net/{file}")) else {
            continue;
        };
        for row in table.lines().skip(1) {
            let fields: Vec<&str> = row.split_whitespace().collect();
            if fields.len() < 10 || fields[3] != "0A" || !inodes.contains(fields[9]) {
                continue;
            }
            out.push(Listener {
                family,
                local: decode_address(fields[1]),
            });
        }
    }
    out
}

/// `0100007F:1F90` → 127.0.0.1:8080; IPv6 addresses are four little-endian 32-bit words.
pub fn decode_address(text: &str) -> std::net::SocketAddr {
    let (ip, port) = text.split_once(':').unwrap();
    let port = u16::from_str_radix(port, 16).unwrap();
    let bytes: Vec<u8> = (0..ip.len() / 2)
        .map(|i| u8::from_str_radix(&ip[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let ip = match bytes.len() {
        4 => std::net::IpAddr::from([bytes[3], bytes[2], bytes[1], bytes[0]]),
        16 => {
            let mut octets = [0u8; 16];
            for word in 0..4 {
                for b in 0..4 {
                    octets[word * 4 + b] = bytes[word * 4 + 3 - b];
                }
            }
            std::net::IpAddr::from(octets)
        }
        n => panic!("address of {n} bytes in /proc"),
    };
    std::net::SocketAddr::new(ip, port)
}

use crate::launcher;

/// A launched session held open: the launcher (`multi-cursor -p hi`) with the scripted `claude`
/// waiting for SIGTERM, signed in to Anthropic with [`ANTHROPIC_KEY`] and [`ANTHROPIC_TOKEN`] and
/// to Cursor with [`CURSOR_KEY`]. The test talks to the launcher's gateway as Claude Code would,
/// with the URL and token the launcher gave Claude Code.
pub struct LiveSession {
    pub launch: launcher::Launch,
    child: std::process::Child,
    /// The gateway's URL (`ANTHROPIC_BASE_URL` of Claude Code).
    pub url: String,
    /// The gateway token (`MULTI_CURSOR_GATEWAY_TOKEN` of Claude Code).
    pub token: String,
}

impl LiveSession {
    /// Starts it with `env` added to the launcher's environment; returns once `claude` runs.
    pub fn start(env: &[(&str, &str)]) -> LiveSession {
        let mut launch = launcher::Launch::scripted()
            .env("FAKE_CLAUDE_WAIT_TERM", "1")
            .env("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
            .env("ANTHROPIC_AUTH_TOKEN", ANTHROPIC_TOKEN)
            .env("CURSOR_API_KEY", CURSOR_KEY)
            .env("FAKE_AGENT_MAX_LIFETIME_MS", "120000")
            .args(["-p", "hi"]);
        for (k, v) in env {
            launch = launch.env(k, v);
        }
        let child = launch.spawn();
        launcher::wait_for_file(
            &launch.dump.with_extension("ready"),
            Duration::from_secs(60),
        );
        let claude = launch.claude_env();
        LiveSession {
            url: claude["MULTI_CURSOR_GATEWAY_URL"].clone(),
            token: claude["MULTI_CURSOR_GATEWAY_TOKEN"].clone(),
            launch,
            child,
        }
    }

    /// The launcher's pid (the gateway runs inside it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a request with the token and a session header.
    pub fn request(&self, method: &str, path: &str, session: &str, body: &str) -> Answer {
        exchange(
            &self.url,
            &[
                format!("{method} {path} HTTP/1.1"),
                format!("Host: {}", authority(&self.url)),
                format!("x-multi-cursor-token: {}", self.token),
                format!("x-claude-code-session-id: {session}"),
                "content-type: application/json".into(),
                format!("content-length: {}", body.len()),
            ],
            body.as_bytes(),
        )
    }

    /// Reports `bypassPermissions` for `session` with the project as its workspace, as Claude
    /// Code's UserPromptSubmit hook would.
    pub fn bypass(&self, session: &str) {
        let hook = serde_json::json!({
            "session_id": session, "cwd": self.launch.project,
            "hook_event_name": "UserPromptSubmit", "permission_mode": "bypassPermissions",
            "prompt": "x"
        });
        let answer = self.request("POST", "/multi-cursor/hook", session, &hook.to_string());
        assert_eq!(answer.status, 200, "{}", answer.body);
    }

    /// SIGTERM to the launcher; waits for it and returns what it printed.
    pub fn stop(mut self) -> (launcher::Launch, launcher::LaunchOutput) {
        multi_cursor::platform::forward(
            self.child.id(),
            multi_cursor::platform::Shutdown::Terminate,
        )
        .unwrap();
        let output = launcher::finish(&mut self.child, Duration::from_secs(60));
        (self.launch, output)
    }
}

/// A minimal streamed Messages request for a Cursor model.
pub fn cursor_body(prompt: &str) -> String {
    serde_json::json!({
        "model": "multi/cursor/composer-2.5", "max_tokens": 32000, "stream": true,
        "messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}]
    })
    .to_string()
}

/// A gateway on `root`'s state folder and workspace (so a second one continues the first), in
/// bypassPermissions mode: for the tests that tamper with state files between two gateways.
pub fn gateway_on(root: &Path) -> crate::gateway::TestGateway {
    let workspace = root.join("workspace");
    std::fs::create_dir_all(&workspace).unwrap();
    crate::gateway::TestGateway::start(crate::gateway::GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        state_dir: Some(root.join("state")),
        workspace: Some(workspace),
        agent_log: Some(root.join("agent.jsonl")),
        ..crate::gateway::GatewayOptions::default()
    })
}

/// Runs a first turn for `session` on `root` ([`gateway_on`]), stops the gateway and returns
/// the record's path.
pub fn first_turn(root: &Path, session: &str) -> PathBuf {
    let mut gw = gateway_on(root);
    let (status, body) = gw.ask(
        session,
        &crate::gateway::cursor_request("multi/cursor/composer-2.5", "first", false),
    );
    assert_eq!(status, 200, "{body}");
    let path = gw.record_path(session, "main");
    gw.kill();
    path
}
