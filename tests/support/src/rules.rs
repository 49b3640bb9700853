//! Shared helpers for the `rules` harness: a temporary tree with a home folder and a git
//! repository to write rule files into.

use std::path::PathBuf;

/// A temporary tree: `<dir>/home` (the user's home) and `<dir>/repo` (a git repository).
pub struct Tree {
    pub dir: tempfile::TempDir,
    pub home: PathBuf,
    pub repo: PathBuf,
}

impl Tree {
    /// An empty home and an empty git repository (`repo/.git/`).
    pub fn new() -> Tree {
        let tree = Tree::without_git();
        std::fs::create_dir_all(crate::joined(&tree.repo, ".git/info")).unwrap();
        tree
    }

    /// Like [`Tree::new`] but `repo` is not a git repository.
    pub fn without_git() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        // As the product spells it: `C:\…` on Windows, not std's verbatim `\\?\C:\…`.
        let root = multi_cursor::platform::canonicalize(dir.path()).unwrap();
        let home = root.join("home");
        let repo = root.join("repo");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        Tree { dir, home, repo }
    }

    /// The tree's root (canonical).
    pub fn root(&self) -> PathBuf {
        self.home.parent().unwrap().to_path_buf()
    }

    /// Writes `text` at `rel` (relative to the root, e.g. `repo/.claude/rules/a.md`).
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = crate::joined(&self.root(), rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}
