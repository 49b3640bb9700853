//! Frontmatter of a rule file: YAML first, then a lenient `key: value` reader.
//!
//! Real rule files are often not valid YAML: Cursor writes `globs: **/*.ts` unquoted, and a
//! leading `*` starts a YAML alias, so a strict parser rejects the whole block. Such files go
//! through a line reader that keeps every value as a string (quotes stripped, `[a, b]` lists
//! and `- item` lists understood); the lenient reader (`reader.rs`) then coerces `"true"`
//! and splits comma lists, so the rule means what its author wrote. Every fallback and every
//! line the reader could not use is reported. HTML comments are removed from the frontmatter
//! only, never from the body (code samples in a body may contain them).

/// One frontmatter value, after YAML or the lenient reader.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string (in fallback mode every scalar is one).
    Str(String),
    /// A YAML boolean.
    Bool(bool),
    /// A YAML number, kept as written.
    Number(String),
    /// A YAML sequence (or a fallback `[a, b]` / `- item` list).
    List(Vec<Value>),
    /// An empty value (`key:` with nothing after it).
    Null,
    /// Anything else YAML can express (a nested mapping, a tagged value); named for messages.
    Other(&'static str),
}

impl Value {
    /// A short description of the value's type for diagnostics.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::List(_) => "a list",
            Value::Null => "empty",
            Value::Other(kind) => kind,
        }
    }
}

/// A frontmatter field: the key as written and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The key exactly as written (`alwaysApply`, `always-apply`, …).
    pub key: String,
    /// The key folded for lookup: lowercase, `-` and `_` removed (`alwaysapply`).
    pub folded: String,
    /// The value.
    pub value: Value,
    /// 1-based line of the key inside the file.
    pub line: usize,
}

/// Something the parser noticed that the user should see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// YAML rejected the block; the lenient reader was used. The YAML error is kept, with
    /// the 1-based file line it points at when YAML gave one.
    YamlFallback { reason: String, line: Option<usize> },
    /// A line the lenient reader could not use (neither `key: value` nor a list item).
    IgnoredLine { line: usize, text: String },
    /// The file opens a frontmatter block (`---`) that never closes; the whole file is body.
    Unterminated,
}

/// A rule file split into frontmatter fields and body.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parsed {
    /// Fields in file order (a repeated key keeps its last value, like YAML).
    pub fields: Vec<Field>,
    /// The body after the closing `---`, trimmed; the whole text when there is no frontmatter.
    pub body: String,
    /// Whether the file had a frontmatter block at all.
    pub has_frontmatter: bool,
    /// Whether the lenient reader produced the fields (so every scalar is a string).
    pub fallback: bool,
    /// What went wrong or was worked around.
    pub notes: Vec<Note>,
}

impl Parsed {
    /// The field whose folded key is `folded` (e.g. `"alwaysapply"`), if present.
    pub(crate) fn get(&self, folded: &str) -> Option<&Field> {
        self.fields.iter().rev().find(|f| f.folded == folded)
    }
}

/// Folds a key for lookup: `alwaysApply`, `always_apply` and `always-apply` are one key.
pub fn fold_key(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Normalises line endings (CRLF and CR to LF) and drops a leading byte-order mark.
pub(crate) fn normalize_text(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.to_string()
    }
}

/// Splits and parses a rule file. Never fails: problems become [`Note`]s.
pub fn parse(text: &str) -> Parsed {
    let text = normalize_text(text);
    let Some((block, body, block_start_line)) = split_block(&text) else {
        let unterminated = is_fence(text.lines().next().unwrap_or_default());
        return Parsed {
            body: text.trim().to_string(),
            notes: if unterminated {
                vec![Note::Unterminated]
            } else {
                Vec::new()
            },
            ..Parsed::default()
        };
    };
    let block = strip_html_comments(block).replace('\t', "  ");
    let mut parsed = Parsed {
        body: body.trim().to_string(),
        has_frontmatter: true,
        ..Parsed::default()
    };
    match serde_yaml::from_str::<serde_yaml::Value>(&block) {
        Ok(serde_yaml::Value::Mapping(map)) => {
            parsed.fields = yaml_fields(&map, &block, block_start_line);
        }
        Ok(serde_yaml::Value::Null) => {}
        Ok(other) => {
            let reason = format!(
                "the frontmatter is {}, not a list of `key: value` lines",
                Value::from_yaml(&other).kind()
            );
            lenient(&block, block_start_line, reason, &mut parsed);
        }
        Err(error) => {
            let line = error.location().map(|l| l.line() + block_start_line - 1);
            lenient(
                &block,
                block_start_line,
                yaml_reason(&error.to_string()),
                &mut parsed,
            );
            if let Some(Note::YamlFallback { line: at, .. }) = parsed.notes.first_mut() {
                *at = line;
            }
        }
    }
    parsed
}

