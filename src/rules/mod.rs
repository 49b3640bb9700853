//! The rulebook: the project's guidance from Claude Code, Cursor, Windsurf and Cline files,
//! normalised into one list of [`Rule`]s so the Cursor worker follows what Claude would.
//!
//! [`Rulebook::load`] discovers the files (`discover.rs`), splits their frontmatter
//! (`frontmatter.rs`), maps each dialect's keys to one [`Activation`] (`activation.rs`),
//! validates every rule, then deduplicates by name (first wins; the others stay, shadowed, for
//! `multi-cursor rules --explain`). It never fails: every problem is a [`Diagnostic`].
//!
//! What a turn does with it (see ARCHITECTURE.md, "Rules: integration"):
//! - the first prompt of a chat (and any prompt after [`Rulebook::digest`] changed) carries
//!   [`Rulebook::first_prompt_section`]: the Always bodies and an index of the rules Cursor
//!   should read on demand (`prompt.rs`);
//! - tool calls that touch a path matching a glob rule attach that rule to the next prompt,
//!   once per chat ([`Rulebook::attach_for_paths`], [`Rulebook::attach_for_tool_call`]);
//! - stream rules watch Cursor's text and tool arguments as they stream and interrupt the run
//!   when their `condition` matches ([`Rulebook::stream_watch`], `ttsr.rs`);
//! - [`ChatRules`] keeps the per-chat state (digest, attached, fired, pending) the session
//!   record stores, and [`Rulebook::prompt_preamble`] turns it into the next prompt's prefix.
//!
//! Anything Cursor loads by itself — `.cursor/rules` of the workspace, `.cursorrules`, the root
//! `CLAUDE.md` — is listed but never sent again.

mod activation;
mod chat;
mod discover;
pub mod frontmatter;
mod memory;
mod prompt;
pub mod report;
pub mod ttsr;

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;
use std::path::PathBuf;

use serde::Serialize;

pub use activation::GlobMatcher;
pub use activation::paths_in_args;
pub use chat::ChatRules;
pub use chat::FiredRule;
pub use discover::MAX_RULE_FILE;
pub use discover::git_root;
pub use memory::lexical as lexical_path;
pub use prompt::Attachment;
pub use prompt::render_attachments;
pub use prompt::render_interruption;
pub use ttsr::Fired;
pub use ttsr::InterruptMode;
pub use ttsr::StreamKind;
pub use ttsr::StreamRule;
pub use ttsr::StreamScope;
pub use ttsr::StreamWatch;

use crate::cursor::events::ToolCall;

/// Where a rule came from: the tool whose files it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// `.claude/rules/**/*.md` (project, in each folder up to the git root, and `~/.claude`).
    Claude,
    /// Claude Code's memory files: `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`,
    /// `~/.claude/CLAUDE.md`, with `@path` imports expanded.
    ClaudeMemory,
    /// `.cursor/rules/**/*.{mdc,md}` and the legacy `.cursorrules`.
    Cursor,
    /// `.windsurf/rules/*.md`, `.windsurfrules`, `~/.codeium/windsurf/memories/global_rules.md`.
    Windsurf,
    /// `.clinerules` (a file or a folder) and `~/Documents/Cline/Rules`.
    Cline,
}

impl Provider {
    /// Precedence when two rules share a name: higher wins.
    pub fn priority(self) -> u8 {
        match self {
            Provider::Claude | Provider::ClaudeMemory => 100,
            Provider::Cursor | Provider::Windsurf => 50,
            Provider::Cline => 40,
        }
    }

    /// Stable id used in JSON and text output.
    pub fn id(self) -> &'static str {
        match self {
            Provider::Claude => "claude",
            Provider::ClaudeMemory => "claude-memory",
            Provider::Cursor => "cursor",
            Provider::Windsurf => "windsurf",
            Provider::Cline => "cline",
        }
    }

    /// Human name for explanations.
    pub fn display(self) -> &'static str {
        match self {
            Provider::Claude => "Claude Code rules",
            Provider::ClaudeMemory => "Claude Code memory",
            Provider::Cursor => "Cursor rules",
            Provider::Windsurf => "Windsurf rules",
            Provider::Cline => "Cline rules",
        }
    }
}

/// Project files beat the user's own files of the same priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Found in the workspace or a folder above it (up to the git root).
    Project,
    /// Found in the user's home.
    User,
}

/// A rule's origin and its place in the precedence order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleSource {
    /// The tool whose files it is in.
    pub provider: Provider,
    /// Project or user.
    pub level: Level,
    /// [`Provider::priority`].
    pub priority: u8,
    /// Folders between the workspace and the folder the file was found under (0 = the
    /// workspace itself, 1 = its parent, …; 0 for user files). Nearer wins among equals.
    pub distance: usize,
}

