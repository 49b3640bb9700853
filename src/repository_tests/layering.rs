//! The layering of `src/`, held mechanically (ARCHITECTURE.md describes the layers):
//! - no import cycle between top-level modules;
//! - nothing below the gateway imports `gateway` or `launch`: only the gateway, the launcher
//!   and `doctor` (and the binaries) do;
//! - only those three speak HTTP: no other module names `StatusCode`, uses `axum`, `hyper` or
//!   `http`, or maps a case to a 4xx/5xx status (`=> 429`); the engine names what failed,
//!   and `gateway::error` decides the status in one place;
//! - unit tests are `mod tests` inline or in `<module>/tests.rs`, never a `#[path]` include;
//! - no import cycle between sibling files (the children of one module, each standing for its
//!   subtree; a `mod.rs` and its children may use each other);
//! - only `lib.rs` and the platform seam re-export a `crate::`/`super::` name (`pub use`,
//!   `pub(crate) use`), and no child names an item through its parent's private import: a name
//!   is imported from the module that owns it;
//! - only `main` (and no library file, nor the other binary) imports `cli`: a command's
//!   function takes its own options struct, which `main` fills from clap's types.
//!
//! Imports are read as written: every `crate::<module>` outside comments, in code and unit
//! tests alike; the file checks also read `super::` and `self::` paths, each resolved to the
//! file that defines it (a name a `mod.rs` re-exports from a child resolves to the `mod.rs`).

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
    source_files()
        .into_iter()
        .filter_map(|(rel, code)| {
            let first = rel.strip_prefix("src/")?.split('/').next()?;
            let top = first.strip_suffix(".rs").unwrap_or(first).to_string();
            (!NOT_MODULES.contains(&top.as_str())).then_some((top, rel, code))
        })
        .collect()
}

/// Every Rust file below `src/`, by its path from the repository root, with its code without
/// comments.
fn source_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    files_below(&root().join("src"), &mut files);
    files
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .map(|path| {
            let text = fs::read_to_string(path).unwrap();
            (relative(path), without_comments(&text))
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

// Imports between files, re-exports, and who imports `cli`.

/// Each library file below `src/` with its module path (`src/cursor/spawn.rs` →
/// `["cursor", "spawn"]`, `src/cursor/mod.rs` → `["cursor"]`, `src/lib.rs` → the root `[]`)
/// and its code without comments; the binaries and these tests aside.
fn library_files() -> Vec<(String, Vec<String>, String)> {
    source_files()
        .into_iter()
        .filter_map(|(rel, code)| {
            let inside = rel.strip_prefix("src/")?.strip_suffix(".rs")?;
            if inside == "main"
                || inside.starts_with("bin/")
                || inside.starts_with("repository_tests")
            {
                return None;
            }
            let mut module: Vec<String> = inside.split('/').map(str::to_string).collect();
            if module.last().is_some_and(|last| last == "mod") || module == ["lib"] {
                module.pop();
            }
            Some((rel, module, code))
        })
        .collect()
}

fn is_ident(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Every path in `line` that starts with `crate`, `super` or `self` and names something
/// (`super::stream::X` → `["super", "stream", "X"]`; `use super::*` names nothing).
fn rooted_paths(line: &str) -> Vec<Vec<String>> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts =
            is_ident(bytes[at]) && (at == 0 || !(is_ident(bytes[at - 1]) || bytes[at - 1] == b':'));
        if !starts {
            at += 1;
            continue;
        }
        let mut segments = Vec::new();
        loop {
            let start = at;
            while at < bytes.len() && is_ident(bytes[at]) {
                at += 1;
            }
            segments.push(line[start..at].to_string());
            if line[at..].starts_with("::") && bytes.get(at + 2).is_some_and(|b| is_ident(*b)) {
                at += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1 && matches!(segments[0].as_str(), "crate" | "super" | "self") {
            out.push(segments);
        }
    }
    out
}

/// `path` (read in module `module`) from the crate root: `super::stream::X` in
/// `cursor::process` → `cursor::stream::X`.
fn absolute(module: &[String], path: &[String]) -> Vec<String> {
    let (mut full, mut rest) = match path[0].as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (module.to_vec(), &path[1..]),
        _ => (module.to_vec(), path),
    };
    while rest.first().is_some_and(|segment| segment == "super") {
        full.pop();
        rest = &rest[1..];
    }
    full.extend(rest.iter().cloned());
    full
}

/// The file an absolute path points at: the longest module path of a file in `known` that it
/// starts with (`cursor::process::Thing` → `cursor::process`).
fn file_of(full: &[String], known: &BTreeSet<Vec<String>>) -> Vec<String> {
    (0..=full.len())
        .rev()
        .map(|len| full[..len].to_vec())
        .find(|prefix| known.contains(prefix))
        .unwrap_or_default()
}

/// The file `path` (read in module `module`) points at.
fn resolve(module: &[String], path: &[String], known: &BTreeSet<Vec<String>>) -> Vec<String> {
    file_of(&absolute(module, path), known)
}

/// Every `crate::`, `super::` or `self::` path in `code` (the file of `module`), from the crate
/// root. Inside an inline `mod name {` (rustfmt closes it with a `}` at the line's
/// indentation) `super` and `self` are read from that inner module.
fn absolute_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    for line in code.lines() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if trimmed == "}" && inline.last().is_some_and(|(at, _)| *at == indent) {
            inline.pop();
            continue;
        }
        let declared = trimmed
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(" {"));
        if let Some(name) = declared {
            inline.push((indent, name.to_string()));
            continue;
        }
        let mut here = module.to_vec();
        here.extend(inline.iter().map(|(_, name)| name.clone()));
        out.extend(
            rooted_paths(line)
                .into_iter()
                .map(|path| absolute(&here, &path)),
        );
    }
    out
}

