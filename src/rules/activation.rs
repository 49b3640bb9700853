//! Each dialect's keys mapped to one [`Activation`], the typed reading of frontmatter values,
//! and glob matching.
//!
//! | dialect | Always | Globs | AgentRequested | Manual |
//! |---|---|---|---|---|
//! | Cursor `.mdc`/`.md` | `alwaysApply: true` | `globs` | `description` only | nothing |
//! | `.cursorrules` | always | | | |
//! | Windsurf `.windsurf/rules` | `trigger: always_on` (or no frontmatter) | `trigger: glob` + `globs` | `trigger: model_decision` | `trigger: manual` |
//! | `.windsurfrules`, `global_rules.md` | always | | | |
//! | Cline | no `paths` | `paths` | | |
//! | Claude `.claude/rules` | no `paths` | `paths` | | |
//! | Claude memory files | always | | | |
//!
//! Values are read leniently in one place: `true`/`false` also as strings (what the YAML
//! fallback produces), lists also as comma-separated strings split outside `{…}` and `[…]`,
//! one layer of quotes stripped from globs. A key of another tool's dialect (`globs` in a
//! Claude rule) is reported and read the way that tool would read the file.
//!
//! Globs are matched against paths relative to the folder that holds the rules folder (the
//! workspace for user rules). A glob without `/` matches a file name anywhere (`*.ts`), a
//! leading `/` or `./` anchors at that folder, a trailing `/` or a glob with no wildcard also
//! matches everything below it, and `*` never crosses `/` (`**` does).

use std::path::Path;
use std::path::PathBuf;

use std::sync::OnceLock;

use globset::Glob;
use globset::GlobBuilder;
use globset::GlobSet;
use globset::GlobSetBuilder;
use serde_json::Value as Json;

use super::Activation;
use super::Diagnostic;
use super::DiagnosticKind;
use super::Rule;
use super::RuleSource;
use super::RuleStatus;
use super::Severity;
use super::discover::Candidate;
use super::frontmatter;
use super::frontmatter::Note;
use super::frontmatter::Parsed;
use super::frontmatter::Value;
use super::memory;
use super::ttsr;

/// How a file's keys are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// `.cursor/rules/**/*.{mdc,md}`.
    Cursor,
    /// `.cursorrules`: always on, no keys.
    CursorLegacy,
    /// `.windsurf/rules/*.md`: `trigger`.
    Windsurf,
    /// `.windsurfrules`, `global_rules.md`: always on.
    WindsurfAlways,
    /// `.clinerules` and Cline's global rules: `paths`.
    Cline,
    /// `.claude/rules/**/*.md`: `paths`.
    ClaudeRules,
    /// `CLAUDE.md` and friends: always on, imports expanded, no frontmatter.
    ClaudeMemory,
}

/// Folded keys some dialect understands; anything else is reported as ignored.
const KNOWN_KEYS: &[&str] = &[
    "description",
    "globs",
    "alwaysapply",
    "paths",
    "trigger",
    "condition",
    "ttsrtrigger",
    "scope",
    "interruptmode",
    "name",
];

