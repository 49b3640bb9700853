//! Actions that started but never reported an outcome before the run ended are counted under
//! `Unconfirmed`, never as done or changed.

use multi_cursor_test_support::display;
use multi_cursor_test_support::stream_lines as lines;

use serde_json::json;
use std::path::Path;

#[test]
fn started_but_never_completed() {
    let stream = [
        lines::init(),
        lines::started("s1", "shellToolCall", json!({"command": "npm install"})),
        lines::started("e1", "editToolCall", json!({"path": "/w/package.json"})),
        lines::started("r1", "readToolCall", json!({"path": "/w/README.md"})),
        lines::completed(
            "r1",
            "readToolCall",
            json!({"path": "/w/README.md"}),
            json!({"success": {"content": "# hi", "totalLines": 1}}),
        ),
        lines::whole("Started the install."),
        lines::result("Started the install.", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert_eq!(
        rendered.text,
        "⎿ read `README.md`\n\n\
         Started the install.\n\n\
         [Cursor] 3 native actions: 1 shell, 1 edit, 1 read.\n\
         [Cursor] Unconfirmed: 2 actions ended without a reported outcome."
    );
}

#[test]
fn a_completion_without_a_known_outcome_is_unconfirmed() {
    let stream = [
        lines::init(),
        lines::started("m1", "mcpToolCall", json!({"toolName": "deploy"})),
        lines::completed(
            "m1",
            "mcpToolCall",
            json!({"toolName": "deploy"}),
            json!({"pending": {}}),
        ),
        lines::result("", None),
    ];
    let rendered = display::render_lines(&stream, Path::new("/w"));
    assert_eq!(
        rendered.text,
        "⎿ mcp `deploy` · outcome not reported\n\n\
         [Cursor] 1 native action: 1 mcp.\n\
         [Cursor] Unconfirmed: 1 action ended without a reported outcome."
    );
}