/// The files `code` (the file of `module`) names with `crate::`, `super::` or `self::` paths,
/// by module path.
fn file_imports(
    module: &[String],
    code: &str,
    known: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    absolute_paths(module, code)
        .iter()
        .map(|full| file_of(full, known))
        .collect()
}

/// An import between sibling files: `from` (a child of `parent`, standing for its whole
/// subtree) uses `to`, in `file`.
type SiblingEdge = (Vec<String>, String, String, String);

/// Every import from one file into a sibling's subtree, below the top-level modules (their
/// graph is [`top_level_modules_form_no_cycle`]'s). A file using its parent's items, or a
/// parent its children's, is no such edge: a `mod.rs` and its children may use each other.
fn sibling_edges(files: &[(String, Vec<String>, String)]) -> Vec<SiblingEdge> {
    let known: BTreeSet<Vec<String>> = files.iter().map(|(_, m, _)| m.clone()).collect();
    let mut edges = Vec::new();
    for (rel, module, code) in files {
        for target in file_imports(module, code, &known) {
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common >= 1 && common < module.len() && common < target.len() {
                edges.push((
                    module[..common].to_vec(),
                    module[common].clone(),
                    target[common].clone(),
                    rel.clone(),
                ));
            }
        }
    }
    edges
}

/// The cycles among sibling files, each as `parent: a → b → a` with the files that make each
/// step.
fn sibling_cycles(edges: &[SiblingEdge]) -> Vec<String> {
    let mut by_parent: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut files_of: BTreeMap<(Vec<String>, String, String), BTreeSet<String>> = BTreeMap::new();
    for (parent, from, to, rel) in edges {
        by_parent
            .entry(parent.clone())
            .or_default()
            .entry(from.clone())
            .or_default()
            .insert(to.clone());
        files_of
            .entry((parent.clone(), from.clone(), to.clone()))
            .or_default()
            .insert(rel.clone());
    }
    let mut found = BTreeSet::new();
    for (parent, graph) in &by_parent {
        for start in graph.keys() {
            let Some(mut cycle) = cycle_from(graph, start) else {
                continue;
            };
            // One spelling per cycle, whichever sibling it was found from: the least first.
            cycle.pop();
            let least = (0..cycle.len()).min_by_key(|i| &cycle[*i]).unwrap_or(0);
            cycle.rotate_left(least);
            cycle.push(cycle[0].clone());
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|step| {
                    let key = (parent.clone(), step[0].clone(), step[1].clone());
                    let files = files_of.get(&key).cloned().unwrap_or_default();
                    format!("{} → {} ({files:?})", step[0], step[1])
                })
                .collect();
            found.insert(format!("{}: {}", parent.join("::"), steps.join(", ")));
        }
    }
    found.into_iter().collect()
}

