//! The lenient reader of frontmatter values: typed access to a parsed frontmatter's fields that
//! collects a [`Diagnostic`] for every value it coerces or rejects. `true`/`false` are also read
//! from strings (what the YAML fallback produces), lists also from comma-separated strings split
//! outside `{…}` and `[…]`, and one layer of quotes is stripped from list entries.

use std::path::Path;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::frontmatter;
use super::frontmatter::Note;
use super::frontmatter::Parsed;
use super::frontmatter::Value;

/// Typed access to frontmatter fields, collecting diagnostics.
/// Used by `activation.rs` for each dialect's keys and by `stream_rules.rs` for a stream
/// rule's keys; one per rule file.
pub(crate) struct Reader<'a> {
    parsed: &'a Parsed,
    path: &'a Path,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    /// A reader of `parsed` (the frontmatter of the file at `path`), starting with the parser's
    /// own notes (YAML fallback, ignored lines, an unterminated block) as diagnostics.
    pub(crate) fn new(parsed: &'a Parsed, path: &'a Path) -> Reader<'a> {
        let mut reader = Reader {
            parsed,
            path,
            diagnostics: Vec::new(),
        };
        reader.notes();
        reader
    }

    /// The frontmatter being read.
    pub(crate) fn parsed(&self) -> &'a Parsed {
        self.parsed
    }

    /// Everything noticed so far, in order.
    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    fn push(&mut self, severity: Severity, kind: DiagnosticKind, key: &str, message: &str) {
        let mut diagnostic = Diagnostic::new(severity, kind, Some(self.path), message);
        if let Some(field) = self.parsed.get(key) {
            diagnostic = diagnostic.at_line(field.line);
        }
        self.diagnostics.push(diagnostic);
    }

    pub(crate) fn error(&mut self, kind: DiagnosticKind, key: &str, message: &str) {
        self.push(Severity::Error, kind, key, message);
    }

    pub(crate) fn warn(&mut self, kind: DiagnosticKind, key: &str, message: &str) {
        self.push(Severity::Warning, kind, key, message);
    }

    pub(crate) fn info(&mut self, kind: DiagnosticKind, key: &str, message: &str) {
        self.push(Severity::Info, kind, key, message);
    }

    /// The parser's notes as diagnostics.
    fn notes(&mut self) {
        for note in &self.parsed.notes {
            let diagnostic = match note {
                Note::YamlFallback { reason, line } => {
                    let diagnostic = Diagnostic::new(
                        Severity::Warning,
                        DiagnosticKind::YamlFallback,
                        Some(self.path),
                        format!(
                            "the frontmatter is not valid YAML ({reason}); it was read line by line as `key: value` (quote globs that start with `*` to avoid this)"
                        ),
                    );
                    match line {
                        Some(line) => diagnostic.at_line(*line),
                        None => diagnostic,
                    }
                }
                Note::IgnoredLine { line, text } => Diagnostic::new(
                    Severity::Warning,
                    DiagnosticKind::IgnoredLine,
                    Some(self.path),
                    format!("frontmatter line `{text}` is not `key: value`; ignored"),
                )
                .at_line(*line),
                Note::Unterminated => Diagnostic::new(
                    Severity::Warning,
                    DiagnosticKind::UnterminatedFrontmatter,
                    Some(self.path),
                    "the frontmatter opened with `---` never closes; the whole file was read as the rule's text",
                )
                .at_line(1),
            };
            self.diagnostics.push(diagnostic);
        }
    }

    /// Reports a key of another dialect; it is not used.
    pub(crate) fn foreign(&mut self, folded: &str, message: &str) {
        if let Some(field) = self.parsed.get(folded) {
            let text = format!("`{}` is ignored: {message}", field.key);
            self.warn(DiagnosticKind::ForeignKey, folded, &text);
        }
    }

    /// Reports every key not in `known` (folded) as ignored.
    pub(crate) fn unknown_keys(&mut self, known: &[&str]) {
        let unknown: Vec<(String, usize)> = self
            .parsed
            .fields
            .iter()
            .filter(|f| !known.contains(&f.folded.as_str()))
            .map(|f| (f.key.clone(), f.line))
            .collect();
        for (key, line) in unknown {
            self.diagnostics.push(
                Diagnostic::new(
                    Severity::Info,
                    DiagnosticKind::UnknownKey,
                    Some(self.path),
                    format!("unknown key `{key}` ignored"),
                )
                .at_line(line),
            );
        }
    }

    /// A boolean: YAML `true`/`false`, or the strings `"true"`/`"false"` (any case).
    pub(crate) fn bool(&mut self, folded: &str) -> Option<bool> {
        let field = self.parsed.get(folded)?;
        match &field.value {
            Value::Bool(b) => Some(*b),
            Value::Null => None,
            Value::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => {
                    let message = format!(
                        "`{}` should be true or false, not `{s}`; ignored",
                        field.key
                    );
                    self.error(DiagnosticKind::BadValue, folded, &message);
                    None
                }
            }
            .inspect(|b| {
                if !self.parsed.fallback {
                    let message = format!(
                        "`{}` is the string \"{s}\"; read as {b} (Cursor's strict reader may not)",
                        field.key
                    );
                    self.warn(DiagnosticKind::Coerced, folded, &message);
                }
            }),
            other => {
                let message = format!(
                    "`{}` should be true or false, not {}; ignored",
                    field.key,
                    other.kind()
                );
                self.error(DiagnosticKind::BadValue, folded, &message);
                None
            }
        }
    }

    /// A list of strings: a YAML list, or a string split on top-level commas; quotes stripped.
    pub(crate) fn list(&mut self, folded: &str) -> Vec<String> {
        let Some(field) = self.parsed.get(folded) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut split_any = false;
        let items: Vec<&Value> = match &field.value {
            Value::List(items) => items.iter().collect(),
            Value::Null => Vec::new(),
            single => vec![single],
        };
        for item in items {
            match item {
                Value::Str(s) => {
                    let pieces = frontmatter::split_top_level(s);
                    split_any |= pieces.len() > 1;
                    out.extend(
                        pieces
                            .into_iter()
                            .map(|p| frontmatter::unquote(p).to_string()),
                    );
                }
                Value::Number(n) => out.push(n.clone()),
                other => {
                    let message = format!(
                        "`{}` should hold strings, not {}; that entry was ignored",
                        field.key,
                        other.kind()
                    );
                    self.error(DiagnosticKind::BadValue, folded, &message);
                }
            }
        }
        out.retain(|s| !s.is_empty());
        if split_any {
            let message = format!(
                "`{}` was split at commas into {} entries: {}",
                field.key,
                out.len(),
                out.join(" | ")
            );
            self.info(DiagnosticKind::Coerced, folded, &message);
        }
        out
    }

    /// A scalar as a trimmed, non-empty string.
    pub(crate) fn string(&mut self, folded: &str) -> Option<String> {
        let field = self.parsed.get(folded)?;
        let text = match &field.value {
            Value::Str(s) => s.trim().to_string(),
            Value::Number(n) => n.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Null => return None,
            other => {
                let message = format!(
                    "`{}` should be text, not {}; ignored",
                    field.key,
                    other.kind()
                );
                self.error(DiagnosticKind::BadValue, folded, &message);
                return None;
            }
        };
        (!text.is_empty()).then_some(text)
    }

    /// The raw strings of a field (a string or a list of strings), not split at commas: for
    /// regular expressions, whose `{1,3}` must survive.
    pub(crate) fn raw_strings(&mut self, folded: &str) -> Vec<String> {
        let Some(field) = self.parsed.get(folded) else {
            return Vec::new();
        };
        let items: Vec<&Value> = match &field.value {
            Value::List(items) => items.iter().collect(),
            Value::Null => Vec::new(),
            single => vec![single],
        };
        let mut out = Vec::new();
        for item in items {
            match item {
                Value::Str(s) if !s.is_empty() => out.push(s.clone()),
                Value::Str(_) => {}
                other => {
                    let message = format!(
                        "`{}` should hold text, not {}; ignored",
                        field.key,
                        other.kind()
                    );
                    self.error(DiagnosticKind::BadValue, folded, &message);
                }
            }
        }
        out
    }
}
