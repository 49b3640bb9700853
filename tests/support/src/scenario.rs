//! Fake-agent scenarios written by tests, in the real CLI's stream-json shapes.

use std::path::Path;
use std::path::PathBuf;

/// `system/init` naming the chat.
pub const INIT: &str = r#"{"type":"system","subtype":"init","apiKeySource":"login","cwd":"{{workspace_json}}","session_id":"{{chat_id}}","model":"{{model_name}}","permissionMode":"default"}"#;

/// A partial-output assistant delta.
pub fn delta(text: &str) -> String {
    format!(
        r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"text","text":{}}}]}},"session_id":"{{{{chat_id}}}}","timestamp_ms":1}}"#,
        serde_json::to_string(text).unwrap()
    )
}

/// A successful `result` whose text is `text`.
pub fn result(text: &str) -> String {
    format!(
        r#"{{"type":"result","subtype":"success","duration_ms":10,"duration_api_ms":10,"is_error":false,"result":{},"session_id":"{{{{chat_id}}}}","request_id":"{{{{request_id}}}}","usage":{{"inputTokens":5,"outputTokens":2,"cacheReadTokens":0,"cacheWriteTokens":0}}}}"#,
        serde_json::to_string(text).unwrap()
    )
}

/// Writes a scenario file from lines (output lines and `#!` directives).
pub fn write(dir: &Path, name: &str, lines: &[&str]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A turn that answers `text` in one delta and succeeds with it.
pub fn reply(dir: &Path, name: &str, text: &str) -> PathBuf {
    write(dir, name, &[INIT, &delta(text), &result(text)])
}

/// A turn that answers `first`, waits `pause`, then answers `second` and succeeds.
pub fn slow_reply(dir: &Path, name: &str, first: &str, pause: &str, second: &str) -> PathBuf {
    let sleep = format!("#!sleep {pause}");
    let whole = format!("{first}{second}");
    write(
        dir,
        name,
        &[INIT, &delta(first), &sleep, &delta(second), &result(&whole)],
    )
}

/// Has the process `pid` ended (gone, or a zombie)? The product's own answer
/// (`platform::process_ended`).
pub fn process_gone(pid: u32) -> bool {
    i32::try_from(pid).is_ok_and(multi_cursor::platform::process_ended)
}

/// Waits up to `secs` for `check`.
pub fn wait_for(secs: u64, mut check: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        if check() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    check()
}
