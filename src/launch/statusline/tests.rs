use std::io::BufRead;
use std::io::BufReader;
use std::io::Write;
use std::net::TcpListener;
use std::time::Duration;
use std::time::Instant;

use super::chain::UserCommand;
use super::chain::compose;
use super::*;
use crate::spend::Budget;
use crate::spend::LiveSpend;
use crate::spend::TokenFigures;

fn spend(runs: u64, estimated: bool) -> SessionSpend {
    SessionSpend {
        session: "s1".into(),
        model: Some("composer-2.5".into()),
        runs,
        replays: 3,
        tokens: TokenFigures {
            input_tokens: 29_812,
            output_tokens: 1_204,
            estimated,
            ..TokenFigures::default()
        },
        live: None,
        budgets: Vec::new(),
    }
}

#[test]
fn a_session_reads_as_its_runs_and_tokens() {
    assert_eq!(
        render(&spend(3, false)).as_deref(),
        Some("Cursor composer-2.5 · 3 runs · 29.8k in / 1204 out")
    );
    assert_eq!(
        render(&spend(1, true)).as_deref(),
        Some("Cursor composer-2.5 · 1 run · 29.8k in / 1204 out (est.)")
    );
    assert_eq!(
        render(&spend(12_345, false)).as_deref(),
        Some("Cursor composer-2.5 · 12.3k runs · 29.8k in / 1204 out")
    );
}

#[test]
fn a_session_that_never_ran_cursor_shows_nothing() {
    assert_eq!(render(&spend(0, false)), None);
    assert_eq!(render(&SessionSpend::default()), None);
}

#[test]
fn a_live_run_shows_its_model_time_and_last_action() {
    let mut live = spend(2, false);
    live.live = Some(LiveSpend {
        model: "auto".into(),
        running_secs: 42,
        last_action: Some("Read \u{1b}[31msrc/lib.rs\u{1b}[0m\nand more".into()),
    });
    assert_eq!(
        render(&live).as_deref(),
        Some("Cursor auto · running 42 s · Read src/lib.rs and more")
    );
    live.live = Some(LiveSpend {
        model: "auto".into(),
        running_secs: 185,
        last_action: None,
    });
    assert_eq!(
        render(&live).as_deref(),
        Some("Cursor auto · running 3 min 5 s")
    );
    assert_eq!(running(3_720), "1 h 2 min");
}

fn budget(variable: Budget, limit: u64, used: u64) -> BudgetUse {
    BudgetUse {
        variable,
        limit,
        used,
        left: limit.saturating_sub(used),
    }
}

#[test]
fn the_tightest_budget_is_the_least_left_for_its_limit() {
    assert_eq!(budget_part(&[]), None);
    assert_eq!(
        budget_part(&[budget(Budget::Turns, 10, 3)]).as_deref(),
        Some("7 of 10 turns left")
    );
    // 37.7k of 50.0k (75 %) is tighter than 8 of 10 (80 %); the daily one says so.
    let budgets = [
        budget(Budget::Turns, 10, 2),
        budget(Budget::DailyTokens, 50_000, 12_300),
        budget(Budget::Tokens, 2_000_000, 100),
    ];
    assert_eq!(
        budget_part(&budgets).as_deref(),
        Some("37.7k of 50.0k tokens left today")
    );
    assert_eq!(
        budget_part(&[
            budget(Budget::Tokens, 2_000_000, 1_900_000),
            budget(Budget::Turns, 10, 2)
        ])
        .as_deref(),
        Some("100.0k of 2.0M tokens left")
    );
    // Equally tight: the first (turns, tokens, daily, as the gateway lists them).
    assert_eq!(
        budget_part(&[
            budget(Budget::Turns, 10, 5),
            budget(Budget::Tokens, 100, 50)
        ])
        .as_deref(),
        Some("5 of 10 turns left")
    );
}

#[test]
fn a_used_up_budget_names_its_variable() {
    let budgets = [
        budget(Budget::Turns, 1_000, 999),
        budget(Budget::Tokens, 500, 600),
        budget(Budget::DailyTokens, 0, 0),
    ];
    assert_eq!(
        budget_part(&budgets).as_deref(),
        Some("budget reached (MULTI_CURSOR_BUDGET_TOKENS)")
    );
    assert_eq!(
        budget_part(&[budget(Budget::DailyTokens, 0, 0)]).as_deref(),
        Some("budget reached (MULTI_CURSOR_BUDGET_DAILY_TOKENS)")
    );
}

#[test]
fn the_budget_ends_the_line() {
    let mut spent = spend(3, false);
    spent.budgets = vec![budget(Budget::Turns, 10, 3)];
    assert_eq!(
        render(&spent).as_deref(),
        Some("Cursor composer-2.5 · 3 runs · 29.8k in / 1204 out · 7 of 10 turns left")
    );
    spent.live = Some(LiveSpend {
        model: "auto".into(),
        running_secs: 42,
        last_action: Some("Read src/lib.rs".into()),
    });
    spent.budgets = vec![budget(Budget::Turns, 3, 3)];
    assert_eq!(
        render(&spent).as_deref(),
        Some(
            "Cursor auto · running 42 s · Read src/lib.rs · budget reached (MULTI_CURSOR_BUDGET_TURNS)"
        )
    );
    // A session that never ran Cursor still sees the gateway's budget.
    let quiet = SessionSpend {
        budgets: vec![budget(Budget::DailyTokens, 50_000, 37_700)],
        ..SessionSpend::default()
    };
    assert_eq!(
        render(&quiet).as_deref(),
        Some("Cursor · 12.3k of 50.0k tokens left today")
    );
}