impl fmt::Display for RuleSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Project => "project",
            Level::User => "user",
        };
        write!(f, "{}, {level}", self.provider.id())
    }
}

/// When a rule applies, in one vocabulary for every dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Activation {
    /// Always in context (Cursor `alwaysApply: true`, Windsurf `always_on`, Claude and Cline
    /// rules without `paths`, memory files).
    Always,
    /// When a file matching the rule's globs is touched (Cursor `globs`, Windsurf `glob`,
    /// Claude and Cline `paths`).
    Globs,
    /// The model reads it when its description fits the task (Cursor description-only,
    /// Windsurf `model_decision`).
    AgentRequested,
    /// Only when asked for by name (Cursor rules without metadata, Windsurf `manual`).
    Manual,
}

impl Activation {
    /// The JSON spelling (`always`, `globs`, `agent-requested`, `manual`).
    pub fn as_str(self) -> &'static str {
        match self {
            Activation::Always => "always",
            Activation::Globs => "globs",
            Activation::AgentRequested => "agent-requested",
            Activation::Manual => "manual",
        }
    }
}

/// How a rule reaches Cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Delivery {
    /// Cursor loads the file itself; multi-cursor never sends it again.
    Cursor,
    /// Its body is part of the first prompt of each chat.
    FirstPrompt,
    /// Listed (name, description, path) in the first prompt for Cursor to read on demand.
    Index,
    /// Listed in the index, and attached to the next prompt once a touched path matches.
    OnPaths,
    /// Injected when its `condition` matches Cursor's streamed output (a stream rule).
    Stream,
    /// Sent only when a user prompt mentions it as `@name`.
    OnMention,
}

impl Delivery {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Cursor => "cursor",
            Delivery::FirstPrompt => "first-prompt",
            Delivery::Index => "index",
            Delivery::OnPaths => "on-paths",
            Delivery::Stream => "stream",
            Delivery::OnMention => "on-mention",
        }
    }

    /// One line for the text listing.
    pub fn describe(self) -> &'static str {
        match self {
            Delivery::Cursor => "loaded by Cursor itself (not sent again)",
            Delivery::FirstPrompt => "sent in full in the first prompt of each chat",
            Delivery::Index => "listed in the first prompt; Cursor reads it when relevant",
            Delivery::OnPaths => "attached to the next prompt once Cursor touches a matching file",
            Delivery::Stream => "injected when its condition matches Cursor's output",
            Delivery::OnMention => "sent only when a prompt mentions @name",
        }
    }
}

/// Whether a rule takes part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleStatus {
    /// Valid and first of its name: delivered.
    Active,
    /// Valid, but an earlier rule (higher precedence) has the same name.
    Shadowed {
        /// The winning rule's file.
        by: PathBuf,
    },
    /// Not usable (unreadable, empty, no valid glob); never shadows anything.
    Dropped,
}

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
    pub fn as_str(self) -> &'static str {
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

/// One rule, whatever dialect it was written in.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Identity for deduplication: the path inside its rules folder without the extension
    /// (`frontend/react`), a fixed name for single files (`cursorrules`, `windsurfrules`,
    /// `clinerules`, `global_rules`), or the file's path for memory files (`CLAUDE.local.md`,
    /// `~/.claude/CLAUDE.md`).
    pub name: String,
    /// The file (absolute).
    pub path: PathBuf,
    /// Where it came from.
    pub source: RuleSource,
    /// The text to deliver (frontmatter removed; memory imports expanded).
    pub body: String,
    /// Its description, when it has one.
    pub description: Option<String>,
    /// When it applies.
    pub activation: Activation,
    /// The globs as written (valid ones only), for [`Activation::Globs`].
    pub globs: Vec<String>,
    /// Its stream-rule (TTSR) condition, when it has a valid one.
    pub ttsr: Option<StreamRule>,
    /// Cursor loads this file itself.
    pub native: bool,
    /// Which keys decided the activation (`alwaysApply: true`, `no paths:`, …).
    pub why: String,
    /// Whether it takes part.
    pub status: RuleStatus,
    /// What was noticed while reading it.
    pub diagnostics: Vec<Diagnostic>,
    pub(crate) matcher: Option<GlobMatcher>,
}

impl Rule {
    /// How this rule reaches Cursor.
    pub fn delivery(&self) -> Delivery {
        if self.ttsr.is_some() {
            return Delivery::Stream;
        }
        if self.native {
            return Delivery::Cursor;
        }
        match self.activation {
            Activation::Always => Delivery::FirstPrompt,
            Activation::Globs => Delivery::OnPaths,
            Activation::AgentRequested => Delivery::Index,
            Activation::Manual => Delivery::OnMention,
        }
    }

