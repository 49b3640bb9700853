//! The launcher starts Claude Code with its own plugin (`--plugin-dir`): the copy compiled into
//! the binary, written once into the state folder, or the `plugin/` folder beside the binary's
//! `bin/` folder (the npm packages' layout); `MULTI_CURSOR_BIN` names the launcher for the
//! plugin's shim; `MULTI_CURSOR_PLUGIN=off` leaves the flag out. Under the real Claude Code the
//! launched session has the plugin's commands from that folder, once, even with the
//! same plugin installed from the marketplace.

use std::path::Path;
use std::path::PathBuf;

use multi_cursor_test_support::launcher;
use multi_cursor_test_support::plugin;

use launcher::Launch;

/// The `--plugin-dir` value the scripted `claude` was given, if any.
fn plugin_dir(launch: &Launch) -> Option<PathBuf> {
    launch.claude_option("--plugin-dir").map(PathBuf::from)
}

fn checkout_file(path: &str) -> Vec<u8> {
    std::fs::read(plugin::checkout().join("plugin").join(path)).unwrap()
}

#[test]
fn the_compiled_in_plugin_is_written_once_and_passed() {
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let folder = plugin_dir(&launch).expect("--plugin-dir given");
    assert_eq!(folder.parent().unwrap(), launch.state.join("plugin"));
    let name = folder.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(concat!(env!("CARGO_PKG_VERSION"), "-")),
        "{name}"
    );
    for file in [
        ".claude-plugin/plugin.json",
        "commands/status.md",
        "scripts/multi-cursor",
    ] {
        assert_eq!(
            std::fs::read(folder.join(file)).unwrap(),
            checkout_file(file),
            "{file}"
        );
    }
    assert!(!folder.join("package.json").exists(), "no npm files");
    assert!(
        !folder.join("hooks").exists(),
        "no hooks: they speak in plain sessions only"
    );
    let env = launch.claude_env();
    let helper = std::fs::canonicalize(multi_cursor_test_support::multi_cursor_bin()).unwrap();
    assert_eq!(Path::new(&env["MULTI_CURSOR_BIN"]), helper);

    // A second launch uses the same copy as it is.
    let written = std::fs::metadata(folder.join("README.md"))
        .unwrap()
        .modified()
        .unwrap();
    let mut launch = launch.clear_args().args(["-p", "again"]);
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(plugin_dir(&launch), Some(folder.clone()));
    let again = std::fs::metadata(folder.join("README.md"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(written, again);
}

#[test]
fn the_switch_turns_it_off_and_a_bad_value_is_refused() {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_PLUGIN", "off")
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    assert_eq!(plugin_dir(&launch), None);
    assert!(!launch.state.join("plugin").exists());

    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_PLUGIN", "sometimes")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_ne!(output.status, Some(0));
    assert!(
        output.stderr.contains("MULTI_CURSOR_PLUGIN=\"sometimes\""),
        "{output:?}"
    );
    assert!(launch.claude_argv().is_none(), "claude not started");
}

#[test]
fn the_users_own_multi_cursor_plugin_dir_is_the_only_one() {
    let development = plugin::checkout().join("plugin");
    let mut launch = Launch::scripted()
        .arg("--plugin-dir")
        .arg(&development)
        .args(["-p", "hi"]);
    assert_eq!(launch.run().status, Some(0));
    let argv = launch.claude_argv().unwrap();
    let given = argv.iter().filter(|a| *a == "--plugin-dir").count();
    assert_eq!(given, 1, "{argv:?}");
    assert_eq!(plugin_dir(&launch), Some(development));
}

/// The npm layout in a new folder: `<package>/bin/multi-cursor` (this binary) and
/// `<package>/plugin/` with the checkout's manifest and one command, in the target folder so
/// the binary can be hard-linked rather than copied. Returns (package, executable, plugin).
fn npm_layout() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let package = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let exe = package.path().join("bin/multi-cursor");
    std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
    let binary = multi_cursor_test_support::multi_cursor_bin();
    if std::fs::hard_link(&binary, &exe).is_err() {
        std::fs::copy(&binary, &exe).unwrap();
    }
    let beside = package.path().join("plugin");
    for file in [".claude-plugin/plugin.json", "commands/status.md"] {
        std::fs::create_dir_all(beside.join(file).parent().unwrap()).unwrap();
        std::fs::write(beside.join(file), checkout_file(file)).unwrap();
    }
    (package, exe, beside)
}