/// serde_yaml's message without its ` at line N column M` positions (they count from the
/// frontmatter, not the file; the diagnostic carries the file line instead).
fn yaml_reason(message: &str) -> String {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let mut out = String::new();
    let mut rest = message;
    while let Some(at) = rest.find(" at line ") {
        let after = &rest[at + " at line ".len()..];
        let line_len = digits(after);
        if line_len == 0 {
            out.push_str(&rest[..at + 1]);
            rest = &rest[at + 1..];
            continue;
        }
        out.push_str(&rest[..at]);
        let mut tail = &after[line_len..];
        if let Some(column) = tail.strip_prefix(" column ") {
            tail = &column[digits(column)..];
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

fn is_fence(line: &str) -> bool {
    line.trim_end() == "---"
}

/// `(frontmatter text, body, 1-based line of the first frontmatter line)` when the text opens
/// with a `---` line and a later `---` line closes the block.
fn split_block(text: &str) -> Option<(&str, &str, usize)> {
    let first_end = text.find('\n')?;
    if !is_fence(&text[..first_end]) {
        return None;
    }
    let rest = &text[first_end + 1..];
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if is_fence(line.trim_end_matches('\n')) {
            let block = &rest[..offset];
            let body = &rest[offset + line.len()..];
            return Some((block, body, 2));
        }
        offset += line.len();
    }
    None
}

/// Removes `<!-- … -->` spans (an unclosed one runs to the end), keeping line breaks so line
/// numbers stay right.
fn strip_html_comments(block: &str) -> String {
    let mut out = String::with_capacity(block.len());
    let mut rest = block;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 4..];
        let (comment, next) = match after.find("-->") {
            Some(end) => (&after[..end], &after[end + 3..]),
            None => (after, ""),
        };
        out.extend(comment.chars().filter(|c| *c == '\n'));
        rest = next;
    }
    out.push_str(rest);
    out
}

impl Value {
    fn from_yaml(value: &serde_yaml::Value) -> Value {
        match value {
            serde_yaml::Value::Null => Value::Null,
            serde_yaml::Value::Bool(b) => Value::Bool(*b),
            serde_yaml::Value::Number(n) => Value::Number(n.to_string()),
            serde_yaml::Value::String(s) => Value::Str(s.clone()),
            serde_yaml::Value::Sequence(items) => {
                Value::List(items.iter().map(Value::from_yaml).collect())
            }
            serde_yaml::Value::Mapping(_) => Value::Other("a nested mapping"),
            serde_yaml::Value::Tagged(_) => Value::Other("a tagged value"),
        }
    }
}

fn yaml_fields(map: &serde_yaml::Mapping, block: &str, first_line: usize) -> Vec<Field> {
    map.iter()
        .map(|(key, value)| {
            let key = match key {
                serde_yaml::Value::String(s) => s.clone(),
                serde_yaml::Value::Bool(b) => b.to_string(),
                serde_yaml::Value::Number(n) => n.to_string(),
                _ => String::from("?"),
            };
            let line = key_line(block, &key).map_or(first_line, |l| l + first_line);
            Field {
                folded: fold_key(&key),
                key,
                value: Value::from_yaml(value),
                line,
            }
        })
        .collect()
}

