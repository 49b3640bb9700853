//! Cursor's thinking is never shown: not as text, not in rows, not in the summary.

use multi_cursor_test_support::display;
use multi_cursor_test_support::stream_lines as lines;

use std::path::Path;

#[test]
fn thinking_never_reaches_the_text() {
    let stream = [
        lines::init(),
        lines::thinking("SECRET-THOUGHT planning the answer"),
        lines::delta("Hello"),
        lines::thinking("SECRET-THOUGHT again"),
        lines::delta(" there."),
        lines::whole("Hello there."),
        lines::result("Hello there.", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert_eq!(rendered.text, "Hello there.");
    for name in [
        "maestro-02_shell_tool_call.ndjson",
        "maestro-04_partial_output.ndjson",
        "maestro-05_rejected_shell.ndjson",
    ] {
        let capture = std::fs::read_to_string(display::fixtures().join(name)).unwrap();
        let rendered = display::render(capture.as_bytes(), Path::new("/tmp/spike"));
        for thought in [
            "Running `ls` to list",
            "Preparing to check",
            "The shell command was",
        ] {
            assert!(!rendered.text.contains(thought), "{name}: {thought}");
        }
    }
}
