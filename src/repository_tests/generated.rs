//! Reference tables generated from the code, checked against the committed pages: a section
//! between `<!-- generated: NAME -->` and `<!-- end generated -->` must equal what the code
//! renders for NAME. Run `UPDATE_GENERATED_DOCS=1 cargo test --lib generated` to rewrite the
//! sections, then review and commit the diff.

use std::fs;

use super::root;
use crate::cursor::child_env;
use crate::cursor::failure::Recovery;
use crate::cursor::failure::RunFailure;
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
        (
            CURSOR_FAILURES,
            CURSOR_FAILURE_CASES,
            cursor_failure_cases(),
        ),
    ]
}

/// The page of Cursor's failures and its table of cases, whose status column is generated.
const CURSOR_FAILURES: &str = "docs/cursor-failures.md";
const CURSOR_FAILURE_CASES: &str = "cursor-failure-cases";
/// The generated columns of that table.
const STATUS_COLUMN: &str = "status, `error.type`";
const RECOVERY_COLUMN: &str = "turn's recovery";

/// The table of cases as the page has it, with its status column written from the gateway's
/// mapping (`gateway::error::run_failure_status`) and its recovery column from
/// `RunFailure::recovery`, one row per case the code knows.
fn cursor_failure_cases() -> String {
    let page = fs::read_to_string(root().join(CURSOR_FAILURES)).unwrap();
    let Some(table) = section(&page, CURSOR_FAILURE_CASES) else {
        panic!("{CURSOR_FAILURES} has no `<!-- generated: {CURSOR_FAILURE_CASES} -->` section");
    };
    let statuses: Vec<(&str, String)> = crate::gateway::error::run_failure_statuses()
        .into_iter()
        .map(|(case, row)| {
            (
                case,
                format!("{} `{}`", row.status.as_u16(), row.kind.as_str()),
            )
        })
        .collect();
    let recoveries: Vec<(&str, String)> = RunFailure::one_of_each()
        .iter()
        .map(|failure| {
            let recovery = match failure.recovery() {
                Recovery::None => "—".to_owned(),
                recovery => format!("`{recovery:?}`"),
            };
            (failure.case(), recovery)
        })
        .collect();
    let written = with_column(table, STATUS_COLUMN, &statuses)
        .and_then(|table| with_column(&table, RECOVERY_COLUMN, &recoveries));
    match written {
        Ok(table) => table,
        Err(error) => panic!("{CURSOR_FAILURES}: {error}"),
    }
}

/// The text of section `name` of `page`, or `None` when the page lacks its markers.
fn section<'a>(page: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("<!-- generated: {name} -->\n");
    let from = page.find(&start)? + start.len();
    let to = from + page[from..].find("<!-- end generated -->")?;
    Some(&page[from..to])
}

/// The markdown `table` with the cell of `column` in each row set to its case's value (the
/// case is a row's first cell); an error when a row names no case of `cells`, a case has no
/// row or twice one, or the table has no such column.
fn with_column(table: &str, column: &str, cells: &[(&str, String)]) -> Result<String, String> {
    let split = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner
            .split('|')
            .map(|cell| cell.trim().to_owned())
            .collect()
    };
    let mut lines = table.lines();
    let header = lines.next().ok_or("the table is empty")?;
    let names = split(header);
    let at = names
        .iter()
        .position(|name| name == column)
        .ok_or_else(|| format!("the table has no column {column:?}"))?;
    let mut out = format!("{header}\n");
    let mut seen = Vec::new();
    for line in lines {
        if line.starts_with("|---") || !line.starts_with('|') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut row = split(line);
        if row.len() != names.len() {
            return Err(format!(
                "a row with {} cells, not {}: {line}",
                row.len(),
                names.len()
            ));
        }
        let Some((case, value)) = cells.iter().find(|(case, _)| *case == row[0]) else {
            return Err(format!("the row {:?} names no case the code has", row[0]));
        };
        if seen.contains(case) {
            return Err(format!("two rows for {case:?}"));
        }
        seen.push(*case);
        row[at].clone_from(value);
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    if let Some((case, _)) = cells.iter().find(|(case, _)| !seen.contains(case)) {
        return Err(format!("no row for the case {case:?}"));
    }
    Ok(out)
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

#[test]
fn a_column_is_written_from_the_code_for_each_case() {
    let table = "| case | status | note |\n|---|---|---|\n| a | 200 | x |\n| b | 500 | y |\n";
    let cells = [("a", "400 `e`".to_owned()), ("b", "502 `f`".to_owned())];
    assert_eq!(
        with_column(table, "status", &cells).as_deref(),
        Ok("| case | status | note |\n|---|---|---|\n| a | 400 `e` | x |\n| b | 502 `f` | y |\n")
    );
    // A row the code does not know, a case without a row, a missing column: each an error.
    let extra = format!("{table}| c | 1 | z |\n");
    assert!(with_column(&extra, "status", &cells).is_err());
    assert!(with_column(table, "status", &cells[..1]).is_err());
    let three = [cells[0].clone(), cells[1].clone(), ("c", "1".to_owned())];
    assert!(with_column(table, "status", &three).is_err());
    assert!(with_column(table, "kind", &cells).is_err());
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