/// 0-based line of `key:` at the start of a line in `block`.
fn key_line(block: &str, key: &str) -> Option<usize> {
    block.lines().position(|line| {
        line.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}

/// The lenient reader: `key: value` lines at column 0, `- item` lines under a key with an empty
/// value, `#` comment lines. Every scalar stays a string.
fn lenient(block: &str, first_line: usize, reason: String, parsed: &mut Parsed) {
    parsed.fallback = true;
    parsed.notes.push(Note::YamlFallback {
        reason: first_line_of(&reason),
        line: None,
    });
    let mut list_key: Option<usize> = None;
    for (index, raw) in block.lines().enumerate() {
        let line_no = first_line + index;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(item) = list_item(trimmed)
            && let Some(field_index) = list_key
        {
            if let Some(field) = parsed.fields.get_mut(field_index) {
                let item = scalar(item);
                match &mut field.value {
                    Value::List(items) => items.push(item),
                    other => *other = Value::List(vec![item]),
                }
            }
            continue;
        }
        match key_value(raw) {
            Some((key, value)) => {
                let value_text = strip_comment(value);
                let value = if value_text.is_empty() {
                    Value::Null
                } else {
                    scalar(value_text)
                };
                let is_open = value == Value::Null;
                parsed.fields.push(Field {
                    folded: fold_key(key),
                    key: key.to_string(),
                    value,
                    line: line_no,
                });
                list_key = is_open.then(|| parsed.fields.len() - 1);
            }
            None => {
                list_key = None;
                parsed.notes.push(Note::IgnoredLine {
                    line: line_no,
                    text: trimmed.to_string(),
                });
            }
        }
    }
}

fn first_line_of(text: &str) -> String {
    text.lines().next().unwrap_or_default().trim().to_string()
}

fn list_item(trimmed: &str) -> Option<&str> {
    if trimmed == "-" {
        return Some("");
    }
    trimmed.strip_prefix("- ").map(str::trim)
}

/// `key: value` with the key at column 0 made of letters, digits, `_` and `-`.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    let valid = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid.then(|| (key, line[colon + 1..].trim()))
}

/// Drops a trailing ` # comment` from an unquoted value.
fn strip_comment(value: &str) -> &str {
    if value.starts_with('"') || value.starts_with('\'') {
        return value;
    }
    match value.find(" #") {
        Some(index) => value[..index].trim_end(),
        None => value,
    }
}

/// A fallback scalar: quotes stripped, `[a, b]` read as a list, everything else a string.
fn scalar(text: &str) -> Value {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return Value::List(
            split_top_level(inner)
                .into_iter()
                .map(|item| Value::Str(unquote(item).to_string()))
                .collect(),
        );
    }
    Value::Str(unquote(text).to_string())
}

/// Removes one layer of matching single or double quotes around the whole text (`"a", "b"` is
/// two quoted items, not one, and is left for the list splitter).
pub fn unquote(text: &str) -> &str {
    let text = text.trim();
    for quote in ['"', '\''] {
        if text.len() >= 2
            && let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote))
            && !inner.contains(quote)
        {
            return inner;
        }
    }
    text
}

