//! Picker rows: Auto, Grok 4.7, Composer 2.5 (by id or display name), in that order.

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::tests::catalog;
use crate::cursor::catalog::tests::model;

fn picker_models(catalog: &Catalog) -> Vec<(String, String, bool)> {
    catalog
        .picker(&[])
        .rows
        .into_iter()
        .map(|r| (r.model, r.cursor_model, r.picker))
        .collect()
}

fn row(model: &str, cursor_model: &str) -> (String, String, bool) {
    (model.to_string(), cursor_model.to_string(), true)
}

#[test]
fn fixture_picker_is_auto_grok_composer() {
    // Grok 4.7 is `cursor-grok-4.7` in the CLI; its route uses the CLI id.
    assert_eq!(
        picker_models(&catalog()),
        vec![
            row("multi/cursor/default", "auto"),
            row("multi/cursor/cursor-grok-4.7", "cursor-grok-4.7"),
            row("multi/cursor/composer-2.5", "composer-2.5"),
        ]
    );
}

#[test]
fn order_is_fixed_whatever_the_catalog_order() {
    let catalog = Catalog::from_models(vec![
        model("composer-2.5", "Composer 2.5"),
        model("grok-4.7", "Grok 4.7"),
        model("auto", "Auto"),
    ]);
    assert_eq!(
        picker_models(&catalog),
        vec![
            row("multi/cursor/default", "auto"),
            row("multi/cursor/grok-4.7", "grok-4.7"),
            row("multi/cursor/composer-2.5", "composer-2.5"),
        ]
    );
}

#[test]
fn display_name_matches_when_the_id_differs() {
    let catalog = Catalog::from_models(vec![
        model("xai-g47", "Grok 4.7"),
        model("comp-25", "composer 2.5"),
    ]);
    assert_eq!(
        picker_models(&catalog),
        vec![
            row("multi/cursor/xai-g47", "xai-g47"),
            row("multi/cursor/comp-25", "comp-25"),
        ]
    );
}

#[test]
fn exact_id_beats_display_name() {
    let catalog = Catalog::from_models(vec![
        model("cursor-grok-4.7", "Grok 4.7"),
        model("grok-4.7", "Grok 4.7 (xAI)"),
    ]);
    assert_eq!(
        picker_models(&catalog),
        vec![row("multi/cursor/grok-4.7", "grok-4.7")]
    );
}

#[test]
fn missing_defaults_are_left_out() {
    let catalog = Catalog::from_models(vec![
        model("gpt-5.3-codex", "Codex 5.3"),
        model("composer-2.5", "Composer 2.5"),
    ]);
    assert_eq!(
        picker_models(&catalog),
        vec![row("multi/cursor/composer-2.5", "composer-2.5")]
    );
    assert!(Catalog::default().picker(&[]).rows.is_empty());
}

#[test]
fn variants_of_picker_models_are_not_picker_rows() {
    let catalog = catalog();
    let rows = catalog.picker(&[]).rows;
    assert!(
        !rows
            .iter()
            .any(|r| r.cursor_model == "cursor-grok-4.7-high")
    );
}

#[test]
fn the_whole_list_is_every_route_as_cursor_models_shows_it() {
    use crate::cursor::catalog::PickerSize;
    let catalog = catalog();
    let short = catalog.picker_sized(&[], PickerSize::Short);
    assert_eq!(short, catalog.picker(&[]));
    let all = catalog.picker_sized(&[], PickerSize::All);
    let listed = catalog.routes_with_picker(&[], PickerSize::Short);
    assert_eq!(all.rows.len(), listed.len(), "every route is a row");
    assert!(all.rows.len() > short.rows.len());
    for (row, route) in all.rows.iter().zip(&listed) {
        assert_eq!(
            (&row.model, &row.label, &row.cursor_model),
            (&route.model, &route.label, &route.cursor_model)
        );
        assert!(row.picker, "{row:?}");
    }
    // The short list's rows come first, as in --cursor-models.
    assert_eq!(all.rows[..short.rows.len()], short.rows[..]);
    assert!(
        all.rows.iter().any(|r| r.short_id().contains('/')),
        "presets too"
    );
    // --cursor-models then marks every route as a picker row.
    let marked = catalog.routes_with_picker(&[], PickerSize::All);
    assert!(marked.iter().all(|r| r.picker));
}

#[test]
fn the_picker_setting_is_short_all_or_refused() {
    use crate::cursor::catalog::PickerSize;
    assert_eq!(PickerSize::parse(None).unwrap(), PickerSize::Short);
    assert_eq!(PickerSize::parse(Some("")).unwrap(), PickerSize::Short);
    assert_eq!(
        PickerSize::parse(Some(" Short ")).unwrap(),
        PickerSize::Short
    );
    assert_eq!(PickerSize::parse(Some("ALL")).unwrap(), PickerSize::All);
    let refused = PickerSize::parse(Some("every\u{1b}[31m"))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("set it to `all`"), "{refused}");
    assert!(!refused.contains('\u{1b}'), "{refused}");
}
