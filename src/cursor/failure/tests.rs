use std::path::Path;

use super::*;

/// A run with only `stderr`, exit 1.
fn stderr_run(stderr: &str, reached: Reached) -> RunFailure {
    classify_run(&RunEnd {
        stderr: stderr.as_bytes(),
        stdout_text: &[],
        stdout_failure: None,
        exit: Exit::Code(1),
        reached,
        resumed_chat: None,
    })
}

fn said(failure: &RunFailure) -> &str {
    match failure {
        RunFailure::UsageLimit { said, .. }
        | RunFailure::AutoOnly { said, .. }
        | RunFailure::Capacity { said, .. }
        | RunFailure::InvalidApiKey { said, .. }
        | RunFailure::LoggedOut { said, .. }
        | RunFailure::BadModel { said, .. }
        | RunFailure::WorkspaceTrust { said, .. }
        | RunFailure::ResumeRefused { said, .. }
        | RunFailure::ChatInUse { said, .. } => said,
        RunFailure::ServerRefused { reason, .. } => reason,
        RunFailure::Other { last_lines, .. } => last_lines,
        RunFailure::Killed { .. } => "",
    }
}

const LEGACY_USAGE: &str = "Error: You've hit your usage limit\n  Get Cursor Pro for more Agent usage, unlimited Tab, and more.\n  fallbackModel:\n  spendLimitHit: false\n  chatMessage: *You've hit your free requests limit. [Upgrade to Pro](https://www.cursor.com/api/auth/checkoutDeepControl?tier=pro) for more usage, frontier models, Background Agents, and more. Your usage limits will reset when your monthly cycle ends on 11/17/2025.*\n  spendLimits: [50,100,200]\n";

#[test]
fn a_free_plans_named_model_refusal_is_a_403_naming_auto() {
    let wording = "ActionRequiredError: Named models unavailable Free plans can only use Auto.";
    let failure = stderr_run(wording, Reached::Started);
    assert!(
        matches!(failure, RunFailure::AutoOnly { .. }),
        "{failure:?}"
    );
    assert_eq!(said(&failure), wording);
    let message = failure.to_string();
    assert!(message.contains("`Auto via Cursor` in /model"), "{message}");
    assert!(message.contains("changed nothing"), "{message}");
}

#[test]
fn every_usage_limit_wording_is_a_429_rate_limit_error() {
    for wording in [
        LEGACY_USAGE,
        "ActionRequiredError: You've hit your usage limit Get Cursor Pro for more Agent usage, unlimited Tab, and more.",
        "ActionRequiredError: Increase limits for faster responses You're out of usage.",
        "You're out of usage. Switch to auto or Auto, or ask your admin to increase your limit to continue.",
        "You've hit your hard limit",
        "spendLimitHit: true",
        "You have reached your monthly limit",
        "Please set a new on-demand limit to continue",
        "You\u{2019}ve hit your usage limit",
        "\u{1b}[31mError: You've hit your usage limit\u{1b}[0m",
    ] {
        let failure = stderr_run(wording, Reached::NotStarted);
        assert!(
            matches!(failure, RunFailure::UsageLimit { .. }),
            "{wording:?} → {failure:?}"
        );
        assert_eq!(failure.recovery(), Recovery::None);
        let message = failure.to_string();
        assert!(!message.contains('\u{1b}'), "{message}");
        for way_out in ["Auto via Cursor", "dashboard", "resets"] {
            assert!(message.contains(way_out), "{way_out}: {message}");
        }
    }
}

#[test]
fn the_legacy_usage_banner_is_quoted_whole_on_one_line() {
    let failure = stderr_run(LEGACY_USAGE, Reached::NotStarted);
    let words = said(&failure);
    assert!(
        words.starts_with("Error: You've hit your usage limit Get Cursor Pro"),
        "{words}"
    );
    assert!(words.contains("11/17/2025"), "{words}");
    assert!(words.ends_with("spendLimits: [50,100,200]"), "{words}");
    assert!(!words.contains('\n'));
}