/// Splits on commas that are not inside `{…}`, `[…]` or quotes and not escaped with `\`;
/// pieces are trimmed and empty pieces dropped. `src/**/*.{ts,tsx}, docs/*.md` is two globs.
pub fn split_top_level(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut braces = 0usize;
    let mut in_class = false;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (index, c) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        if let Some(open) = quote {
            if c == open {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' if !in_class => quote = Some(c),
            '\\' => escaped = true,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '{' if !in_class => braces += 1,
            '}' if !in_class => braces = braces.saturating_sub(1),
            ',' if braces == 0 && !in_class => {
                pieces.push(&text[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field<'a>(parsed: &'a Parsed, key: &str) -> &'a Value {
        &parsed.get(key).unwrap().value
    }

    #[test]
    fn valid_yaml_keeps_types() {
        let parsed = parse(
            "---\ndescription: Tests\nalwaysApply: true\nglobs:\n  - \"a/*.rs\"\n---\nBody\n",
        );
        assert!(!parsed.fallback);
        assert_eq!(field(&parsed, "alwaysapply"), &Value::Bool(true));
        assert_eq!(
            field(&parsed, "globs"),
            &Value::List(vec![Value::Str("a/*.rs".into())])
        );
        assert_eq!(parsed.body, "Body");
        assert_eq!(parsed.get("globs").unwrap().line, 4);
    }

    #[test]
    fn unquoted_star_glob_falls_back() {
        let parsed = parse("---\nglobs: **/*.ts\nalwaysApply: true\n---\nBody");
        assert!(parsed.fallback);
        assert!(matches!(parsed.notes[0], Note::YamlFallback { .. }));
        assert_eq!(field(&parsed, "globs"), &Value::Str("**/*.ts".into()));
        assert_eq!(field(&parsed, "alwaysapply"), &Value::Str("true".into()));
    }

    #[test]
    fn fallback_lists_and_comments() {
        let parsed = parse(
            "---\npaths:\n  - **/*.ts\n  - \"src/*.rs\"\nglobs: [a/*, 'b/{x,y}']\nalwaysApply: false # no\nwhat is this\n---\n",
        );
        assert!(parsed.fallback);
        assert_eq!(
            field(&parsed, "paths"),
            &Value::List(vec![
                Value::Str("**/*.ts".into()),
                Value::Str("src/*.rs".into())
            ])
        );
        assert_eq!(
            field(&parsed, "globs"),
            &Value::List(vec![Value::Str("a/*".into()), Value::Str("b/{x,y}".into())])
        );
        assert_eq!(field(&parsed, "alwaysapply"), &Value::Str("false".into()));
        assert!(parsed.notes.contains(&Note::IgnoredLine {
            line: 7,
            text: "what is this".into()
        }));
    }

    #[test]
    fn no_frontmatter_and_unterminated() {
        let parsed = parse("# Title\n\nText\n");
        assert!(!parsed.has_frontmatter && parsed.notes.is_empty());
        assert_eq!(parsed.body, "# Title\n\nText");
        let parsed = parse("---\nalwaysApply: true\nBody");
        assert_eq!(parsed.notes, vec![Note::Unterminated]);
        assert!(parsed.fields.is_empty());
    }

    #[test]
    fn crlf_bom_and_comments_only_in_frontmatter() {
        let parsed = parse(
            "\u{feff}---\r\n<!-- note -->\r\nalwaysApply: true\r\n---\r\nKeep <!-- this -->\r\n",
        );
        assert_eq!(field(&parsed, "alwaysapply"), &Value::Bool(true));
        assert_eq!(parsed.body, "Keep <!-- this -->");
    }

    #[test]
    fn yaml_positions_become_file_lines() {
        let parsed = parse("---\ndescription: x\nglobs: **/*.ts\n---\nBody");
        match &parsed.notes[0] {
            Note::YamlFallback { reason, line } => {
                assert_eq!(*line, Some(3));
                assert!(!reason.contains("at line"), "{reason}");
                assert!(reason.contains("alias"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn quoted_items_in_fallback() {
        let parsed = parse("---\nglobs: \"*.ts\", \"*.tsx\"\n---\nx");
        assert!(parsed.fallback);
        assert_eq!(
            field(&parsed, "globs"),
            &Value::Str("\"*.ts\", \"*.tsx\"".into())
        );
        let items: Vec<&str> = split_top_level("\"*.ts\", \"*.tsx\"")
            .into_iter()
            .map(unquote)
            .collect();
        assert_eq!(items, vec!["*.ts", "*.tsx"]);
    }

    #[test]
    fn key_folding() {
        assert_eq!(fold_key("always-apply"), "alwaysapply");
        assert_eq!(fold_key("ttsr_trigger"), "ttsrtrigger");
        assert_eq!(fold_key("interruptMode"), "interruptmode");
    }

    #[test]
    fn brace_aware_split() {
        assert_eq!(
            split_top_level("src/**/*.{ts,tsx}, docs/*.md,,"),
            vec!["src/**/*.{ts,tsx}", "docs/*.md"]
        );
        assert_eq!(split_top_level("a[,]b,c\\,d"), vec!["a[,]b", "c\\,d"]);
        assert_eq!(split_top_level("{a,{b,c}},d"), vec!["{a,{b,c}}", "d"]);
        assert_eq!(
            split_top_level("\"a,b\", 'c,d', e"),
            vec!["\"a,b\"", "'c,d'", "e"]
        );
    }

    #[test]
    fn non_mapping_yaml_falls_back() {
        let parsed = parse("---\njust a sentence\n---\nBody");
        assert!(parsed.fallback);
        assert!(matches!(
            parsed.notes.last(),
            Some(Note::IgnoredLine { .. })
        ));
    }

    #[test]
    fn description_with_colon_survives_fallback() {
        let parsed = parse("---\ndescription: Use when: writing tests\nglobs: *.rs\n---\nx");
        assert_eq!(
            field(&parsed, "description"),
            &Value::Str("Use when: writing tests".into())
        );
    }
}
