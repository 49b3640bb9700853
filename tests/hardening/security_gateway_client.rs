//! `multi-cursor hook` and `multi-cursor status` send the gateway token (and every prompt), so
//! they talk only to a loopback IP literal: a name in `MULTI_CURSOR_GATEWAY_URL` (resolved to a
//! listener or not) gets nothing sent. Each exchange has one deadline (a gateway that trickles
//! its answer forever does not hold the command) and a size cap. The launcher puts the
//! gateway's URL and token in its own `--settings` `env`, which outranks a project's settings.
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::multi_cursor_bin;

use std::io::Read;
use std::io::Write;
use std::net::TcpListener;
use std::process::Command;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use launcher::Launch;

const TOKEN: &str = "tok-0123456789abcdef";

/// A listener on 127.0.0.1 that records what each connection sent and answers with `answer`
/// (called with the stream once the head arrived).
fn listener(
    answer: impl Fn(&mut std::net::TcpStream) + Send + 'static,
) -> (u16, mpsc::Receiver<Vec<u8>>) {
    let server = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = server.local_addr().unwrap().port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in server.incoming() {
            let Ok(mut stream) = stream else { return };
            stream
                .set_read_timeout(Some(Duration::from_millis(500)))
                .unwrap();
            let mut seen = vec![0u8; 64 * 1024];
            let n = stream.read(&mut seen).unwrap_or(0);
            seen.truncate(n);
            let _ = tx.send(seen);
            answer(&mut stream);
        }
    });
    (port, rx)
}

/// Runs `multi-cursor <args>` with `url` and the token, stdin `input`; killed after 30 s.
fn run(args: &[&str], url: &str, input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(multi_cursor_bin())
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("MULTI_CURSOR_GATEWAY_URL", url)
        .env("MULTI_CURSOR_GATEWAY_TOKEN", TOKEN)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    for _ in 0..300 {
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            return (
                output.status.code(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    let _ = child.wait();
    (None, "still running after 30 s".into())
}

#[test]
fn a_host_name_gets_neither_the_token_nor_the_prompt() {
    let (port, seen) = listener(|stream| {
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}");
    });
    for url in [
        format!("http://localhost:{port}"),
        format!("http://localhost.:{port}/"),
    ] {
        let (code, stderr) = run(&["status"], &url, b"");
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.contains("loopback address"), "{stderr}");
        run(&["hook"], &url, br#"{"prompt": "SECRET PROMPT"}"#);
    }
    for url in [
        "http://10.0.0.1:9",
        "http://user@127.0.0.1:9",
        "https://127.0.0.1:9",
    ] {
        let (code, stderr) = run(&["status"], url, b"");
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.contains("loopback address"), "{url}: {stderr}");
    }
    std::thread::sleep(Duration::from_millis(200));
    let sent: Vec<_> = seen.try_iter().collect();
    assert!(
        sent.is_empty(),
        "sent to a name: {:?}",
        sent.iter()
            .map(|s| String::from_utf8_lossy(s))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_loopback_literal_is_still_used() {
    let (port, seen) = listener(|stream| {
        let body = r#"{"version":"x","pid":1,"upstream":"-","agent":{"found":false,"error":"none"},"login":{"summary":"no"},"sessions":[],"runs":[]}"#;
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
    });
    let (code, stderr) = run(&["status"], &format!("http://127.0.0.1:{port}/"), b"");
    assert_eq!(code, Some(0), "{stderr}");
    let head = String::from_utf8(seen.recv().unwrap()).unwrap();
    assert!(
        head.contains(&format!("x-multi-cursor-token: {TOKEN}")),
        "{head}"
    );
}

#[test]
fn a_gateway_that_trickles_forever_does_not_hold_status() {
    let (port, _seen) = listener(|stream| {
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n");
        for _ in 0..120 {
            if stream.write_all(b" ").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let (code, stderr) = run(&["status"], &format!("http://127.0.0.1:{port}"), b"");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("did not answer"), "{stderr}");
}

#[test]
fn an_answer_over_the_size_cap_is_refused() {
    let (port, _seen) = listener(|stream| {
        let filler = "a".repeat(8 * 1024 * 1024);
        let body = format!(
            r#"{{"version":"{filler}","pid":1,"agent":{{"found":false}},"login":{{}},"sessions":[],"runs":[]}}"#
        );
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
    });
    let (code, stderr) = run(&["status"], &format!("http://127.0.0.1:{port}"), b"");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("larger than 4 MiB"), "{stderr}");
}

/// The gateway variables of the `--settings` `env` Claude Code was given (what its hooks see)
/// are those of Claude Code's own environment; returns that environment.
fn settings_env_is_the_process_env(launch: &Launch) -> std::collections::HashMap<String, String> {
    let env = &launch.claude_settings()["env"];
    let process = launch.claude_env();
    for name in ["MULTI_CURSOR_GATEWAY_URL", "MULTI_CURSOR_GATEWAY_TOKEN"] {
        assert_eq!(env[name], process[name].as_str(), "{name}");
    }
    process
}

#[test]
fn the_launchers_settings_env_points_our_hooks_at_its_gateway() {
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    std::fs::create_dir_all(launch.project.join(".claude")).unwrap();
    std::fs::write(
        launch.project.join(".claude/settings.json"),
        r#"{"env": {"MULTI_CURSOR_GATEWAY_URL": "http://127.0.0.1:9", "MULTI_CURSOR_GATEWAY_TOKEN": "theirs"}}"#,
    )
    .unwrap();
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let process = settings_env_is_the_process_env(&launch);
    assert_eq!(launch.dumped("settings.mode").unwrap().trim(), "600");
    let argv = launch.claude_argv().unwrap().join("\n");
    assert!(
        !argv.contains(&process["MULTI_CURSOR_GATEWAY_TOKEN"]),
        "the token is in argv"
    );
}

#[test]
fn the_wrappers_settings_env_points_our_hooks_at_its_gateway() {
    let launch = Launch::scripted();
    let script = launch.dir.path().join("bin/claude");
    let output = multi_cursor_test_support::wrapper::command(
        &launch,
        &multi_cursor_test_support::wrapper::wrapper_bin(),
    )
    .env("FAKE_CLAUDE_DUMP", &launch.dump)
    .arg(&script)
    .args(["-p", "hi"])
    .stdin(Stdio::null())
    .output()
    .unwrap();
    assert!(output.status.success(), "{output:?}");
    settings_env_is_the_process_env(&launch);
}