#[test]
fn the_usage_limit_message_reads_in_full() {
    let failure = stderr_run(
        "ActionRequiredError: You've hit your usage limit Get Cursor Pro for more Agent usage, unlimited Tab, and more.",
        Reached::NotStarted,
    );
    assert_eq!(
        failure.to_string(),
        "Cursor's usage limit is reached (Cursor said: “ActionRequiredError: You've hit your usage limit Get Cursor Pro for more Agent usage, unlimited Tab, and more.”). To go on: switch to Cursor's Auto (`Auto via Cursor` in /model), which draws on a separate pool and may still have usage; raise the spend or on-demand limit in Cursor's dashboard (cursor.com/dashboard); or wait until the limit resets. Nothing ran: Cursor stopped before starting the task."
    );
}

#[test]
fn temporary_capacity_is_a_429_worded_as_temporary() {
    for wording in [
        "ConnectError: [resource_exhausted] Error",
        "We're experiencing high load right now",
        "The model is under high demand, please try again",
        "Rate limit exceeded, try again later",
        "Error: 429 Too Many Requests",
    ] {
        let failure = stderr_run(wording, Reached::Started);
        assert!(
            matches!(failure, RunFailure::Capacity { .. }),
            "{wording:?} → {failure:?}"
        );
        let message = failure.to_string();
        assert!(message.contains("temporary"), "{message}");
        assert!(message.contains("not your usage limit"), "{message}");
    }
}

#[test]
fn an_invalid_api_key_is_a_403_naming_cursor_api_key() {
    let stderr = "\u{1b}[33m⚠ Warning: The provided API key is invalid.\u{1b}[39m\nPlease check you have the right key...\n";
    let failure = stderr_run(stderr, Reached::NotStarted);
    assert!(
        matches!(failure, RunFailure::InvalidApiKey { .. }),
        "{failure:?}"
    );
    assert_eq!(
        said(&failure),
        "⚠ Warning: The provided API key is invalid. Please check you have the right key..."
    );
    let message = failure.to_string();
    assert!(message.contains("CURSOR_API_KEY"), "{message}");
    assert!(!message.contains('\u{1b}'), "{message}");
}

#[test]
fn both_authentication_wordings_are_the_logged_out_403() {
    for wording in [
        "Error: Authentication required. Please run 'agent login' first, or set CURSOR_API_KEY environment variable.",
        "Error: Authentication required. Run 'agent login', pass --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN.",
    ] {
        let failure = stderr_run(wording, Reached::NotStarted);
        assert_eq!(
            failure,
            RunFailure::LoggedOut {
                said: wording.to_owned(),
                reached: Reached::NotStarted
            }
        );
        let logged_out = CliFailure::AuthRequired(wording.to_owned()).to_string();
        assert_eq!(
            failure.to_string(),
            format!("{logged_out}. Nothing ran: Cursor stopped before starting the task.")
        );
    }
}

#[test]
fn a_refused_model_and_the_trust_gate_keep_their_400s() {
    let model = stderr_run(
        "Cannot use this model: nope. Available models: auto, composer-2.5, grok-4.7",
        Reached::NotStarted,
    );
    assert!(matches!(model, RunFailure::BadModel { .. }), "{model:?}");
    assert!(model.to_string().contains("multi-cursor --cursor-models"));

    let ids = (0..400).map(|i| format!("model-{i}")).collect::<Vec<_>>();
    let long = stderr_run(
        &format!(
            "Cannot use this model: x. Available models: {}",
            ids.join(", ")
        ),
        Reached::NotStarted,
    );
    assert!(said(&long).chars().count() <= QUOTE_CHARS + 1);
    assert!(said(&long).ends_with('…'));

    let legacy_trust = CliFailure::WorkspaceTrust("⚠ Workspace Trust Required …".to_owned());
    let trust = classify_run(&RunEnd {
        stderr: b"",
        stdout_text: &[],
        stdout_failure: Some(&legacy_trust),
        exit: Exit::Code(0),
        reached: Reached::NotStarted,
        resumed_chat: None,
    });
    assert!(
        matches!(trust, RunFailure::WorkspaceTrust { .. }),
        "{trust:?}"
    );
    assert!(trust.to_string().contains("trust it"));
}

