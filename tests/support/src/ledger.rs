//! The spend ledger as the tests read it back.

use std::path::Path;

/// Every ledger line under `state` (its `ledger/` folder), in order: month files sorted by
/// name, lines as written. No folder yet: none. A line that is not JSON fails the test.
pub fn ledger_lines(state: &Path) -> Vec<serde_json::Value> {
    let Ok(dir) = std::fs::read_dir(state.join("ledger")) else {
        return Vec::new();
    };
    let mut files: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
                .collect::<Vec<_>>()
        })
        .collect()
}
