//! The plugin's SessionStart hook tells the user of a plain `claude` session to start
//! `multi-cursor` for Cursor models, through the hook's `systemMessage` (the one SessionStart
//! output Claude Code 2.1.328 shows the user rather than the model — measured), and says
//! nothing in a session the launcher started (MULTI_CURSOR_GATEWAY_URL/TOKEN set).

use multi_cursor_test_support::claude;
use multi_cursor_test_support::gateway;
use multi_cursor_test_support::plugin;

use claude::ClaudeRun;
use gateway::GatewayOptions;
use gateway::TestGateway;

/// Every SessionStart `hook_response` event of a `--output-format stream-json --verbose` run.
fn session_start_responses(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["type"] == "system" && e["subtype"] == "hook_response")
        .filter(|e| e["hook_event"] == "SessionStart")
        .collect()
}

fn run(run: ClaudeRun) -> Vec<serde_json::Value> {
    let output = run
        .env("PATH", plugin::path_with_helper())
        .args([
            "-p",
            "say hello",
            "--model",
            plugin::CURSOR_MODEL,
            "--output-format",
            "stream-json",
            "--verbose",
        ])
        .run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let responses = session_start_responses(&output.stdout);
    assert_eq!(responses.len(), 1, "the plugin's hook ran once: {output:?}");
    assert_eq!(responses[0]["exit_code"], 0, "{}", responses[0]);
    assert_eq!(responses[0]["hook_name"], "SessionStart:startup");
    responses
}

#[test]
fn plain_sessions_are_told_and_launched_ones_are_not() {
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        ..GatewayOptions::default()
    });
    let home = gw.dir.path().join("claude-home");
    let project = gw.workspace();
    plugin::install(&home, &project);

    // A plain `claude` pointed at some API (here the test gateway), without the launcher's
    // variables.
    let plain = run(ClaudeRun::new(&home, &project)
        .env("ANTHROPIC_BASE_URL", &gw.url)
        .env(
            "ANTHROPIC_CUSTOM_HEADERS",
            format!("x-multi-cursor-token: {}", gw.token),
        ));
    let said: serde_json::Value =
        serde_json::from_str(plain[0]["stdout"].as_str().unwrap()).unwrap();
    let message = said["systemMessage"].as_str().unwrap();
    assert!(
        message.contains("start Claude Code with `multi-cursor`"),
        "{message}"
    );
    assert!(
        !message.contains("not installed"),
        "the helper is on PATH: {message}"
    );

    let launched = run(ClaudeRun::new(&home, &project).gateway(&gw.url, &gw.token));
    assert_eq!(
        launched[0]["stdout"], "",
        "silent when launched: {}",
        launched[0]
    );
}

/// Cursor's agent (2026.10) runs Claude Code's plugin hooks itself, with `CURSOR_PLUGIN_ROOT`
/// set (and `CURSOR_AGENT=1` in its shell): there the plugin's hooks say nothing, so a Cursor
/// worker is never told to start Claude Code with multi-cursor, nor refused a model.
#[test]
fn the_plugins_hooks_are_silent_inside_cursor() {
    let hooks = multi_cursor_test_support::repo_root().join("plugin/hooks");
    let payloads = [
        (
            "session-start",
            r#"{"hook_event_name":"SessionStart","source":"startup","session_id":"s"}"#,
        ),
        (
            "model-switch",
            r#"{"hook_event_name":"PreModelSwitch","to_model":"multi/cursor/composer-2.5","requested_model":"multi/cursor/composer-2.5","source":"command"}"#,
        ),
    ];
    for (hook, payload) in payloads {
        let run = |inside: Option<(&str, &str)>| {
            let mut command = std::process::Command::new(hooks.join(hook));
            command
                .env_clear()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .env("HOME", std::env::temp_dir())
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped());
            if let Some((key, value)) = inside {
                command.env(key, value);
            }
            let mut child = command.spawn().unwrap();
            std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.as_bytes())
                .unwrap();
            let output = child.wait_with_output().unwrap();
            assert!(output.status.success(), "{hook}: {output:?}");
            String::from_utf8(output.stdout).unwrap()
        };
        assert!(!run(None).is_empty(), "{hook} speaks in a plain session");
        for inside in [("CURSOR_PLUGIN_ROOT", "/p"), ("CURSOR_AGENT", "1")] {
            assert_eq!(run(Some(inside)), "", "{hook} with {inside:?}");
        }
    }
}