#[test]
fn refused_resumes_fall_back_to_a_fresh_chat() {
    let resume = |stderr: &str, chat: Option<&str>| {
        classify_run(&RunEnd {
            stderr: stderr.as_bytes(),
            stdout_text: &[],
            stdout_failure: None,
            exit: Exit::Code(1),
            reached: Reached::NotStarted,
            resumed_chat: chat,
        })
    };
    let not_uuid = resume(
        "Failed to claim persistent session for chat \"not-a-uuid\": Persistent-session chat ID must be a UUID",
        Some("not-a-uuid"),
    );
    assert!(
        matches!(&not_uuid, RunFailure::ResumeRefused { chat_id: Some(id), .. } if id == "not-a-uuid"),
        "{not_uuid:?}"
    );
    assert_eq!(not_uuid.recovery(), Recovery::FreshChat);
    assert!(not_uuid.to_string().contains("chat not-a-uuid"));

    let none = resume("No previous chats found.", None);
    assert!(
        matches!(none, RunFailure::ResumeRefused { chat_id: None, .. }),
        "{none:?}"
    );
    assert_eq!(none.recovery(), Recovery::FreshChat);

    // Any words naming the chat, from a resumed run that never started.
    let other = resume("Could not load conversation 42", Some("42"));
    assert_eq!(other.recovery(), Recovery::FreshChat, "{other:?}");
    // The same words without a resume are just a failure.
    let plain = resume("Could not load conversation 42", None);
    assert!(matches!(plain, RunFailure::Other { .. }), "{plain:?}");
}

#[test]
fn a_chat_already_in_use_asks_to_reclaim_it() {
    let failure = classify_run(&RunEnd {
        stderr: b"Error: Session ID \"7b710922-0e62-4878-8d70-c780dae6a464\" is already in use.\n",
        stdout_text: &[],
        stdout_failure: None,
        exit: Exit::Code(1),
        reached: Reached::NotStarted,
        resumed_chat: Some("7b710922-0e62-4878-8d70-c780dae6a464"),
    });
    assert!(
        matches!(failure, RunFailure::ChatInUse { .. }),
        "{failure:?}"
    );
    assert_eq!(failure.recovery(), Recovery::ReclaimChat);
    assert!(failure.to_string().contains("another Cursor agent"));
}

#[test]
fn a_server_refusal_is_a_502_with_the_reason() {
    let stderr = "Connection lost, reconnecting to https://agentn.global.api5.cursor.sh (attempt 1)...\nRetry attempt 1...\nRetriableError: [invalid_argument] Workspace context exclusion is not allowed for this user, team, or selected model\n";
    let failure = stderr_run(stderr, Reached::Started);
    assert_eq!(
        failure,
        RunFailure::ServerRefused {
            reason: "RetriableError: [invalid_argument] Workspace context exclusion is not allowed for this user, team, or selected model".to_owned(),
            reached: Reached::Started,
        }
    );
}

#[test]
fn a_run_killed_from_outside_is_said_as_such() {
    let killed = |exit: Exit, stderr: &str| {
        classify_run(&RunEnd {
            stderr: stderr.as_bytes(),
            stdout_text: &[],
            stdout_failure: None,
            exit,
            reached: Reached::Acted,
            resumed_chat: None,
        })
    };
    for (exit, stderr, how) in [
        (Exit::Code(143), "", "(SIGTERM, exit code 143)"),
        (
            Exit::Code(130),
            "Aborting operation...",
            "(SIGINT, exit code 130)",
        ),
        (Exit::Code(137), "", "(SIGKILL, exit code 137)"),
        (Exit::Signal(15), "", "(killed by SIGTERM)"),
        (Exit::Signal(2), "", "(killed by SIGINT)"),
    ] {
        let failure = killed(exit, stderr);
        assert_eq!(
            failure,
            RunFailure::Killed {
                exit,
                reached: Reached::Acted
            }
        );
        let message = failure.to_string();
        assert!(message.contains("stopped from outside"), "{message}");
        assert!(message.contains(how), "{how}: {message}");
        assert!(!message.contains("exit code 0"), "{message}");
        assert!(message.contains("may have changed files"), "{message}");
    }
    // A crash is not a kill from outside.
    let crash = killed(Exit::Signal(11), "");
    assert!(
        crash
            .to_string()
            .contains("(killed by SIGSEGV) and printed no error"),
        "{crash}"
    );
    assert!(matches!(crash, RunFailure::Other { .. }));
    let wrapped = killed(Exit::Code(139), "segmentation fault");
    assert!(matches!(wrapped, RunFailure::Other { .. }), "{wrapped:?}");
    assert!(
        wrapped
            .to_string()
            .contains("(exit code 139; its last words: “segmentation fault”)")
    );
}