/// Reads one file into a [`Rule`]: never fails; an unusable file is a dropped rule.
pub(crate) fn build_rule(candidate: &Candidate, workspace: &Path, home: Option<&Path>) -> Rule {
    let mut rule = Rule {
        name: candidate.name.clone(),
        path: candidate.path.clone(),
        source: RuleSource {
            provider: candidate.provider,
            level: candidate.level,
            priority: candidate.provider.priority(),
            distance: candidate.distance,
        },
        body: String::new(),
        description: None,
        activation: Activation::Always,
        globs: Vec::new(),
        ttsr: None,
        native: candidate.native,
        why: String::new(),
        status: RuleStatus::Active,
        diagnostics: Vec::new(),
        matcher: None,
    };
    let text = match super::discover::read_rule_file(&candidate.path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                rule.why = String::from("not UTF-8 text");
                return drop_rule(
                    rule,
                    DiagnosticKind::NotUtf8,
                    "the file is not UTF-8 text; the rule was dropped".into(),
                );
            }
        },
        Err(error) => {
            rule.why = String::from("unreadable");
            return drop_rule(
                rule,
                DiagnosticKind::Unreadable,
                format!("could not read the file: {error}; the rule was dropped"),
            );
        }
    };

    if candidate.dialect == Dialect::ClaudeMemory {
        return memory_rule(rule, &text, home);
    }

    let parsed = frontmatter::parse(&text);
    let mut reader = Reader {
        parsed: &parsed,
        path: &candidate.path,
        diagnostics: Vec::new(),
    };
    reader.notes();
    rule.description = reader.string("description");
    let resolved = resolve(candidate.dialect, &mut reader);
    rule.activation = resolved.activation;
    rule.why = resolved.why;
    rule.ttsr = ttsr::parse_stream_rule(&mut reader);
    reader.unknown_keys();
    rule.body = parsed.body.clone();
    rule.diagnostics = reader.diagnostics;

    if rule.activation == Activation::Globs {
        let (matcher, valid) = compile_globs(
            &resolved.globs,
            &candidate.base,
            workspace,
            &candidate.path,
            &mut rule.diagnostics,
        );
        rule.globs = valid;
        rule.matcher = matcher;
        if rule.matcher.is_none() {
            return drop_rule(
                rule,
                DiagnosticKind::Dropped,
                "the rule applies by globs but none of them is valid; the rule was dropped".into(),
            );
        }
    }
    if rule.body.is_empty() && !rule.native {
        return drop_rule(
            rule,
            DiagnosticKind::EmptyBody,
            "the rule has no text after its frontmatter; the rule was dropped".into(),
        );
    }
    rule
}

fn drop_rule(mut rule: Rule, kind: DiagnosticKind, message: String) -> Rule {
    rule.diagnostics.push(Diagnostic::new(
        Severity::Error,
        kind,
        Some(&rule.path),
        message,
    ));
    rule.status = RuleStatus::Dropped;
    rule
}

/// A memory file: always on, imports expanded. The root `CLAUDE.md` is Cursor's own, except
/// for its imports, which Cursor does not follow: those are delivered.
fn memory_rule(mut rule: Rule, text: &str, home: Option<&Path>) -> Rule {
    let expanded = memory::expand(&rule.path, text, home);
    rule.diagnostics.extend(expanded.diagnostics);
    rule.activation = Activation::Always;
    if rule.native {
        if expanded.imports_only.is_empty() {
            rule.why =
                String::from("Claude Code memory file; Cursor reads the root CLAUDE.md itself");
            rule.body = expanded.full;
        } else {
            rule.native = false;
            rule.why = format!(
                "Claude Code memory file; Cursor reads the root CLAUDE.md itself but not its @imports, so the {} imported file(s) are sent",
                expanded.imported.len()
            );
            rule.body = expanded.imports_only;
        }
        return rule;
    }
    rule.why = if expanded.imported.is_empty() {
        String::from("Claude Code memory file (always loaded by Claude)")
    } else {
        format!(
            "Claude Code memory file (always loaded by Claude), {} @import(s) expanded",
            expanded.imported.len()
        )
    };
    rule.body = expanded.full;
    if rule.body.is_empty() {
        return drop_rule(
            rule,
            DiagnosticKind::EmptyBody,
            "the memory file is empty; nothing to deliver".into(),
        );
    }
    rule
}

struct Resolved {
    activation: Activation,
    globs: Vec<String>,
    why: String,
}

impl Resolved {
    fn new(activation: Activation, why: impl Into<String>) -> Resolved {
        Resolved {
            activation,
            globs: Vec::new(),
            why: why.into(),
        }
    }
}

