//! Spellings a request or a worker's `model: <id>` line may use, and unknown models.

use crate::cursor::catalog::Catalog;
use crate::cursor::catalog::CatalogError;
use crate::cursor::catalog::tests::catalog;

fn resolve(catalog: &Catalog, model: &str) -> (String, String) {
    match catalog.resolve(model, None) {
        Ok(resolved) => (resolved.route.model, resolved.cursor_model),
        Err(error) => panic!("{model} did not resolve: {error}"),
    }
}

fn pair(route: &str, cursor_model: &str) -> (String, String) {
    (route.to_string(), cursor_model.to_string())
}

#[test]
fn auto_spellings_all_mean_the_default_route() {
    let c = catalog();
    let auto = pair("multi/cursor/default", "auto");
    for spelling in [
        "multi/cursor/default",
        "multi/cursor/auto",
        "default",
        "auto",
        " Auto ",
    ] {
        assert_eq!(resolve(&c, spelling), auto, "{spelling}");
    }
}

#[test]
fn bare_ids_from_a_worker_line_resolve() {
    let c = catalog();
    assert_eq!(
        resolve(&c, "composer-2.5"),
        pair("multi/cursor/composer-2.5", "composer-2.5")
    );
    assert_eq!(
        resolve(&c, "cursor-grok-4.7"),
        pair("multi/cursor/cursor-grok-4.7", "cursor-grok-4.7")
    );
    assert_eq!(
        resolve(&c, "multi/cursor/gpt-5.3-codex-high"),
        pair("multi/cursor/gpt-5.3-codex-high", "gpt-5.3-codex-high")
    );
}

#[test]
fn preset_spellings_resolve_in_any_pair_order() {
    let c = catalog();
    let expected = pair(
        "multi/cursor/gpt-5.3-codex/effort=high,fast=true",
        "gpt-5.3-codex-high-fast",
    );
    assert_eq!(
        resolve(&c, "multi/cursor/gpt-5.3-codex/effort=high,fast=true"),
        expected
    );
    assert_eq!(
        resolve(&c, "multi/cursor/gpt-5.3-codex/fast=true,effort=high"),
        expected
    );
    assert_eq!(resolve(&c, "gpt-5.3-codex/effort=high,fast=true"), expected);
}

#[test]
fn case_is_forgiven_when_nothing_matches_exactly() {
    assert_eq!(
        resolve(&catalog(), "Composer-2.5"),
        pair("multi/cursor/composer-2.5", "composer-2.5")
    );
}

#[test]
fn unknown_models_are_refused_with_suggestions() {
    let c = catalog();
    let Err(error) = c.resolve("multi/cursor/composer-25", None) else {
        panic!("an unknown model must be refused");
    };
    let CatalogError::UnknownModel {
        requested,
        suggestions,
    } = &error
    else {
        panic!("wrong error: {error:?}");
    };
    assert_eq!(requested, "multi/cursor/composer-25");
    assert_eq!(
        suggestions.first().map(String::as_str),
        Some("multi/cursor/composer-2.5")
    );
    let message = error.to_string();
    assert!(
        message.contains("did you mean multi/cursor/composer-2.5"),
        "{message}"
    );
    assert!(
        message.contains("multi-cursor --cursor-models"),
        "{message}"
    );

    for bad in [
        "",
        "multi/cursor/",
        "gpt-5.3-codex/effort",
        "gpt-5.3-codex/effort=medium",
        "sonnet",
        "x y",
    ] {
        assert!(
            matches!(c.resolve(bad, None), Err(CatalogError::UnknownModel { .. })),
            "{bad:?} must be unknown"
        );
    }
}
