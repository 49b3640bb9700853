//! Claude skills reach Cursor as links: `.claude/skills/<name>` is linked as
//! `.cursor/skills/<name>` (relative), listed in git's `info/exclude` so `git status` stays
//! clean, refreshed when our link has an old form, removed when stale; a real folder, a
//! user's link or a user's exclude line is never touched, and every skipped name is reported.

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;

use multi_cursor::skills;
use multi_cursor::skills::EXCLUDE_BEGIN;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn repo() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = std::fs::canonicalize(dir.path()).unwrap().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q"]);
    (dir, ws)
}

fn skill(ws: &Path, name: &str) {
    let dir = ws.join(".claude/skills").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\n---\nDo {name}.\n"),
    )
    .unwrap();
}

fn untracked(ws: &Path) -> Vec<String> {
    git(ws, &["status", "--porcelain", "--untracked-files=all"])
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn links_are_created_excluded_and_readable() {
    let (_dir, ws) = repo();
    skill(&ws, "alpha");
    skill(&ws, "beta");
    std::fs::create_dir_all(ws.join(".claude/skills/notes")).unwrap();
    std::fs::write(ws.join(".claude/skills/README.md"), "not a skill").unwrap();
    let report = skills::sync(&ws).unwrap();
    assert_eq!(report.linked, ["alpha", "beta"]);
    let skipped: Vec<_> = report.skipped.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(skipped, ["README.md", "notes"]);
    assert!(
        report
            .row()
            .unwrap()
            .contains("skipped notes (no SKILL.md in it)")
    );
    let link = ws.join(".cursor/skills/alpha");
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("../../.claude/skills/alpha")
    );
    assert!(
        std::fs::read_to_string(link.join("SKILL.md"))
            .unwrap()
            .contains("Do alpha.")
    );
    assert_eq!(report.exclude_file, Some(ws.join(".git/info/exclude")));
    // Only the skills themselves are untracked; the links are not listed.
    let status = untracked(&ws);
    assert!(status.iter().all(|l| !l.contains(".cursor/")), "{status:?}");
    assert!(
        status
            .iter()
            .any(|l| l.contains(".claude/skills/alpha/SKILL.md")),
        "{status:?}"
    );
    // A second run changes nothing.
    let again = skills::sync(&ws).unwrap();
    assert_eq!(again.unchanged, ["alpha", "beta"]);
    assert!(
        again.row().is_some(),
        "the skipped names are still reported"
    );
}

