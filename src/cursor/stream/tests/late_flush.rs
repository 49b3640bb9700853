//! The pre-tool flush of a partial-output stream is skipped whichever side of the tool events it
//! lands on: maestro-04 as recorded (flush, then `tool_call started`) and reordered.

use super::support as stream_support;

use stream_support::answer;
use stream_support::fixture;
use stream_support::parse;
use stream_support::result;

const EXPECTED: &str = "Checking now.`sample.txt` contained:\n\n```\nhello\n```";

fn lines() -> Vec<String> {
    let bytes = fixture("maestro-04_partial_output");
    String::from_utf8(bytes)
        .expect("utf-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Move line `from` to sit after line `after` (0-based, in the original numbering).
fn reordered(from: usize, after: usize) -> Vec<u8> {
    let mut lines = lines();
    let line = lines.remove(from);
    lines.insert(after, line);
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn recorded_order_flush_before_the_tool() {
    let lines = lines();
    assert!(lines[7].contains("\"model_call_id\"") && lines[7].contains("Checking now."));
    assert!(lines[8].contains("\"started\""));
    let items = parse(&fixture("maestro-04_partial_output"));
    assert_eq!(answer(&items), EXPECTED);
}

#[test]
fn flush_after_the_tool_started() {
    let items = parse(&reordered(7, 8));
    assert_eq!(answer(&items), EXPECTED);
    assert_eq!(answer(&items), result(&items).expect("result").text);
}

#[test]
fn flush_after_the_tool_completed() {
    let items = parse(&reordered(7, 9));
    assert_eq!(answer(&items), EXPECTED);
}