fn resolve(dialect: Dialect, reader: &mut Reader<'_>) -> Resolved {
    match dialect {
        Dialect::Cursor => {
            reader.foreign("paths", "Cursor reads `globs`, not `paths`");
            reader.foreign("trigger", "`trigger` is Windsurf's key; Cursor reads `alwaysApply`, `globs` and `description`");
            cursor_keys(reader).unwrap_or_else(|| {
                Resolved::new(
                    Activation::Manual,
                    "no alwaysApply, globs or description (a manual rule: used when named)",
                )
            })
        }
        Dialect::CursorLegacy => {
            Resolved::new(Activation::Always, "legacy .cursorrules (always on)")
        }
        Dialect::WindsurfAlways => Resolved::new(
            Activation::Always,
            "Windsurf global or legacy rules file (always on)",
        ),
        Dialect::Windsurf => windsurf_keys(reader),
        Dialect::Cline => {
            reader.foreign(
                "globs",
                "Cline reads `paths`, not `globs`; Cline applies this rule always",
            );
            reader.foreign("alwaysapply", "Cline has no `alwaysApply`");
            paths_keys(reader, "Cline")
        }
        Dialect::ClaudeRules => {
            reader.foreign("globs", "Claude Code reads `paths`, not `globs`; Claude Code loads this rule always, and so does multi-cursor (rename the key to `paths` to scope it)");
            reader.foreign(
                "alwaysapply",
                "Claude Code has no `alwaysApply`: a rule without `paths` is always loaded",
            );
            paths_keys(reader, "Claude Code")
        }
        Dialect::ClaudeMemory => Resolved::new(Activation::Always, "Claude Code memory file"),
    }
}

/// Cursor's keys; `None` when none is set.
fn cursor_keys(reader: &mut Reader<'_>) -> Option<Resolved> {
    let fallback = if reader.parsed.fallback {
        " (read after the YAML fallback)"
    } else {
        ""
    };
    let always = reader.bool("alwaysapply");
    let globs = reader.list("globs");
    let has_description = reader.parsed.get("description").is_some();
    if always == Some(true) {
        if !globs.is_empty() {
            reader.info(
                DiagnosticKind::Defaulted,
                "globs",
                "`globs` are ignored because `alwaysApply` is true",
            );
        }
        return Some(Resolved::new(
            Activation::Always,
            format!("alwaysApply: true{fallback}"),
        ));
    }
    if !globs.is_empty() {
        return Some(Resolved {
            activation: Activation::Globs,
            why: format!("globs: {}{fallback}", globs.join(", ")),
            globs,
        });
    }
    if has_description {
        return Some(Resolved::new(
            Activation::AgentRequested,
            format!("description without globs or alwaysApply{fallback}"),
        ));
    }
    always.map(|_| {
        Resolved::new(
            Activation::Manual,
            format!("alwaysApply: false without globs or description{fallback}"),
        )
    })
}

fn windsurf_keys(reader: &mut Reader<'_>) -> Resolved {
    reader.foreign(
        "paths",
        "Windsurf reads `globs` (with `trigger: glob`), not `paths`",
    );
    let Some(trigger) = reader.string("trigger") else {
        if let Some(resolved) = cursor_keys(reader) {
            reader.info(
                DiagnosticKind::Defaulted,
                "",
                "no `trigger`: read the Cursor-style keys instead",
            );
            return resolved;
        }
        reader.info(
            DiagnosticKind::Defaulted,
            "",
            "no `trigger`: treated as always on",
        );
        return Resolved::new(
            Activation::Always,
            "Windsurf rule without trigger (always on)",
        );
    };
    match trigger.as_str() {
        "always_on" => Resolved::new(Activation::Always, "trigger: always_on"),
        "manual" => Resolved::new(Activation::Manual, "trigger: manual"),
        "model_decision" => {
            if reader.parsed.get("description").is_none() {
                reader.warn(
                    DiagnosticKind::Defaulted,
                    "trigger",
                    "`trigger: model_decision` without a description: Cursor sees only the rule's name and path",
                );
            }
            Resolved::new(Activation::AgentRequested, "trigger: model_decision")
        }
        "glob" => {
            let globs = reader.list("globs");
            if globs.is_empty() {
                reader.error(
                    DiagnosticKind::BadValue,
                    "trigger",
                    "`trigger: glob` without `globs`: the rule can never apply",
                );
            }
            Resolved {
                activation: Activation::Globs,
                why: format!("trigger: glob, globs: {}", globs.join(", ")),
                globs,
            }
        }
        other => {
            reader.error(
                DiagnosticKind::BadValue,
                "trigger",
                &format!(
                    "unknown trigger `{other}` (expected always_on, manual, model_decision or glob); treated as manual"
                ),
            );
            Resolved::new(Activation::Manual, format!("unknown trigger `{other}`"))
        }
    }
}

