//! Limits on the repository's own shape, kept by a test so they hold from now on: a few
//! integration-test harnesses, no source file over 800 product lines, short README and
//! ARCHITECTURE, no `#[path]` includes in tests, every `src/…`/`tests/…` path the docs name
//! exists, and no file pointing at documents outside the repository, one set of lints for every
//! crate of the workspace; the layering of `src/` in [`layering`]; statements in the docs that
//! the tests contradict in [`doc_claims`].

mod doc_claims;
mod generated;
mod layering;

use std::fs;
use std::path::Path;
use std::path::PathBuf;

/// At most this many integration-test binaries (`tests/<area>/main.rs` and `tests/*.rs`).
const MAX_TEST_BINARIES: usize = 8;
/// No source file of the workspace over this many product lines: every line before its first
/// `#[cfg(test)]`, doc comments and blank lines included ([`product_lines`]).
const MAX_PRODUCT_LINES: usize = 800;
/// README.md at most this many bytes.
const MAX_README_BYTES: u64 = 12_000;
/// ARCHITECTURE.md at most this many bytes.
const MAX_ARCHITECTURE_BYTES: u64 = 16_000;
/// AGENTS.md (the house rules) at most this many bytes.
const MAX_AGENTS_BYTES: u64 = 8_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below `dir` (no symlinks followed), skipping build and tool folders.
fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if matches!(
            name.as_ref(),
            "target" | ".git" | ".tools" | "node_modules" | "corpus" | "artifacts" | "seeds"
        ) {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            files_below(&path, out);
        } else if kind.is_file() {
            out.push(path);
        }
    }
}

/// `path` relative to the repository, with `/` between its parts on every system.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

#[test]
fn at_most_eight_integration_test_binaries() {
    let tests = root().join("tests");
    let mut binaries = Vec::new();
    for entry in fs::read_dir(&tests).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|ext| ext == "rs") {
            binaries.push(relative(&path));
        } else if path.join("main.rs").is_file() {
            binaries.push(relative(&path.join("main.rs")));
        }
    }
    binaries.sort();
    assert!(
        binaries.len() <= MAX_TEST_BINARIES,
        "{} integration-test binaries (at most {MAX_TEST_BINARIES}): {binaries:?}; add a module to an area harness instead",
        binaries.len()
    );
}

/// The product lines of a Rust file: every line before the first one that opens with
/// `#[cfg(test)]` (at the start of the line: a test module, a test-only item), doc comments and
/// blank lines included.
fn product_lines(text: &str) -> usize {
    text.lines()
        .take_while(|line| !line.starts_with("#[cfg(test)]"))
        .count()
}

/// The folders holding the workspace's sources: the product's `src/` and each other member's
/// `src/` (the fake agent, the test-support crate, the fuzz checks).
fn source_folders() -> Vec<PathBuf> {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    workspace_members(&manifest)
        .iter()
        .map(|member| root().join(member).join("src"))
        .collect()
}

/// Every `.rs` file below `folders` with more than `limit` product lines, as `path (N product
/// lines)`, sorted.
fn files_over(folders: &[PathBuf], limit: usize) -> Vec<String> {
    let mut files = Vec::new();
    for folder in folders {
        files_below(folder, &mut files);
    }
    let mut over: Vec<String> = files
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter_map(|path| {
            let lines = product_lines(&fs::read_to_string(path).unwrap());
            (lines > limit).then(|| format!("{} ({lines} product lines)", relative(path)))
        })
        .collect();
    over.sort();
    over
}

#[test]
fn no_source_file_is_over_the_line_limit() {
    let folders = source_folders();
    assert!(
        folders.len() >= 4 && folders.iter().all(|folder| folder.is_dir()),
        "{folders:?}"
    );
    let over = files_over(&folders, MAX_PRODUCT_LINES);
    assert!(
        over.is_empty(),
        "split these along their seams (at most {MAX_PRODUCT_LINES} lines before the first `#[cfg(test)]`): {over:?}"
    );
}

