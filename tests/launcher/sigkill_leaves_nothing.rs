//! Nothing outlives a SIGKILLed launcher (`multi-cursor`) or wrapper (`multi-cursor-claude`):
//! killed in the middle of a Cursor turn whose agent started a tool process (a lingerer in its
//! process group, holding its pipes), Claude Code gets SIGTERM and the agent and the tool are
//! gone within 5 s; a gateway started next on the same state folder recovers the turn as a
//! crash (the interruption notice, no second run).

use std::path::Path;
use std::process::Child;
use std::time::Duration;
use std::time::Instant;

use multi_cursor_test_support::crash;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::gateway::GatewayOptions;
use multi_cursor_test_support::launcher;
use multi_cursor_test_support::scenario;
use multi_cursor_test_support::tmux::Tmux;
use multi_cursor_test_support::wrapper;

use launcher::Launch;

/// Everything of a killed door must be gone within this.
const LIMIT: Duration = Duration::from_secs(5);

/// The crashing turn: the agent starts a tool that outlives it unless its group is ended,
/// streams a little, then hangs.
fn crashing_turn(root: &Path) -> std::path::PathBuf {
    crash::turns(
        root,
        &[
            scenario::INIT,
            "#!spawn-lingerer ms=forever",
            &scenario::delta("halfway"),
            "#!stall",
        ],
    )
}

/// The pid of the child of `parent` whose command line contains `needle`.
fn child_running(parent: u32, needle: &str) -> Option<u32> {
    wrapper::children_of(parent as i32)
        .into_iter()
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|line| String::from_utf8_lossy(&line).contains(needle))
        })
        .map(|pid| pid as u32)
}

/// Waits until `pid` has a live pid file at `path`.
fn pid_in(path: &Path) -> u32 {
    assert!(
        scenario::wait_for(60, || std::fs::read_to_string(path)
            .is_ok_and(|t| t.trim().parse::<u32>().is_ok())),
        "{} never appeared",
        path.display()
    );
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// SIGKILLs `door` and waits until each of `pids` is gone (panics past [`LIMIT`]).
fn kill_and_await(door: &mut Child, pids: &[(&str, u32)]) {
    door.kill().unwrap();
    door.wait().unwrap();
    await_gone(pids);
}

/// Waits until each of `pids` is gone, saying after how long (panics past [`LIMIT`]).
fn await_gone(pids: &[(&str, u32)]) {
    let killed = Instant::now();
    for (what, pid) in pids {
        assert!(
            scenario::wait_for(LIMIT.as_secs(), || scenario::process_gone(*pid)),
            "{what} ({pid}) outlived its killed parent by {LIMIT:?}"
        );
        eprintln!("{what} gone {:?} after the SIGKILL", killed.elapsed());
    }
}

/// Runs the scripted Claude Code behind `spawn` (the launcher or the wrapper), starts the
/// crashing turn through its gateway as Claude Code would, SIGKILLs the door and checks that
/// nothing is left and that the next gateway recovers the turn.
fn killed_mid_turn(spawn: fn(&mut Launch) -> Child) {
    let root = tempfile::tempdir().unwrap();
    let lingerer_file = root.path().join("lingerer.pid");
    let turns = crashing_turn(root.path());
    let mut launch = Launch::scripted()
        .env("FAKE_CLAUDE_WAIT_TERM", "1")
        .env("FAKE_AGENT_SCENARIO", &turns)
        .env("FAKE_AGENT_CHAT_ID", crash::CHAT)
        .env("FAKE_AGENT_LINGERER_PIDFILE", &lingerer_file)
        .args(["-p", "migrate the database"]);
    let mut door = spawn(&mut launch);
    launcher::wait_for_file(
        &launch.dump.with_extension("ready"),
        Duration::from_secs(30),
    );
    let claude = child_running(door.id(), "bin/claude").expect("the scripted claude runs");

    // Claude Code's part: the hook that reports the mode, then the request.
    let env = launch.claude_env();
    let url = env["ANTHROPIC_BASE_URL"].clone();
    let token = env["MULTI_CURSOR_GATEWAY_TOKEN"].clone();
    let client = reqwest::blocking::Client::new();
    let hook = client
        .post(format!("{url}/multi-cursor/hook"))
        .header("x-multi-cursor-token", &token)
        .header("content-type", "application/json")
        .body(
            serde_json::json!({
                "session_id": crash::SESSION,
                "cwd": launch.project,
                "hook_event_name": "UserPromptSubmit",
                "permission_mode": "bypassPermissions",
                "prompt": "migrate the database",
            })
            .to_string(),
        )
        .send()
        .unwrap();
    assert_eq!(hook.status(), 200);
    let body = crash::interrupted_request().to_string();
    // The client gets no answer: the gateway dies under it.
    let asking = std::thread::spawn(move || {
        let _ = client
            .post(format!("{url}/v1/messages"))
            .header("x-multi-cursor-token", token)
            .header("x-claude-code-session-id", crash::SESSION)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .and_then(reqwest::blocking::Response::text);
    });
    let lingerer = pid_in(&lingerer_file);
    let agent = launch.turns()[0]["pid"].as_u64().unwrap() as u32;
    assert!(!scenario::process_gone(agent) && !scenario::process_gone(lingerer));
    // The turn's chat is recorded (what the next gateway resumes).
    let record = gateway::record_file(&launch.state, &launch.project, crash::SESSION, "main");
    assert!(scenario::wait_for(10, || std::fs::read(&record)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|r| r["chatId"] == crash::CHAT)));

    kill_and_await(
        &mut door,
        &[
            ("Claude Code", claude),
            ("the Cursor agent", agent),
            ("the agent's tool", lingerer),
        ],
    );
    assert_eq!(
        launch.dumped("term").as_deref(),
        Some("term\n"),
        "Claude Code got SIGTERM"
    );
    asking.join().unwrap();

    crash::a_restarted_gateway_continues(
        GatewayOptions {
            permission_mode: Some("bypassPermissions".into()),
            env: vec![
                ("FAKE_AGENT_SCENARIO".into(), turns.display().to_string()),
                ("FAKE_AGENT_CHAT_ID".into(), crash::CHAT.into()),
            ],
            state_dir: Some(launch.state.clone()),
            workspace: Some(launch.project.clone()),
            agent_log: Some(launch.agent_log.clone()),
            ..GatewayOptions::default()
        },
        agent,
    );
}