#[test]
fn sibling_files_form_no_cycle() {
    let files = library_files();
    assert!(files.len() > 100, "too few files found: {}", files.len());
    let edges = sibling_edges(&files);
    assert!(edges.len() > 50, "too few imports between files: {edges:?}");
    let cycles = sibling_cycles(&edges);
    assert!(
        cycles.is_empty(),
        "import cycles between sibling files (import the name from the file that owns it, or \
         move what both need below them): {cycles:#?}"
    );
}

/// The `pub use`/`pub(…) use` lines of `code` that re-export a `crate::` or `super::` name, as
/// the path each re-exports.
fn reexports(code: &str) -> Vec<Vec<String>> {
    code.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("pub")?;
            let rest = match rest.strip_prefix('(') {
                Some(scoped) => scoped.split_once(')')?.1,
                None => rest,
            };
            let path = rest.trim_start().strip_prefix("use ")?;
            rooted_paths(path)
                .into_iter()
                .next()
                .filter(|segments| matches!(segments[0].as_str(), "crate" | "super"))
        })
        .collect()
}

#[test]
fn only_the_crate_root_and_the_platform_seam_re_export() {
    let files = library_files();
    let known: BTreeSet<Vec<String>> = files.iter().map(|(_, m, _)| m.clone()).collect();
    let platform = ["platform".to_string()];
    let offenders: Vec<String> = files
        .iter()
        .filter(|(rel, _, _)| rel != "src/lib.rs" && rel != "src/platform/mod.rs")
        .flat_map(|(rel, module, code)| {
            reexports(code)
                .into_iter()
                // The seam assembles its face from its own parts (each system's `watchdog`
                // carries the shared `Target`).
                .filter(|path| {
                    !(module.starts_with(&platform)
                        && resolve(module, path, &known).starts_with(&platform))
                })
                .map(move |path| format!("{rel} re-exports {}", path.join("::")))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "a name is imported from the module that owns it; only lib.rs and the platform seam \
         re-export: {offenders:#?}"
    );
}

/// The names `code` imports for itself from another module (`use crate::a::B;`, `use
/// super::b::C as D;`; not `pub`, not inside an inline module), each as it is known here.
fn private_imports(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|line| line.strip_prefix("use ")?.strip_suffix(';'))
        .filter(|path| path.starts_with("crate::") || path.starts_with("super::"))
        .filter_map(|path| {
            let name = match path.split_once(" as ") {
                Some((_, alias)) => alias,
                None => path.rsplit("::").next()?,
            };
            (!matches!(name, "*" | "_" | "self")).then(|| name.to_string())
        })
        .collect()
}

