//! Reference tables generated from the code, checked against the committed pages: a section
//! between `<!-- generated: NAME -->` and `<!-- end generated -->` must equal what the code
//! renders for NAME. Run `UPDATE_GENERATED_DOCS=1 cargo test --lib generated` to rewrite the
//! sections, then review and commit the diff.

use std::fs;

use super::root;
use crate::cursor::child_env;
use crate::env::Audience;
use crate::env::reference_table;

/// Every generated section: the page, the section's name and what the code renders.
fn sections() -> Vec<(&'static str, &'static str, String)> {
    vec![
        (
            "docs/environment.md",
            "env-user",
            reference_table(Audience::User),
        ),
        (
            "docs/environment.md",
            "env-ours",
            reference_table(Audience::Ours),
        ),
        (
            "docs/environment.md",
            "env-development",
            reference_table(Audience::Development),
        ),
        (
            "docs/environment.md",
            "child-env",
            child_env::denied_reference(),
        ),
        (
            "docs/gateway.md",
            "routes",
            crate::gateway::endpoints_markdown(),
        ),
        (
            "docs/gateway.md",
            "statuses",
            crate::gateway::error::status_table_markdown(),
        ),
    ]
}

/// `page` with section `name` replaced by `body`, or `None` when the page lacks the markers.
fn with_section(page: &str, name: &str, body: &str) -> Option<String> {
    let start = format!("<!-- generated: {name} -->\n");
    let end = "<!-- end generated -->";
    let from = page.find(&start)? + start.len();
    let to = from + page[from..].find(end)?;
    Some(format!("{}{body}{}", &page[..from], &page[to..]))
}

#[test]
fn generated_reference_sections_match_the_code() {
    let update = std::env::var_os("UPDATE_GENERATED_DOCS").is_some();
    let mut stale = Vec::new();
    for (page, name, body) in sections() {
        let path = root().join(page);
        let text = fs::read_to_string(&path).unwrap();
        let Some(expected) = with_section(&text, name, &body) else {
            panic!("{page} has no `<!-- generated: {name} -->` … `<!-- end generated -->` section");
        };
        if expected != text {
            if update {
                fs::write(&path, expected).unwrap();
            } else {
                stale.push(format!("{page} ({name})"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated sections differ from the code: {stale:?}; run `UPDATE_GENERATED_DOCS=1 cargo test --lib generated` and commit the result"
    );
}

#[test]
fn a_section_is_replaced_between_its_markers_only() {
    let page = "a\n<!-- generated: x -->\nold\n<!-- end generated -->\nb\n";
    assert_eq!(
        with_section(page, "x", "new\n").as_deref(),
        Some("a\n<!-- generated: x -->\nnew\n<!-- end generated -->\nb\n")
    );
    assert_eq!(with_section(page, "y", "new\n"), None);
}

/// `src/env.rs` is the only place in `src/` where a `MULTI_CURSOR_*` name is spelled as a
/// string, outside unit tests (which check the names users see) and serde renames (an
/// attribute takes a literal).
#[test]
fn variable_names_are_spelled_only_in_the_env_module() {
    let mut files = Vec::new();
    super::files_below(&root().join("src"), &mut files);
    let mut offenders = Vec::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
    {
        let rel = super::relative(path);
        if rel == "src/env.rs" || rel.contains("/tests") || rel.starts_with("src/repository_tests")
        {
            continue;
        }
        let text = fs::read_to_string(path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (number, line) in code.lines().enumerate() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") || trimmed.starts_with("#[serde(rename") {
                continue;
            }
            if line.contains("\"MULTI_CURSOR_") {
                offenders.push(format!("{rel}:{}", number + 1));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "spell a variable's name in src/env.rs and use its constant: {offenders:?}"
    );
}