/// The third probe: a cloned repository's `.claude/settings.local.json` linking to
/// `/proc/self/pagemap` made the SessionStart hook read on for gigabytes (its 1 MiB limit
/// checked the size the file reports, 0 for `/proc` files). Every file the plugin's scripts
/// read is read for at most 1 MiB + 1 byte from the opened file; one over the limit or
/// unreadable is skipped with one line, and the hook still exits 0. `/proc/kallsyms` (several
/// MiB, reported as 0 bytes) stands for the probe's file, whose read has no useful end.
#[test]
fn the_session_start_hook_reads_at_most_its_limit_of_each_file() {
    const OVER: &str = "/proc/kallsyms";
    let mut held = Vec::new();
    let size = std::fs::File::open(OVER)
        .and_then(|file| {
            std::io::Read::read_to_end(&mut std::io::Read::take(file, 2 << 20), &mut held)
        })
        .unwrap_or(0);
    if size <= 1 << 20 || std::fs::metadata(OVER).unwrap().len() != 0 {
        eprintln!("skipped: {OVER} is not here a file reporting 0 bytes and holding over 1 MiB");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let config = dir.path().join("config");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::create_dir_all(config.join("plugins")).unwrap();
    let local = project.join(".claude/settings.local.json");
    std::os::unix::fs::symlink(OVER, &local).unwrap();
    let shared = project.join(".claude/settings.json");
    std::fs::write(&shared, vec![b' '; (1 << 20) + 1]).unwrap();
    // The user's settings are read after both are skipped: their saved route is still named.
    std::fs::write(
        config.join("settings.json"),
        r#"{"model":"multi/cursor/composer-2.5"}"#,
    )
    .unwrap();
    // The shim's install hint reads Claude Code's marketplace list the same way.
    let marketplaces = config.join("plugins/known_marketplaces.json");
    std::os::unix::fs::symlink(OVER, &marketplaces).unwrap();

    let hooks = multi_cursor_test_support::repo_root().join("plugin/hooks");
    let mut command = std::process::Command::new(hooks.join("session-start"));
    command
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.path())
        .env("CLAUDE_PROJECT_DIR", &project)
        .env("CLAUDE_CONFIG_DIR", &config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        br#"{"hook_event_name":"SessionStart","source":"startup","session_id":"s"}"#,
    )
    .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let said: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let message = said["systemMessage"].as_str().unwrap();
    for file in [&local, &shared] {
        let line = format!(
            "multi-cursor: skipped {}: it holds more than 1048576 bytes.",
            file.display()
        );
        assert_eq!(message.matches(&line).count(), 1, "{message}");
    }
    assert!(
        message.contains("saves \"model\": \"multi/cursor/composer-2.5\""),
        "{message}"
    );

    let hint = std::process::Command::new("node")
        .arg("-e")
        .arg("process.stdout.write(require(process.argv[1]).installHint())")
        .arg(hooks.join("../scripts/multi-cursor"))
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.path())
        .env("CLAUDE_CONFIG_DIR", &config)
        .output()
        .unwrap();
    assert!(hint.status.success(), "{hint:?}");
    let hint = String::from_utf8(hint.stdout).unwrap();
    let line = format!(
        "multi-cursor: skipped {}: it holds more than 1048576 bytes.",
        marketplaces.display()
    );
    assert_eq!(hint.lines().filter(|l| *l == line).count(), 1, "{hint}");
}