#[test]
fn a_killed_launcher_leaves_nothing_and_the_turn_is_recovered() {
    killed_mid_turn(Launch::spawn);
}

#[test]
fn a_killed_wrapper_leaves_nothing_and_the_turn_is_recovered() {
    killed_mid_turn(Launch::spawn_wrapper);
}

/// The pid of the child of `parent` that is not the fake agent (Claude Code).
fn claude_of(parent: u32) -> u32 {
    wrapper::children_of(parent as i32)
        .into_iter()
        .map(|pid| pid as u32)
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|line| !String::from_utf8_lossy(&line).contains("fake-agent"))
        })
        .expect("Claude Code runs")
}

/// The user's case: the real Claude Code in print mode (`claude -p`) behind the launcher, in
/// a Cursor turn whose agent started a tool; the launcher SIGKILLed.
#[test]
fn a_killed_launcher_ends_the_real_claude_code_in_print_mode() {
    let root = tempfile::tempdir().unwrap();
    let lingerer_file = root.path().join("lingerer.pid");
    let turns = crashing_turn(root.path());
    let mut launch = Launch::real()
        .env("FAKE_AGENT_SCENARIO", &turns)
        .env("FAKE_AGENT_LINGERER_PIDFILE", &lingerer_file)
        .args([
            "-p",
            "migrate the database",
            "--model",
            "multi/cursor/composer-2.5",
            "--permission-mode",
            "bypassPermissions",
        ]);
    let mut door = launch.spawn();
    let lingerer = pid_in(&lingerer_file);
    let agent = launch.turns()[0]["pid"].as_u64().unwrap() as u32;
    let claude = claude_of(door.id());
    kill_and_await(
        &mut door,
        &[
            ("Claude Code", claude),
            ("the Cursor agent", agent),
            ("the agent's tool", lingerer),
        ],
    );
}

/// The user's case in a terminal: the real Claude Code TUI behind the launcher, started from
/// an interactive shell, in a Cursor turn whose agent started a tool; the launcher SIGKILLed.
/// The shell gets the terminal back and takes commands; no Claude Code is left drawing.
#[test]
fn a_killed_launcher_gives_the_terminal_back_to_the_shell() {
    let root = tempfile::tempdir().unwrap();
    let lingerer_file = root.path().join("lingerer.pid");
    let turns = crashing_turn(root.path());
    let launch = Launch::real()
        .env("FAKE_AGENT_SCENARIO", &turns)
        .env("FAKE_AGENT_LINGERER_PIDFILE", &lingerer_file)
        .args([
            "--model",
            "multi/cursor/composer-2.5",
            "--permission-mode",
            "bypassPermissions",
        ]);
    let script = launch.script();
    let shell = launch.dir.path().join("shell.sh");
    std::fs::write(
        &shell,
        "#!/bin/sh\nexec env -i PATH=\"$PATH\" TERM=xterm-256color PS1='shell-ready$ ' bash --norc --noprofile -i\n",
    )
    .unwrap();
    std::fs::set_permissions(&shell, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let tmux = Tmux::start(launch.dir.path(), &shell);
    tmux.wait_for("the shell", Duration::from_secs(10), |pane| {
        pane.contains("shell-ready$")
    });
    tmux.send(&[script.to_str().unwrap(), "Enter"]);
    let pane = tmux.wait_for("Claude Code", Duration::from_secs(60), |pane| {
        pane.contains("Yes, I accept") || pane.contains("bypass permissions on")
    });
    if pane.contains("Yes, I accept") {
        // Claude Code asks once to confirm bypassPermissions (the mode Cursor turns run in).
        tmux.send(&["Down"]);
        tmux.send(&["Enter"]);
        tmux.wait_for("the prompt", Duration::from_secs(60), |pane| {
            pane.contains("bypass permissions on")
        });
    }
    tmux.send(&["migrate the database"]);
    std::thread::sleep(Duration::from_millis(500));
    tmux.send(&["Enter"]);
    let lingerer = pid_in(&lingerer_file);
    let agent = launch.turns()[0]["pid"].as_u64().unwrap() as u32;
    let launcher = wrapper::children_of(tmux.pane_pid())
        .into_iter()
        .map(|pid| pid as u32)
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|line| String::from_utf8_lossy(&line).contains("multi-cursor"))
        })
        .expect("the launcher runs under the shell");
    let claude = claude_of(launcher);

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(launcher as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    await_gone(&[
        ("Claude Code", claude),
        ("the Cursor agent", agent),
        ("the agent's tool", lingerer),
    ]);
    tmux.send(&["echo back-$((40+2))", "Enter"]);
    let pane = tmux.wait_for("the shell", Duration::from_secs(10), |pane| {
        pane.contains("back-42")
    });
    eprintln!("{pane}");
    // Nothing started for this launch runs any more (its settings live in its TMPDIR).
    let tmp = launch.tmp.display().to_string();
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| !scenario::process_gone(*pid))
        .filter_map(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(&tmp))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}
