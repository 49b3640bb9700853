//! `output_config.effort` picks an effort variant of a base route only when one is listed.

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::tests::catalog;

fn run(catalog: &Catalog, model: &str, effort: Option<&str>) -> String {
    match catalog.resolve(model, effort) {
        Ok(resolved) => resolved.cursor_model,
        Err(error) => panic!("{model} did not resolve: {error}"),
    }
}

#[test]
fn listed_levels_select_the_variant() {
    let c = catalog();
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("low")),
        "gpt-5.3-codex-low"
    );
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("high")),
        "gpt-5.3-codex-high"
    );
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("xhigh")),
        "gpt-5.3-codex-xhigh"
    );
    assert_eq!(
        run(&c, "multi/cursor/cursor-grok-4.7", Some("high")),
        "cursor-grok-4.7-high"
    );
}

#[test]
fn medium_and_no_effort_mean_the_base_id() {
    let c = catalog();
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("medium")),
        "gpt-5.3-codex"
    );
    assert_eq!(run(&c, "multi/cursor/gpt-5.3-codex", None), "gpt-5.3-codex");
}

#[test]
fn max_takes_the_highest_listed_level() {
    let c = catalog();
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("max")),
        "gpt-5.3-codex-xhigh"
    );
    assert_eq!(
        run(&c, "multi/cursor/cursor-grok-4.7", Some("max")),
        "cursor-grok-4.7-high"
    );
}

#[test]
fn unknown_or_missing_levels_keep_the_base() {
    let c = catalog();
    // Unknown value for a base that has variants: the base, not an error.
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("turbo")),
        "gpt-5.3-codex"
    );
    // `fast` is no effort level: a base route never runs a Fast variant.
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex", Some("fast")),
        "gpt-5.3-codex"
    );
    // Listed level missing for this base.
    assert_eq!(
        run(&c, "multi/cursor/cursor-grok-4.7", Some("low")),
        "cursor-grok-4.7"
    );
    // No variants at all.
    assert_eq!(run(&c, "multi/cursor/default", Some("high")), "auto");
    assert_eq!(
        run(&c, "multi/cursor/composer-2.5", Some("high")),
        "composer-2.5"
    );
}

#[test]
fn presets_and_variant_ids_win_unchanged() {
    let c = catalog();
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex/effort=low", Some("high")),
        "gpt-5.3-codex-low"
    );
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex/fast=true", Some("high")),
        "gpt-5.3-codex-fast"
    );
    assert_eq!(
        run(&c, "multi/cursor/gpt-5.3-codex-high", Some("low")),
        "gpt-5.3-codex-high"
    );
}

#[test]
fn effort_changes_the_id_not_the_route() {
    let Ok(resolved) = catalog().resolve("multi/cursor/gpt-5.3-codex", Some("high")) else {
        panic!("base route must resolve");
    };
    assert_eq!(resolved.route.model, "multi/cursor/gpt-5.3-codex");
    assert_eq!(resolved.route.cursor_model, "gpt-5.3-codex");
    assert_eq!(resolved.cursor_model, "gpt-5.3-codex-high");
}
