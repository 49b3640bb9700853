//! Unit tests of the rules: discovery, dialects, precedence, memory imports, special files,
//! the lenient YAML reader, the first prompt's section, the chat preamble and the stream rules'
//! limits. Their helpers: a temporary tree with a home folder and a git repository, fixture
//! copies, and a path-independent rendering of a rulebook to snapshot.

mod chat_preamble;
mod dialect_snapshots;
mod discovery_sources;
mod first_prompt;
mod memory_imports;
mod precedence;
mod special_files;
mod ttsr_limits;
mod yaml_fallback;

use std::path::Path;
use std::path::PathBuf;

use crate::rules::Rulebook;
use crate::rules::report;

/// A temporary tree: `<dir>/home` (the user's home) and `<dir>/repo` (a git repository).
struct Tree {
    /// Kept only so the folder lives as long as the tree.
    _dir: tempfile::TempDir,
    home: PathBuf,
    repo: PathBuf,
}

impl Tree {
    /// An empty home and an empty git repository (`repo/.git/`).
    fn new() -> Tree {
        let tree = Tree::without_git();
        std::fs::create_dir_all(tree.repo.join(".git/info")).unwrap();
        tree
    }

    /// Like [`Tree::new`] but `repo` is not a git repository.
    fn without_git() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        // As the product spells folders: on Windows `C:\x`, not `\\?\C:\x` (where `/` is no
        // separator).
        let root = crate::platform::canonicalize(dir.path()).unwrap();
        let home = root.join("home");
        let repo = root.join("repo");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        Tree {
            _dir: dir,
            home,
            repo,
        }
    }

    /// A copy of `tests/fixtures/rules/<name>` (its `home/` and `repo/`), plus `repo/.git/`.
    fn fixture(name: &str) -> Tree {
        let tree = Tree::new();
        let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/rules")
            .join(name);
        multi_cursor_test_support::copy_dir(&source, &tree.root());
        tree
    }

    /// The tree's root (canonical).
    fn root(&self) -> PathBuf {
        self.home.parent().unwrap().to_path_buf()
    }

    /// Writes `text` at `rel` (relative to the root, e.g. `repo/.claude/rules/a.md`); the path
    /// is returned with the system's separators.
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = native(&self.root(), rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The rulebook of `rel` (relative to the root) with this tree's home.
    fn load(&self, rel: &str) -> Rulebook {
        Rulebook::load(&native(&self.root(), rel), Some(&self.home))
    }
}

/// `text` with the system's separator spelled `/` (nothing changes on Unix): to compare paths
/// the product shows with expectations written once.
fn slash(text: &str) -> String {
    text.replace(std::path::MAIN_SEPARATOR, "/")
}

/// `base` joined with the `/`-separated `rel`, one component at a time, so the result has the
/// system's separators (`C:\x\repo\a.md` on Windows, as the product's own paths are).
fn native(base: &Path, rel: &str) -> PathBuf {
    rel.split('/')
        .filter(|part| !part.is_empty())
        .fold(base.to_path_buf(), |path, part| path.join(part))
}

/// Names of the active rules, in precedence order.
fn active_names(book: &Rulebook) -> Vec<String> {
    book.active().map(|r| r.name.clone()).collect()
}

/// The `--json` document with every rule's body added, the digest removed and the tree's
/// root replaced by `$TMP`, pretty-printed: stable across machines, for an insta snapshot.
fn snapshot(book: &Rulebook, root: &Path) -> String {
    let mut doc = report::to_json(book, &[]);
    let map = doc.as_object_mut().unwrap();
    map.remove("digest");
    let rules = map.get_mut("rules").unwrap().as_array_mut().unwrap();
    for (value, rule) in rules.iter_mut().zip(book.rules()) {
        value
            .as_object_mut()
            .unwrap()
            .insert("body".into(), rule.body.clone().into());
    }
    normalise_paths(&mut doc, root.to_str().unwrap());
    format!("{}\n", serde_json::to_string_pretty(&doc).unwrap())
}

/// Every string in `value` with the tree's root replaced by `$TMP` and the rest of each such
/// path spelled with `/` (Windows shows `\`), and a missing file in Unix's words, so one
/// snapshot holds on every system.
fn normalise_paths(value: &mut serde_json::Value, root: &str) {
    match value {
        serde_json::Value::String(text) => {
            let mut pieces = text.split(root);
            let mut out = pieces.next().unwrap_or_default().to_string();
            for piece in pieces {
                let end = piece
                    .find([' ', '"', ')', '<', '>', '\n'])
                    .unwrap_or(piece.len());
                out.push_str("$TMP");
                out.push_str(&piece[..end].replace(std::path::MAIN_SEPARATOR, "/"));
                out.push_str(&piece[end..]);
            }
            // The system's words for a missing file: Unix's in the snapshot.
            if cfg!(windows) {
                for code in [2, 3] {
                    let words = std::io::Error::from_raw_os_error(code).to_string();
                    out = out.replace(&words, "No such file or directory (os error 2)");
                }
            }
            *text = out;
        }
        serde_json::Value::Array(items) => {
            for item in items {
                normalise_paths(item, root);
            }
        }
        serde_json::Value::Object(map) => {
            for item in map.values_mut() {
                normalise_paths(item, root);
            }
        }
        _ => {}
    }
}
