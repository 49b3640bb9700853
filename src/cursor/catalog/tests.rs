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
