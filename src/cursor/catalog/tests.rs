//! Unit tests of the model catalog: parsing `--list-models`, routes and aliases, effort
//! variants, extra models, the picker, the table and JSON renderings, and the cache.

mod aliases;
mod cache;
mod effort;
mod extra_models;
mod json;
mod parse;
mod picker;
mod routes;
mod table;

use super::*;

/// The catalog of the real `--list-models` capture (ANSI-coloured), shared by the modules.
pub(super) fn catalog() -> Catalog {
    match parse_list_models(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/list-models/ansi.txt"
    ))) {
        ListModels::Models(models) => Catalog::from_models(models),
        other => panic!("fixture did not parse: {other:?}"),
    }
}

/// A catalog entry with `id` and `display_name`, neither current nor default.
pub(super) fn model(id: &str, display_name: &str) -> CatalogModel {
    CatalogModel {
        id: id.to_string(),
        display_name: display_name.to_string(),
        current: false,
        default: false,
    }
}

#[test]
fn markers_split_only_known_words() {
    assert_eq!(
        split_markers("Auto (current, default)"),
        ("Auto", true, true)
    );
    assert_eq!(
        split_markers("Sonnet 4.5 (1M)"),
        ("Sonnet 4.5 (1M)", false, false)
    );
    assert_eq!(
        split_markers("Sonnet 4.5 (1M) (default)"),
        ("Sonnet 4.5 (1M)", false, true)
    );
}
