//! Claude Code skills for Cursor: each project skill `.claude/skills/<name>` (a folder with a
//! `SKILL.md`) is linked as `.cursor/skills/<name>`, so Cursor finds the same skills Claude
//! has. Run [`sync`] before each Cursor turn.
//!
//! - Links are relative (`../../.claude/skills/<name>`), so moving the checkout keeps them.
//! - A link is ours when it points at `.claude/skills/<its own name>` of this workspace.
//!   Only our links are ever replaced or removed; a real file or folder, or a user's link that
//!   points elsewhere, is left alone and reported as skipped.
//! - A link whose skill is gone (or no longer qualifies) is stale and removed.
//! - Every link we keep is listed in the repository's `info/exclude` (the common git folder for
//!   linked worktrees), inside a block marked as ours, so the links stay out of `git status`;
//!   entries of links we removed leave the block. Lines outside the block are never touched.
//!   Outside a git repository nothing is excluded, and the report says so.

use std::collections::BTreeSet;
use std::io::ErrorKind;
use std::path::Path;
use std::path::PathBuf;

use thiserror::Error;

use crate::platform::paths::joined;
use crate::rules::frontmatter::normalize_text;

/// First line of our block in `info/exclude`.
pub const EXCLUDE_BEGIN: &str =
    "# >>> multi-cursor: Claude skills linked into .cursor/skills (managed; edits are overwritten)";
/// Last line of our block in `info/exclude`.
const EXCLUDE_END: &str = "# <<< multi-cursor";

/// Why skills could not be synchronised at all (single skills that cannot be linked are
/// reported in [`SkillSync::skipped`] instead).
#[derive(Debug, Error)]
pub enum SkillsError {
    /// A folder or file could not be read or written.
    #[error("skills: {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SkillsError + '_ {
    move |source| SkillsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A skill that was not linked, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The skill (or entry) name.
    pub name: String,
    /// Why it was left alone.
    pub reason: String,
}

/// What one [`sync`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillSync {
    /// Links created.
    pub linked: Vec<String>,
    /// Our links rewritten to the current form.
    pub refreshed: Vec<String>,
    /// Our links already right.
    pub unchanged: Vec<String>,
    /// Our stale links removed.
    pub removed: Vec<String>,
    /// Skills (or entries) left alone, with the reason.
    pub skipped: Vec<Skipped>,
    /// The exclude file kept in step (`None`: not a git repository).
    pub exclude_file: Option<PathBuf>,
}

impl SkillSync {
    /// One display row when something changed or was skipped, `None` otherwise.
    pub fn row(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.linked.is_empty() {
            parts.push(format!("linked {}", self.linked.join(", ")));
        }
        if !self.refreshed.is_empty() {
            parts.push(format!("refreshed {}", self.refreshed.join(", ")));
        }
        if !self.removed.is_empty() {
            parts.push(format!("removed stale {}", self.removed.join(", ")));
        }
        for skipped in &self.skipped {
            parts.push(format!("skipped {} ({})", skipped.name, skipped.reason));
        }
        if parts.is_empty() {
            return None;
        }
        Some(format!("[skills] {}", parts.join("; ")))
    }
}

/// The target our link for `name` has.
fn link_target(name: &str) -> PathBuf {
    Path::new("../../.claude/skills").join(name)
}

/// Whether the link at `dest` (named `name`, in `cursor_dir`) points at our skill folder.
fn is_our_link(dest: &Path, cursor_dir: &Path, skills_dir: &Path, name: &str) -> Option<PathBuf> {
    let target = std::fs::read_link(dest).ok()?;
    let resolved = if target.is_absolute() {
        target.clone()
    } else {
        cursor_dir.join(&target)
    };
    (crate::rules::lexical_path(&resolved) == crate::rules::lexical_path(&skills_dir.join(name)))
        .then_some(target)
}

/// The UTF-8 names of a folder's entries, sorted (unreadable entries and other names skipped).
fn sorted_names(entries: std::fs::ReadDir) -> Vec<String> {
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

fn valid_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\n', '\\'])
}

/// Links the project's Claude skills into `.cursor/skills` of `workspace` and keeps the git
/// exclude block in step. Safe to run before every turn: it only writes what changed.
pub fn sync(workspace: &Path) -> Result<SkillSync, SkillsError> {
    sync_for(workspace, false)
}

