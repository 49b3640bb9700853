//! A client that stops reading a long streamed answer never holds up the turn: Cursor writes
//! 16 MiB (more than loopback socket buffers hold) while the client reads only the first bytes,
//! and the turn still finishes and is recorded. When the client reads again it gets every
//! byte, in order, ending with `message_stop`.

use multi_cursor_test_support::display::without_tokens;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::scenario;

use std::io::Read;
use std::io::Write;
use std::net::TcpStream;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;
use gateway::sse_text;

const CHUNKS: usize = 256;
const CHUNK: usize = 64 * 1024;

fn chunk(i: usize) -> String {
    let head = format!("[{i:03}]");
    head.clone() + &"x".repeat(CHUNK - head.len())
}

/// The body of a `Transfer-Encoding: chunked` response.
fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = std::str::from_utf8(&body[..line_end]).unwrap();
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        body = &body[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
}

#[test]
fn a_reader_that_stalls_does_not_hold_up_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let deltas: Vec<String> = (0..CHUNKS).map(|i| scenario::delta(&chunk(i))).collect();
    let whole: String = (0..CHUNKS).map(chunk).collect();
    let result = scenario::result(&whole);
    let mut lines: Vec<&str> = vec![scenario::INIT];
    lines.extend(deltas.iter().map(String::as_str));
    lines.push(&result);
    let path = scenario::write(dir.path(), "long.scenario", &lines);
    let gw = TestGateway::start(GatewayOptions::replaying(&path));

    let body = cursor_request("multi/cursor/composer-2.5", "write a lot", true).to_string();
    let authority = gw.url.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&authority).unwrap();
    write!(
        stream,
        "POST /v1/messages HTTP/1.1\r\nHost: {authority}\r\nx-multi-cursor-token: {}\r\nx-claude-code-session-id: s-slow\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        gw.token,
        body.len()
    )
    .unwrap();
    let mut first = [0u8; 1024];
    stream.read_exact(&mut first).unwrap();
    assert!(
        first.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&first)
    );

    // The client reads nothing more; the turn must still end and be recorded.
    assert!(
        scenario::wait_for(60, || gw.record_path("s-slow", "main").exists()
            && gw.record("s-slow", "main")["lastOutcome"] == "completed"),
        "the turn was recorded while the client was not reading"
    );

    let mut rest = Vec::new();
    stream.read_to_end(&mut rest).unwrap();
    let mut response = first.to_vec();
    response.extend_from_slice(&rest);
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
    assert!(head.contains("transfer-encoding: chunked"), "{head}");
    let sse = String::from_utf8(dechunk(&response[split + 4..])).unwrap();
    assert_eq!(
        without_tokens(&sse_text(&sse)),
        whole,
        "every byte, in order"
    );
    assert!(sse.trim_end().ends_with(r#"data: {"type":"message_stop"}"#));
    assert_eq!(gw.turns().len(), 1);
}
