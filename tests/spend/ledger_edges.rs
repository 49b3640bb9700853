//! The ledger's edges: a ledger file that ends in a cut line (a crash, a short write on a full
//! disk) does not swallow the next run's line, so `usage` and the daily budget still count
//! it; `usage` sums saturate, so huge figures in a damaged or forged line never wrap to a
//! small number.

use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::gateway::TestGateway;

use super::common::ask;
use super::common::request;

fn month_file(state: &std::path::Path) -> std::path::PathBuf {
    let month = jiff::ZonedDateTime::now().strftime("%Y-%m").to_string();
    state.join("ledger").join(format!("{month}.jsonl"))
}

fn usage_json(state: &std::path::Path) -> serde_json::Value {
    let output = std::process::Command::new(multi_cursor_test_support::multi_cursor_bin())
        .args(["usage", "--json"])
        .env("MULTI_CURSOR_STATE_DIR", state)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_cut_last_line_does_not_swallow_the_next_run() {
    let root = tempfile::tempdir().unwrap();
    let state = root.path().join("state");
    let file = month_file(&state);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for dir in [&state, &file.parent().unwrap().to_path_buf()] {
        multi_cursor_test_support::set_mode(dir, 0o700);
    }
    std::fs::write(&file, r#"{"v":1,"time":"2026-"#).unwrap();
    multi_cursor_test_support::set_mode(&file, 0o600);
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        state_dir: Some(state.clone()),
        ..Default::default()
    });
    assert_eq!(ask(&gw, "cut", None, &request("after the cut")).0, 200);
    gw.wait_idle();
    let report = usage_json(&state);
    assert_eq!(report["totals"]["runs"], 1, "{report:#}");
    assert_eq!(report["totals"]["damaged_lines"], 1, "{report:#}");
}

#[test]
fn usage_sums_saturate() {
    let state = tempfile::tempdir().unwrap();
    let file = month_file(state.path());
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let now = jiff::Timestamp::now();
    let line = |input: u64| {
        format!(
            r#"{{"v":1,"time":"{now}","workspace":"/w","session":"s","worker":"main","route":"multi/cursor/m","model":"m","mode":"force","purpose":"turn","duration_ms":{input},"outcome":"completed","input_tokens":{input},"output_tokens":1,"token_source":"provider"}}"#
        )
    };
    let text = [line(u64::MAX), line(u64::MAX), line(5)].join("\n") + "\n";
    std::fs::write(&file, text).unwrap();
    let report = usage_json(state.path());
    assert_eq!(report["totals"]["runs"], 3, "{report:#}");
    assert_eq!(report["totals"]["input_tokens"], u64::MAX, "{report:#}");
    assert_eq!(
        report["by_model"][0]["input_tokens"],
        u64::MAX,
        "{report:#}"
    );
    assert_eq!(report["totals"]["duration_ms"], u64::MAX, "{report:#}");
}
