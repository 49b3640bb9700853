//! Glob matching for rules that apply to files. Globs are matched against paths relative to the
//! folder that holds the rules folder (the workspace for user rules). A glob without `/` matches
//! a file name anywhere (`*.ts`), a leading `/` or `./` anchors at that folder, a trailing `/` or
//! a glob with no wildcard also matches everything below it, and `*` never crosses `/` (`**`
//! does).

use std::path::Component;
use std::path::Path;
use std::path::PathBuf;
use std::sync::OnceLock;

use globset::Glob;
use globset::GlobBuilder;
use globset::GlobSet;
use globset::GlobSetBuilder;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;

/// A rule's globs, matched relative to the folder that holds its rules folder. The globs are
/// parsed (and so validated) when the rulebook loads; the matcher itself is compiled on first
/// use, so loading a thousand glob rules costs no regex compilation.
#[derive(Debug, Clone)]
pub(crate) struct GlobMatcher {
    globs: Vec<Glob>,
    set: OnceLock<Option<GlobSet>>,
    /// For each pattern of `set`, the index of the glob (as written) it came from.
    owners: Vec<usize>,
    base: PathBuf,
    workspace: PathBuf,
}

impl GlobMatcher {
    /// Whether `path` (absolute, or relative to the workspace) matches any glob.
    pub(crate) fn is_match(&self, path: &Path) -> bool {
        match self.compiled() {
            Some(set) => self.relative(path).is_some_and(|rel| set.is_match(rel)),
            None => false,
        }
    }

    /// The compiled set, built on first use.
    fn compiled(&self) -> Option<&GlobSet> {
        self.set
            .get_or_init(|| {
                let mut builder = GlobSetBuilder::new();
                for glob in &self.globs {
                    builder.add(glob.clone());
                }
                builder
                    .build()
                    .inspect_err(|error| {
                        tracing::warn!(%error, "rules: a rule's globs could not be compiled together; it attaches nothing");
                    })
                    .ok()
            })
            .as_ref()
    }

    /// Index (into the rule's globs) of the first glob matching `path`.
    pub(crate) fn matching(&self, path: &Path) -> Option<usize> {
        let set = self.compiled()?;
        let rel = self.relative(path)?;
        set.matches(rel)
            .into_iter()
            .min()
            .and_then(|i| self.owners.get(i).copied())
    }

    /// `path` relative to the base. Cursor on Windows may name a file `C:\ws\src\a.ts`,
    /// `C:/ws/src/a.ts`, with mixed separators, or in the verbatim `\\?\C:\ws\src\a.ts`
    /// spelling: the last is read in its plain spelling first, as the base is spelled
    /// (Windows' own path parsing takes either separator in the others), so none depends on
    /// the file or its folder existing yet.
    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let path = crate::platform::paths::plain(path);
        let absolute = if path.is_absolute() {
            lexical(&path)
        } else {
            lexical(&self.workspace.join(&path))
        };
        let rel = match absolute.strip_prefix(&self.base) {
            Ok(rel) => rel.to_path_buf(),
            // The path may reach the folder through a symlink (`/tmp` → `/private/tmp`): try
            // its real location (the file itself may not exist yet, its folder usually does).
            Err(_) => {
                let real = canonical_prefix(&absolute)?;
                real.strip_prefix(&self.base).ok()?.to_path_buf()
            }
        };
        (!rel.as_os_str().is_empty()).then_some(rel)
    }
}

/// `path` with its longest existing ancestor canonicalised; `None` when nothing changes.
fn canonical_prefix(path: &Path) -> Option<PathBuf> {
    let mut rest = Vec::new();
    let mut current = path;
    loop {
        if let Ok(real) = crate::platform::canonicalize(current) {
            if real == current {
                return None;
            }
            let mut out = real;
            out.extend(rest.iter().rev());
            return Some(out);
        }
        rest.push(current.file_name()?);
        current = current.parent()?;
    }
}

/// The patterns one glob as written becomes (see the module docs).
fn glob_patterns(glob: &str) -> Vec<String> {
    let mut pattern = glob.trim();
    while let Some(rest) = pattern.strip_prefix("./") {
        pattern = rest;
    }
    let anchored = pattern.starts_with('/');
    let pattern = pattern.trim_start_matches('/');
    let dir_only = pattern.ends_with('/');
    let pattern = pattern.trim_end_matches('/');
    let body = if !anchored && !pattern.contains('/') {
        format!("**/{pattern}")
    } else {
        pattern.to_string()
    };
    let literal = !pattern.contains(['*', '?', '[', '{']);
    let mut out = Vec::new();
    if !dir_only {
        out.push(body.clone());
    }
    if dir_only || literal {
        out.push(format!("{body}/**"));
    }
    out
}

/// Parses `globs`; invalid ones are errors. Returns the matcher (None when no glob is valid)
/// and the valid globs as written.
pub(crate) fn compile_globs(
    globs: &[String],
    base: &Path,
    workspace: &Path,
    path: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Option<GlobMatcher>, Vec<String>) {
    let mut parsed = Vec::new();
    let mut owners = Vec::new();
    let mut valid = Vec::new();
    'globs: for glob in globs {
        let mut compiled = Vec::new();
        for pattern in glob_patterns(glob) {
            match GlobBuilder::new(&pattern).literal_separator(true).build() {
                Ok(g) => compiled.push(g),
                Err(error) => {
                    diagnostics.push(Diagnostic::new(
                        Severity::Error,
                        DiagnosticKind::BadGlob,
                        Some(path),
                        format!("glob `{glob}` is invalid ({}); it is ignored", error.kind()),
                    ));
                    continue 'globs;
                }
            }
        }
        for g in compiled {
            parsed.push(g);
            owners.push(valid.len());
        }
        valid.push(glob.clone());
    }
    if valid.is_empty() {
        return (None, valid);
    }
    let matcher = GlobMatcher {
        globs: parsed,
        set: OnceLock::new(),
        owners,
        base: base.to_path_buf(),
        workspace: workspace.to_path_buf(),
    };
    (Some(matcher), valid)
}

