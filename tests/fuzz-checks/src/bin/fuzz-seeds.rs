//! Writes the fuzz targets' seed corpora from the repository's fixtures:
//! `cargo run -p multi-cursor-fuzz-checks --bin fuzz-seeds -- <corpus folder>` (run by
//! `scripts/fuzz`).

use std::path::PathBuf;

use anyhow::Context;
use multi_cursor_fuzz_checks::seeds;

fn main() -> anyhow::Result<()> {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .context("usage: fuzz-seeds <corpus folder>")?;
    let counts = seeds::write_all(&seeds::repository_root(), &out)?;
    println!(
        "fuzz seeds in {}: stream_parser {}, request {}, rules {}, record {}",
        out.display(),
        counts.stream_parser,
        counts.request,
        counts.rules,
        counts.record
    );
    Ok(())
}
