//! `--list-models` / `models` print an ANSI-coloured listing by default, or a supplied capture
//! verbatim; `--version` and `--help` answer like the real CLI or from override files.

use crate::common;

use common::Scratch;
use common::fake;

#[test]
fn default_listing_is_coloured_like_the_real_cli() {
    for arg in ["--list-models", "models"] {
        let output = fake().arg(arg).output().unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains("\x1b["), "no ANSI in {text:?}");
        assert!(text.starts_with("\x1b[2mAvailable models\x1b[22m\n\n"));
        assert!(text.contains(
            "\x1b[36mauto\x1b[39m \x1b[2m- Auto\x1b[22m\x1b[2m (current, default)\x1b[22m\n"
        ));
        for id in [
            "composer-2.5",
            "cursor-grok-4.7",
            "gpt-5.3-codex-xhigh",
            "claude-opus-4-8-thinking",
        ] {
            assert!(
                text.contains(&format!("\x1b[36m{id}\x1b[39m")),
                "{id} missing"
            );
        }
        assert!(text.contains("Tip: use --model <id>"));
    }
}

#[test]
fn a_supplied_listing_is_printed_verbatim() {
    let scratch = Scratch::new("models-file");
    let listing = "\x1b[2mAvailable models\x1b[22m\n\n\x1b[36mx-1\x1b[39m \x1b[2m- X One\x1b[22m\n";
    let path = scratch.write("models.txt", listing);
    let output = fake()
        .arg("--list-models")
        .env("FAKE_AGENT_MODELS", &path)
        .output()
        .unwrap();
    assert_eq!(output.stdout, listing.as_bytes());
}

#[test]
fn version_and_help_answer_like_cursor_or_from_overrides() {
    let version = fake().arg("--version").output().unwrap();
    assert_eq!(version.stdout, b"2026.09.18-9a7762b\n");
    let custom = fake()
        .arg("-v")
        .env("FAKE_AGENT_VERSION", "2026.01.02-80e4d9b")
        .output()
        .unwrap();
    assert_eq!(custom.stdout, b"2026.01.02-80e4d9b\n");

    let help = String::from_utf8(fake().arg("--help").output().unwrap().stdout).unwrap();
    assert!(help.contains("Start the Cursor Agent"));
    assert!(help.contains("--auto-review"));

    let scratch = Scratch::new("help-file");
    let grok = scratch.write("grok-help.txt", "Grok CLI by xAI\nUsage: agent [options]\n");
    let output = fake()
        .arg("-h")
        .env("FAKE_AGENT_HELP_FILE", &grok)
        .output()
        .unwrap();
    assert_eq!(output.stdout, b"Grok CLI by xAI\nUsage: agent [options]\n");
}
