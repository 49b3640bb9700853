//! A loopback TCP proxy between Claude Code and the gateway that breaks every streamed (SSE)
//! answer inside its text block — after the gateway has sent all of it — the way a dropped
//! connection looks to Claude Code. Other answers pass through untouched. Each connection
//! carries one request (the proxy asks for `Connection: close`), and every request is logged.

use std::io::Read;
use std::io::Write;
use std::net::Shutdown;
use std::net::TcpListener;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::Mutex;

/// A running proxy.
pub struct CutProxy {
    pub url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl CutProxy {
    /// Proxies to `target` (`http://127.0.0.1:port`).
    pub fn start(target: &str) -> CutProxy {
        let target = target.trim_start_matches("http://").to_string();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let target = target.clone();
                let log = Arc::clone(&log);
                std::thread::spawn(move || serve(client, &target, &log));
            }
        });
        CutProxy { url, requests }
    }

    /// Every request seen (head and body as text), in order.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn serve(mut client: TcpStream, target: &str, log: &Arc<Mutex<Vec<String>>>) {
    let Ok(mut upstream) = TcpStream::connect(target) else {
        return;
    };
    // Client → gateway: one request, with Connection: close added after the request line.
    let mut up = upstream.try_clone().unwrap();
    let mut from_client = client.try_clone().unwrap();
    let log = Arc::clone(log);
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 65536];
        let mut rewritten = false;
        let mut index: Option<usize> = None;
        loop {
            let n = match from_client.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            seen.extend_from_slice(&buf[..n]);
            if !rewritten {
                let Some(line_end) = find(&seen, b"\r\n") else {
                    continue;
                };
                let mut head = seen[..line_end + 2].to_vec();
                head.extend_from_slice(b"Connection: close\r\n");
                head.extend_from_slice(&seen[line_end + 2..]);
                if up.write_all(&head).is_err() {
                    break;
                }
                rewritten = true;
            } else if up.write_all(&buf[..n]).is_err() {
                break;
            }
            // One entry per connection, updated as the request arrives.
            let snapshot = String::from_utf8_lossy(&seen).into_owned();
            let mut entries = log.lock().unwrap();
            match index {
                Some(i) => entries[i] = snapshot,
                None => {
                    index = Some(entries.len());
                    entries.push(snapshot);
                }
            }
        }
    });
    // Gateway → client.
    let mut response = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let n = match upstream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        response.extend_from_slice(&buf[..n]);
        let Some(head_end) = find(&response, b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&response[..head_end]).to_ascii_lowercase();
        if !head.contains("text/event-stream") {
            if client.write_all(&response).is_err() {
                return;
            }
            response.clear();
            loop {
                let n = match upstream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                if client.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            let _ = client.shutdown(Shutdown::Both);
            return;
        }
        // An SSE answer: read all of it (the gateway closes after it), then hand over its
        // head and the first text delta only, ending the body cleanly inside the open block.
        loop {
            match upstream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => response.extend_from_slice(&buf[..n]),
            }
        }
        let head = String::from_utf8_lossy(&response[..head_end]).into_owned();
        let body = dechunk(&response[head_end + 4..]);
        let delta = find(&body, b"event: content_block_delta").unwrap();
        let end = delta + find(&body[delta..], b"\n\n").unwrap() + 2;
        let head: Vec<&str> = head
            .split("\r\n")
            .filter(|l| !l.to_ascii_lowercase().starts_with("transfer-encoding"))
            .collect();
        let _ = client.write_all(format!("{}\r\n\r\n", head.join("\r\n")).as_bytes());
        let _ = client.write_all(&body[..end]);
        let _ = client.shutdown(Shutdown::Both);
        return;
    }
    let _ = client.write_all(&response);
    let _ = client.shutdown(Shutdown::Both);
}

/// The payload of a chunked HTTP body.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = find(raw, b"\r\n") {
        let size = std::str::from_utf8(&raw[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        let end = (start + size).min(raw.len());
        out.extend_from_slice(&raw[start..end]);
        raw = &raw[(end + 2).min(raw.len())..];
    }
    out
}
