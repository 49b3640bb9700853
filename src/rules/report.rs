//! `multi-cursor rules [--json] [--explain] [--workspace DIR] [FILE…]`: the
//! rulebook of a workspace as the Cursor worker receives it, with sources, activations,
//! shadowing and diagnostics; with FILEs, which glob rules those files attach. Exit status 1
//! when any diagnostic is an error.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::Value;
use serde_json::json;

use super::book::Rulebook;
use super::diagnostic::Diagnostic;
use super::diagnostic::Severity;
use super::rule::Activation;
use super::rule::Delivery;
use super::rule::Level;
use super::rule::Rule;
use super::rule::RuleStatus;

/// What `multi-cursor rules` was asked for (`main` fills it from the command line).
#[derive(Debug, Clone)]
pub struct RulesOptions {
    /// Print JSON (`--json`).
    pub json: bool,
    /// Also show shadowed rules and why each rule applies (`--explain`).
    pub explain: bool,
    /// The workspace folder (`--workspace`); `None`: the current folder.
    pub workspace: Option<PathBuf>,
    /// Files (relative to the workspace) whose matching glob rules to show.
    pub files: Vec<PathBuf>,
}

/// Runs the command: loads the rulebook of `--workspace` (default: the current folder) with
/// the user's home, prints it, and returns the exit status. Relative FILEs are taken relative
/// to the workspace.
pub fn run(args: &RulesOptions) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let workspace = match &args.workspace {
        Some(dir) => cwd.join(dir),
        None => cwd,
    };
    if !workspace.is_dir() {
        anyhow::bail!("workspace {} is not a folder", workspace.display());
    }
    let book = Rulebook::load_for_user(&workspace);
    // Relative FILEs name files of the workspace, as Cursor's tool calls do; each is shown in
    // the system's separators (`src\a.tsx` on Windows for a FILE typed `src/a.tsx`).
    let files: Vec<PathBuf> = args
        .files
        .iter()
        .map(|f| super::lexical_path(&book.workspace().join(f)))
        .collect();
    let text = if args.json {
        format!("{:#}\n", to_json(&book, &files))
    } else {
        // Rule names, descriptions, paths and diagnostics come from files a repository wrote:
        // no control sequence of theirs reaches the terminal (JSON escapes them itself).
        crate::cursor::sanitize::sanitize(&to_text(&book, &files, args.explain))
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => {}
        // `multi-cursor rules | head` closes the pipe early: not an error worth a message.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(error) => return Err(error).context("writing to stdout"),
    }
    Ok(if book.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn diagnostic_json(d: &Diagnostic) -> Value {
    serde_json::to_value(d).unwrap_or(Value::Null)
}

fn rule_json(rule: &Rule) -> Value {
    let (shadowed, shadowed_by) = match &rule.status {
        RuleStatus::Shadowed { by } => (true, Some(by.display().to_string())),
        _ => (false, None),
    };
    json!({
        "name": rule.name,
        "path": rule.path,
        "source": rule.source.provider.id(),
        "level": rule.source.level,
        "priority": rule.source.priority,
        "activation": rule.activation.as_str(),
        "globs": rule.globs,
        "description": rule.description,
        "condition": rule.ttsr.as_ref().map(|s| s.conditions.clone()),
        "delivery": rule.delivery().as_str(),
        "native": rule.native,
        "shadowed": shadowed,
        "shadowedBy": shadowed_by,
        "dropped": rule.status == RuleStatus::Dropped,
        "why": rule.why,
        "diagnostics": rule.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
    })
}

/// Glob rules (active; Cursor's own included) that `file` attaches, with the glob that matched.
fn attached_by<'a>(book: &'a Rulebook, file: &Path) -> Vec<(&'a Rule, &'a str)> {
    book.active()
        .filter(|r| r.activation == Activation::Globs)
        .filter_map(|r| r.matching_glob(file).map(|g| (r, g)))
        .collect()
}

/// The `--json` document.
pub(crate) fn to_json(book: &Rulebook, files: &[PathBuf]) -> Value {
    let mut doc = json!({
        "workspace": book.workspace(),
        "gitRoot": book.git_root(),
        "digest": book.digest(),
        "rules": book.rules().iter().map(rule_json).collect::<Vec<_>>(),
        "diagnostics": book.diagnostics().iter().map(diagnostic_json).collect::<Vec<_>>(),
    });
    if !files.is_empty()
        && let Value::Object(map) = &mut doc
    {
        let entries: Vec<Value> = files
            .iter()
            .map(|file| {
                let rules: Vec<Value> = attached_by(book, file)
                    .into_iter()
                    .map(|(rule, glob)| {
                        json!({
                            "name": rule.name,
                            "glob": glob,
                            "delivery": rule.delivery().as_str(),
                        })
                    })
                    .collect();
                json!({"path": file, "rules": rules})
            })
            .collect();
        map.insert("files".into(), Value::Array(entries));
    }
    doc
}

fn short_delivery(rule: &Rule) -> &'static str {
    match rule.status {
        RuleStatus::Shadowed { .. } => "shadowed",
        RuleStatus::Dropped => "dropped",
        RuleStatus::Active => match rule.delivery() {
            Delivery::Cursor => "by Cursor",
            Delivery::FirstPrompt => "first prompt",
            Delivery::Index => "index",
            Delivery::OnPaths => "on paths",
            Delivery::Stream => "stream",
            Delivery::OnMention => "on @mention",
        },
    }
}

