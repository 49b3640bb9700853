//! Diagnostics: what the rulebook noticed while reading rule files, each tied to a file (and a
//! line) when there is one. Every module of `rules` reports through these types.

use std::path::Path;
use std::path::PathBuf;

use serde::Serialize;

/// How bad a diagnostic is. `multi-cursor rules` exits 1 when any is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// The rule (or part of it) does not work as written.
    Error,
    /// It works, but not the way a strict reader would take it, or something was cut.
    Warning,
    /// Worth knowing (a default was applied, a rule is shadowed).
    Info,
}

impl Severity {
    /// Lowercase name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// What a diagnostic is about (stable ids for JSON and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnosticKind {
    /// A file or folder could not be read.
    Unreadable,
    /// A file is not UTF-8 text.
    NotUtf8,
    /// A rule has no body.
    EmptyBody,
    /// A frontmatter block opened with `---` never closed.
    UnterminatedFrontmatter,
    /// YAML rejected the frontmatter; the lenient reader was used.
    YamlFallback,
    /// A frontmatter line the lenient reader could not use.
    IgnoredLine,
    /// A value was coerced (`"true"` → true, a comma string → a list).
    Coerced,
    /// A value has the wrong type or an unknown spelling.
    BadValue,
    /// A key no dialect knows.
    UnknownKey,
    /// A key of another tool's dialect (e.g. `globs` in a Claude rule).
    ForeignKey,
    /// A glob does not compile.
    BadGlob,
    /// A stream condition does not compile or matches empty text.
    BadRegex,
    /// A rule was dropped (see the other diagnostics for why).
    Dropped,
    /// A rule is shadowed by another of the same name.
    Shadowed,
    /// A default was applied (missing `trigger`, missing description, …).
    Defaulted,
    /// An `@path` import of a memory file was not found.
    ImportMissing,
    /// An `@path` import was skipped (too deep, or already included).
    ImportSkipped,
    /// A body is larger than what is sent inline; the rest is referenced by path.
    Truncated,
    /// A legacy file sits next to its successor (`.cursorrules` beside `.cursor/rules`).
    Legacy,
    /// A folder walk was cut short (too deep, too many files, a symlink loop).
    WalkLimit,
}

/// One problem or note, tied to a file when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// What it is about.
    pub kind: DiagnosticKind,
    /// The file concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// 1-based line in that file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What happened and what to do, in one sentence or two.
    pub message: String,
}

impl Diagnostic {
    pub(crate) fn new(
        severity: Severity,
        kind: DiagnosticKind,
        path: Option<&Path>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            kind,
            path: path.map(Path::to_path_buf),
            line: None,
            message: message.into(),
        }
    }

    pub(crate) fn at_line(mut self, line: usize) -> Diagnostic {
        self.line = Some(line);
        self
    }
}
