//! `multi-cursor statusline` as Claude Code runs it: the status-line JSON on stdin, the
//! gateway's URL and token in the environment. It asks `GET /multi-cursor/spend/<session id>`
//! (here a stand-in server serving a `SessionSpend`) and prints one line; a user command given
//! with `--chain` gets the same stdin and comes first; it always exits 0, printing what it can.

use std::io::BufRead;
use std::io::BufReader;
use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::Mutex;

use multi_cursor::spend::LiveSpend;
use multi_cursor::spend::SessionSpend;
use multi_cursor::spend::TokenFigures;
use multi_cursor_test_support::launcher::run_statusline;

const SESSION: &str = "7d1c1e52-3f0a-4c1b-9f59-2b1f0e6a4c11";

/// A stand-in gateway serving `spend` as JSON to every request; the request heads it saw.
struct SpendServer {
    url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl SpendServer {
    fn start(spend: &SessionSpend) -> SpendServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let body = serde_json::to_string(spend).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut head = String::new();
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    head.push_str(&line);
                }
                log.lock().unwrap().push(head);
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        SpendServer { url, seen }
    }
}

fn spend() -> SessionSpend {
    SessionSpend {
        session: SESSION.into(),
        model: Some("composer-2.5".into()),
        runs: 2,
        replays: 1,
        tokens: TokenFigures {
            input_tokens: 29_812,
            output_tokens: 178,
            estimated: true,
            ..TokenFigures::default()
        },
        live: None,
        budgets: Vec::new(),
    }
}

fn input() -> String {
    serde_json::json!({
        "session_id": SESSION,
        "model": {"id": "multi/cursor/composer-2.5", "display_name": "Composer 2.5 via Cursor"},
        "cwd": "/tmp",
    })
    .to_string()
}

#[test]
fn the_session_spend_is_one_line() {
    let server = SpendServer::start(&spend());
    let env = [
        ("MULTI_CURSOR_GATEWAY_URL", server.url.as_str()),
        ("MULTI_CURSOR_GATEWAY_TOKEN", "secret"),
    ];
    let (code, out) = run_statusline(&[], &input(), &env);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "Cursor composer-2.5 · 2 runs · 29.8k in / 178 out (est.)\n"
    );
    let seen = server.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(
        seen[0].starts_with(&format!("GET /multi-cursor/spend/{SESSION} HTTP/1.1\r\n")),
        "{seen:?}"
    );
    assert!(
        seen[0].contains("x-multi-cursor-token: secret\r\n"),
        "{seen:?}"
    );
}

#[test]
fn a_live_run_shows_its_time_and_last_action() {
    let mut live = spend();
    live.live = Some(LiveSpend {
        model: "auto".into(),
        running_secs: 42,
        // A row as the answer shows it, Markdown and all: plain words on the status line.
        last_action: Some("read `src/lib.rs`".into()),
    });
    let server = SpendServer::start(&live);
    let env = [("MULTI_CURSOR_GATEWAY_URL", server.url.as_str())];
    let (code, out) = run_statusline(&[], &input(), &env);
    assert_eq!(code, Some(0));
    assert_eq!(out, "Cursor auto · running 42 s · read src/lib.rs\n");
}

#[test]
fn the_users_line_comes_first_with_the_same_stdin() {
    let server = SpendServer::start(&spend());
    let env = [("MULTI_CURSOR_GATEWAY_URL", server.url.as_str())];
    let chain = "printf 'top row\\n'; printf 'main %s\\n' \"$(wc -c)\"";
    let (code, out) = run_statusline(&["--chain", chain], &input(), &env);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!(
            "top row\nmain {} · Cursor composer-2.5 · 2 runs · 29.8k in / 178 out (est.)\n",
            input().len()
        )
    );
    // Turned off: their line alone.
    let env = [
        ("MULTI_CURSOR_GATEWAY_URL", server.url.as_str()),
        ("MULTI_CURSOR_STATUSLINE", "0"),
    ];
    let (code, out) = run_statusline(&["--chain", "echo mine"], &input(), &env);
    assert_eq!((code, out.as_str()), (Some(0), "mine\n"));
}

#[test]
fn without_a_gateway_or_a_session_it_prints_what_it_can() {
    let (code, out) = run_statusline(&["--chain", "echo mine"], &input(), &[]);
    assert_eq!((code, out.as_str()), (Some(0), "mine\n"));
    let (code, out) = run_statusline(&[], &input(), &[]);
    assert_eq!((code, out.as_str()), (Some(0), ""));
    let nobody = [("MULTI_CURSOR_GATEWAY_URL", "http://127.0.0.1:9")];
    let (code, out) = run_statusline(&[], "not json", &nobody);
    assert_eq!((code, out.as_str()), (Some(0), ""));
    // A session that never used Cursor: nothing of ours.
    let server = SpendServer::start(&SessionSpend {
        session: SESSION.into(),
        ..SessionSpend::default()
    });
    let env = [("MULTI_CURSOR_GATEWAY_URL", server.url.as_str())];
    let (code, out) = run_statusline(&["--chain", "echo mine"], &input(), &env);
    assert_eq!((code, out.as_str()), (Some(0), "mine\n"));
    // Their command failing leaves ours alone.
    let (code, out) = run_statusline(&["--chain", "echo broken; exit 1"], &input(), &[]);
    assert_eq!((code, out.as_str()), (Some(0), ""));
}