/// [`sync`] for a Cursor CLI that reads `.claude/skills` itself when `reads_claude_skills`
/// (2026.10 and later: it reads `.cursor/skills`, `.agents/skills`, `.claude/skills` and
/// `.codex/skills`): then nothing is linked and our earlier links are removed, so no skill is
/// given to Cursor twice. A user's own link or folder is left alone either way.
pub fn sync_for(workspace: &Path, reads_claude_skills: bool) -> Result<SkillSync, SkillsError> {
    let workspace = crate::platform::canonicalize(workspace).map_err(io_err(workspace))?;
    let skills_dir = joined(&workspace, ".claude/skills");
    let cursor_dir = joined(&workspace, ".cursor/skills");
    let mut report = SkillSync::default();

    let mut wanted = BTreeSet::new();
    match std::fs::read_dir(&skills_dir) {
        Ok(entries) => {
            for name in sorted_names(entries) {
                if name.starts_with('.') {
                    continue;
                }
                let path = skills_dir.join(&name);
                if !valid_name(&name) {
                    report.skipped.push(Skipped {
                        name,
                        reason: String::from("the name cannot be a link name"),
                    });
                } else if !path.is_dir() {
                    report.skipped.push(Skipped {
                        name,
                        reason: String::from("not a skill folder"),
                    });
                } else if !path.join("SKILL.md").is_file() {
                    report.skipped.push(Skipped {
                        name,
                        reason: String::from("no SKILL.md in it"),
                    });
                } else {
                    wanted.insert(name);
                }
            }
        }
        Err(error) if error.kind() == ErrorKind::NotFound => {}
        Err(error) => return Err(io_err(&skills_dir)(error)),
    }
    if reads_claude_skills {
        wanted.clear();
    }

    match std::fs::symlink_metadata(&cursor_dir) {
        Ok(meta) if meta.file_type().is_symlink() || !meta.is_dir() => {
            for name in std::mem::take(&mut wanted) {
                report.skipped.push(Skipped {
                    name,
                    reason: String::from(".cursor/skills is not a plain folder (a link or a file of yours); nothing is linked into it"),
                });
            }
            return Ok(report);
        }
        Ok(_) => {}
        Err(error) if error.kind() == ErrorKind::NotFound => {
            if wanted.is_empty() {
                return Ok(report);
            }
            std::fs::create_dir_all(&cursor_dir).map_err(io_err(&cursor_dir))?;
        }
        Err(error) => return Err(io_err(&cursor_dir)(error)),
    }

    // Remove our stale links.
    let entries = std::fs::read_dir(&cursor_dir).map_err(io_err(&cursor_dir))?;
    for name in sorted_names(entries) {
        if wanted.contains(&name) {
            continue;
        }
        let dest = cursor_dir.join(&name);
        if is_our_link(&dest, &cursor_dir, &skills_dir, &name).is_some() {
            crate::platform::remove_link(&dest).map_err(io_err(&dest))?;
            report.removed.push(name);
        }
    }

    for name in &wanted {
        let dest = cursor_dir.join(name);
        let target = link_target(name);
        match std::fs::symlink_metadata(&dest) {
            Err(error) if error.kind() == ErrorKind::NotFound => {
                match crate::platform::link_dir(&target, &dest) {
                    Ok(()) => report.linked.push(name.clone()),
                    // Another process linked it meanwhile: the check below decides.
                    Err(error) if error.kind() == ErrorKind::AlreadyExists => {
                        if is_our_link(&dest, &cursor_dir, &skills_dir, name).is_some() {
                            report.unchanged.push(name.clone());
                        } else {
                            report.skipped.push(Skipped {
                                name: name.clone(),
                                reason: String::from(
                                    "something else appeared at .cursor/skills/<name>",
                                ),
                            });
                        }
                    }
                    // This skill only: the others are still linked, and the row says why.
                    Err(error) => report.skipped.push(Skipped {
                        name: name.clone(),
                        reason: format!(
                            "could not link it: {error}; Cursor's CLI reads .claude/skills itself from 2026.10 on (`agent update`)"
                        ),
                    }),
                }
            }
            Err(error) => return Err(io_err(&dest)(error)),
            Ok(meta) if meta.file_type().is_symlink() => {
                match is_our_link(&dest, &cursor_dir, &skills_dir, name) {
                    Some(current) if current == target => report.unchanged.push(name.clone()),
                    Some(_) => {
                        let temp = cursor_dir.join(format!(".{name}.multi-cursor-link"));
                        let _ = crate::platform::remove_link(&temp);
                        crate::platform::link_dir(&target, &temp).map_err(io_err(&temp))?;
                        crate::platform::replace_link(&temp, &dest).map_err(io_err(&dest))?;
                        report.refreshed.push(name.clone());
                    }
                    None => report.skipped.push(Skipped {
                        name: name.clone(),
                        reason: String::from("a link of yours with this name points elsewhere"),
                    }),
                }
            }
            Ok(meta) => report.skipped.push(Skipped {
                name: name.clone(),
                reason: if meta.is_dir() {
                    String::from("a real folder with this name is in .cursor/skills")
                } else {
                    String::from("a file with this name is in .cursor/skills")
                },
            }),
        }
    }

    if let Some(root) = crate::rules::git_root(&workspace) {
        let exclude = exclude_file(&root)?;
        let prefix = match workspace.strip_prefix(&root) {
            Ok(rel) if !rel.as_os_str().is_empty() => format!("/{}/", rel.display()),
            _ => String::from("/"),
        };
        let entry = |name: &str| format!("{prefix}.cursor/skills/{name}");
        let keep: Vec<String> = report
            .linked
            .iter()
            .chain(&report.refreshed)
            .chain(&report.unchanged)
            .map(|n| entry(n))
            .collect();
        let drop: Vec<String> = report.removed.iter().map(|n| entry(n)).collect();
        update_exclude(&exclude, &keep, &drop)?;
        report.exclude_file = Some(exclude);
    }
    Ok(report)
}

