//! A minimal HTTP/1.1 client over a plain TCP stream, for exact-bytes tests.

use std::io::Read;
use std::io::Write;
use std::net::SocketAddr;
use std::net::TcpStream;
use std::time::Duration;

/// A response read off the wire.
#[derive(Clone, Debug)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// Headers in wire order (names lower-cased, values as bytes).
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body with chunk framing removed.
    pub body: Vec<u8>,
    /// Whether the body ended properly: the final `0` chunk arrived, or `content-length`
    /// bytes did (a body delimited by connection close always counts as complete).
    pub complete: bool,
}

impl RawResponse {
    /// The first value of header `name`.
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// Every value of header `name`, in order.
    pub fn header_all(&self, name: &str) -> Vec<&[u8]> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
            .collect()
    }
}

/// Sends `request` (complete bytes: request line, headers, blank line, body) to `addr`,
/// reads until the server closes the connection (send `Connection: close`), and parses the
/// answer. Uses blocking I/O: call it from a sync test or inside `spawn_blocking`.
pub fn exchange(addr: SocketAddr, request: &[u8]) -> RawResponse {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("set_read_timeout");
    stream.write_all(request).expect("write request");
    parse(&read_until_closed(&mut stream))
}

/// Every byte `stream` gives until the server closes it (a reset after some bytes still leaves
/// those bytes for the parser); panics with what came so far when the stream's read timeout
/// passes first.
pub fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                panic!(
                    "timed out reading the response; got so far: {:?}",
                    String::from_utf8_lossy(&bytes)
                )
            }
            Err(_) => break,
        }
    }
    bytes
}

/// Parses one HTTP/1.1 response (head and body) from `bytes`.
pub fn parse(bytes: &[u8]) -> RawResponse {
    let head_end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| {
            panic!(
                "no complete response head in {:?}",
                String::from_utf8_lossy(bytes)
            )
        });
    let head = std::str::from_utf8(&bytes[..head_end]).expect("response head is not UTF-8");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("status line");
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers: Vec<(String, Vec<u8>)> = lines
        .map(|line| {
            let (name, value) = line.split_once(':').expect("header line without ':'");
            (
                name.trim().to_ascii_lowercase(),
                value.trim().as_bytes().to_vec(),
            )
        })
        .collect();
    let rest = &bytes[head_end + 4..];
    let find = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| String::from_utf8_lossy(v).to_ascii_lowercase())
    };
    let (body, complete) = if find("transfer-encoding").is_some_and(|te| te.contains("chunked")) {
        dechunk(rest)
    } else if let Some(len) = find("content-length").and_then(|v| v.parse::<usize>().ok()) {
        let take = len.min(rest.len());
        (rest[..take].to_vec(), rest.len() >= len)
    } else {
        (rest.to_vec(), true)
    };
    RawResponse {
        status,
        headers,
        body,
        complete,
    }
}

/// Removes chunk framing; `complete` is whether the final `0` chunk was reached.
fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") else {
            return (body, false);
        };
        let size_text = String::from_utf8_lossy(&rest[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim().to_owned();
        let Ok(size) = usize::from_str_radix(&size_text, 16) else {
            return (body, false);
        };
        rest = &rest[line_end + 2..];
        if size == 0 {
            return (body, true);
        }
        if rest.len() < size + 2 {
            body.extend_from_slice(&rest[..size.min(rest.len())]);
            return (body, false);
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}
