//! Our own command-line output carries no terminal control sequence from a file or a stored
//! value: `multi-cursor rules --explain` with a cloned repository's rule names and descriptions
//! holding OSC 52 (clipboard), title and screen-clear sequences, `usage` with a ledger's model
//! name, and `status` with the session id and workspace a hook reported. The text around them
//! is kept.
use multi_cursor_test_support::multi_cursor_bin;

use std::io::Read;
use std::io::Write;
use std::process::Command;

/// An OSC 52 clipboard write, a title change, a screen clear and a bell.
const NASTY: &str = "\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m\u{7}";

/// True when `text` holds a C0 control other than newline and tab, DEL, or a C1 control.
fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

#[test]
fn rules_explain_prints_no_control_from_a_repository() {
    let root = tempfile::tempdir().unwrap();
    let repo = root.path().join("repo");
    let home = root.path().join("home");
    std::fs::create_dir_all(repo.join(".cursor/rules")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(
        repo.join(format!(".cursor/rules/name{NASTY}tail.mdc")),
        format!("---\ndescription: \"Describes{NASTY} safely\"\nalwaysApply: false\n---\nBody.\n"),
    )
    .unwrap();
    let output = Command::new(multi_cursor_bin())
        .args(["rules", "--explain"])
        .current_dir(&repo)
        .env("HOME", &home)
        .env_remove("MULTI_CURSOR_LOG")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(shown.contains("Describes"), "{shown}");
    assert!(shown.contains("tail"), "{shown}");
    assert!(!has_control(&shown), "{shown:?}");
}

#[test]
fn usage_prints_no_control_from_the_ledger() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().join("ledger");
    std::fs::create_dir_all(&dir).unwrap();
    let today = jiff::tz::TimeZone::UTC
        .to_datetime(jiff::Timestamp::now())
        .date();
    // JSON escapes (\u001b) so the line parses and the model name holds the raw controls.
    let model_json = serde_json::to_string(&format!("evil{NASTY}model")).unwrap();
    let line = format!(
        r#"{{"v":1,"time":"{today}T12:00:00Z","workspace":"/w","session":"s{NASTY_JSON}","worker":"main","route":"multi/cursor/x","model":{model_json},"mode":"force","purpose":"turn","duration_ms":2000,"outcome":"completed","input_tokens":5,"output_tokens":10,"token_source":"provider"}}"#,
        NASTY_JSON = serde_json::to_string(NASTY).unwrap().trim_matches('"'),
    );
    let mut file =
        std::fs::File::create(dir.join(format!("{}.jsonl", today.strftime("%Y-%m")))).unwrap();
    writeln!(file, "{line}").unwrap();
    let output = Command::new(multi_cursor_bin())
        .arg("usage")
        .env("MULTI_CURSOR_STATE_DIR", state.path())
        .env("TZ", "UTC")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(shown.contains("evil"), "{shown}");
    assert!(!has_control(&shown), "{shown:?}");
}

#[test]
fn status_prints_no_control_from_hook_reports() {
    let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = server.local_addr().unwrap().port();
    let body = serde_json::json!({
        "version": "x", "pid": 1, "upstream": format!("http://up{NASTY}"),
        "agent": {"found": true, "path": format!("/a{NASTY}"), "version": "1"},
        "login": {"summary": "ok"},
        "sessions": [{"session": format!("sess{NASTY}ion"), "mode": "default", "workspace": format!("/work{NASTY}space"), "policy": format!("p{NASTY}")}],
        "runs": [{"session": format!("r{NASTY}"), "worker": "main", "model": format!("m{NASTY}"), "pgid": 1, "started_at": "now"}]
    })
    .to_string();
    std::thread::spawn(move || {
        let (mut stream, _) = server.accept().unwrap();
        let mut head = [0u8; 4096];
        let _ = stream.read(&mut head);
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
    });
    let output = Command::new(multi_cursor_bin())
        .arg("status")
        .env_clear()
        .env(
            "MULTI_CURSOR_GATEWAY_URL",
            format!("http://127.0.0.1:{port}"),
        )
        .env("MULTI_CURSOR_GATEWAY_TOKEN", "t")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(shown.contains("sess"), "{shown}");
    assert!(!has_control(&shown), "{shown:?}");
}
