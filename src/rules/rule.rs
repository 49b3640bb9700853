//! One rule and the vocabulary that describes it, whatever dialect it was written in: where it
//! came from ([`Provider`], [`Level`], [`RuleSource`]), how its file is read ([`Dialect`]), when it
//! applies ([`Activation`]), how it reaches Cursor ([`Delivery`]), and its stream condition
//! ([`StreamRule`]). Shared by every module of `rules`; it depends only on the glob matcher and
//! the diagnostics.

use std::fmt;
use std::path::Path;
use std::path::PathBuf;

use serde::Serialize;

use super::diagnostic::Diagnostic;
use super::glob::GlobMatcher;

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
    pub(crate) fn priority(self) -> u8 {
        match self {
            Provider::Claude | Provider::ClaudeMemory => 100,
            Provider::Cursor | Provider::Windsurf => 50,
            Provider::Cline => 40,
        }
    }

    /// Stable id used in JSON and text output.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Provider::Claude => "claude",
            Provider::ClaudeMemory => "claude-memory",
            Provider::Cursor => "cursor",
            Provider::Windsurf => "windsurf",
            Provider::Cline => "cline",
        }
    }

    /// Human name for explanations.
    pub(crate) fn display(self) -> &'static str {
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
    pub(crate) fn as_str(self) -> &'static str {
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
pub(crate) enum Delivery {
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
    pub(crate) fn as_str(self) -> &'static str {
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
    pub(crate) fn describe(self) -> &'static str {
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
    pub(crate) fn delivery(&self) -> Delivery {
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
    pub(crate) fn is_active(&self) -> bool {
        self.status == RuleStatus::Active
    }

    /// Whether this glob rule matches `path` (absolute, or relative to the workspace).
    pub fn matches_path(&self, path: &Path) -> bool {
        self.matcher.as_ref().is_some_and(|m| m.is_match(path))
    }

    /// The glob that matched `path`, for explanations.
    pub(crate) fn matching_glob(&self, path: &Path) -> Option<&str> {
        let matcher = self.matcher.as_ref()?;
        matcher
            .matching(path)
            .and_then(|i| self.globs.get(i))
            .map(String::as_str)
    }
}

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

/// Where a stream rule looks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamScope {
    /// Cursor's answer text.
    pub text: bool,
    /// Cursor's thinking text.
    pub thinking: bool,
    /// Every tool call's arguments.
    pub all_tools: bool,
    /// Only these tools' arguments (`tool:shell`, `tool:edit`), when `all_tools` is false.
    pub tools: Vec<String>,
}

impl Default for StreamScope {
    fn default() -> StreamScope {
        StreamScope {
            text: true,
            thinking: false,
            all_tools: true,
            tools: Vec::new(),
        }
    }
}

impl StreamScope {
    pub(crate) fn covers(&self, kind: StreamKind, tool: Option<&str>) -> bool {
        match kind {
            StreamKind::Text => self.text,
            StreamKind::Thinking => self.thinking,
            StreamKind::Tool => {
                self.all_tools
                    || tool.is_some_and(|t| self.tools.iter().any(|s| s.eq_ignore_ascii_case(t)))
            }
        }
    }
}

/// Whether a match interrupts the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InterruptMode {
    /// Interrupt on any match (default).
    Always,
    /// Never interrupt: deliver the rule with the next turn.
    Never,
    /// Interrupt only for matches in text or thinking.
    ProseOnly,
    /// Interrupt only for matches in tool arguments.
    ToolOnly,
}

impl InterruptMode {
    pub(crate) fn interrupts(self, kind: StreamKind) -> bool {
        match self {
            InterruptMode::Always => true,
            InterruptMode::Never => false,
            InterruptMode::ProseOnly => kind != StreamKind::Tool,
            InterruptMode::ToolOnly => kind == StreamKind::Tool,
        }
    }
}

/// A rule's stream condition (only valid conditions are kept).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamRule {
    /// The regexes as written.
    pub conditions: Vec<String>,
    /// Where to look.
    pub scope: StreamScope,
    /// Whether a match interrupts.
    pub interrupt: InterruptMode,
}

/// Which stream a match was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StreamKind {
    /// Cursor's answer text.
    Text,
    /// Cursor's thinking text.
    Thinking,
    /// A tool call's arguments.
    Tool,
}
