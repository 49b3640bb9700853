//! Finding rule files: which folders are searched, in which order, and what each file is.
//!
//! Project files are searched in the workspace and in each folder above it up to the git root
//! (never past it; without a git repository only the workspace itself). User files come from
//! the home folder. A file reached twice (the workspace is the home folder, a symlink) is read
//! once, as the project file. Folder walks are sorted by name, skip hidden entries, follow
//! symlinks without looping, and stop at [`MAX_DEPTH`] levels and [`MAX_FILES`] files.

use std::collections::HashSet;
use std::path::Path;
use std::path::PathBuf;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::rule::Dialect;
use super::rule::Level;
use super::rule::Provider;
use crate::platform::paths::joined;

/// Deepest folder level read inside a rules folder.
pub(crate) const MAX_DEPTH: usize = 16;
/// Most files read from one rules folder.
pub(crate) const MAX_FILES: usize = 10_000;

/// A file that may hold a rule, before it is read.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    /// The file (absolute, not canonicalised so messages show the user's spelling).
    pub path: PathBuf,
    /// Its rule name (see [`Rule::name`](super::rule::Rule::name)).
    pub name: String,
    /// The tool it belongs to.
    pub provider: Provider,
    /// Project or user.
    pub level: Level,
    /// Folders between the workspace and where it was found.
    pub distance: usize,
    /// How to read its keys.
    pub dialect: Dialect,
    /// The folder its globs are relative to.
    pub base: PathBuf,
    /// Cursor loads it itself.
    pub native: bool,
}

/// What discovery found.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub candidates: Vec<Candidate>,
    pub diagnostics: Vec<Diagnostic>,
    pub git_root: Option<PathBuf>,
}

/// Largest rule or memory file read, in bytes. Real rule files are a few KiB (and at most
/// 16 KiB of a body is sent inline); a larger file is reported and
/// not read, so a file that never ends cannot exhaust the gateway's memory.
pub(crate) const MAX_RULE_FILE: u64 = 1024 * 1024;

use crate::state::ReadError;

/// Reads a rule file or a memory import: a regular file of at most [`MAX_RULE_FILE`] bytes.
/// Used for every file the rulebook reads, since a repository decides what its rule names and
/// `@path` imports point at.
pub(crate) fn read_rule_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    crate::state::read_regular_file(path, MAX_RULE_FILE)
}

/// The nearest folder at or above `start` holding `.git` (a folder, or a file for worktrees).
pub(crate) fn git_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
        .map(Path::to_path_buf)
}

/// The project folders searched: the workspace, then each parent up to the git root.
fn project_dirs(workspace: &Path, root: Option<&Path>) -> Vec<PathBuf> {
    match root {
        Some(root) => workspace
            .ancestors()
            .take_while(|dir| dir.starts_with(root))
            .map(Path::to_path_buf)
            .collect(),
        None => vec![workspace.to_path_buf()],
    }
}

struct Walker {
    found: Found,
    seen: HashSet<PathBuf>,
}

impl Walker {
    /// Adds a candidate once: `key` is its real location (a file reached twice — the workspace
    /// is the home folder, a symlink — is read once, the first time).
    fn push(&mut self, candidate: Candidate, key: PathBuf) {
        if self.seen.insert(key) {
            self.found.candidates.push(candidate);
        }
    }

    fn diag(&mut self, severity: Severity, kind: DiagnosticKind, path: &Path, message: String) {
        self.found
            .diagnostics
            .push(Diagnostic::new(severity, kind, Some(path), message));
    }