#[test]
fn anything_else_is_a_502_with_the_exit_code_and_the_last_lines() {
    let stderr = (1..=8).map(|i| format!("line {i}\n")).collect::<String>();
    let failure = stderr_run(&stderr, Reached::Started);
    assert_eq!(
        failure,
        RunFailure::Other {
            exit: Exit::Code(1),
            last_lines: "line 4 line 5 line 6 line 7 line 8".to_owned(),
            reached: Reached::Started,
        }
    );
    assert_eq!(
        failure.to_string(),
        "Cursor ended without a result (exit code 1; its last words: “line 4 line 5 line 6 line 7 line 8”). Cursor had started but reported no tool call, so it changed nothing in the workspace."
    );

    let stdout = vec!["Something odd happened".to_owned()];
    let from_stdout = classify_run(&RunEnd {
        stderr: b"",
        stdout_text: &stdout,
        stdout_failure: None,
        exit: Exit::Unknown,
        reached: Reached::NotStarted,
        resumed_chat: None,
    });
    assert_eq!(
        from_stdout.to_string(),
        "Cursor ended without a result (its output closed but it had not exited; its last words: “Something odd happened”). Nothing ran: Cursor stopped before starting the task."
    );

    let silent = stderr_run("", Reached::Acted);
    assert_eq!(
        silent.to_string(),
        "Cursor ended without a result (exit code 1) and printed no error. Cursor may have changed files before it stopped; check your workspace before retrying."
    );
}

#[test]
fn only_a_reported_tool_call_says_cursor_may_have_acted() {
    let wording = "ActionRequiredError: Increase limits for faster responses You're out of usage.";
    for (reached, said_acted, said_nothing_ran) in [
        (Reached::NotStarted, false, true),
        (Reached::Started, false, false),
        (Reached::Acted, true, false),
    ] {
        let message = stderr_run(wording, reached).to_string();
        assert_eq!(message.contains("may have changed files"), said_acted);
        assert_eq!(message.contains("Nothing ran"), said_nothing_ran);
    }
    assert_eq!(Reached::from_run(false, false), Reached::NotStarted);
    assert_eq!(Reached::from_run(true, false), Reached::Started);
    assert_eq!(Reached::from_run(true, true), Reached::Acted);
    assert_eq!(Reached::from_run(false, true), Reached::Acted);
}

#[test]
fn exit_statuses_are_read_from_the_process() {
    match crate::platform::testing::exit_status_from_raw(1 << 8) {
        Ok(_) => {
            let raw = |raw| crate::platform::testing::exit_status_from_raw(raw).unwrap();
            assert_eq!(Exit::from(raw(1 << 8)), Exit::Code(1));
            assert_eq!(Exit::from(raw(143 << 8)), Exit::Code(143));
            assert_eq!(Exit::from(raw(15)), Exit::Signal(15));
        }
        Err(reason) => eprintln!("wait statuses not checked: {reason}"),
    }
    assert_eq!(Exit::from(None), Exit::Unknown);
    assert_eq!(Exit::Code(143).outside_signal(), Some("SIGTERM"));
    assert_eq!(Exit::Code(1).outside_signal(), None);
    assert_eq!(Exit::Code(139).outside_signal(), None);
    assert_eq!(Exit::Signal(9).outside_signal(), Some("SIGKILL"));
    assert_eq!(Exit::Signal(64).to_string(), "killed by signal 64");
}

#[test]
fn the_trust_gate_capture_quotes_the_whole_banner() {
    // A `.stderr.txt` capture is the stderr of a run that wrote nothing on stdout (the stream
    // parser's side of the replay is in `cursor::stream`'s `captures_without_result`).
    let capture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cursor-stream-2026/hcn0915-trust-gate.stderr.txt");
    let stderr = std::fs::read_to_string(capture).expect("read capture");
    let failure = stderr_run(&stderr, Reached::NotStarted);
    assert_eq!(
        said(&failure),
        "⚠ Workspace Trust Required Cursor Agent can execute code and access files in this directory. Do you trust the contents of this directory? /hcn-verify/cursor-capture/ws-untrusted To proceed, you can either: • Run 'agent' interactively to decide • Pass --trust, --yolo, or -f if you trust this directory"
    );
}