#[test]
fn a_plugin_folder_beside_the_binary_is_used_as_it_is() {
    let (_package, exe, beside) = npm_layout();
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    let output = launch.run_program(&exe);
    assert_eq!(output.status, Some(0), "{output:?}");
    assert_eq!(
        plugin_dir(&launch),
        Some(std::fs::canonicalize(&beside).unwrap())
    );
    assert!(!launch.state.join("plugin").exists(), "nothing written");
}

/// The third probe: a binary unpacked one folder below a shared folder loaded the `plugin/`
/// another user planted there. A folder beside the binary that another user owns (or could
/// change) is not loaded: the launcher says why in one line and passes the written copy.
#[test]
fn a_plugin_folder_beside_the_binary_that_another_user_owns_is_not_used() {
    let (_package, exe, beside) = npm_layout();
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: only root can give the folder to another user");
        return;
    }
    nix::unistd::chown(&beside, Some(nix::unistd::Uid::from_raw(65_534)), None).unwrap();
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    let output = launch.run_program(&exe);
    assert_eq!(output.status, Some(0), "{output:?}");
    let folder = plugin_dir(&launch).expect("--plugin-dir given");
    assert_eq!(folder.parent().unwrap(), launch.state.join("plugin"));
    let said: Vec<&str> = output
        .stderr
        .lines()
        .filter(|l| l.contains("is not loaded"))
        .collect();
    assert_eq!(said.len(), 1, "{output:?}");
    assert!(said[0].contains("owned by uid 65534"), "{}", said[0]);
    assert!(
        said[0].contains(
            &std::fs::canonicalize(&beside)
                .unwrap()
                .display()
                .to_string()
        ),
        "{}",
        said[0]
    );
}

/// The init event of a `--output-format stream-json --verbose` run.
fn init_event(stdout: &str) -> serde_json::Value {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| e["type"] == "system" && e["subtype"] == "init")
        .expect("an init event")
}

#[test]
fn a_launched_session_has_the_binarys_plugin_once_over_a_marketplace_install() {
    // Measured on the pinned build and on the newest (2.1.337 replaces it as 2.1.328 does).
    for claude in multi_cursor_test_support::claude::builds() {
        over_a_marketplace_install_on(&claude);
    }
}

fn over_a_marketplace_install_on(claude: &std::path::Path) {
    let launch = Launch::real_on(claude);
    plugin::install(&launch.home, &launch.project);
    // No multi-cursor on PATH: the plugin's command runs the launcher through MULTI_CURSOR_BIN.
    let mut launch = launch.env("PATH", "/usr/bin:/bin").args([
        "-p",
        "/multi-cursor:status",
        "--model",
        plugin::CURSOR_MODEL,
        "--output-format",
        "stream-json",
        "--verbose",
    ]);
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");

    let init = init_event(&output.stdout);
    let ours: Vec<&serde_json::Value> = init["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"] == "multi-cursor")
        .collect();
    assert_eq!(ours.len(), 1, "{}", init["plugins"]);
    assert_eq!(ours[0]["source"], "multi-cursor@inline");
    let path = PathBuf::from(ours[0]["path"].as_str().unwrap());
    assert_eq!(path.parent().unwrap(), launch.state.join("plugin"));
    let commands = init["slash_commands"].as_array().unwrap();
    let status = commands
        .iter()
        .filter(|c| *c == "multi-cursor:status")
        .count();
    assert_eq!(status, 1, "{commands:?}");

    // One SessionStart hook ran, silent: the launcher's own (`--settings`). The launched
    // plugin has none, and it replaces the marketplace copy, whose hook would be a second.
    let hooks: Vec<serde_json::Value> = output
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["subtype"] == "hook_response" && e["hook_event"] == "SessionStart")
        .collect();
    assert_eq!(hooks.len(), 1, "{hooks:?}");
    for hook in &hooks {
        assert_eq!(hook["exit_code"], 0, "{hook}");
        assert_eq!(hook["stdout"], "", "{hook}");
    }

    // The command's helper was this launcher, answering for this session's gateway.
    let result = launcher::stream_result(&output.stdout);
    let answer = result["result"].as_str().unwrap();
    assert!(answer.contains("gateway pid"), "{answer}");
    assert!(
        answer.contains(&format!(
            "Cursor agent: {}",
            multi_cursor_test_support::gateway::fake_agent().display()
        )),
        "{answer}"
    );
    assert!(!answer.contains("not installed"), "{answer}");
}
