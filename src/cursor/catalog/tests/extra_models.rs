//! MULTI_CURSOR_EXTRA_MODELS: parsed, appended to the picker, unknown ids refused by the
//! launcher with an exact message but still listed by `--cursor-models`.

use crate::cursor::catalog::CatalogError;
use crate::cursor::catalog::PickerSize;
use crate::cursor::catalog::render::routes_json;
use crate::cursor::catalog::render_table;
use crate::cursor::catalog::routes::parse_extra_models;
use crate::cursor::catalog::tests::catalog;

#[test]
fn value_is_split_trimmed_and_deduped() {
    assert_eq!(parse_extra_models(None), Vec::<String>::new());
    assert_eq!(parse_extra_models(Some("")), Vec::<String>::new());
    assert_eq!(
        parse_extra_models(Some(" gpt-5.3-codex ,, claude-opus-4-8,gpt-5.3-codex , ")),
        vec!["gpt-5.3-codex".to_string(), "claude-opus-4-8".to_string()]
    );
}

#[test]
fn valid_extras_follow_the_defaults() {
    let extra = parse_extra_models(Some(
        "gpt-5.3-codex, composer-2.5, claude-opus-4-8/thinking=true, multi/cursor/gemini-3.1-pro",
    ));
    let picker = catalog().picker(&extra);
    assert_eq!(picker.unavailable, Vec::<String>::new());
    assert!(picker.check().is_ok());
    let models: Vec<&str> = picker.rows.iter().map(|r| r.model.as_str()).collect();
    assert_eq!(
        models,
        [
            "multi/cursor/default",
            "multi/cursor/cursor-grok-4.7",
            "multi/cursor/composer-2.5",
            "multi/cursor/gpt-5.3-codex",
            // composer-2.5 is already a row; not repeated.
            "multi/cursor/claude-opus-4-8/thinking=true",
            "multi/cursor/gemini-3.1-pro",
        ]
    );
    assert!(picker.rows.iter().all(|r| r.picker));
}

#[test]
fn unknown_extra_stops_the_launch_with_the_exact_message() {
    let extra = parse_extra_models(Some("gpt-5.3-codex,grok-9,also-missing"));
    let picker = catalog().picker(&extra);
    assert_eq!(picker.unavailable, ["grok-9", "also-missing"]);
    let Err(error) = picker.check() else {
        panic!("an unknown extra id must be refused");
    };
    assert!(matches!(&error, CatalogError::ExtraModelUnavailable { id } if id == "grok-9"));
    assert_eq!(
        error.to_string(),
        "MULTI_CURSOR_EXTRA_MODELS: model \"grok-9\" is unavailable. Use --cursor-models to see the models your Cursor account can run."
    );
}

#[test]
fn cursor_models_still_lists_the_catalog_with_an_unknown_extra() {
    let catalog = catalog();
    let extra = parse_extra_models(Some("grok-9, gpt-5.3-codex"));
    let json = routes_json(&catalog, &extra, PickerSize::Short);
    let rows = json.as_array().map(Vec::len).unwrap_or_default();
    assert_eq!(rows, catalog.routes().count());
    assert!(!json.to_string().contains("grok-9"));
    // The valid extra is still a picker row.
    assert_eq!(json[3]["model"], "multi/cursor/gpt-5.3-codex");
    assert_eq!(json[3]["picker"], true);

    let table = render_table(&catalog, &extra, PickerSize::Short);
    assert!(table.contains("multi/cursor/gpt-5.3-codex"));
    assert!(table.contains("MULTI_CURSOR_EXTRA_MODELS names \"grok-9\""));
}
