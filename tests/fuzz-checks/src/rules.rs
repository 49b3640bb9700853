//! Rule files: the frontmatter parser (`rules::frontmatter`) and the whole rulebook pipeline
//! (`Rulebook::load`: discovery, dialect keys, globs, stream-rule conditions, memory imports,
//! prompt sections) on one arbitrary rule file.
//!
//! Input: one selector byte choosing where the file goes (which dialect reads it), then the
//! file's bytes (not necessarily UTF-8). Seeds are the files of `tests/fixtures/rules`, each
//! behind the selector of its own place. Checked besides "no panic": the parser is
//! deterministic, its body is trimmed, and a file without a frontmatter block has no fields.

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;
use std::sync::OnceLock;

use multi_cursor::rules::ChatRules;
use multi_cursor::rules::Rulebook;
use multi_cursor::rules::frontmatter;

/// Where a rule file may live, relative to the workspace; the selector byte picks one (the
/// seeds in `seeds.rs` use the same order).
pub const PLACES: [&str; 10] = [
    ".cursor/rules/fuzz.mdc",
    ".cursor/rules/fuzz.md",
    ".cursorrules",
    ".claude/rules/fuzz.md",
    ".windsurf/rules/fuzz.md",
    ".windsurfrules",
    ".clinerules/fuzz.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    ".claude/CLAUDE.md",
];

/// A workspace that is its own git root (discovery never climbs above it), on tmpfs when
/// there is one, with a file a memory rule can import.
fn workspace() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::scratch_dir();
        std::fs::create_dir(dir.path().join(".git")).expect("a .git folder");
        std::fs::create_dir_all(dir.path().join("docs")).expect("a docs folder");
        std::fs::write(
            dir.path().join("docs/guide.md"),
            "# Guide\nUse @docs/guide.md.\n",
        )
        .expect("an importable file");
        dir
    })
    .path()
}

/// One input: panics when a property above does not hold.
pub fn check(data: &[u8]) {
    let Some((&selector, file)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(file);

    let parsed = frontmatter::parse(&text);
    assert_eq!(
        parsed,
        frontmatter::parse(&text),
        "parse is not deterministic"
    );
    assert_eq!(parsed.body, parsed.body.trim(), "the body is not trimmed");
    assert!(
        parsed.has_frontmatter || parsed.fields.is_empty(),
        "fields without a block"
    );
    for field in &parsed.fields {
        assert_eq!(field.folded, frontmatter::fold_key(&field.key));
        if let frontmatter::Value::Str(value) = &field.value {
            for piece in frontmatter::split_top_level(value) {
                let _ = frontmatter::unquote(piece);
            }
        }
    }

    let workspace = workspace();
    let path = workspace.join(PLACES[usize::from(selector) % PLACES.len()]);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("the rule's folder");
    }
    std::fs::write(&path, file).expect("writing the rule file");
    let book = Rulebook::load(workspace, None);
    let none = BTreeSet::new();
    let _ = book.first_prompt_section();
    let paths = [
        workspace.join("src/main.rs"),
        PathBuf::from("web/app.tsx"),
        PathBuf::from("docs/guide.md"),
    ];
    let _ = book.attach_for_paths(&paths, &none);
    let _ = book.mentioned_in(&text, &none);
    let _ = book.fired_by(&text, &none);
    let mut chat = ChatRules::default();
    let _ = book.prompt_preamble(&mut chat, true, &text);
    let _ = book.prompt_preamble(&mut chat, false, "@fuzz please");
    for rule in book.rules() {
        let _ = rule.matches_path(Path::new("src/lib.rs"));
    }
    std::fs::remove_file(&path).expect("removing the rule file");
}
