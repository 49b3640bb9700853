//! The launcher remembers the agent's `--version`/`--help` by path, time and size; a wrapper
//! script whose environment changed keeps all three. When a run then refuses `--auto-review`,
//! which the remembered `--help` listed, the probe is forgotten and the next start asks again.

use multi_cursor_test_support::fake_agent::help_without_auto_review;
use multi_cursor_test_support::launcher;

use launcher::Launch;

fn remembered(launch: &Launch) -> String {
    std::fs::read_to_string(launch.state.join("agent-probe.json")).unwrap_or_default()
}

fn auto_review_flags(launch: &Launch) -> Vec<bool> {
    launch
        .turns()
        .iter()
        .map(|turn| {
            turn["argv"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == "--auto-review"))
        })
        .collect()
}

#[test]
fn a_run_refusing_a_remembered_flag_makes_the_next_start_probe_again() {
    let args = [
        "-p",
        "explain the build script",
        "--model",
        "multi/cursor/composer-2.5",
        "--permission-mode",
        "auto",
    ];
    let mut launch = Launch::real().args(args);
    let first = launch.run();
    assert_eq!(first.status, Some(0), "{first:?}");
    assert!(
        remembered(&launch).contains("\"supports_auto_review\": true"),
        "{}",
        remembered(&launch)
    );
    assert_eq!(auto_review_flags(&launch), [true]);

    // The same executable now runs a CLI without --auto-review, which refuses the flag as
    // Commander does.
    let scenario = launch.dir.path().join("refuses.scenario");
    std::fs::write(
        &scenario,
        "#!stderr error: unknown option '--auto-review'\n#!exit 1\n",
    )
    .unwrap();
    let help = help_without_auto_review(launch.dir.path());
    let mut launch = launch
        .env("FAKE_AGENT_HELP_FILE", &help)
        .env("FAKE_AGENT_SCENARIO", &scenario);
    let second = launch.run();
    let said = format!("{}{}", second.stdout, second.stderr);
    assert!(
        said.contains("unknown option '--auto-review'"),
        "{second:?}"
    );
    assert_eq!(
        auto_review_flags(&launch),
        [true, true],
        "the stale probe's flag"
    );
    assert!(
        !remembered(&launch).contains("supports_auto_review"),
        "the run showed the probe wrong: forgotten: {}",
        remembered(&launch)
    );

    // The next start asks the agent again and runs it without the flag.
    let mut launch = launch.env_remove("FAKE_AGENT_SCENARIO");
    let third = launch.run();
    assert_eq!(third.status, Some(0), "{third:?}");
    assert_eq!(auto_review_flags(&launch), [true, true, false]);
    assert!(
        remembered(&launch).contains("\"supports_auto_review\": false"),
        "{}",
        remembered(&launch)
    );
}