    /// One single-file source, when the file exists.
    fn file(&mut self, path: PathBuf, template: Candidate) {
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {
                let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                self.push(Candidate { path, ..template }, key);
            }
            Ok(_) => self.diag(
                Severity::Warning,
                DiagnosticKind::Unreadable,
                &path,
                format!("{} is not a file; it was not read", path.display()),
            ),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => self.diag(
                Severity::Error,
                DiagnosticKind::Unreadable,
                &path,
                format!("could not read {}: {error}", path.display()),
            ),
        }
    }

    /// Every file with one of `extensions` under `dir` (recursively when `recursive`), sorted,
    /// each named by its path inside `dir` without the extension.
    fn folder(&mut self, dir: &Path, extensions: &[&str], recursive: bool, template: &Candidate) {
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                self.diag(
                    Severity::Warning,
                    DiagnosticKind::Unreadable,
                    dir,
                    format!("{} is not a folder; it was not read", dir.display()),
                );
                return;
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return,
            Err(error) => {
                self.diag(
                    Severity::Error,
                    DiagnosticKind::Unreadable,
                    dir,
                    format!("could not read {}: {error}", dir.display()),
                );
                return;
            }
        }
        let mut files = Vec::new();
        let mut visited = HashSet::new();
        self.collect(dir, 0, recursive, extensions, &mut files, &mut visited);
        files.sort();
        for (path, key) in files {
            let name = rule_name(dir, &path);
            self.push(
                Candidate {
                    path,
                    name,
                    ..template.clone()
                },
                key,
            );
        }
    }

    fn collect(
        &mut self,
        dir: &Path,
        depth: usize,
        recursive: bool,
        extensions: &[&str],
        files: &mut Vec<(PathBuf, PathBuf)>,
        visited: &mut HashSet<PathBuf>,
    ) {
        // Folders are canonicalised (once each), files are not: a file's real location is its
        // folder's plus its name, unless the file itself is a symlink. Each pushed pair is
        // (path as found, real location).
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !visited.insert(canonical.clone()) {
            self.diag(
                Severity::Warning,
                DiagnosticKind::WalkLimit,
                dir,
                format!(
                    "{} was reached twice through a symlink; read once",
                    dir.display()
                ),
            );
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(error) => {
                self.diag(
                    Severity::Error,
                    DiagnosticKind::Unreadable,
                    dir,
                    format!("could not list {}: {error}", dir.display()),
                );
                return;
            }
        };
        let mut names: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| (e.path(), e.file_type().ok()))
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, file_type) in names {
            let hidden = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| n.starts_with('.'));
            if hidden {
                continue;
            }
            // The entry's own type is free (no system call); only symlinks need a `stat`.
            let (is_dir, is_link) = match file_type {
                Some(t) if t.is_dir() => (true, false),
                Some(t) if t.is_file() => (false, false),
                _ => match std::fs::metadata(&path) {
                    Ok(meta) => (meta.is_dir(), true),
                    Err(error) => {
                        self.diag(
                            Severity::Error,
                            DiagnosticKind::Unreadable,
                            &path,
                            format!("could not read {}: {error}", path.display()),
                        );
                        continue;
                    }
                },
            };
            if is_dir {
                if !recursive {
                    continue;
                }
                if depth + 1 >= MAX_DEPTH {
                    self.diag(
                        Severity::Warning,
                        DiagnosticKind::WalkLimit,
                        &path,
                        format!(
                            "{} is more than {MAX_DEPTH} levels deep; its rules were not read",
                            path.display()
                        ),
                    );
                    continue;
                }
                self.collect(&path, depth + 1, recursive, extensions, files, visited);
            } else if has_extension(&path, extensions) {
                if files.len() >= MAX_FILES {
                    self.diag(
                        Severity::Warning,
                        DiagnosticKind::WalkLimit,
                        &path,
                        format!(
                            "more than {MAX_FILES} rule files in one folder; {} and later files were not read",
                            path.display()
                        ),
                    );
                    return;
                }
                let key = match (is_link, path.file_name()) {
                    (false, Some(name)) => canonical.join(name),
                    _ => std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone()),
                };
                files.push((path, key));
            }
        }
    }
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.contains(&e))
}

/// `frontend/react` for `<dir>/frontend/react.md`.
fn rule_name(dir: &Path, path: &Path) -> String {
    slashed(&path.strip_prefix(dir).unwrap_or(path).with_extension(""))
}

