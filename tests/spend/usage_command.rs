//! `multi-cursor usage`: the ledger by day, model and session; replays in `replays`, never in
//! `runs`; damaged lines skipped and counted; `--since` and `--workspace`.

use std::io::Write;
use std::process::Command;

fn line(day: &str, session: &str, model: &str, purpose: &str, input: Option<u64>) -> String {
    let tokens = match input {
        Some(n) => format!(r#""input_tokens":{n},"output_tokens":10,"token_source":"provider""#),
        None => r#""token_source":"none""#.to_string(),
    };
    format!(
        r#"{{"v":1,"time":"{day}T12:00:00Z","workspace":"/w","session":"{session}","worker":"main","route":"multi/cursor/{model}","model":"{model}","mode":"force","purpose":"{purpose}","duration_ms":2000,"outcome":"completed",{tokens}}}"#
    )
}

fn usage(state: &std::path::Path, args: &[&str]) -> (bool, String) {
    let output = Command::new(multi_cursor_test_support::multi_cursor_bin())
        .arg("usage")
        .args(args)
        .env("MULTI_CURSOR_STATE_DIR", state)
        .env("TZ", "UTC")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

#[test]
fn usage_sums_the_ledger() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().join("ledger");
    std::fs::create_dir_all(&dir).unwrap();
    let today = jiff::tz::TimeZone::UTC
        .to_datetime(jiff::Timestamp::now())
        .date();
    let month = today.strftime("%Y-%m").to_string();
    let day = today.to_string();
    let mut file = std::fs::File::create(dir.join(format!("{month}.jsonl"))).unwrap();
    for text in [
        line(&day, "s1", "auto", "turn", Some(1000)),
        line(&day, "s1", "auto", "replay", None),
        line(&day, "s2", "gpt-5", "fallback", Some(500)),
        "{damaged".to_string(),
        line("2001-01-01", "s3", "old", "turn", Some(7)),
    ] {
        writeln!(file, "{text}").unwrap();
    }
    drop(file);

    let (ok, out) = usage(state.path(), &["--json", "--since", "7d"]);
    assert!(ok, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let totals = &report["totals"];
    assert_eq!(totals["runs"], 2, "{report}");
    assert_eq!(totals["replays"], 1);
    assert_eq!(totals["input_tokens"], 1500);
    assert_eq!(totals["output_tokens"], 20);
    assert_eq!(totals["damaged_lines"], 1);
    assert_eq!(totals["duration_ms"], 4000);
    assert_eq!(
        report["by_model"][0],
        serde_json::json!({"model": "auto", "runs": 1, "input_tokens": 1000, "output_tokens": 10})
    );
    assert_eq!(
        report["by_day"],
        serde_json::json!([{"day": day, "runs": 2, "input_tokens": 1500, "output_tokens": 20}])
    );
    assert_eq!(report["by_session"].as_array().unwrap().len(), 2);
    for key in ["since", "totals", "by_model", "by_day", "by_session"] {
        assert!(report.get(key).is_some(), "{key}");
    }

    let (ok, table) = usage(state.path(), &[]);
    assert!(ok, "{table}");
    assert!(table.contains("2 runs (0 failed), 1 replayed"), "{table}");
    assert!(table.contains("By day"), "{table}");
    assert!(table.contains("By model"), "{table}");
    assert!(
        table.contains("1 damaged ledger line(s) skipped."),
        "{table}"
    );

    let (ok, out) = usage(state.path(), &["--json", "--since", "yesterday"]);
    assert!(!ok);
    assert!(out.contains("--since \"yesterday\""), "{out}");
}
