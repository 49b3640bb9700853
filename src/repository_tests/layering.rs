//! The layering of `src/`, held mechanically (ARCHITECTURE.md describes the layers):
//! - no import cycle between top-level modules;
//! - nothing below the gateway imports `gateway` or `launch`: only the gateway, the launcher
//!   and `doctor` (and the binaries) do;
//! - only those three speak HTTP: no other module names `StatusCode`, uses `axum`, `hyper` or
//!   `http`, or maps a case to a 4xx/5xx status (`=> 429`); the engine names what failed,
//!   and `gateway::error` decides the status in one place;
//! - unit tests are `mod tests` inline or in `<module>/tests.rs`, never a `#[path]` include.
//!
//! Imports are read as written: every `crate::<module>` outside comments, in code and unit
//! tests alike.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::fs;

use super::files_below;
use super::relative;
use super::root;

/// The modules that may speak HTTP and import the gateway and the launcher.
const EDGES: [&str; 3] = ["gateway", "launch", "doctor"];

/// Files that are not a module below the crate root.
const NOT_MODULES: [&str; 4] = ["lib", "main", "bin", "repository_tests"];

/// Each `src/` Rust file with its top-level module (`src/spend/book.rs` → `spend`) and its
/// text without comments.
fn modules() -> Vec<(String, String, String)> {
    let mut files = Vec::new();
    files_below(&root().join("src"), &mut files);
    files
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter_map(|path| {
            let rel = relative(path);
            let first = rel.strip_prefix("src/")?.split('/').next()?;
            let top = first.strip_suffix(".rs").unwrap_or(first).to_string();
            if NOT_MODULES.contains(&top.as_str()) {
                return None;
            }
            let text = fs::read_to_string(path).unwrap();
            Some((top, rel, without_comments(&text)))
        })
        .collect()
}

/// `text` without `//` comments (line and doc comments); a `//` inside a string (a URL) also
/// ends the line here, which only loses the rest of that line.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules `code` imports with `crate::<module>`.
fn imports(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
        rest = after;
    }
    out
}

/// The import graph between top-level modules.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let all = modules();
    let names: BTreeSet<String> = all.iter().map(|(top, _, _)| top.clone()).collect();
    for (top, _, code) in &all {
        let entry = graph.entry(top.clone()).or_default();
        for used in imports(code) {
            if used != *top && names.contains(&used) {
                entry.insert(used);
            }
        }
    }
    graph
}

/// A cycle through `start`, if any, as the modules on it.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                let mut cycle = path;
                cycle.push(start.to_string());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn top_level_modules_form_no_cycle() {
    let graph = graph();
    assert!(graph.len() > 10, "too few modules found: {graph:?}");
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|module| cycle_from(&graph, module))
        .map(|cycle| cycle.join(" → "))
        .collect();
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}

#[test]
fn nothing_below_the_gateway_imports_it_or_the_launcher() {
    let offenders: Vec<String> = modules()
        .into_iter()
        .filter(|(top, _, _)| !EDGES.contains(&top.as_str()))
        .filter_map(|(_, rel, code)| {
            let used = imports(&code);
            let bad: Vec<&str> = ["gateway", "launch"]
                .into_iter()
                .filter(|edge| used.contains(*edge))
                .collect();
            (!bad.is_empty()).then(|| format!("{rel} imports {bad:?}"))
        })
        .collect();
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// Whether `code` maps something to a 4xx or 5xx HTTP status in a `match` arm (a `=> 100`
/// priority is not one).
fn maps_to_a_status(code: &str) -> bool {
    code.match_indices("=>").any(|(at, _)| {
        let after = code[at + 2..].trim_start();
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        let next = after[digits.len()..].chars().next();
        digits.len() == 3
            && matches!(digits.as_bytes()[0], b'4' | b'5')
            && !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    })
}

#[test]
fn only_the_gateway_the_launcher_and_doctor_speak_http() {
    let words = ["StatusCode", "axum::", "hyper::", "http::"];
    let offenders: Vec<String> = modules()
        .into_iter()
        .filter(|(top, _, _)| !EDGES.contains(&top.as_str()))
        .filter_map(|(_, rel, code)| {
            let mut found: Vec<&str> = words
                .iter()
                .copied()
                .filter(|word| code.contains(word))
                .collect();
            if maps_to_a_status(&code) {
                found.push("=> <status>");
            }
            (!found.is_empty()).then(|| format!("{rel}: {found:?}"))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "HTTP belongs to the gateway (statuses: gateway::error): {offenders:#?}"
    );
}

#[test]
fn unit_tests_are_not_included_by_path() {
    let marker = ["#[", "path"].concat();
    let offenders: Vec<String> = modules()
        .into_iter()
        .filter(|(_, _, code)| code.contains(&marker))
        .map(|(_, rel, _)| rel)
        .collect();
    assert!(
        offenders.is_empty(),
        "a module's unit tests are `mod tests` inline or in <module>/tests.rs: {offenders:?}"
    );
}

#[test]
fn the_checks_see_what_they_look_for() {
    assert_eq!(
        imports("use crate::spend::book;\nlet x = crate::text::one_line(y);"),
        BTreeSet::from(["spend".to_string(), "text".to_string()])
    );
    assert!(imports(&without_comments("/// see [`crate::gateway::error`]")).is_empty());
    assert!(maps_to_a_status("Failure::Limit { .. } => 429,"));
    assert!(!maps_to_a_status("Some(x) => 4096,"));
    assert!(!maps_to_a_status("Kind::A => 400.0,"));
    assert!(!maps_to_a_status("Provider::Claude => 100,"));
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle_from(&graph, "a"),
        Some(vec!["a".to_string(), "b".to_string(), "a".to_string()])
    );
}

/// What `src/session/store.rs` (and its unit tests) must not say: the session store is a
/// store (identities, locks, records, exchanges). What a running turn costs is the keeper's
/// (`orchestrate::keeper`): it neither imports `spend` nor names the ledger.
fn store_breaches(code: &str) -> Vec<&'static str> {
    let lower = code.to_lowercase();
    let mut found = Vec::new();
    if imports(&without_comments(code)).contains("spend") || lower.contains("spend::") {
        found.push("imports spend");
    }
    if lower.contains("ledger") {
        found.push("names the ledger");
    }
    found
}

#[test]
fn the_session_store_knows_nothing_of_spend() {
    assert_eq!(
        store_breaches("use crate::spend::RunTap;\n/// The ledger line first."),
        vec!["imports spend", "names the ledger"]
    );
    assert_eq!(store_breaches("use super::super::spend::ledger;").len(), 2);
    assert!(store_breaches("use super::record::Record;").is_empty());
    let mut files = Vec::new();
    files_below(&root().join("src/session/store"), &mut files);
    files.push(root().join("src/session/store.rs"));
    let offenders: Vec<String> = files
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .filter_map(|path| {
            let found = store_breaches(&fs::read_to_string(path).unwrap());
            (!found.is_empty()).then(|| format!("{}: {found:?}", relative(path)))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "the session store is a store; a turn's spend is orchestrate::keeper's: {offenders:#?}"
    );
}
