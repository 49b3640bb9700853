//! Writes the seed corpora of the fuzz targets (`fuzz/fuzz_targets/`) from the repository's
//! real fixtures, so the fuzzers start from inputs the code meets in practice:
//!
//! - `stream_parser`: the captured Cursor streams (`tests/fixtures/cursor-stream/*.ndjson`) and
//!   the fake agent's stream scenarios (`tests/fake-agent/scenarios/*.ndjson`);
//! - `request`: the captured Claude Code requests (`tests/fixtures/claude/*.json`);
//! - `rules`: every rule fixture (`tests/fixtures/rules/**`), each behind the selector byte of
//!   the place its dialect reads it from (the order of [`crate::rules::PLACES`]);
//! - `record`: records written by the real `Record::save` (fresh, mid-turn, completed with a
//!   replay, migrated) and legacy v2 records in the documented shape.
//!
//! [`write_all`] puts each target's seeds into `<folder>/<target>/` (existing files are kept): the
//! `fuzz-seeds` binary does it for `scripts/fuzz`, and the regression test runs every seed
//! through its check.

use std::path::Path;
use std::path::PathBuf;

use anyhow::Context;
use multi_cursor::session::record::Outcome;
use multi_cursor::session::record::PendingRun;
use multi_cursor::session::record::Record;
use multi_cursor::session::record::Replay;
use serde_json::json;

/// The selector byte of a rule fixture: where the rules fuzz target puts the file (the index
/// into its `PLACES`), from where the fixture sits.
fn rule_selector(relative: &str) -> u8 {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    if relative.contains(".cursor/rules/") {
        if name.ends_with(".mdc") { 0 } else { 1 }
    } else if name == ".cursorrules" {
        2
    } else if relative.contains(".claude/rules/") {
        3
    } else if relative.contains(".windsurf/rules/") || relative.contains("windsurf/memories/") {
        4
    } else if name == ".windsurfrules" {
        5
    } else if relative.contains(".clinerules") || relative.contains("Cline/Rules/") {
        6
    } else if name == "CLAUDE.local.md" {
        8
    } else if relative.ends_with(".claude/CLAUDE.md") {
        9
    } else {
        7
    }
}

/// Every regular file under `dir`, recursively, sorted.
fn files_under(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("listing {}", folder.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))
}

fn copy_with_extension(from: &Path, extension: &str, to: &Path) -> anyhow::Result<usize> {
    let mut count = 0;
    for path in files_under(from)? {
        if path.extension().is_some_and(|e| e == extension) {
            let bytes =
                std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            write(to, &name, &bytes)?;
            count += 1;
        }
    }
    Ok(count)
}

fn rule_seeds(root: &Path, to: &Path) -> anyhow::Result<usize> {
    let fixtures = root.join("tests/fixtures/rules");
    let mut count = 0;
    for path in files_under(&fixtures)? {
        let relative = path.strip_prefix(&fixtures)?.to_string_lossy().into_owned();
        if relative.ends_with(".expected.json") {
            continue;
        }
        let mut bytes = vec![rule_selector(&relative)];
        bytes.extend(std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?);
        write(to, &relative.replace('/', "__"), &bytes)?;
        count += 1;
    }
    Ok(count)
}

/// A Messages response as the gateway records it.
fn response(text: &str) -> serde_json::Value {
    json!({
        "id": "msg_01fuzzseed", "type": "message", "role": "assistant",
        "model": "multi/cursor/composer-2.5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 12, "output_tokens": 7}
    })
}

fn record_seeds(to: &Path) -> anyhow::Result<usize> {
    std::fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    let identity = json!([
        "/home/user/project",
        "0b6c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3",
        "main"
    ]);
    let key = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    let mut records = Vec::new();

    records.push(("fresh", Record::new(identity.clone())));

    let mut running = Record::new(identity.clone());
    running.chat_id = Some("1f0e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b".into());
    running.pending_run = Some(PendingRun {
        key: key.into(),
        model: "composer-2.5".into(),
        pgid: 4242,
        started_at: "2026-11-01T10:00:00Z".into(),
        process_start: Some(123_456),
        marker: Some("0123456789abcdef0123456789abcdef".into()),
    });
    running.policy = Some("bypassPermissions".into());
    records.push(("running", running));

    let mut done = Record::new(json!(["/home/user/project", "s-1", "agent-a1b2c3"]));
    done.chat_id = Some("chat-done".into());
    done.last_outcome = Some(Outcome::Completed);
    done.response = Some(response("Done: the tests pass."));
    done.replay = Some(Replay {
        key: key.into(),
        events: multi_cursor::anthropic::events::answer_events(
            "multi/cursor/composer-2.5",
            "Done: the tests pass.",
            12,
            multi_cursor::anthropic::Usage {
                input_tokens: 12,
                output_tokens: 7,
                ..Default::default()
            },
            None,
        ),
    });
    done.policy = Some("plan; rules: style".into());
    done.attached_rules = vec!["style".into(), "api".into()];
    done.fired_rules = vec!["guard".into()];
    done.rulebook_digest =
        Some("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".into());
    done.extra
        .insert("addedLater".into(), json!({"kept": [1, 2.5, null]}));
    records.push(("completed", done));

    let mut failed = Record::new(identity.clone());
    failed.chat_id = Some("chat-failed".into());
    failed.interrupted = true;
    failed.last_outcome = Some(Outcome::Failed);
    records.push(("interrupted", failed));

    let mut migrated = Record::new(identity.clone());
    migrated.chat_id = Some("chat-legacy".into());
    migrated.migrated_from = Some(multi_cursor::session::record::MigratedFrom {
        path: "/state/sessions/abc.json".into(),
        agent_id: "chat-legacy".into(),
    });
    records.push(("migrated", migrated));

    for (name, record) in &records {
        record
            .save(&to.join(format!("{name}.v3.json")))
            .with_context(|| format!("saving the {name} seed record"))?;
    }
    let legacy = [
        (
            "legacy-idle",
            json!({"version": 2, "identity": identity, "agentId": "chat-legacy", "pending": false}),
        ),
        (
            "legacy-pending",
            json!({"version": 2, "identity": identity, "agentId": "chat-legacy", "pending": true,
            "response": response("old answer"), "replay": {"key": key, "events": [["message_stop", {"type": "message_stop"}]]}}),
        ),
    ];
    for (name, value) in &legacy {
        write(
            to,
            &format!("{name}.json"),
            &serde_json::to_vec_pretty(value)?,
        )?;
    }
    Ok(records.len() + legacy.len())
}

/// How many seeds each target got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub stream_parser: usize,
    pub request: usize,
    pub rules: usize,
    pub record: usize,
}

/// Writes every target's seeds from the fixtures of the repository at `root` into
/// `<out>/<target>/`.
pub fn write_all(root: &Path, out: &Path) -> anyhow::Result<Counts> {
    let stream_parser = copy_with_extension(
        &root.join("tests/fixtures/cursor-stream"),
        "ndjson",
        &out.join("stream_parser"),
    )? + copy_with_extension(
        &root.join("tests/fake-agent/scenarios"),
        "ndjson",
        &out.join("stream_parser"),
    )?;
    let request = copy_with_extension(
        &root.join("tests/fixtures/claude"),
        "json",
        &out.join("request"),
    )?;
    let rules = rule_seeds(root, &out.join("rules"))?;
    let record = record_seeds(&out.join("record"))?;
    Ok(Counts {
        stream_parser,
        request,
        rules,
        record,
    })
}

/// The repository this crate sits in (`tests/fuzz-checks` below its root).
pub fn repository_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}
