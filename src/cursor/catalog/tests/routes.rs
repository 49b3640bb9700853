//! Every catalog id is a route; suffixed ids are also presets of a listed base.

use crate::cursor::catalog::Route;
use crate::cursor::catalog::tests::catalog;

fn route(model: &str, label: &str, cursor_model: &str) -> Route {
    Route {
        model: model.to_string(),
        label: label.to_string(),
        cursor_model: cursor_model.to_string(),
        picker: false,
    }
}

#[test]
fn routes_follow_catalog_order_with_presets_after_their_base() {
    let routes: Vec<Route> = catalog().routes().cloned().collect();
    let expected = vec![
        route("multi/cursor/default", "Auto via Cursor", "auto"),
        route(
            "multi/cursor/composer-2.5",
            "Composer 2.5 via Cursor",
            "composer-2.5",
        ),
        route(
            "multi/cursor/composer-2",
            "Composer 2 via Cursor",
            "composer-2",
        ),
        route(
            "multi/cursor/composer-2/fast=true",
            "Composer 2 Fast via Cursor",
            "composer-2-fast",
        ),
        route(
            "multi/cursor/composer-2-fast",
            "Composer 2 Fast via Cursor",
            "composer-2-fast",
        ),
        route(
            "multi/cursor/cursor-grok-4.7",
            "Grok 4.7 via Cursor",
            "cursor-grok-4.7",
        ),
        route(
            "multi/cursor/cursor-grok-4.7/effort=high",
            "Grok 4.7 High via Cursor",
            "cursor-grok-4.7-high",
        ),
        route(
            "multi/cursor/cursor-grok-4.7-high",
            "Grok 4.7 High via Cursor",
            "cursor-grok-4.7-high",
        ),
        route(
            "multi/cursor/gpt-5.3-codex",
            "Codex 5.3 via Cursor",
            "gpt-5.3-codex",
        ),
        route(
            "multi/cursor/gpt-5.3-codex/effort=low",
            "Codex 5.3 Low via Cursor",
            "gpt-5.3-codex-low",
        ),
        route(
            "multi/cursor/gpt-5.3-codex/effort=high",
            "Codex 5.3 High via Cursor",
            "gpt-5.3-codex-high",
        ),
        route(
            "multi/cursor/gpt-5.3-codex/effort=xhigh",
            "Codex 5.3 Extra High via Cursor",
            "gpt-5.3-codex-xhigh",
        ),
        route(
            "multi/cursor/gpt-5.3-codex/fast=true",
            "Codex 5.3 Fast via Cursor",
            "gpt-5.3-codex-fast",
        ),
        // Two suffixes, shortest listed base, pairs sorted by key.
        route(
            "multi/cursor/gpt-5.3-codex/effort=high,fast=true",
            "Codex 5.3 High Fast via Cursor",
            "gpt-5.3-codex-high-fast",
        ),
        route(
            "multi/cursor/gpt-5.3-codex-low",
            "Codex 5.3 Low via Cursor",
            "gpt-5.3-codex-low",
        ),
        route(
            "multi/cursor/gpt-5.3-codex-high",
            "Codex 5.3 High via Cursor",
            "gpt-5.3-codex-high",
        ),
        route(
            "multi/cursor/gpt-5.3-codex-xhigh",
            "Codex 5.3 Extra High via Cursor",
            "gpt-5.3-codex-xhigh",
        ),
        route(
            "multi/cursor/gpt-5.3-codex-fast",
            "Codex 5.3 Fast via Cursor",
            "gpt-5.3-codex-fast",
        ),
        route(
            "multi/cursor/gpt-5.3-codex-high-fast",
            "Codex 5.3 High Fast via Cursor",
            "gpt-5.3-codex-high-fast",
        ),
        // `gpt-5.6-sol` is not listed, so `-high` makes no preset here.
        route(
            "multi/cursor/gpt-5.6-sol-high",
            "GPT-5.6 Sol High via Cursor",
            "gpt-5.6-sol-high",
        ),
        route(
            "multi/cursor/claude-opus-4-8",
            "Claude Opus 4.8 via Cursor",
            "claude-opus-4-8",
        ),
        route(
            "multi/cursor/claude-opus-4-8/thinking=true",
            "Claude Opus 4.8 Thinking via Cursor",
            "claude-opus-4-8-thinking",
        ),
        route(
            "multi/cursor/claude-opus-4-8-thinking",
            "Claude Opus 4.8 Thinking via Cursor",
            "claude-opus-4-8-thinking",
        ),
        route(
            "multi/cursor/gemini-3.1-pro",
            "Gemini 3.1 Pro - Preview via Cursor",
            "gemini-3.1-pro",
        ),
        route(
            "multi/cursor/sonnet-4.6",
            "Sonnet 4.6 (1M) via Cursor",
            "sonnet-4.6",
        ),
    ];
    assert_eq!(routes, expected);
}

#[test]
fn no_separate_auto_route() {
    assert!(!catalog().routes().any(|r| r.model == "multi/cursor/auto"));
}

#[test]
fn short_id_drops_the_prefix() {
    let catalog = catalog();
    let shorts: Vec<&str> = catalog.routes().take(2).map(Route::short_id).collect();
    assert_eq!(shorts, ["default", "composer-2.5"]);
}
