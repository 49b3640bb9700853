//! Every fuzz target's property on its corpus, as a regression test on each `cargo test`: the
//! seeds made from the fixtures (`seeds::write_all`) and the inputs kept in
//! `fuzz/regressions/<target>/` (a crash `scripts/fuzz` found, once fixed, goes there, and so do
//! the minimised corpora of past runs).

// A harness reports a failure by panicking: helpers outside `#[test]` functions unwrap too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::path::PathBuf;
use std::sync::OnceLock;

use multi_cursor_fuzz_checks::TARGETS;
use multi_cursor_fuzz_checks::seeds;

/// The seeds, made once per test binary into a temporary folder.
fn seed_folder() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        seeds::write_all(&seeds::repository_root(), dir.path()).unwrap();
        dir
    })
    .path()
}

fn inputs(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target`'s check on each of its inputs, naming every input that fails; returns how many
/// seeds and kept inputs ran.
fn run(target: &str) -> (usize, usize) {
    let check = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, check)| *check)
        .unwrap();
    let seeds = inputs(&seed_folder().join(target));
    let kept = inputs(
        &seeds::repository_root()
            .join("fuzz/regressions")
            .join(target),
    );
    let mut failed = Vec::new();
    for path in seeds.iter().chain(&kept) {
        let data = std::fs::read(path).unwrap();
        if std::panic::catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "{target}: the property fails on {failed:?}"
    );
    (seeds.len(), kept.len())
}

#[test]
fn stream_parser_corpus() {
    let (seeds, _) = run("stream_parser");
    assert!(seeds >= 10, "only {seeds} stream seeds");
}

#[test]
fn request_corpus() {
    let (seeds, _) = run("request");
    assert!(seeds >= 5, "only {seeds} request seeds");
}

#[test]
fn rules_corpus() {
    let (seeds, _) = run("rules");
    assert!(seeds >= 10, "only {seeds} rule seeds");
}

#[test]
fn record_corpus() {
    let (seeds, _) = run("record");
    assert_eq!(
        seeds, 7,
        "the record seeds are the five records and two legacy files"
    );
}

/// Every target of `fuzz/Cargo.toml` has its check here, and the reverse.
#[test]
fn every_fuzz_target_is_checked() {
    let manifest =
        std::fs::read_to_string(seeds::repository_root().join("fuzz/Cargo.toml")).unwrap();
    let mut in_manifest: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|name| *name != "multi-cursor-fuzz")
        .collect();
    in_manifest.sort_unstable();
    let mut here: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    here.sort_unstable();
    assert_eq!(in_manifest, here);
}