/// The count stops at the first `#[cfg(test)]` and counts docs and blanks before it; a file
/// over the limit is named with its count.
#[test]
fn the_line_limit_counts_product_lines_and_names_the_file() {
    assert_eq!(product_lines("//! Doc.\n\nfn a() {}\n"), 3);
    assert_eq!(
        product_lines("fn a() {}\n\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\n"),
        2
    );
    assert_eq!(product_lines("    #[cfg(test)] fn c() {}\nfn d() {}\n"), 2);
    let dir = tempfile::tempdir().unwrap();
    let long = "// a line\n".repeat(5) + "#[cfg(test)]\nmod tests;\n";
    fs::write(dir.path().join("long.rs"), &long).unwrap();
    fs::write(dir.path().join("short.rs"), "fn a() {}\n").unwrap();
    fs::write(dir.path().join("notes.md"), "x\n".repeat(10)).unwrap();
    let over = files_over(&[dir.path().to_path_buf()], 4);
    assert_eq!(over.len(), 1, "{over:?}");
    assert!(over[0].ends_with("long.rs (5 product lines)"), "{over:?}");
    assert!(files_over(&[dir.path().to_path_buf()], 5).is_empty());
}

#[test]
fn readme_architecture_and_agents_stay_short() {
    let readme = fs::metadata(root().join("README.md")).unwrap().len();
    let architecture = fs::metadata(root().join("ARCHITECTURE.md")).unwrap().len();
    assert!(
        readme <= MAX_README_BYTES,
        "README.md is {readme} bytes (at most {MAX_README_BYTES}): move detail to docs/"
    );
    assert!(
        architecture <= MAX_ARCHITECTURE_BYTES,
        "ARCHITECTURE.md is {architecture} bytes (at most {MAX_ARCHITECTURE_BYTES}): move detail to docs/"
    );
    let agents = fs::metadata(root().join("AGENTS.md")).unwrap().len();
    assert!(
        agents <= MAX_AGENTS_BYTES,
        "AGENTS.md is {agents} bytes (at most {MAX_AGENTS_BYTES}): keep the rules, move the reasons to docs/"
    );
}

#[test]
fn tests_include_no_files_by_path() {
    let mut files = Vec::new();
    files_below(&root().join("tests"), &mut files);
    let marker = ["#[", "path"].concat();
    let offenders: Vec<String> = files
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter(|path| fs::read_to_string(path).unwrap().contains(&marker))
        .map(|path| relative(path))
        .collect();
    assert!(
        offenders.is_empty(),
        "shared test code belongs in the test-support crate, not in path includes: {offenders:?}"
    );
}

/// The `src/…` and `tests/…` paths a Markdown text names (in backticks, links or prose).
fn named_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for prefix in ["src/", "tests/"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix) {
            let start = from + at;
            from = start + prefix.len();
            let before = text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')) {
                continue;
            }
            let path: String = text[start..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
                .collect();
            let path = path.trim_end_matches(['.', '/']).to_owned();
            if path.len() > prefix.len() {
                paths.push(path);
            }
        }
    }
    paths
}