/// Largest `.git` pointer, `commondir` or `info/exclude` read, in bytes.
const MAX_GIT_FILE: u64 = 1024 * 1024;

/// A small text file of the repository's git folder, read like a rule file
/// ([`crate::state::read_regular_file`]): a FIFO or device there (a repository unpacked from
/// an archive decides what its `.git` holds) cannot hang or exhaust the gateway.
fn read_git_text(path: &Path) -> std::io::Result<String> {
    let bytes =
        crate::state::read_regular_file(path, MAX_GIT_FILE).map_err(|error| match error {
            crate::state::ReadError::Io(error) => error,
            refused => std::io::Error::new(ErrorKind::InvalidData, refused.to_string()),
        })?;
    String::from_utf8(bytes).map_err(|error| std::io::Error::new(ErrorKind::InvalidData, error))
}

/// `info/exclude` of the repository at `root` (through a worktree's `.git` file and
/// `commondir` when needed).
fn exclude_file(root: &Path) -> Result<PathBuf, SkillsError> {
    let dot_git = root.join(".git");
    let git_dir = if dot_git.is_dir() {
        dot_git
    } else {
        let text = read_git_text(&dot_git).map_err(io_err(&dot_git))?;
        let pointer = text
            .lines()
            .find_map(|l| l.strip_prefix("gitdir:"))
            .map(str::trim)
            .unwrap_or_default();
        root.join(pointer)
    };
    let common = match read_git_text(&git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir,
    };
    Ok(crate::rules::lexical_path(&joined(&common, "info/exclude")))
}

/// Rewrites our block of `path` to hold its old entries plus `keep`, minus `drop`; writes only
/// when that changes the file.
fn update_exclude(path: &Path, keep: &[String], drop: &[String]) -> Result<(), SkillsError> {
    let old = match read_git_text(path) {
        Ok(text) => normalize_text(&text),
        Err(error) if error.kind() == ErrorKind::NotFound => String::new(),
        Err(error) => return Err(io_err(path)(error)),
    };
    let mut outside = Vec::new();
    let mut entries = BTreeSet::new();
    let mut inside = false;
    for line in old.lines() {
        if line == EXCLUDE_BEGIN {
            inside = true;
        } else if line == EXCLUDE_END && inside {
            inside = false;
        } else if inside {
            if !line.trim().is_empty() {
                entries.insert(line.to_string());
            }
        } else {
            outside.push(line);
        }
    }
    for entry in drop {
        entries.remove(entry);
    }
    entries.extend(keep.iter().cloned());
    let mut text = outside.join("\n");
    if !entries.is_empty() {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(EXCLUDE_BEGIN);
        text.push('\n');
        for entry in &entries {
            text.push_str(entry);
            text.push('\n');
        }
        text.push_str(EXCLUDE_END);
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if text == old {
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let temp = dir.join(format!(".exclude.multi-cursor.{}", std::process::id()));
    std::fs::write(&temp, text).map_err(io_err(&temp))?;
    std::fs::rename(&temp, path).map_err(io_err(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_git_pointer_that_is_a_fifo_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        if let Err(reason) = crate::platform::testing::mkfifo(&dir.path().join(".git")) {
            eprintln!("skipped: {reason}");
            return;
        }
        let error = exclude_file(dir.path()).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }

    #[test]
    fn exclude_block_keeps_user_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("info/exclude");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "# git's own comment\n*.log\n").unwrap();
        update_exclude(&path, &["/.cursor/skills/a".into()], &[]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!(
                "# git's own comment\n*.log\n{EXCLUDE_BEGIN}\n/.cursor/skills/a\n{EXCLUDE_END}\n"
            )
        );
        update_exclude(
            &path,
            &["/.cursor/skills/b".into()],
            &["/.cursor/skills/a".into()],
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("/.cursor/skills/b\n") && !text.contains("skills/a"));
        update_exclude(&path, &[], &["/.cursor/skills/b".into()]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# git's own comment\n*.log\n"
        );
    }
}