/// A relative path as a name: its components joined by `/` on every system.
fn slashed(relative: &Path) -> String {
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The name of a memory file: its path from the git root (or workspace), `~/…` in the home,
/// with `/` on every system (a name, not a path to open).
fn memory_name(path: &Path, root: &Path, home: Option<&Path>, level: Level) -> String {
    if level == Level::User
        && let Some(rest) = home.and_then(|h| path.strip_prefix(h).ok())
    {
        return format!("~/{}", slashed(rest));
    }
    path.strip_prefix(root)
        .map_or_else(|_| path.display().to_string(), slashed)
}

/// Finds every candidate rule file of `workspace` (canonical) and `home`.
pub(crate) fn discover(workspace: &Path, home: Option<&Path>) -> Found {
    let git_root = git_root(workspace);
    let root = git_root.clone().unwrap_or_else(|| workspace.to_path_buf());
    let mut walker = Walker {
        found: Found {
            git_root: git_root.clone(),
            ..Found::default()
        },
        seen: HashSet::new(),
    };
    let template =
        |provider: Provider, level: Level, distance: usize, dialect, base: &Path| Candidate {
            path: PathBuf::new(),
            name: String::new(),
            provider,
            level,
            distance,
            dialect,
            base: base.to_path_buf(),
            native: false,
        };

    let dirs = project_dirs(workspace, git_root.as_deref());
    for (distance, dir) in dirs.iter().enumerate() {
        let project =
            |provider, dialect| template(provider, Level::Project, distance, dialect, dir);
        walker.folder(
            &joined(dir, ".claude/rules"),
            &["md"],
            true,
            &project(Provider::Claude, Dialect::ClaudeRules),
        );
        // Cursor reads .cursor/rules of its workspace (and below) itself, not of the folders
        // above: those are delivered like any other rule.
        walker.folder(
            &joined(dir, ".cursor/rules"),
            &["mdc", "md"],
            true,
            &Candidate {
                native: distance == 0,
                ..project(Provider::Cursor, Dialect::Cursor)
            },
        );
        walker.folder(
            &joined(dir, ".windsurf/rules"),
            &["md"],
            false,
            &project(Provider::Windsurf, Dialect::Windsurf),
        );
        walker.file(
            dir.join(".windsurfrules"),
            Candidate {
                name: "windsurfrules".into(),
                ..project(Provider::Windsurf, Dialect::WindsurfAlways)
            },
        );
        for (file, native) in [
            ("CLAUDE.md", distance == 0),
            (".claude/CLAUDE.md", false),
            ("CLAUDE.local.md", false),
        ] {
            let path = dir.join(file);
            walker.file(
                path.clone(),
                Candidate {
                    name: memory_name(&path, &root, home, Level::Project),
                    native,
                    ..project(Provider::ClaudeMemory, Dialect::ClaudeMemory)
                },
            );
        }
        if distance == 0 {
            let legacy = dir.join(".cursorrules");
            walker.file(
                legacy.clone(),
                Candidate {
                    name: "cursorrules".into(),
                    native: true,
                    ..project(Provider::Cursor, Dialect::CursorLegacy)
                },
            );
            if legacy.is_file() && joined(dir, ".cursor/rules").is_dir() {
                walker.diag(
                    Severity::Warning,
                    DiagnosticKind::Legacy,
                    &legacy,
                    String::from(
                        ".cursorrules is deprecated and sits next to .cursor/rules; move it into .cursor/rules (Cursor still loads both)",
                    ),
                );
            }
        }
    }

    // Cline: the nearest .clinerules, a file or a folder, up to the git root.
    if let Some((distance, dir)) = dirs
        .iter()
        .enumerate()
        .find(|(_, dir)| std::fs::symlink_metadata(dir.join(".clinerules")).is_ok())
    {
        let path = dir.join(".clinerules");
        let cline = template(
            Provider::Cline,
            Level::Project,
            distance,
            Dialect::Cline,
            dir,
        );
        if path.is_dir() {
            walker.folder(&path, &["md", "txt"], true, &cline);
        } else {
            walker.file(
                path,
                Candidate {
                    name: "clinerules".into(),
                    ..cline
                },
            );
        }
    }

    if let Some(home) = home {
        let user = |provider, dialect| template(provider, Level::User, 0, dialect, workspace);
        walker.folder(
            &joined(home, ".claude/rules"),
            &["md"],
            true,
            &user(Provider::Claude, Dialect::ClaudeRules),
        );
        let memory = joined(home, ".claude/CLAUDE.md");
        walker.file(
            memory.clone(),
            Candidate {
                name: memory_name(&memory, &root, Some(home), Level::User),
                ..user(Provider::ClaudeMemory, Dialect::ClaudeMemory)
            },
        );
        walker.file(
            joined(home, ".codeium/windsurf/memories/global_rules.md"),
            Candidate {
                name: "global_rules".into(),
                ..user(Provider::Windsurf, Dialect::WindsurfAlways)
            },
        );
        walker.folder(
            &joined(home, "Documents/Cline/Rules"),
            &["md", "txt"],
            true,
            &user(Provider::Cline, Dialect::Cline),
        );
    }
    walker.found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_subfolders() {
        assert_eq!(
            rule_name(
                Path::new("/r/.claude/rules"),
                Path::new("/r/.claude/rules/a/b.md")
            ),
            "a/b"
        );
    }

    #[test]
    fn project_dirs_stop_at_the_root() {
        let dirs = project_dirs(Path::new("/a/b/c"), Some(Path::new("/a")));
        assert_eq!(
            dirs,
            vec![
                PathBuf::from("/a/b/c"),
                PathBuf::from("/a/b"),
                PathBuf::from("/a")
            ]
        );
        assert_eq!(
            project_dirs(Path::new("/a/b"), None),
            vec![PathBuf::from("/a/b")]
        );
    }
}
