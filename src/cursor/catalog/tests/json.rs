//! `--cursor-models --json`: exactly an array of {model, label, cursorModel, picker}.

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::PickerSize;
use crate::cursor::catalog::render::routes_json;
use crate::cursor::catalog::routes_json_text;
use crate::cursor::catalog::tests::model;
use serde_json::json;

fn small() -> Catalog {
    Catalog::from_models(vec![
        model("gpt-5.3-codex", "Codex 5.3"),
        model("gpt-5.3-codex-high", "Codex 5.3 High"),
        model("composer-2.5", "Composer 2.5"),
        model("auto", "Auto"),
    ])
}

#[test]
fn small_catalog_gives_the_exact_array() {
    let expected = json!([
        {"model": "multi/cursor/default", "label": "Auto via Cursor", "cursorModel": "auto", "picker": true},
        {"model": "multi/cursor/composer-2.5", "label": "Composer 2.5 via Cursor", "cursorModel": "composer-2.5", "picker": true},
        {"model": "multi/cursor/gpt-5.3-codex", "label": "Codex 5.3 via Cursor", "cursorModel": "gpt-5.3-codex", "picker": false},
        {"model": "multi/cursor/gpt-5.3-codex/effort=high", "label": "Codex 5.3 High via Cursor", "cursorModel": "gpt-5.3-codex-high", "picker": false},
        {"model": "multi/cursor/gpt-5.3-codex-high", "label": "Codex 5.3 High via Cursor", "cursorModel": "gpt-5.3-codex-high", "picker": false},
    ]);
    assert_eq!(routes_json(&small(), &[], PickerSize::Short), expected);
}

#[test]
fn extra_rows_move_up_with_the_picker() {
    let extra = vec!["gpt-5.3-codex/effort=high".to_string()];
    let expected = json!([
        {"model": "multi/cursor/default", "label": "Auto via Cursor", "cursorModel": "auto", "picker": true},
        {"model": "multi/cursor/composer-2.5", "label": "Composer 2.5 via Cursor", "cursorModel": "composer-2.5", "picker": true},
        {"model": "multi/cursor/gpt-5.3-codex/effort=high", "label": "Codex 5.3 High via Cursor", "cursorModel": "gpt-5.3-codex-high", "picker": true},
        {"model": "multi/cursor/gpt-5.3-codex", "label": "Codex 5.3 via Cursor", "cursorModel": "gpt-5.3-codex", "picker": false},
        {"model": "multi/cursor/gpt-5.3-codex-high", "label": "Codex 5.3 High via Cursor", "cursorModel": "gpt-5.3-codex-high", "picker": false},
    ]);
    assert_eq!(routes_json(&small(), &extra, PickerSize::Short), expected);
}

#[test]
fn empty_catalog_is_an_empty_array() {
    assert_eq!(
        routes_json(&Catalog::default(), &[], PickerSize::Short),
        json!([])
    );
}

#[test]
fn printed_text_is_the_same_array_in_contract_key_order() {
    let text = routes_json_text(&small(), &[], PickerSize::Short);
    let parsed: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(error) => panic!("not JSON: {error}\n{text}"),
    };
    assert_eq!(parsed, routes_json(&small(), &[], PickerSize::Short));
    let first = text.find("\"model\"");
    let label = text.find("\"label\"");
    let cursor_model = text.find("\"cursorModel\"");
    let picker = text.find("\"picker\"");
    assert!(
        first < label && label < cursor_model && cursor_model < picker,
        "{text}"
    );
}