/// Claude Code and Cline: `paths` scopes the rule, otherwise it is always on.
fn paths_keys(reader: &mut Reader<'_>, tool: &str) -> Resolved {
    let fallback = if reader.parsed.fallback {
        " (read after the YAML fallback)"
    } else {
        ""
    };
    let paths = reader.list("paths");
    if paths.is_empty() {
        Resolved::new(
            Activation::Always,
            format!("no `paths` ({tool} loads it always){fallback}"),
        )
    } else {
        Resolved {
            activation: Activation::Globs,
            why: format!("paths: {}{fallback}", paths.join(", ")),
            globs: paths,
        }
    }
}

/// Typed access to frontmatter fields, collecting diagnostics.
pub(crate) struct Reader<'a> {
    pub parsed: &'a Parsed,
    pub path: &'a Path,
    pub diagnostics: Vec<Diagnostic>,
}

impl Reader<'_> {
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
    fn foreign(&mut self, folded: &str, message: &str) {
        if let Some(field) = self.parsed.get(folded) {
            let text = format!("`{}` is ignored: {message}", field.key);
            self.warn(DiagnosticKind::ForeignKey, folded, &text);
        }
    }

    fn unknown_keys(&mut self) {
        let unknown: Vec<(String, usize)> = self
            .parsed
            .fields
            .iter()
            .filter(|f| !KNOWN_KEYS.contains(&f.folded.as_str()))
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

/// A rule's globs, matched relative to the folder that holds its rules folder. The globs are
/// parsed (and so validated) when the rulebook loads; the matcher itself is compiled on first
/// use, so loading a thousand glob rules costs no regex compilation.
#[derive(Debug, Clone)]
pub struct GlobMatcher {
    globs: Vec<Glob>,
    set: OnceLock<Option<GlobSet>>,
    /// For each pattern of `set`, the index of the glob (as written) it came from.
    owners: Vec<usize>,
    base: PathBuf,
    workspace: PathBuf,
}

impl GlobMatcher {
    /// Whether `path` (absolute, or relative to the workspace) matches any glob.
    pub fn is_match(&self, path: &Path) -> bool {
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
    pub fn matching(&self, path: &Path) -> Option<usize> {
        let set = self.compiled()?;
        let rel = self.relative(path)?;
        set.matches(rel)
            .into_iter()
            .min()
            .and_then(|i| self.owners.get(i).copied())
    }

    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let absolute = if path.is_absolute() {
            memory::lexical(path)
        } else {
            memory::lexical(&self.workspace.join(path))
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
        if let Ok(real) = std::fs::canonicalize(current) {
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
fn compile_globs(
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

/// Argument keys (folded: lowercase, no `_`/`-`) that name files in Cursor's tool calls.
const PATH_KEYS: &[&str] = &[
    "path",
    "paths",
    "filepath",
    "filepaths",
    "file",
    "files",
    "filename",
    "targetfile",
    "targetfiles",
    "targetpath",
    "relativeworkspacepath",
];

/// The file paths one Cursor tool call names in its arguments `args`: `read`/`edit`/`write`/
/// `ls`/`delete` carry `path`; other shapes `filePath`, `targetFile`, `paths[]`, … Shell
/// commands are not parsed (a path in a command line is not reliably a path). Borrows the
/// arguments: an edit's carry the whole file text.
pub fn paths_in_args(args: &Json) -> Vec<PathBuf> {
    let Json::Object(args) = args else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in args {
        if !PATH_KEYS.contains(&frontmatter::fold_key(key).as_str()) {
            continue;
        }
        match value {
            Json::String(s) if !s.is_empty() => out.push(PathBuf::from(s)),
            Json::Array(items) => out.extend(
                items
                    .iter()
                    .filter_map(Json::as_str)
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from),
            ),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(globs: &[&str], base: &str) -> GlobMatcher {
        let globs: Vec<String> = globs.iter().map(|s| s.to_string()).collect();
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
        std::os::unix::fs::symlink(real.join("ws"), real.join("link")).unwrap();
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
    fn tool_call_paths() {
        let args = serde_json::json!({"path": "/ws/a.rs", "streamContent": "x", "paths": ["b", ""], "target_file": "c"});
        let mut paths = paths_in_args(&args);
        paths.sort();
        assert_eq!(
            paths,
            vec![
                PathBuf::from("/ws/a.rs"),
                PathBuf::from("b"),
                PathBuf::from("c")
            ]
        );
    }
}
