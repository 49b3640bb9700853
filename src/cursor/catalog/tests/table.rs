//! `--cursor-models` for people: an aligned table, picker rows first and marked.

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::PickerSize;
use crate::cursor::catalog::render_table;
use crate::cursor::catalog::tests::model;

#[test]
fn table_lists_picker_rows_first_and_aligned() {
    let catalog = Catalog::from_models(vec![
        model("gpt-5.3-codex", "Codex 5.3"),
        model("gpt-5.3-codex-high", "Codex 5.3 High"),
        model("auto", "Auto"),
    ]);
    let table = render_table(&catalog, &[], PickerSize::Short);
    let expected = "\
ROUTE                                   CURSOR MODEL        LABEL                      PICKER
multi/cursor/default                    auto                Auto via Cursor            ✓

multi/cursor/gpt-5.3-codex              gpt-5.3-codex       Codex 5.3 via Cursor
multi/cursor/gpt-5.3-codex/effort=high  gpt-5.3-codex-high  Codex 5.3 High via Cursor
multi/cursor/gpt-5.3-codex-high         gpt-5.3-codex-high  Codex 5.3 High via Cursor

4 routes (1 in the /model picker, marked ✓; 1 preset). A worker picks one with a first prompt line `model: <route without multi/cursor/>`.
";
    assert_eq!(table, expected);
}

#[test]
fn empty_catalog_says_so() {
    let table = render_table(&Catalog::default(), &[], PickerSize::Short);
    assert!(
        table.contains("Cursor lists no models for this account"),
        "{table}"
    );
}
