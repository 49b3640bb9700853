//! Every recorded capture that ends without a `result`, replayed as the supervisor sees it
//! (stdout through the parser, then `classify_run`), classifies as its table row says, in
//! Cursor's words.

use std::path::Path;
use std::path::PathBuf;

use crate::cursor::events::RunEvent;
use crate::cursor::failure::Exit;
use crate::cursor::failure::Reached;
use crate::cursor::failure::RunEnd;
use crate::cursor::failure::RunFailure;
use crate::cursor::failure::classify_run;
use crate::cursor::stream::StreamItem;
use crate::cursor::stream::parse_all;

/// What a capture that ends without a `result` must classify as.
struct Expected {
    capture: &'static str,
    check: fn(&RunFailure) -> bool,
    words: &'static str,
}

/// Every capture in `tests/fixtures/cursor-stream-2026/` that ends without a `result`.
const CAPTURES_WITHOUT_RESULT: [Expected; 2] = [
    Expected {
        capture: "dsh1001-server-reject-retry-no-result.ndjson",
        check: |f| {
            matches!(
                f,
                RunFailure::ServerRefused {
                    reached: Reached::Started,
                    ..
                }
            )
        },
        words: "RetriableError: [invalid_argument] unknown option '--system-prompt'",
    },
    Expected {
        capture: "hcn0915-trust-gate.stderr.txt",
        check: |f| {
            matches!(
                f,
                RunFailure::WorkspaceTrust {
                    reached: Reached::NotStarted,
                    ..
                }
            )
        },
        words: "/hcn-verify/cursor-capture/ws-untrusted",
    },
];

fn captures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cursor-stream-2026")
}

/// A capture as the supervisor would see it: `<name>.stderr.txt` is stderr with an empty
/// stdout; in an `.ndjson` capture the JSON lines are stdout and any other line is stderr (the
/// captures that merged stderr into the file say so in their `.source.txt`). Every capture's
/// failing run exited with code 1. `None` when the stream carries a `result`.
fn replay(path: &Path) -> Option<RunFailure> {
    let bytes = std::fs::read(path).expect("read capture");
    let name = path.to_string_lossy();
    let (stdout, stderr): (Vec<u8>, Vec<u8>) = if name.ends_with(".stderr.txt") {
        (Vec::new(), bytes)
    } else {
        let text = String::from_utf8(bytes).expect("utf-8 capture");
        let (json, plain): (Vec<&str>, Vec<&str>) = text
            .lines()
            .partition(|line| line.trim_start().starts_with('{'));
        (json.join("\n").into_bytes(), plain.join("\n").into_bytes())
    };
    let items = parse_all(&stdout).expect("parse capture");
    let mut started = false;
    let mut tool_called = false;
    let mut plain = Vec::new();
    let mut stdout_failure = None;
    for item in items {
        match item {
            StreamItem::Event(RunEvent::Result(_)) => return None,
            StreamItem::Event(RunEvent::Init { .. }) => started = true,
            StreamItem::Event(RunEvent::ToolStarted { .. } | RunEvent::ToolCompleted { .. }) => {
                tool_called = true;
            }
            StreamItem::Event(_) => {}
            StreamItem::Failure(failure) => stdout_failure = Some(failure),
            StreamItem::PlainText(line) => plain.push(line),
        }
    }
    Some(classify_run(&RunEnd {
        stderr: &stderr,
        stdout_text: &plain,
        stdout_failure: stdout_failure.as_ref(),
        exit: Exit::Code(1),
        reached: Reached::from_run(started, tool_called),
        resumed_chat: None,
    }))
}

#[test]
fn every_capture_without_a_result_is_classified() {
    let mut seen = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(captures_dir())
        .expect("captures folder")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|path| {
            let name = path.to_string_lossy();
            name.ends_with(".ndjson") || name.ends_with(".stderr.txt")
        })
        .collect();
    entries.sort();
    for path in entries {
        let Some(failure) = replay(&path) else {
            continue;
        };
        let name = path
            .file_name()
            .expect("file name")
            .to_string_lossy()
            .into_owned();
        let expected = CAPTURES_WITHOUT_RESULT
            .iter()
            .find(|expected| expected.capture == name)
            .unwrap_or_else(|| panic!("{name} ends without a result: add it to the table"));
        assert!((expected.check)(&failure), "{name}: {failure:?}");
        let message = failure.to_string();
        assert!(message.contains(expected.words), "{name}: {message}");
        assert!(!message.contains('\u{1b}'), "{name}: {message}");
        seen.push(name);
    }
    let expected: Vec<&str> = CAPTURES_WITHOUT_RESULT.iter().map(|e| e.capture).collect();
    assert_eq!(seen, expected);
}
