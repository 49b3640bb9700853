//! A scenario directory plays its files in name order, one per invocation, repeating the last.

use crate::common;

use common::Scratch;
use common::fake;
use common::run_with_stdin;

#[test]
fn invocations_walk_the_directory_in_order() {
    let scratch = Scratch::new("sequence");
    scratch.write("turns/02-second", "second {{chat_id}}\n");
    scratch.write("turns/01-first", "first {{chat_id}}\n");
    scratch.write("turns/.hidden", "never\n");
    let log = scratch.join("calls.jsonl");
    let outputs: Vec<String> = (0..3)
        .map(|_| {
            let output = run_with_stdin(
                fake()
                    .args(["-p", "--trust", "--resume", "chat-9"])
                    .env("FAKE_AGENT_SCENARIO", scratch.join("turns"))
                    .env("FAKE_AGENT_LOG", &log),
                "prompt",
            );
            assert!(output.status.success(), "{output:?}");
            String::from_utf8(output.stdout).unwrap()
        })
        .collect();
    assert_eq!(
        outputs,
        ["first chat-9\n", "second chat-9\n", "second chat-9\n"]
    );
}

#[test]
fn an_explicit_counter_file_is_used() {
    let scratch = Scratch::new("sequence-counter");
    scratch.write("turns/a", "A\n");
    scratch.write("turns/b", "B\n");
    let counter = scratch.join("counter");
    let run = || {
        let output = run_with_stdin(
            fake()
                .args(["-p", "--trust"])
                .env("FAKE_AGENT_SCENARIO", scratch.join("turns"))
                .env("FAKE_AGENT_COUNTER", &counter),
            "",
        );
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(run(), "A\n");
    assert_eq!(run(), "B\n");
    assert_eq!(std::fs::read(&counter).unwrap().len(), 2);
}

#[test]
fn a_directory_without_a_counter_is_misuse() {
    let scratch = Scratch::new("sequence-misuse");
    scratch.write("turns/a", "A\n");
    let output = run_with_stdin(
        fake()
            .args(["-p", "--trust"])
            .env("FAKE_AGENT_SCENARIO", scratch.join("turns")),
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("FAKE_AGENT_COUNTER"));
}
