//! A turn reports every path Cursor's read, list, search and edit calls named (absolute,
//! relative ones joined to the workspace, each once) in `TurnItem::Finished`'s `delivered.touched`; shell
//! commands are not parsed for paths.

use multi_cursor_test_support::display;
use multi_cursor_test_support::process as process_support;
use multi_cursor_test_support::stream_lines as lines;

use multi_cursor::cursor::process::RunLimits;
use multi_cursor::turn::TurnInput;
use multi_cursor::turn::TurnItem;
use serde_json::json;
use std::path::PathBuf;

fn stream(workspace: &str) -> Vec<String> {
    let abs = |p: &str| format!("{workspace}/{p}");
    vec![
        lines::init(),
        lines::started("r1", "readToolCall", json!({"path": abs("src/lib.rs")})),
        lines::completed(
            "r1",
            "readToolCall",
            json!({"path": abs("src/lib.rs")}),
            json!({"success": {"content": "x"}}),
        ),
        lines::started("l1", "lsToolCall", json!({"path": "docs"})),
        lines::completed(
            "l1",
            "lsToolCall",
            json!({"path": "docs"}),
            json!({"success": {}}),
        ),
        lines::started(
            "g1",
            "grepToolCall",
            json!({"pattern": "TODO", "path": abs("src")}),
        ),
        lines::completed(
            "g1",
            "grepToolCall",
            json!({"pattern": "TODO", "path": abs("src")}),
            json!({"success": {}}),
        ),
        lines::started(
            "g2",
            "globToolCall",
            json!({"globPattern": "**/*.md", "targetDirectory": abs("notes")}),
        ),
        lines::completed(
            "g2",
            "globToolCall",
            json!({"globPattern": "**/*.md", "targetDirectory": abs("notes")}),
            json!({"success": {}}),
        ),
        lines::started(
            "s1",
            "shellToolCall",
            json!({"command": "cat secret/file.txt"}),
        ),
        lines::completed(
            "s1",
            "shellToolCall",
            json!({"command": "cat secret/file.txt"}),
            json!({"success": {"exitCode": 0}}),
        ),
        lines::started("e1", "editToolCall", json!({"path": abs("src/lib.rs")})),
        lines::completed(
            "e1",
            "editToolCall",
            json!({"path": abs("src/lib.rs")}),
            json!({"error": {"error": "no match"}}),
        ),
        lines::started("w1", "writeToolCall", json!({"path": abs("src/new.rs")})),
        lines::completed(
            "w1",
            "writeToolCall",
            json!({"path": abs("src/new.rs")}),
            json!({"success": {"linesCreated": 2}}),
        ),
        lines::whole("Done."),
        lines::result("Done.", None),
    ]
}

fn expected(workspace: &std::path::Path) -> Vec<PathBuf> {
    ["src/lib.rs", "docs", "src", "notes", "src/new.rs"]
        .iter()
        .map(|p| workspace.join(p))
        .collect()
}

#[test]
fn the_display_collects_touched_paths() {
    let workspace = std::path::Path::new("/w");
    let rendered = display::render_lines(&stream("/w"), workspace);
    assert_eq!(rendered.touched, expected(workspace));
}

#[tokio::test]
async fn a_finished_turn_reports_them() {
    // The scenario names paths in the sandbox's workspace, known once the sandbox exists.
    let sandbox = process_support::Sandbox::new(Some(""), &[]);
    // As the gateway spells a workspace (on Windows `C:\x`, not `\\?\C:\x`, where `/` is no
    // separator).
    let workspace = multi_cursor::platform::canonicalize(&sandbox.workspace).unwrap();
    let scenario = stream(workspace.to_str().unwrap()).join("\n") + "\n";
    std::fs::write(sandbox.path("scenario.txt"), scenario).unwrap();
    let mut spec = sandbox.spec(None);
    spec.workspace = workspace.clone();
    // The cancel is held to the end: dropping it would cancel the turn.
    let (mut items, _cancel) = multi_cursor::turn::start(TurnInput {
        agent: sandbox.agent.clone(),
        spec,
        fresh_prompt: None,
        requested_model: "multi/cursor/auto".into(),
        notices: Vec::new(),
        limits: RunLimits::default(),
        stream_rules: None,
        cursor_config: None,
        dialogs: multi_cursor::dialog::surface::Surface::none(),
    });
    let mut touched = None;
    while let Some(item) = items.recv().await {
        match item {
            TurnItem::Spawned { ack, .. } => ack.send(true).unwrap(),
            TurnItem::Finished {
                delivered, answer, ..
            } => {
                assert!(answer.contains("⎿ write `src/new.rs` · +2"), "{answer}");
                touched = Some(delivered.touched);
            }
            TurnItem::Failed { error, .. } => panic!("{error}"),
            _ => {}
        }
    }
    assert_eq!(touched.unwrap(), expected(&workspace));
}
