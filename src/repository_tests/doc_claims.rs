//! Statements in the docs that the product's tests contradict. Each check first asserts the
//! behaviour (what the product does, as the policy tests and the gateway harness hold it), then
//! fails on any sentence of README.md or docs/ that says otherwise, naming file and sentence.
//! Historical sentences ("before, …", "no longer", "any more") are allowed.

use std::fs;

use super::files_below;
use super::relative;
use super::root;
use crate::cursor::command::CursorMode;
use crate::policy::ClaudeMode;
use crate::policy::ModeFacts;
use crate::policy::Surface;
use crate::policy::cursor_mode;

/// README.md and every page below docs/: (name, text with lines joined).
fn docs() -> Vec<(String, String)> {
    let mut paths = vec![root().join("README.md")];
    let mut below = Vec::new();
    files_below(&root().join("docs"), &mut below);
    paths.extend(
        below
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    paths
        .iter()
        .filter_map(|path| {
            let text = fs::read_to_string(path).ok()?;
            Some((relative(path), text.replace('\n', " ")))
        })
        .collect()
}

/// The sentences (and table cells) of `text`.
fn sentences(text: &str) -> Vec<String> {
    text.split(['|'])
        .flat_map(|cell| cell.split(". "))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect()
}

fn historical(sentence: &str) -> bool {
    ["before,", "no longer", "any more", "used to"]
        .iter()
        .any(|w| sentence.contains(w))
}

/// Sentences of the docs for which `says` holds (lower-cased), as "file: sentence".
fn offending(says: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for (name, text) in docs() {
        for sentence in sentences(&text) {
            let lower = sentence.to_lowercase();
            if says(&lower) && !historical(&lower) {
                found.push(format!("{name}: {sentence}"));
            }
        }
    }
    found
}

#[test]
fn no_doc_says_manual_mode_is_refused() {
    // What the product does: manual mode (`default`), and no mode reported yet, answer
    // read-only with a note, on every surface.
    for surface in [
        Surface::Terminal,
        Surface::Print,
        Surface::Panel,
        Surface::Sdk,
    ] {
        for mode in [None, Some(ClaudeMode::Default)] {
            let facts = ModeFacts {
                surface,
                ..ModeFacts::default()
            };
            let plan = cursor_mode(mode, &facts);
            assert_eq!(plan.cursor, CursorMode::Ask, "{surface:?} {mode:?}");
            assert!(
                plan.note
                    .as_deref()
                    .is_some_and(|n| n.contains("answered read-only")),
                "{plan:?}"
            );
        }
    }
    let refused = offending(|s| {
        let about_manual = s.contains("default") || s.contains("manual");
        let refusal = [
            "routes refuse",
            "is refused",
            "are refused",
            "refuses manual",
            "refuses the default",
            "refused in manual",
            "refused in default",
            "cannot run in claude's \"default\"",
        ]
        .iter()
        .any(|w| s.contains(w));
        about_manual && refusal
    });
    assert!(
        refused.is_empty(),
        "docs say manual (default) mode is refused, but Cursor answers read-only there: {refused:#?}"
    );
}

#[test]
fn no_doc_names_shift_tab_for_print_mode_or_the_panel() {
    // What the product does: the read-only note names each surface's own switch.
    let note = |surface| {
        let facts = ModeFacts {
            surface,
            ..ModeFacts::default()
        };
        cursor_mode(Some(ClaudeMode::Default), &facts)
            .note
            .unwrap_or_default()
    };
    assert!(note(Surface::Terminal).contains("Shift+Tab"));
    for surface in [Surface::Print, Surface::Panel, Surface::Sdk] {
        assert!(!note(surface).contains("Shift+Tab"), "{}", note(surface));
    }
    let wrong = offending(|s| {
        s.contains("shift+tab")
            && (s.contains("`-p`") || s.contains("print mode") || s.contains("in the panel"))
            && !s.contains("mean nothing")
            && !s.contains("instead of")
            && !s.contains("not shift+tab")
    });
    assert!(
        wrong.is_empty(),
        "docs name Shift+Tab where it does not exist: {wrong:#?}"
    );
}

#[test]
fn no_doc_places_the_wrapper_in_cargo_bin_alone() {
    // An npm install (`scripts/test-install`) puts both executables in the prefix's bin.
    let wrong = offending(|s| {
        s.contains("usually `~/.cargo/bin/multi-cursor-claude`")
            || s.contains("\"/home/you/.cargo/bin/multi-cursor-claude\"")
    });
    assert!(
        wrong.is_empty(),
        "docs look for multi-cursor-claude in ~/.cargo/bin only: {wrong:#?}"
    );
}