#[test]
fn children_import_names_from_their_owners_not_through_a_parent() {
    let files = library_files();
    let mut offenders = Vec::new();
    for (parent_rel, parent, parent_code) in &files {
        let imported = private_imports(parent_code);
        if imported.is_empty() {
            continue;
        }
        for (rel, module, code) in &files {
            if module.len() <= parent.len() || !module.starts_with(parent) {
                continue;
            }
            for full in absolute_paths(module, code) {
                if full.len() > parent.len()
                    && full.starts_with(parent)
                    && imported.contains(&full[parent.len()])
                {
                    offenders.push(format!(
                        "{rel} names {} through {parent_rel}, which only imports it",
                        full.join("::")
                    ));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a name is imported from the module that owns it: {offenders:#?}"
    );
}

#[test]
fn only_main_imports_cli() {
    let files = library_files();
    let known: BTreeSet<Vec<String>> = files.iter().map(|(_, m, _)| m.clone()).collect();
    let cli = ["cli".to_string()];
    let mut offenders: Vec<String> = files
        .iter()
        .filter(|(_, module, _)| !module.starts_with(&cli))
        .filter(|(_, module, code)| {
            file_imports(module, code, &known)
                .iter()
                .any(|target| target.starts_with(&cli))
        })
        .map(|(rel, _, _)| rel.clone())
        .collect();
    let mut binaries = Vec::new();
    files_below(&root().join("src/bin"), &mut binaries);
    offenders.extend(
        binaries
            .iter()
            .filter(|path| {
                fs::read_to_string(path)
                    .is_ok_and(|text| without_comments(&text).contains("multi_cursor::cli"))
            })
            .map(|path| relative(path)),
    );
    assert!(
        offenders.is_empty(),
        "clap's argument types stay with `main`: a command's function takes its own options \
         struct, which `main` fills: {offenders:?}"
    );
}

#[test]
fn the_file_checks_see_what_they_look_for() {
    let module = |path: &str| -> Vec<String> {
        path.split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let known: BTreeSet<Vec<String>> = ["", "a", "a::b", "a::c", "a::c::d", "e"]
        .into_iter()
        .map(module)
        .collect();
    // Paths resolve to the file that defines them, from code and from inline modules.
    let code = "use super::c::d::Thing;\nuse crate::e::f;\nuse super::*;\n\
                #[cfg(test)]\nmod tests {\n    use super::super::c::X;\n    use self::y::Z;\n}\n\
                let x = self::inner::call();\n";
    assert_eq!(
        file_imports(&module("a::b"), code, &known),
        BTreeSet::from([
            module("a::c::d"),
            module("e"),
            module("a::c"),
            module("a::b")
        ])
    );
    assert_eq!(
        rooted_paths("f(crate::a::b(), my_crate::x, super::*)"),
        vec![module("crate::a::b")]
    );
    // Siblings: a child using its parent, or the parent its child, is no edge.
    let files = vec![
        (
            "src/a/b.rs".to_string(),
            module("a::b"),
            "use super::c::Y;".to_string(),
        ),
        (
            "src/a/c.rs".to_string(),
            module("a::c"),
            "use crate::a::b::X;".to_string(),
        ),
        (
            "src/a/c/d.rs".to_string(),
            module("a::c::d"),
            "use super::super::T;".to_string(),
        ),
        (
            "src/a/mod.rs".to_string(),
            module("a"),
            "use c::d::Z;\nuse crate::a::b::W;".to_string(),
        ),
    ];
    let edges = sibling_edges(&files);
    assert_eq!(edges.len(), 2, "{edges:?}");
    let cycles = sibling_cycles(&edges);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(cycles[0].starts_with("a: b → c ("), "{cycles:?}");
    assert!(cycles[0].contains("src/a/c.rs"), "{cycles:?}");
    // A parent's own imports, which its children must not borrow.
    assert_eq!(
        private_imports(
            "use crate::text::one_line;\nuse super::x::Y as Z;\npub use crate::a::B;\nuse super::*;\n    use crate::c::D;\nuse child::E;"
        ),
        BTreeSet::from(["one_line".to_string(), "Z".to_string()])
    );
    assert_eq!(
        absolute_paths(
            &module("a::c::d"),
            "use super::super::T;\nlet x = crate::e::f::g();"
        ),
        vec![module("a::T"), module("e::f::g")]
    );
    // Re-exports of another module's names, whatever their visibility.
    assert_eq!(
        reexports(
            "pub use crate::text::one_line;\npub(crate) use super::x::Y;\npub use child::Z;\nuse crate::a::B;"
        ),
        vec![module("crate::text::one_line"), module("super::x::Y")]
    );
}
