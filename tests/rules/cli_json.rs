//! `multi-cursor rules --json` prints one document: `{"rules": [{"name", "path",
//! "source", "activation", "globs", "description", "shadowed", "diagnostics", …}], "diagnostics":
//! [...]}`, plus `files` when FILEs are given.

use multi_cursor_test_support::joined;
use multi_cursor_test_support::rules as rules_support;

use std::process::Command;

use rules_support::Tree;
use serde_json::Value;
use serde_json::json;

fn json(tree: &Tree, args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_multi-cursor"))
        .args(["rules", "--json"])
        .args(args)
        .current_dir(&tree.repo)
        .env(multi_cursor::platform::places::HOME_VAR, &tree.home)
        .output()
        .unwrap();
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

#[test]
fn the_document_has_the_contract_fields() {
    let tree = Tree::new();
    tree.write(
        "repo/.claude/rules/ui.md",
        "---\npaths: src/**/*.tsx\n---\nUI.\n",
    );
    tree.write(
        "repo/.cursor/rules/ui.mdc",
        "---\nglobs: \"*.tsx\"\n---\nCursor UI.\n",
    );
    tree.write(
        "repo/.windsurf/rules/db.md",
        "---\ntrigger: model_decision\ndescription: Databases\n---\nDB.\n",
    );
    tree.write(
        "repo/.windsurf/rules/deploy.md",
        "---\ntrigger: manual\n---\nDeploy.\n",
    );
    tree.write("repo/.clinerules", "Always on.\n");
    tree.write("repo/.cursorrules", "Legacy.\n");
    let (code, doc) = json(&tree, &["src/a/B.tsx"]);
    assert_eq!(code, Some(0));
    let rules = doc["rules"].as_array().unwrap();
    let find = |name: &str, source: &str| -> &Value {
        rules
            .iter()
            .find(|r| r["name"] == name && r["source"] == source)
            .unwrap_or_else(|| panic!("{name} from {source}: {doc:#}"))
    };
    let ui = find("ui", "claude");
    for key in [
        "name",
        "path",
        "source",
        "activation",
        "globs",
        "description",
        "shadowed",
        "diagnostics",
    ] {
        assert!(ui.get(key).is_some(), "missing {key}");
    }
    assert_eq!(ui["activation"], "globs");
    assert_eq!(ui["globs"], json!(["src/**/*.tsx"]));
    assert_eq!(ui["description"], Value::Null);
    assert_eq!(ui["shadowed"], false);
    assert_eq!(
        ui["path"],
        joined(&tree.repo, ".claude/rules/ui.md").to_str().unwrap()
    );
    assert_eq!(
        find("ui", "cursor")["shadowed"],
        false,
        "Cursor's own rule applies anyway"
    );
    assert_eq!(find("ui", "cursor")["delivery"], "cursor");
    assert_eq!(find("db", "windsurf")["activation"], "agent-requested");
    assert_eq!(find("db", "windsurf")["description"], "Databases");
    assert_eq!(find("deploy", "windsurf")["activation"], "manual");
    assert_eq!(find("clinerules", "cline")["activation"], "always");
    assert_eq!(find("cursorrules", "cursor")["delivery"], "cursor");
    let activations: Vec<&str> = rules
        .iter()
        .map(|r| r["activation"].as_str().unwrap())
        .collect();
    assert!(
        activations
            .iter()
            .all(|a| ["always", "globs", "agent-requested", "manual"].contains(a))
    );
    assert!(doc["diagnostics"].is_array());
    assert_eq!(
        doc["files"],
        json!([{
            "path": joined(&tree.repo, "src/a/B.tsx").to_str().unwrap(),
            "rules": [
                {"name": "ui", "glob": "src/**/*.tsx", "delivery": "on-paths"},
                {"name": "ui", "glob": "*.tsx", "delivery": "cursor"},
            ]
        }])
    );
}

#[test]
fn diagnostics_are_structured() {
    let tree = Tree::new();
    tree.write(
        "repo/.claude/rules/bad.md",
        "---\npaths: src/[\n---\nBad.\n",
    );
    let (code, doc) = json(&tree, &[]);
    assert_eq!(code, Some(1));
    let bad = &doc["rules"][0];
    assert_eq!(bad["dropped"], true);
    let first = &bad["diagnostics"][0];
    assert_eq!(first["severity"], "error");
    assert_eq!(first["kind"], "bad-glob");
    assert_eq!(
        first["path"],
        joined(&tree.repo, ".claude/rules/bad.md").to_str().unwrap()
    );
    assert!(first["message"].as_str().unwrap().contains("src/["));
    assert!(doc.get("files").is_none());
}
