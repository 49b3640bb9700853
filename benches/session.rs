//! Durable sessions: (1) a record commit — the write a turn makes before Claude Code gets its
//! closing events — temp file + fsync + rename + folder fsync, against the disk's floor for a
//! durable write of the same bytes (new file, fsync, folder fsync); (2) a replayed answer served from disk — a gateway that has nothing in memory
//! takes the identity's lock, loads and validates the record, finds the replay for the
//! request's key and folds its events into the non-streamed answer — against only reading and
//! parsing the same file. Goals (issue #4): commit < 5 ms, replay < 2 ms p50.
//!
//! `cargo bench --bench session` (set `SESSION_BENCH_N` to change the 500 iterations).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::anthropic::StreamEvent;
use multi_cursor::anthropic::Usage;
use multi_cursor::anthropic::events::closing_events;
use multi_cursor::session::exchange::exchange_key;
use multi_cursor::session::identity::Identity;
use multi_cursor::session::record::Record;
use multi_cursor::session::record::Replay;
use multi_cursor::session::store::Claim;
use multi_cursor::session::store::SessionStore;
use serde_json::json;

use multi_cursor_test_support::bench::ms;
use multi_cursor_test_support::bench::percentile;

const DEFAULT_N: usize = 500;

/// A record as a real turn leaves it: a 6 KB answer streamed in 120 deltas.
fn realistic_record(identity: &Identity, key: &str) -> Record {
    let mut events = vec![
        StreamEvent::message_start("multi/cursor/composer-2.5", 1200),
        StreamEvent::text_block_start(),
    ];
    let mut text = String::new();
    for n in 0..120 {
        let delta = format!("Sentence {n} of the answer, with some words in it. ");
        text.push_str(&delta);
        events.push(StreamEvent::text_delta(delta));
    }
    let usage = Usage {
        input_tokens: 1200,
        output_tokens: 1500,
        ..Usage::default()
    };
    events.extend(closing_events(usage, None));
    let mut record = Record::new(identity.to_value());
    record.chat_id = Some("c2a9f3e4-0000-4000-8000-000000000000".into());
    record.response = Some(
        json!({"id": "msg_bench", "type": "message", "role": "assistant",
        "model": "multi/cursor/composer-2.5", "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "stop_sequence": null, "usage": {"input_tokens": 1200, "output_tokens": 1500}}),
    );
    record.replay = Some(Replay {
        key: key.to_string(),
        events,
    });
    record.last_outcome = Some(multi_cursor::session::record::Outcome::Completed);
    record
}

fn report(name: &str, baseline_name: &str, ours: &mut [Duration], base: &mut [Duration]) {
    ours.sort();
    base.sort();
    let (p50, p99) = (percentile(ours, 0.5), percentile(ours, 0.99));
    let (b50, b99) = (percentile(base, 0.5), percentile(base, 0.99));
    println!(
        "{name}: p50 {:.3} ms, p99 {:.3} ms | baseline ({baseline_name}) p50 {:.3} ms, p99 {:.3} ms | ratio p50 {:.2}x",
        ms(p50),
        ms(p99),
        ms(b50),
        ms(b99),
        p50.as_secs_f64() / b50.as_secs_f64().max(1e-9)
    );
}

fn main() {
    let n: usize = std::env::var("SESSION_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_N);
    // On the target disk, not tmpfs: fsync must cost what it costs for users.
    let root = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let state: PathBuf = root.path().join("state");
    let identity = Identity {
        workspace: root.path().to_path_buf(),
        session: "bench-session".into(),
        worker: "main".into(),
    };
    let key = exchange_key(&identity.key(), &[7; 32], "mode=bypassPermissions");
    let record = realistic_record(&identity, &key);
    let store = SessionStore::new(&state, 32);
    multi_cursor::state::ensure_private_dir(store.dir()).unwrap();
    let path = store.record_path(&identity);
    let bytes = serde_json::to_vec_pretty(&record).unwrap();
    println!(
        "record: {} bytes, {} replay events; {n} iterations",
        bytes.len(),
        record.replay.as_ref().unwrap().events.len()
    );

    // 1. Commit.
    // Baseline: the disk's floor for a durable write of the same bytes — a new file written
    // and fsynced, then its folder fsynced (what any crash-safe commit must pay).
    let floor_dir = root.path().join("floor");
    std::fs::create_dir(&floor_dir).unwrap();
    let mut commit = Vec::with_capacity(n);
    let mut floor = Vec::with_capacity(n);
    for i in 0..n {
        let start = Instant::now();
        record.save(&path).unwrap();
        commit.push(start.elapsed());
        let start = Instant::now();
        let file_path = floor_dir.join(format!("{i}.json"));
        let mut file = std::fs::File::create(&file_path).unwrap();
        std::io::Write::write_all(&mut file, &bytes).unwrap();
        file.sync_all().unwrap();
        std::fs::File::open(&floor_dir).unwrap().sync_all().unwrap();
        floor.push(start.elapsed());
    }
    report(
        "record commit (temp + fsync + rename + dir fsync)",
        "new file + fsync + dir fsync",
        &mut commit,
        &mut floor,
    );

    // 2. Replay from disk.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut replay = Vec::with_capacity(n);
    let mut parse = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let answer = runtime.block_on(async {
            let fresh = SessionStore::new(&state, 32);
            let session = fresh.open(&identity).await.unwrap();
            let exchange = match session.lock().await.claim(&key) {
                Claim::Join(exchange) => exchange,
                other => panic!("expected a replay, got {other:?}"),
            };
            let mut observer = exchange.observe();
            let mut events = Vec::new();
            while let Some(event) = observer.next().await {
                events.push(event.unwrap());
            }
            multi_cursor::anthropic::events::fold_message(&events)
        });
        replay.push(start.elapsed());
        assert_eq!(answer["stop_reason"], "end_turn");
        let start = Instant::now();
        let value: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        parse.push(start.elapsed());
        assert!(value["replay"].is_object());
    }
    report(
        "replayed answer from disk (lock, load, validate, admit, fold)",
        "read + parse the record",
        &mut replay,
        &mut parse,
    );
}
