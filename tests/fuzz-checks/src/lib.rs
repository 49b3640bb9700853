//! The properties the fuzz targets check, one module per target, as plain functions: the
//! libFuzzer targets of `fuzz/fuzz_targets/` call them on generated inputs (`scripts/fuzz`, opt
//! in and in the release workflow), and this crate's regression test calls them on every seed
//! made from the fixtures and every input kept in `fuzz/regressions/<target>/`, on each
//! `cargo test --workspace`.
//!
//! Each `check` panics when a property does not hold; that panic is libFuzzer's crash and the
//! regression test's failure.

// A check reports a broken property (or a temporary folder it cannot make) by panicking.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

pub mod record;
pub mod request;
pub mod rules;
pub mod seeds;
pub mod stream_parser;

/// A new temporary folder, on tmpfs when there is one (the checks write files per input).
pub fn scratch_dir() -> tempfile::TempDir {
    let shm = std::path::Path::new("/dev/shm");
    let made = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    };
    made.expect("a temporary folder")
}

/// A target's property on one input.
pub type Check = fn(&[u8]);

/// The targets, by the names `fuzz/Cargo.toml`, `fuzz/regressions/` and the seed folders use.
pub const TARGETS: [(&str, Check); 4] = [
    ("stream_parser", stream_parser::check),
    ("request", request::check),
    ("rules", rules::check),
    ("record", record::check),
];
