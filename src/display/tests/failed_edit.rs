//! A failed edit is shown with Cursor's error and listed under `Not completed`; only the edit
//! that succeeded is listed under `Changed`, with its line counts on its row.

use multi_cursor_test_support::display;
use multi_cursor_test_support::stream_lines as lines;

use serde_json::json;
use std::path::Path;

#[test]
fn a_failed_edit_is_not_a_change() {
    let stream = [
        lines::init(),
        lines::started("e1", "editToolCall", json!({"path": "/w/src/lib.rs"})),
        lines::completed(
            "e1",
            "editToolCall",
            json!({"path": "/w/src/lib.rs"}),
            json!({"error": {"error": "old_string not found in file\nsecond line"}}),
        ),
        lines::started("e2", "editToolCall", json!({"path": "/w/src/main.rs"})),
        lines::completed(
            "e2",
            "editToolCall",
            json!({"path": "/w/src/main.rs"}),
            json!({"success": {"path": "/w/src/main.rs", "linesAdded": 3, "linesRemoved": 1}}),
        ),
        lines::started(
            "w1",
            "writeToolCall",
            json!({"path": "/elsewhere/notes.md"}),
        ),
        lines::completed(
            "w1",
            "writeToolCall",
            json!({"path": "/elsewhere/notes.md"}),
            json!({"success": {"path": "/elsewhere/notes.md", "linesCreated": 12}}),
        ),
        lines::whole("Edited main.rs; lib.rs did not match."),
        lines::result("Edited main.rs; lib.rs did not match.", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert_eq!(
        rendered.text,
        "⎿ edit `src/lib.rs` · failed: old_string not found in file second line\n\
         ⎿ edit `src/main.rs` · +3 −1\n\
         ⎿ write `/elsewhere/notes.md` · +12\n\n\
         Edited main.rs; lib.rs did not match.\n\n\
         [Cursor] 3 native actions: 3 edit.\n\
         [Cursor] Changed: src/main.rs, /elsewhere/notes.md.\n\
         [Cursor] Not completed: edit `src/lib.rs` (failed: old_string not found in file second line)."
    );
}