    /// Valid and first of its name.
    pub fn is_active(&self) -> bool {
        self.status == RuleStatus::Active
    }

    /// Whether this glob rule matches `path` (absolute, or relative to the workspace).
    pub fn matches_path(&self, path: &Path) -> bool {
        self.matcher.as_ref().is_some_and(|m| m.is_match(path))
    }

    /// The glob that matched `path`, for explanations.
    pub fn matching_glob(&self, path: &Path) -> Option<&str> {
        let matcher = self.matcher.as_ref()?;
        matcher
            .matching(path)
            .and_then(|i| self.globs.get(i))
            .map(String::as_str)
    }
}

/// Every rule of a workspace, in precedence order, with what went wrong.
#[derive(Debug)]
pub struct Rulebook {
    workspace: PathBuf,
    git_root: Option<PathBuf>,
    home: Option<PathBuf>,
    rules: Vec<Rule>,
    diagnostics: Vec<Diagnostic>,
    stream: ttsr::StreamMatcher,
    digest: String,
}

impl Rulebook {
    /// Discovers and normalises every rule of `workspace` (and of `home` for user-level files;
    /// `None` skips them). Called before each Cursor turn; cheap (no network, one pass over the
    /// rule folders). Never fails: an unreadable file, a bad glob or regex, a YAML fallback or a
    /// dropped rule is a [`Diagnostic`].
    pub fn load(workspace: &Path, home: Option<&Path>) -> Rulebook {
        let workspace = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.into());
        let home = home.map(|h| std::fs::canonicalize(h).unwrap_or_else(|_| h.into()));
        let found = discover::discover(&workspace, home.as_deref());
        let mut diagnostics = found.diagnostics;
        let mut rules: Vec<Rule> = found
            .candidates
            .iter()
            .map(|candidate| activation::build_rule(candidate, &workspace, home.as_deref()))
            .collect();
        rules.sort_by_cached_key(precedence);
        dedupe(&mut rules);
        let stream = ttsr::StreamMatcher::build(&mut rules);
        prompt::note_truncation(&mut rules, &mut diagnostics);
        let digest = prompt::digest(&rules);
        Rulebook {
            workspace,
            git_root: found.git_root,
            home,
            rules,
            diagnostics,
            stream,
            digest,
        }
    }

    /// [`Rulebook::load`] with the current user's home folder.
    pub fn load_for_user(workspace: &Path) -> Rulebook {
        let home = directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf());
        Rulebook::load(workspace, home.as_deref())
    }

    /// The canonical workspace the rulebook was loaded for.
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// The git root that bounded the walks (`None`: not in a git repository, so only the
    /// workspace folder itself was searched).
    pub fn git_root(&self) -> Option<&Path> {
        self.git_root.as_deref()
    }

    /// Every rule found, in precedence order (priority, project before user, nearer folder
    /// first, then path), including shadowed and dropped ones.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rules that take part (valid and first of their name), in precedence order.
    pub fn active(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(|r| r.is_active())
    }

    /// The active rule called `name` (the one multi-cursor delivers when Cursor also has a
    /// file of that name).
    pub fn get(&self, name: &str) -> Option<&Rule> {
        self.active()
            .find(|r| r.name == name && !r.native)
            .or_else(|| self.active().find(|r| r.name == name))
    }

    /// Diagnostics not tied to one rule (unreadable folders, walk limits, size caps).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Every diagnostic: the rulebook's, then each rule's.
    pub fn all_diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .chain(self.rules.iter().flat_map(|r| r.diagnostics.iter()))
    }

    /// Whether any diagnostic is an error (`multi-cursor rules` then exits 1).
    pub fn has_errors(&self) -> bool {
        self.all_diagnostics()
            .any(|d| d.severity == Severity::Error)
    }

    /// Lowercase hex sha256 of everything multi-cursor delivers (names, paths, activations,
    /// globs, descriptions, conditions, bodies). Store it in the session record
    /// (`rulebookDigest`); when it differs on a later turn, send
    /// [`Rulebook::first_prompt_section`] again. Rules Cursor loads itself do not count.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// What a chat's first prompt carries (and any prompt after the digest changed): the bodies
    /// of the Always rules and an index of the rules Cursor should read on demand (agent-requested
    /// and glob rules, with their absolute paths). `None` when there is nothing to send.
    pub fn first_prompt_section(&self) -> Option<String> {
        prompt::first_prompt_section(self)
    }

    /// The glob rules that `paths` (absolute, or relative to the workspace) attach and that are
    /// not in `already` (the chat's `attachedRules`), in precedence order, each with the first
    /// path that matched. Rules Cursor loads itself are not returned.
    pub fn attach_for_paths(
        &self,
        paths: &[PathBuf],
        already: &BTreeSet<String>,
    ) -> Vec<Attachment<'_>> {
        prompt::attach_for_paths(self, paths, already)
    }

    /// [`Rulebook::attach_for_paths`] for the paths named in one Cursor tool call's arguments
    /// (`path`, `filePath`, `targetFile`, `paths[]`, …; see [`paths_in_args`]).
    pub fn attach_for_tool_call(
        &self,
        call: &ToolCall,
        already: &BTreeSet<String>,
    ) -> Vec<Attachment<'_>> {
        self.attach_for_paths(&paths_in_args(&call.args), already)
    }

    /// Manual rules a prompt asks for by `@name` (word-bounded), not in `already`.
    pub fn mentioned_in(&self, prompt: &str, already: &BTreeSet<String>) -> Vec<&Rule> {
        prompt::mentioned_in(self, prompt, already)
    }

    /// The stream rules whose condition matches `text` as one text stream, skipping names in
    /// `already` (the chat's `firedRules`). For whole texts; a live run uses
    /// [`Rulebook::stream_watch`].
    pub fn fired_by(&self, text: &str, already: &BTreeSet<String>) -> Vec<&Rule> {
        let mut watch = self.stream_watch(already);
        let mut fired: Vec<&Rule> = watch.text(text).into_iter().map(|f| f.rule).collect();
        fired.extend(watch.end_text().into_iter().map(|f| f.rule));
        fired
    }

    /// A watcher for one Claude turn: feed it Cursor's events as they arrive; it reports stream
    /// rules whose condition matched (each at most once per chat: `already` is the chat's
    /// `firedRules`; at most [`ttsr::MAX_INTERRUPTS_PER_TURN`] interrupts per turn). Constant
    /// memory per stream, constant work per byte.
    pub fn stream_watch(&self, already: &BTreeSet<String>) -> StreamWatch<'_> {
        StreamWatch::new(self, &self.stream, already)
    }

    /// The prefix of the next Cursor prompt of a chat, updating `chat`: the full first-prompt
    /// section when `first_turn` or when the digest changed since `chat.rulebook_digest`, then
    /// the rules pending from the previous turn (attached by paths, or fired without an
    /// interrupt) and manual rules `user_prompt` mentions. Returns `None` when there is nothing
    /// to add. Persist `chat` in the session record with the turn.
    pub fn prompt_preamble(
        &self,
        chat: &mut ChatRules,
        first_turn: bool,
        user_prompt: &str,
    ) -> Option<String> {
        chat::prompt_preamble(self, chat, first_turn, user_prompt)
    }
}