/// `a/./b/../c` → `a/c`, without touching the disk.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(globs: &[&str], base: &str) -> GlobMatcher {
        let globs: Vec<String> = globs.iter().map(std::string::ToString::to_string).collect();
        let mut diags = Vec::new();
        let (m, valid) = compile_globs(
            &globs,
            Path::new(base),
            Path::new("/ws"),
            Path::new("/r.md"),
            &mut diags,
        );
        assert_eq!(valid.len(), globs.len(), "{diags:?}");
        m.unwrap()
    }

    #[test]
    fn glob_semantics() {
        let m = matcher(&["*.ts"], "/ws");
        assert!(m.is_match(Path::new("a.ts")));
        assert!(m.is_match(Path::new("/ws/src/deep/a.ts")));
        assert!(!m.is_match(Path::new("/elsewhere/a.ts")));
        let m = matcher(&["src/*.rs"], "/ws");
        assert!(m.is_match(Path::new("src/a.rs")));
        assert!(!m.is_match(Path::new("src/x/a.rs")));
        let m = matcher(&["src/**/*.{ts,tsx}"], "/ws");
        assert!(m.is_match(Path::new("src/a/b/c.tsx")));
        let m = matcher(&["docs", "/build/"], "/ws");
        assert!(m.is_match(Path::new("docs/x/y.md")));
        assert!(m.is_match(Path::new("/ws/build/out.o")));
        assert!(!m.is_match(Path::new("/ws/sub/build/out.o")));
        let m = matcher(&["./lib/*.rs"], "/repo");
        assert!(m.is_match(Path::new("/repo/lib/a.rs")));
        assert!(m.is_match(Path::new("/ws/../repo/lib/a.rs")));
    }

    #[test]
    fn paths_through_symlinks_match() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(real.join("ws/src")).unwrap();
        crate::platform::testing::skip_unless!(crate::platform::testing::symlink_dir(
            &real.join("ws"),
            &real.join("link")
        ));
        let globs = vec!["src/*.rs".to_string()];
        let mut diags = Vec::new();
        let (m, _) = compile_globs(
            &globs,
            &real.join("ws"),
            &real.join("ws"),
            Path::new("/r.md"),
            &mut diags,
        );
        let m = m.unwrap();
        assert!(m.is_match(&real.join("link/src/new.rs")));
        assert!(!m.is_match(&real.join("link/other/new.rs")));
    }

    /// Every spelling Cursor could give a touched file matches the same rule, without the file
    /// or its folders existing: on Windows backslashes, slashes, both mixed, a lowercase drive
    /// and the verbatim `\\?\` form (on a drive that is not even there, so no disk lookup can
    /// be what matched it); elsewhere the Unix spellings.
    #[test]
    fn every_spelling_of_a_touched_path_matches() {
        let (base, spellings): (&str, &[&str]) = if cfg!(windows) {
            (
                r"Q:\ws",
                &[
                    r"Q:\ws\src\components\Button.tsx",
                    "Q:/ws/src/components/Button.tsx",
                    r"Q:\ws\src/components\Button.tsx",
                    r"q:\ws\src\components\Button.tsx",
                    r"\\?\Q:\ws\src\components\Button.tsx",
                    r"\\?\Q:\ws\src/components/Button.tsx",
                    r"src\components\Button.tsx",
                    "src/components/Button.tsx",
                    r"Q:\ws\src\.\components\..\components\Button.tsx",
                ],
            )
        } else {
            (
                "/ws",
                &[
                    "/ws/src/components/Button.tsx",
                    "/ws//src/./components/Button.tsx",
                    "src/components/Button.tsx",
                    "/ws/src/components/../components/Button.tsx",
                ],
            )
        };
        let globs = vec!["src/components/**/*.tsx".to_string()];
        let mut diags = Vec::new();
        let (m, _) = compile_globs(
            &globs,
            Path::new(base),
            Path::new(base),
            Path::new("r.md"),
            &mut diags,
        );
        let m = m.unwrap();
        for spelling in spellings {
            assert_eq!(m.matching(Path::new(spelling)), Some(0), "{spelling}");
        }
        let elsewhere = if cfg!(windows) {
            r"\\?\Q:\other\src\components\Button.tsx"
        } else {
            "/other/src/components/Button.tsx"
        };
        assert_eq!(m.matching(Path::new(elsewhere)), None);
    }

    #[test]
    fn matching_names_the_glob() {
        let m = matcher(&["*.md", "src/**"], "/ws");
        assert_eq!(m.matching(Path::new("src/a.rs")), Some(1));
        assert_eq!(m.matching(Path::new("README.md")), Some(0));
        assert_eq!(m.matching(Path::new("a.rs")), None);
    }

    #[test]
    fn bad_globs_are_reported() {
        let mut diags = Vec::new();
        let (m, valid) = compile_globs(
            &["src/[".into(), "*.rs".into()],
            Path::new("/ws"),
            Path::new("/ws"),
            Path::new("/r.md"),
            &mut diags,
        );
        assert!(m.is_some());
        assert_eq!(valid, vec!["*.rs"]);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].kind, DiagnosticKind::BadGlob);
    }

    #[test]
    fn lexical_cleanup() {
        assert_eq!(lexical(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
    }
}
