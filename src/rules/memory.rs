//! Claude Code memory files and their `@path` imports.
//!
//! A memory file may import others with `@path` (relative to the importing file, absolute, or
//! `@~/…`), recursively up to [`MAX_HOPS`] hops. Imports inside fenced code blocks and inline
//! code spans are text, not imports. A token counts as an import only when it looks like a path
//! (it contains `/` or `.`, or starts with `~`), so `@alice` in prose stays prose, and `@` must
//! start a word (an e-mail address is not an import). Each imported file is inserted right
//! after the line that names it, between `<imported path="…">` and `</imported>`; a file
//! already included (a cycle, a repeat) is not inserted again.

use std::collections::HashSet;
use std::path::Path;
use std::path::PathBuf;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::frontmatter::normalize_text;
use super::glob::lexical;

/// How many import hops are followed (Claude Code's documented limit).
pub(crate) const MAX_HOPS: usize = 5;

/// A memory file with its imports expanded.
#[derive(Debug, Default)]
pub(crate) struct Expanded {
    /// The file's text with every import inserted.
    pub full: String,
    /// Only the imported blocks of the top-level file (what Cursor does not read when it loads
    /// the file itself).
    pub imports_only: String,
    /// Imported files, in order.
    pub imported: Vec<PathBuf>,
    /// Missing or skipped imports.
    pub diagnostics: Vec<Diagnostic>,
}

/// Expands the imports of `text`, the contents of the memory file `path`.
pub(crate) fn expand(path: &Path, text: &str, home: Option<&Path>) -> Expanded {
    let mut expanded = Expanded::default();
    let mut included = HashSet::new();
    included.insert(lexical(path));
    let mut imports_only = String::new();
    expanded.full = expand_text(
        path,
        &normalize_text(text),
        home,
        0,
        &mut included,
        &mut expanded,
        Some(&mut imports_only),
    );
    expanded.imports_only = imports_only.trim().to_string();
    expanded.full = expanded.full.trim().to_string();
    expanded
}

fn expand_text(
    path: &Path,
    text: &str,
    home: Option<&Path>,
    depth: usize,
    included: &mut HashSet<PathBuf>,
    expanded: &mut Expanded,
    mut top_imports: Option<&mut String>,
) -> String {
    let dir = path.parent().unwrap_or(Path::new("/"));
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<(char, usize)> = None;
    for line in text.split_inclusive('\n') {
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        if let Some((mark, len)) = fence_mark(trimmed) {
            match fence {
                None => fence = Some((mark, len)),
                Some((open, open_len))
                    if open == mark
                        && len >= open_len
                        && trimmed.trim_end().chars().all(|c| c == mark) =>
                {
                    fence = None;
                }
                Some(_) => {}
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        for token in import_tokens(line) {
            let target = lexical(&resolve(dir, token, home));
            if depth + 1 > MAX_HOPS {
                expanded.diagnostics.push(Diagnostic::new(
                    Severity::Warning,
                    DiagnosticKind::ImportSkipped,
                    Some(path),
                    format!("@{token} is more than {MAX_HOPS} imports deep; it was not included"),
                ));
                continue;
            }
            if !included.insert(lexical(&target)) {
                expanded.diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    DiagnosticKind::ImportSkipped,
                    Some(path),
                    format!("@{token} is already included; not repeated"),
                ));
                continue;
            }
            let content = match super::discover::read_rule_file(&target) {
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(text) => text,
                    Err(_) => {
                        expanded.diagnostics.push(Diagnostic::new(
                            Severity::Warning,
                            DiagnosticKind::ImportMissing,
                            Some(path),
                            format!(
                                "@{token} ({}) is not UTF-8 text; not included",
                                target.display()
                            ),
                        ));
                        continue;
                    }
                },
                Err(error) => {
                    expanded.diagnostics.push(Diagnostic::new(
                        Severity::Warning,
                        DiagnosticKind::ImportMissing,
                        Some(path),
                        format!("@{token} ({}) could not be read: {error}", target.display()),
                    ));
                    continue;
                }
            };
            expanded.imported.push(target.clone());
            let inner = expand_text(
                &target,
                &normalize_text(&content),
                home,
                depth + 1,
                included,
                expanded,
                None,
            );
            let block = format!(
                "<imported path=\"{}\">\n{}\n</imported>\n",
                target.display(),
                inner.trim()
            );
            out.push_str(&block);
            if let Some(top) = top_imports.as_deref_mut() {
                top.push_str(&block);
            }
        }
    }
    out
}

/// A code fence opener or closer: three or more backticks or tildes.
fn fence_mark(trimmed: &str) -> Option<(char, usize)> {
    let mark = trimmed.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = trimmed.chars().take_while(|c| *c == mark).count();
    (len >= 3).then_some((mark, len))
}

/// The `@path` tokens of one line outside inline code spans.
fn import_tokens(line: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut code_ticks = 0usize;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
            if code_ticks == 0 {
                code_ticks = run;
            } else if run == code_ticks {
                code_ticks = 0;
            }
            i += run;
            continue;
        }
        if code_ticks == 0
            && bytes[i] == b'@'
            && (i == 0 || bytes[i - 1].is_ascii_whitespace() || bytes[i - 1] == b'(')
        {
            let start = i + 1;
            let end = bytes[start..]
                .iter()
                .position(|b| b.is_ascii_whitespace() || *b == b'`')
                .map_or(bytes.len(), |p| start + p);
            let token =
                line[start..end].trim_end_matches([',', ';', ':', ')', '!', '?', '"', '\'', '.']);
            if is_path_like(token) {
                tokens.push(token);
            }
            i = end;
            continue;
        }
        i += 1;
    }
    tokens
}

fn is_path_like(token: &str) -> bool {
    !token.is_empty() && (token.contains('/') || token.contains('.') || token.starts_with('~'))
}

fn resolve(dir: &Path, token: &str, home: Option<&Path>) -> PathBuf {
    if let Some(rest) = token.strip_prefix("~/")
        && let Some(home) = home
    {
        return home.join(rest);
    }
    let path = Path::new(token);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        dir.join(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_outside_code_only() {
        assert_eq!(
            import_tokens("See @docs/a.md and `@not/this.md`, mail me@x.org, @alice, (@b.md)."),
            vec!["docs/a.md", "b.md"]
        );
        assert_eq!(import_tokens("Read @README.md."), vec!["README.md"]);
        assert_eq!(import_tokens("@~/notes.md"), vec!["~/notes.md"]);
    }
}
