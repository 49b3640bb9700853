//! The command-line ends of the gateway's routes: `multi-cursor hook` and `multi-cursor
//! status`. A tiny HTTP/1.1 client over a loopback socket keeps the hook fast: it must print
//! nothing and exit within 50 ms even when no gateway is running.
//!
//! It sends the gateway token and every prompt, so it talks only to a loopback IP literal
//! (`http://127.0.0.1:<port>`, `http://[::1]:<port>`; no name is ever resolved: a project's
//! settings `env` could otherwise point `MULTI_CURSOR_GATEWAY_URL` anywhere), each exchange has
//! one deadline of at most `MAX_EXCHANGE` from connect to the last byte, and an answer is read
//! to at most `MAX_RESPONSE` bytes.

use crate::env::GATEWAY_TOKEN_ENV;
use crate::env::GATEWAY_URL_ENV;
use std::io::Read;
use std::io::Write;
use std::net::SocketAddr;
use std::net::TcpStream;
use std::time::Duration;
use std::time::Instant;

use thiserror::Error;

/// Largest hook payload forwarded.
const MAX_PAYLOAD: u64 = 1024 * 1024;

/// Longest one exchange with the gateway may take, connect to last byte (a caller may ask for
/// less).
pub(crate) const MAX_EXCHANGE: Duration = Duration::from_secs(2);

/// Largest answer read from the gateway, in bytes (the status JSON is a few KiB).
pub(crate) const MAX_RESPONSE: u64 = 4 * 1024 * 1024;

/// Why a call to the gateway failed.
#[derive(Debug, Error)]
pub enum ClientError {
    #[error(
        "no multi-cursor gateway in this environment ({GATEWAY_URL_ENV} is not set); start Claude Code with `multi-cursor` and run this inside it"
    )]
    NotLaunched,
    #[error(
        "{GATEWAY_URL_ENV}={0} is not an http://127.0.0.1:<port> URL; multi-cursor sends its token only to a loopback address. Start Claude Code with `multi-cursor`, and remove {GATEWAY_URL_ENV} from any settings `env`"
    )]
    BadUrl(String),
    #[error("the gateway at {url} did not answer: {source}")]
    Io {
        url: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the gateway answered {status}: {body}")]
    Status { status: u16, body: String },
}

/// Where the gateway is, from the environment.
#[derive(Debug, Clone)]
pub(crate) struct GatewayAddress {
    pub url: String,
    pub token: String,
}

impl GatewayAddress {
    /// Reads `MULTI_CURSOR_GATEWAY_URL` and `MULTI_CURSOR_GATEWAY_TOKEN`.
    pub(crate) fn from_env() -> Result<Self, ClientError> {
        let url = std::env::var(GATEWAY_URL_ENV)
            .ok()
            .filter(|v| !v.is_empty())
            .ok_or(ClientError::NotLaunched)?;
        let token = std::env::var(GATEWAY_TOKEN_ENV).unwrap_or_default();
        Ok(GatewayAddress { url, token })
    }

    /// The gateway's socket address: `http://` and a loopback IP literal with its port (a
    /// trailing `/` allowed), never a name.
    pub(crate) fn socket_addr(&self) -> Result<SocketAddr, ClientError> {
        let bad = || ClientError::BadUrl(crate::cursor::sanitize::sanitize(&self.url));
        let rest = self.url.strip_prefix("http://").ok_or_else(bad)?;
        let addr: SocketAddr = rest.trim_end_matches('/').parse().map_err(|_| bad())?;
        if !addr.ip().is_loopback() {
            return Err(bad());
        }
        Ok(addr)
    }
}

/// Sends one request and returns (status, body), all within `timeout` (at most
/// [`MAX_EXCHANGE`]); an answer over [`MAX_RESPONSE`] bytes is an error.
pub(crate) fn request(
    address: &GatewayAddress,
    method: &str,
    path: &str,
    body: &[u8],
    timeout: Duration,
) -> Result<(u16, Vec<u8>), ClientError> {
    let addr = address.socket_addr()?;
    let deadline = Instant::now() + timeout.min(MAX_EXCHANGE);
    let io = |source| ClientError::Io {
        url: address.url.clone(),
        source,
    };
    let left = || {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            Err(io(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "no answer within {} ms",
                    timeout.min(MAX_EXCHANGE).as_millis()
                ),
            )))
        } else {
            Ok(left)
        }
    };
    let mut stream = TcpStream::connect_timeout(&addr, left()?).map_err(io)?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nx-multi-cursor-token: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        address.token,
        body.len()
    );
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    let mut written = 0;
    while written < out.len() {
        stream.set_write_timeout(Some(left()?)).map_err(io)?;
        match stream.write(&out[written..]) {
            Ok(0) => return Err(io(std::io::ErrorKind::WriteZero.into())),
            Ok(n) => written += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(io(error)),
        }
    }
    let mut response = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        stream.set_read_timeout(Some(left()?)).map_err(io)?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                response.extend_from_slice(&chunk[..n]);
                if response.len() as u64 > MAX_RESPONSE {
                    return Err(io(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("answer larger than {} MiB", MAX_RESPONSE / (1024 * 1024)),
                    )));
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(io(error)),
        }
    }
    parse_response(&response).ok_or_else(|| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "malformed HTTP response",
        ))
    })
}