#[test]
fn user_files_are_never_touched() {
    let (_dir, ws) = repo();
    skill(&ws, "alpha");
    skill(&ws, "beta");
    skill(&ws, "gamma");
    let cursor = ws.join(".cursor/skills");
    std::fs::create_dir_all(cursor.join("beta")).unwrap();
    std::fs::write(cursor.join("beta/SKILL.md"), "the user's own beta").unwrap();
    std::os::unix::fs::symlink("/somewhere/else", cursor.join("alpha")).unwrap();
    std::os::unix::fs::symlink("../../elsewhere", cursor.join("mine")).unwrap();
    let exclude = ws.join(".git/info/exclude");
    std::fs::write(&exclude, "# the user's line\n*.tmp\n").unwrap();

    let report = skills::sync(&ws).unwrap();
    assert_eq!(report.linked, ["gamma"]);
    let skipped: Vec<_> = report
        .skipped
        .iter()
        .map(|s| (s.name.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(
        skipped,
        [
            ("alpha", "a link of yours with this name points elsewhere"),
            ("beta", "a real folder with this name is in .cursor/skills"),
        ]
    );
    assert_eq!(
        std::fs::read_link(cursor.join("alpha")).unwrap(),
        Path::new("/somewhere/else")
    );
    assert_eq!(
        std::fs::read_to_string(cursor.join("beta/SKILL.md")).unwrap(),
        "the user's own beta"
    );
    assert_eq!(
        std::fs::read_link(cursor.join("mine")).unwrap(),
        Path::new("../../elsewhere")
    );
    let text = std::fs::read_to_string(&exclude).unwrap();
    assert!(text.starts_with("# the user's line\n*.tmp\n"), "{text}");
    assert!(text.contains("/.cursor/skills/gamma\n"));
    assert!(!text.contains("/.cursor/skills/alpha") && !text.contains("/.cursor/skills/beta"));
}

#[test]
fn stale_links_are_removed_and_old_forms_refreshed() {
    let (_dir, ws) = repo();
    skill(&ws, "alpha");
    skill(&ws, "beta");
    skills::sync(&ws).unwrap();
    // An absolute link to our skill folder (an older form) is ours: refreshed.
    let cursor = ws.join(".cursor/skills");
    std::fs::remove_file(cursor.join("beta")).unwrap();
    std::os::unix::fs::symlink(ws.join(".claude/skills/beta"), cursor.join("beta")).unwrap();
    std::fs::remove_dir_all(ws.join(".claude/skills/alpha")).unwrap();

    let report = skills::sync(&ws).unwrap();
    assert_eq!(report.removed, ["alpha"]);
    assert_eq!(report.refreshed, ["beta"]);
    assert!(
        !cursor.join("alpha").exists() && std::fs::symlink_metadata(cursor.join("alpha")).is_err()
    );
    assert_eq!(
        std::fs::read_link(cursor.join("beta")).unwrap(),
        Path::new("../../.claude/skills/beta")
    );
    let text = std::fs::read_to_string(ws.join(".git/info/exclude")).unwrap();
    assert!(!text.contains("/.cursor/skills/alpha") && text.contains("/.cursor/skills/beta"));

    // Every skill gone: every link and the exclude block go with them.
    std::fs::remove_dir_all(ws.join(".claude/skills")).unwrap();
    let report = skills::sync(&ws).unwrap();
    assert_eq!(report.removed, ["beta"]);
    let text = std::fs::read_to_string(ws.join(".git/info/exclude")).unwrap_or_default();
    assert!(!text.contains(EXCLUDE_BEGIN), "{text}");
}

#[test]
fn a_linked_worktree_excludes_in_the_common_git_folder() {
    let (dir, main) = repo();
    std::fs::write(main.join("f"), "x").unwrap();
    git(&main, &["add", "f"]);
    git(
        &main,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "init",
        ],
    );
    let tree = std::fs::canonicalize(dir.path()).unwrap().join("tree");
    git(&main, &["worktree", "add", "-q", tree.to_str().unwrap()]);
    std::fs::create_dir_all(tree.join("pkg")).unwrap();
    skill(&tree.join("pkg"), "alpha");
    let report = skills::sync(&tree.join("pkg")).unwrap();
    assert_eq!(report.exclude_file, Some(main.join(".git/info/exclude")));
    let text = std::fs::read_to_string(main.join(".git/info/exclude")).unwrap();
    assert!(text.contains("/pkg/.cursor/skills/alpha\n"), "{text}");
    let status = untracked(&tree);
    assert!(status.iter().all(|l| !l.contains(".cursor/")), "{status:?}");
}

#[test]
fn no_git_and_a_cursor_skills_link() {
    let dir = tempfile::tempdir().unwrap();
    let ws = std::fs::canonicalize(dir.path()).unwrap();
    skill(&ws, "alpha");
    let report = skills::sync(&ws).unwrap();
    assert_eq!(report.linked, ["alpha"]);
    assert_eq!(report.exclude_file, None);

    let other = tempfile::tempdir().unwrap();
    let ws2 = std::fs::canonicalize(other.path()).unwrap();
    skill(&ws2, "alpha");
    std::fs::create_dir_all(ws2.join(".cursor")).unwrap();
    std::os::unix::fs::symlink(ws.join(".cursor/skills"), ws2.join(".cursor/skills")).unwrap();
    let report = skills::sync(&ws2).unwrap();
    assert!(report.linked.is_empty());
    assert_eq!(report.skipped.len(), 1);
    assert!(report.skipped[0].reason.contains("not a plain folder"));
}

#[test]
fn nothing_to_do_creates_nothing() {
    let (_dir, ws) = repo();
    let report = skills::sync(&ws).unwrap();
    assert_eq!(report, skills::SkillSync::default());
    assert!(!ws.join(".cursor").exists());
    assert_eq!(report.row(), None);
}

/// Cursor 2026.10 reads `.claude/skills` itself: for such a CLI nothing is linked, and our
/// earlier links are removed, so no skill reaches Cursor twice; a user's own link stays.
#[test]
fn a_cli_that_reads_claude_skills_gets_no_links() {
    let (_dir, ws) = repo();
    skill(&ws, "deploy");
    skill(&ws, "review");
    skills::sync(&ws).unwrap();
    assert!(ws.join(".cursor/skills/deploy").exists());
    std::os::unix::fs::symlink("/elsewhere", ws.join(".cursor/skills/mine")).unwrap();

    skills::sync_for(&ws, true).unwrap();
    for name in ["deploy", "review"] {
        assert!(
            std::fs::symlink_metadata(ws.join(".cursor/skills").join(name)).is_err(),
            "{name} is given once, through .claude/skills"
        );
    }
    assert!(std::fs::symlink_metadata(ws.join(".cursor/skills/mine")).is_ok());
    let exclude = std::fs::read_to_string(ws.join(".git/info/exclude")).unwrap();
    assert!(!exclude.contains(".cursor/skills/deploy"), "{exclude}");
}