fn diagnostic_line(book: &Rulebook, d: &Diagnostic) -> String {
    let place = match (&d.path, d.line) {
        (Some(path), Some(line)) => format!("{}:{line}: ", book.display_path(path)),
        (Some(path), None) => format!("{}: ", book.display_path(path)),
        (None, _) => String::new(),
    };
    format!("  {:<7} {place}{}", d.severity.as_str(), d.message)
}

/// The text listing.
fn to_text(book: &Rulebook, files: &[PathBuf], explain: bool) -> String {
    let mut out = String::new();
    let _ = write!(out, "Rulebook of {}", book.workspace().display());
    match book.git_root() {
        Some(root) => {
            let _ = writeln!(out, " (git root {})", root.display());
        }
        None => out.push_str(" (not in a git repository: only this folder is searched)\n"),
    }
    if book.rules().is_empty() {
        out.push_str("\nNo rule files found.\n");
    } else {
        let width = book
            .rules()
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(4)
            .clamp(4, 40);
        let _ = writeln!(
            out,
            "\n  {:<width$}  {:<15}  {:<22}  {:<12}  FILE",
            "NAME", "ACTIVATION", "SOURCE", "DELIVERY"
        );
        for rule in book.rules() {
            let _ = writeln!(
                out,
                "  {:<width$}  {:<15}  {:<22}  {:<12}  {}",
                rule.name,
                rule.activation.as_str(),
                rule.source.to_string(),
                short_delivery(rule),
                book.display_path(&rule.path)
            );
            if explain {
                explain_rule(book, rule, &mut out);
            }
        }
    }
    let active: Vec<&Rule> = book.active().collect();
    let sent = active
        .iter()
        .filter(|r| r.delivery() != Delivery::Cursor)
        .count();
    let shadowed = book
        .rules()
        .iter()
        .filter(|r| matches!(r.status, RuleStatus::Shadowed { .. }))
        .count();
    let dropped = book
        .rules()
        .iter()
        .filter(|r| r.status == RuleStatus::Dropped)
        .count();
    let errors = book
        .all_diagnostics()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = book
        .all_diagnostics()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let _ = writeln!(
        out,
        "\n{} rule(s): {sent} sent by multi-cursor, {} loaded by Cursor itself, {shadowed} shadowed, {dropped} dropped; {errors} error(s), {warnings} warning(s)",
        book.rules().len(),
        active.len() - sent,
    );

    let shown: Vec<&Diagnostic> = book
        .all_diagnostics()
        .filter(|d| explain || d.severity != Severity::Info)
        .collect();
    if !shown.is_empty() {
        out.push_str("\nDiagnostics:\n");
        for d in shown {
            out.push_str(&diagnostic_line(book, d));
            out.push('\n');
        }
    }

    if !files.is_empty() {
        out.push_str("\nFiles:\n");
        for file in files {
            let hits = attached_by(book, file);
            let shown = book.display_path(file);
            if hits.is_empty() {
                let _ = writeln!(out, "  {shown}: no glob rule applies");
                continue;
            }
            let _ = writeln!(out, "  {shown}:");
            for (rule, glob) in hits {
                let how = if rule.delivery() == Delivery::Cursor {
                    "Cursor attaches it itself"
                } else {
                    "attached to the next prompt when Cursor touches it"
                };
                let _ = writeln!(out, "    `{}` (glob `{glob}`): {how}", rule.name);
            }
        }
    }
    out
}

fn explain_rule(book: &Rulebook, rule: &Rule, out: &mut String) {
    let _ = writeln!(
        out,
        "      source:     {} ({}, priority {}{})",
        rule.source.provider.display(),
        match rule.source.level {
            Level::Project => "project",
            Level::User => "user",
        },
        rule.source.priority,
        if rule.source.distance > 0 {
            format!(", {} folder(s) above the workspace", rule.source.distance)
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        out,
        "      activation: {} — {}",
        rule.activation.as_str(),
        rule.why
    );
    if let Some(description) = &rule.description {
        let _ = writeln!(out, "      describes:  {description}");
    }
    if let Some(stream) = &rule.ttsr {
        let _ = writeln!(
            out,
            "      condition:  {} (interrupt: {:?})",
            stream.conditions.join(" | "),
            stream.interrupt
        );
    }
    match &rule.status {
        RuleStatus::Active => {
            let _ = writeln!(out, "      delivery:   {}", rule.delivery().describe());
            let shadows: Vec<String> = book
                .rules()
                .iter()
                .filter(|r| matches!(&r.status, RuleStatus::Shadowed { by } if *by == rule.path))
                .map(|r| book.display_path(&r.path))
                .collect();
            if !shadows.is_empty() {
                let _ = writeln!(out, "      shadows:    {}", shadows.join(", "));
            }
        }
        RuleStatus::Shadowed { by } => {
            let _ = writeln!(
                out,
                "      delivery:   none — shadowed by {} (same name, higher precedence)",
                book.display_path(by)
            );
        }
        RuleStatus::Dropped => {
            out.push_str("      delivery:   none — dropped (see its errors below)\n");
        }
    }
}