fn parse_response(bytes: &[u8]) -> Option<(u16, Vec<u8>)> {
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&bytes[..split]).ok()?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let body = &bytes[split + 4..];
    let chunked = head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding:") && l.contains("chunked"));
    Some((
        status,
        if chunked {
            dechunk(body)
        } else {
            body.to_vec()
        },
    ))
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = body.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&body[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        body = &body[line_end + 2..];
        if size == 0 || body.len() < size {
            break;
        }
        out.extend_from_slice(&body[..size]);
        body = body.get(size + 2..).unwrap_or(&[]);
    }
    out
}

/// `multi-cursor hook`: forward stdin to the gateway; never fails the hook. Prints the
/// gateway's answer only when it carries a `systemMessage` (the launcher's start-up notices,
/// which Claude Code shows the user), and nothing else.
pub fn forward_hook() {
    let Ok(address) = GatewayAddress::from_env() else {
        return;
    };
    let mut payload = Vec::new();
    if std::io::stdin()
        .take(MAX_PAYLOAD)
        .read_to_end(&mut payload)
        .is_err()
    {
        return;
    }
    match request(
        &address,
        "POST",
        "/multi-cursor/hook",
        &payload,
        Duration::from_millis(500),
    ) {
        Ok((200, body)) => {
            let message = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|answer| answer.get("systemMessage")?.as_str().map(str::to_owned));
            if let Some(message) = message {
                let shown = serde_json::json!({
                    "systemMessage": crate::cursor::sanitize::sanitize(&message)
                });
                println!("{shown}");
            }
        }
        Ok(_) => {}
        Err(error) => tracing::debug!(%error, "hook not delivered"),
    }
}

/// `multi-cursor status`: the gateway's JSON.
pub fn fetch_status() -> Result<serde_json::Value, ClientError> {
    let address = GatewayAddress::from_env()?;
    let (status, body) = request(&address, "GET", "/multi-cursor/status", b"", MAX_EXCHANGE)?;
    if status != 200 {
        return Err(ClientError::Status {
            status,
            body: crate::cursor::sanitize::sanitize(&String::from_utf8_lossy(&body)),
        });
    }
    serde_json::from_slice(&body).map_err(|e| ClientError::Io {
        url: address.url.clone(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })
}

/// A readable rendering of the status JSON.
pub fn render_status(status: &serde_json::Value) -> String {
    let mut out = String::new();
    let s = |v: &serde_json::Value| v.as_str().unwrap_or("-").to_string();
    out.push_str(&format!(
        "multi-cursor {} (gateway pid {}), upstream {}\n",
        s(&status["version"]),
        status["pid"],
        s(&status["upstream"])
    ));
    let agent = &status["agent"];
    if agent["found"].as_bool() == Some(true) {
        out.push_str(&format!(
            "Cursor agent: {} ({})\n",
            s(&agent["path"]),
            s(&agent["version"])
        ));
    } else {
        out.push_str(&format!("Cursor agent: {}\n", s(&agent["error"])));
    }
    out.push_str(&format!("Login: {}\n", s(&status["login"]["summary"])));
    let empty = Vec::new();
    let sessions = status["sessions"].as_array().unwrap_or(&empty);
    out.push_str(&format!("Sessions: {}\n", sessions.len()));
    for session in sessions {
        out.push_str(&format!(
            "  {}  mode {}  workspace {}\n",
            s(&session["session"]),
            s(&session["mode"]),
            s(&session["workspace"])
        ));
        if let Some(policy) = session["policy"].as_str() {
            out.push_str(&format!("    policy {policy}\n"));
        }
    }
    let runs = status["runs"].as_array().unwrap_or(&empty);
    out.push_str(&format!("Live Cursor runs: {}\n", runs.len()));
    for run in runs {
        out.push_str(&format!(
            "  {} / {}  {}  pgid {}  since {}\n",
            s(&run["session"]),
            s(&run["worker"]),
            s(&run["model"]),
            run["pgid"],
            s(&run["started_at"])
        ));
    }
    out.push_str(&super::spend::render_figures(&status["spend"]));
    // Session ids, workspaces and models are what hooks and records reported: no control
    // sequence of theirs reaches the terminal.
    crate::cursor::sanitize::sanitize(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_and_chunked() {
        let plain = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(parse_response(plain), Some((200, b"{}".to_vec())));
        let chunked = b"HTTP/1.1 401 Unauthorized\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        assert_eq!(parse_response(chunked), Some((401, b"abcde".to_vec())));
    }

    #[test]
    fn only_a_loopback_ip_literal_is_an_address() {
        let at = |url: &str| {
            GatewayAddress {
                url: url.into(),
                token: String::new(),
            }
            .socket_addr()
            .ok()
        };
        assert_eq!(
            at("http://127.0.0.1:8080/"),
            Some(([127, 0, 0, 1], 8080).into())
        );
        assert!(at("http://[::1]:9").is_some());
        assert!(at("http://127.9.9.9:9").is_some());
        for bad in [
            "http://localhost:9",
            "http://evil.example:9",
            "http://10.0.0.1:9",
            "http://[::]:9",
            "http://0.0.0.0:9",
            "http://user@127.0.0.1:9",
            "https://127.0.0.1:9",
            "http://127.0.0.1",
            "http://127.0.0.1:9/path",
        ] {
            assert_eq!(at(bad), None, "{bad}");
        }
    }
}
