//! A model Cursor added after the gateway read its catalog works on first use: a request for
//! an id the catalog does not know makes the gateway ask Cursor for its models again (once),
//! and the run goes ahead on the new model. An id Cursor still does not know is refused with
//! suggestions, and Claude Code's quick re-send of that request does not ask Cursor again.

use multi_cursor_test_support::gateway;

use gateway::GatewayOptions;
use gateway::TestGateway;
use gateway::cursor_request;

/// A listing in the real CLI's coloured format.
fn listing(ids: &[(&str, &str)]) -> String {
    let mut text = String::from("\x1b[2mAvailable models\x1b[22m\n\n");
    for (id, name) in ids {
        text.push_str(&format!("\x1b[36m{id}\x1b[39m \x1b[2m- {name}\x1b[22m\n"));
    }
    text.push_str(
        "\n\x1b[2mTip: use --model <id> (or /model <id> in interactive mode) to switch.\x1b[0m\n",
    );
    text
}

fn model_listings(gw: &TestGateway) -> usize {
    gw.agent_calls()
        .iter()
        .filter(|c| c["kind"] == "models")
        .count()
}

#[test]
fn a_model_added_since_the_catalog_was_read_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models.txt");
    let before = [("auto", "Auto"), ("composer-2.5", "Composer 2.5")];
    std::fs::write(&models, listing(&before)).unwrap();
    let gw = TestGateway::start(GatewayOptions {
        permission_mode: Some("bypassPermissions".into()),
        env: vec![("FAKE_AGENT_MODELS".into(), models.display().to_string())],
        ..GatewayOptions::default()
    });
    let (status, body) = gw.ask(
        "s-first",
        &cursor_request("multi/cursor/composer-2.5", "hello", false),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(model_listings(&gw), 1, "the catalog is read once");

    // Cursor gains a model while the gateway runs.
    let after = [
        ("auto", "Auto"),
        ("composer-2.5", "Composer 2.5"),
        ("gpt-6", "GPT 6"),
    ];
    std::fs::write(&models, listing(&after)).unwrap();
    let (status, body) = gw.ask(
        "s-new",
        &cursor_request("multi/cursor/gpt-6", "hello", false),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(model_listings(&gw), 2, "checked with Cursor again");
    // The fresh list is kept for the next launch's picker rows too.
    let cached = std::fs::read_to_string(gw.state_dir.join("catalog.json")).unwrap();
    assert!(cached.contains("gpt-6"), "{cached}");
    let turns = gw.turns();
    let last = turns.last().unwrap();
    assert_eq!(
        gateway::flag_value(last, "--model").as_deref(),
        Some("gpt-6")
    );

    // Still unknown: a one-line answer (not an API error) naming the close id and what is
    // offered; the re-send does not ask Cursor again.
    for _ in 0..2 {
        let (status, body) = gw.ask(
            "s-typo",
            &cursor_request("multi/cursor/gpt-66", "hello", false),
        );
        assert_eq!(status, 200, "{body}");
        assert!(body.contains("Cursor does not offer"), "{body}");
        assert!(
            body.contains("Close ids: multi/cursor/gpt-6."),
            "suggests the close id: {body}"
        );
        assert!(
            body.contains("Composer 2.5 via Cursor"),
            "what is offered: {body}"
        );
    }
    assert_eq!(model_listings(&gw), 3, "one check for the unknown id");
    assert_eq!(gw.turns().len(), 2, "nothing ran for the unknown id");
}