#[test]
fn every_path_the_docs_name_exists() {
    let mut docs = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut below = Vec::new();
    files_below(&root().join("docs"), &mut below);
    docs.extend(
        below
            .into_iter()
            .filter(|path| path.extension().is_some_and(|ext| ext == "md")),
    );
    let mut missing = Vec::new();
    for doc in &docs {
        let Ok(text) = fs::read_to_string(doc) else {
            continue;
        };
        for path in named_paths(&text) {
            if !root().join(&path).exists() {
                missing.push(format!("{} names {path}", relative(doc)));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths named in docs that do not exist: {missing:?}"
    );
}

#[test]
fn nothing_points_outside_the_repository() {
    let pointers = [
        ["..", "/shared"].concat(),
        ["DESIGN", ".md"].concat(),
        ["DESIGN", " §"].concat(),
        ["reference/", "cursor-cli"].concat(),
        ["reference/", "claude-code"].concat(),
        ["reference/", "security-probe"].concat(),
        ["reference/", "aesthetics-review"].concat(),
        ["reference/", "peers-2026"].concat(),
        ["reference/", "upstream-multi"].concat(),
        ["reference/", "rules.md"].concat(),
        ["reference/", "style-anchors"].concat(),
    ];
    let mut files = Vec::new();
    files_below(&root(), &mut files);
    let fixtures = root().join("tests").join("fixtures");
    let mut offenders = Vec::new();
    for path in files.iter().filter(|path| !path.starts_with(&fixtures)) {
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        for pointer in &pointers {
            if text.contains(pointer.as_str()) {
                offenders.push(format!("{} names {pointer}", relative(path)));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "carry the fact into a doc comment or docs/ instead: {offenders:?}"
    );
}

#[test]
fn named_paths_reads_paths_out_of_prose() {
    let text = "See `src/turn.rs`, [x](tests/gateway/main.rs) and src/anthropic/. Not mysrc/x.";
    assert_eq!(
        named_paths(text),
        ["src/turn.rs", "src/anthropic", "tests/gateway/main.rs"]
    );
}

/// The release workflow parses as YAML and has its five jobs: a build of every npm platform
/// scripts/dist knows, the test suite on macOS and on Windows, the fuzzers (which left
/// `.ci/run`), and the npm publish after all four.
#[test]
fn release_workflow_builds_every_platform_and_publishes_after_the_tests() {
    let path = root().join(".github/workflows/release.yml");
    let Ok(text) = fs::read_to_string(&path) else {
        panic!("{} is missing", path.display());
    };
    let workflow: serde_yaml::Value = match serde_yaml::from_str(&text) {
        Ok(value) => value,
        Err(error) => panic!("{}: {error}", path.display()),
    };
    let jobs = &workflow["jobs"];
    let platforms: Vec<&str> = jobs["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .map(|rows| {
            rows.iter()
                .filter_map(|row| row["platform"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        platforms,
        [
            "linux-x64",
            "linux-arm64",
            "darwin-arm64",
            "darwin-x64",
            "win32-x64"
        ]
    );
    assert_eq!(jobs["test-macos"]["runs-on"].as_str(), Some("macos-latest"));
    assert_eq!(
        jobs["test-windows"]["runs-on"].as_str(),
        Some("windows-latest")
    );
    let needs: Vec<&str> = jobs["publish"]["needs"]
        .as_sequence()
        .map(|needs| needs.iter().filter_map(serde_yaml::Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(needs, ["build", "test-macos", "test-windows", "fuzz"]);
    let fuzz_runs: Vec<&str> = jobs["fuzz"]["steps"]
        .as_sequence()
        .map(|steps| steps.iter().filter_map(|s| s["run"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        fuzz_runs.iter().any(|run| run.contains("scripts/fuzz")),
        "the fuzz job runs scripts/fuzz: {fuzz_runs:?}"
    );
    let dist = fs::read_to_string(root().join("scripts/dist")).unwrap_or_default();
    for platform in platforms {
        assert!(
            dist.contains(&format!("    {platform}) ")),
            "scripts/dist builds {platform}"
        );
    }
}

/// The members of the workspace, from the root `Cargo.toml`'s `members = [...]` line.
fn workspace_members(manifest: &str) -> Vec<String> {
    let Some(line) = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members = ["))
    else {
        return Vec::new();
    };
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every crate of the workspace holds the product's rules: its manifest says
/// `[lints] workspace = true` and has no lint table of its own; the rules are
/// `[workspace.lints]` of the root manifest.
#[test]
fn every_crate_holds_the_workspace_lints() {
    let root_manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(root_manifest.contains("\n[workspace.lints.clippy]\n"));
    let members = workspace_members(&root_manifest);
    assert!(
        members.len() >= 4 && members.iter().any(|m| m == "tests/fuzz-checks"),
        "{members:?}"
    );
    let mut offenders = Vec::new();
    for member in &members {
        let manifest = fs::read_to_string(root().join(member).join("Cargo.toml")).unwrap();
        let inherits = manifest.contains("\n[lints]\nworkspace = true\n");
        let own_table = manifest.lines().any(|line| {
            line.starts_with("[lints.") || line.starts_with("[target.") && line.contains(".lints")
        });
        if !inherits || own_table {
            offenders.push(member.clone());
        }
    }
    assert!(
        offenders.is_empty(),
        "give these crates `[lints] workspace = true` and no lint table of their own: {offenders:?}"
    );
}