/// Sort key: priority (high first), project before user, nearer folder first, path bytes.
fn precedence(rule: &Rule) -> (std::cmp::Reverse<u8>, Level, usize, Vec<u8>) {
    use std::os::unix::ffi::OsStrExt;
    (
        std::cmp::Reverse(rule.source.priority),
        rule.source.level,
        rule.source.distance,
        rule.path.as_os_str().as_bytes().to_vec(),
    )
}

/// First valid rule of each name wins; later valid ones are shadowed (and say so). Dropped
/// rules never take a name. Rules Cursor loads itself stand outside: Cursor applies them
/// whatever multi-cursor sends, so they neither shadow nor are shadowed (a note says when a
/// delivered rule shares the name).
fn dedupe(rules: &mut [Rule]) {
    let mut winners: Vec<(String, PathBuf)> = Vec::new();
    for rule in rules.iter_mut() {
        if rule.status == RuleStatus::Dropped || rule.native {
            continue;
        }
        match winners.iter().find(|(name, _)| *name == rule.name) {
            Some((_, by)) => {
                rule.diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    DiagnosticKind::Shadowed,
                    Some(&rule.path),
                    format!(
                        "rule `{}` is shadowed by {} (same name, higher precedence); it is not delivered",
                        rule.name,
                        by.display()
                    ),
                ));
                rule.status = RuleStatus::Shadowed { by: by.clone() };
            }
            None => winners.push((rule.name.clone(), rule.path.clone())),
        }
    }
    for rule in rules
        .iter_mut()
        .filter(|r| r.native && r.status == RuleStatus::Active)
    {
        if let Some((_, other)) = winners.iter().find(|(name, _)| *name == rule.name) {
            rule.diagnostics.push(Diagnostic::new(
                Severity::Info,
                DiagnosticKind::Shadowed,
                Some(&rule.path),
                format!(
                    "multi-cursor also delivers a rule `{}` ({}); Cursor loads this file itself, so both apply",
                    rule.name,
                    other.display()
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}

    /// The gateway shares a rulebook across tasks and holds a watch across awaits.
    #[test]
    fn rulebook_and_watch_cross_threads() {
        send_sync::<Rulebook>();
        send::<StreamWatch<'static>>();
        send_sync::<ChatRules>();
    }
}