#[test]
fn session_ids_are_one_path_segment() {
    assert_eq!(
        path_segment("3f2a9c1e-0b7d-4c55-9a43-1e2f3a4b5c6d"),
        "3f2a9c1e-0b7d-4c55-9a43-1e2f3a4b5c6d"
    );
    assert_eq!(path_segment("a/b c?"), "a%2Fb%20c%3F");
}

#[test]
fn ours_ends_the_last_line_of_theirs() {
    assert_eq!(
        compose(Some("main ✓\n"), Some("Cursor auto")),
        "main ✓ · Cursor auto"
    );
    assert_eq!(
        compose(Some("row one\nrow two\r\n"), Some("Cursor auto")),
        "row one\nrow two · Cursor auto"
    );
    assert_eq!(compose(Some("theirs\n"), None), "theirs");
    assert_eq!(compose(Some("\n"), Some("Cursor auto")), "Cursor auto");
    assert_eq!(compose(None, Some("Cursor auto")), "Cursor auto");
    assert_eq!(compose(None, None), "");
}

#[test]
fn a_chained_command_gets_the_same_stdin() {
    // The status-line command runs through /bin/sh here (PowerShell or Git Bash on Windows).
    crate::platform::testing::skip_unless!(crate::platform::testing::posix_shell());
    let command = UserCommand::spawn("read -r line; echo \"mine: $line\"", b"{\"a\":1}\n").unwrap();
    let out = command.output(Instant::now() + Duration::from_secs(5));
    assert_eq!(out.as_deref(), Some("mine: {\"a\":1}\n"));
}

#[test]
fn a_chained_command_that_hangs_is_cut_at_its_timeout() {
    // The status-line command runs through /bin/sh here (PowerShell or Git Bash on Windows).
    crate::platform::testing::skip_unless!(crate::platform::testing::posix_shell());
    let started = Instant::now();
    let command = UserCommand::spawn("echo early; sleep 30", b"{}").unwrap();
    let out = command.output(Instant::now() + Duration::from_millis(300));
    assert_eq!(out, None);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_chained_command_that_fails_leaves_its_line_out() {
    // The status-line command runs through /bin/sh here (PowerShell or Git Bash on Windows).
    crate::platform::testing::skip_unless!(crate::platform::testing::posix_shell());
    let command = UserCommand::spawn("echo broken; exit 3", b"{}").unwrap();
    assert_eq!(
        command.output(Instant::now() + Duration::from_secs(5)),
        None
    );
    let command = UserCommand::spawn("true", b"{}").unwrap();
    assert_eq!(
        command
            .output(Instant::now() + Duration::from_secs(5))
            .as_deref(),
        Some("")
    );
}

/// A one-request server answering `status` with `body` after `delay`; returns its URL and
/// the request line it saw.
fn server(status: u16, body: String, delay: Duration) -> (String, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut head = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                break;
            }
            head.push_str(&line);
        }
        tx.send(head).unwrap();
        std::thread::sleep(delay);
        let mut stream = stream;
        let _ = write!(
            stream,
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    (url, rx)
}

#[test]
fn the_gateway_is_asked_about_the_session() {
    let body = serde_json::to_string(&spend(2, true)).unwrap();
    let (url, seen) = server(200, body, Duration::ZERO);
    let address = GatewayAddress {
        url,
        token: "tok".into(),
    };
    let got = fetch_spend(address, "s 1", Instant::now() + Duration::from_secs(5));
    assert_eq!(got, Some(spend(2, true)));
    let head = seen.recv().unwrap();
    assert!(
        head.starts_with("GET /multi-cursor/spend/s%201 HTTP/1.1\r\n"),
        "{head}"
    );
    assert!(head.contains("x-multi-cursor-token: tok\r\n"), "{head}");
}

#[test]
fn a_slow_or_failing_gateway_gives_nothing_in_time() {
    let (url, _seen) = server(200, "{}".into(), Duration::from_secs(3));
    let address = GatewayAddress {
        url,
        token: String::new(),
    };
    let started = Instant::now();
    assert_eq!(
        fetch_spend(address, "s1", Instant::now() + OUR_DEADLINE),
        None
    );
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );

    let (url, _seen) = server(404, "{}".into(), Duration::ZERO);
    let address = GatewayAddress {
        url,
        token: String::new(),
    };
    assert_eq!(
        fetch_spend(address, "s1", Instant::now() + Duration::from_secs(5)),
        None
    );
    let nobody = GatewayAddress {
        url: "http://127.0.0.1:9".into(),
        token: String::new(),
    };
    assert_eq!(
        fetch_spend(nobody, "s1", Instant::now() + Duration::from_secs(5)),
        None
    );
}
