//! `agent --list-models` output (coloured or plain) parses into the account's models.

use crate::cursor::catalog::CatalogModel;
use crate::cursor::catalog::ListModels;
use crate::cursor::catalog::parse_list_models;
use crate::text::strip_ansi;

const ANSI: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/list-models/ansi.txt"
));
const PLAIN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/list-models/plain.txt"
));
const EMPTY: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/list-models/empty.txt"
));

fn model(id: &str, display_name: &str, current: bool, default: bool) -> CatalogModel {
    CatalogModel {
        id: id.to_string(),
        display_name: display_name.to_string(),
        current,
        default,
    }
}

#[test]
fn coloured_output_parses_every_model_line() {
    let expected = vec![
        model("auto", "Auto", false, true),
        model("composer-2.5", "Composer 2.5", true, false),
        model("composer-2", "Composer 2", false, false),
        model("composer-2-fast", "Composer 2 Fast", false, false),
        model("cursor-grok-4.7", "Grok 4.7", false, false),
        model("cursor-grok-4.7-high", "Grok 4.7 High", false, false),
        model("gpt-5.3-codex", "Codex 5.3", false, false),
        model("gpt-5.3-codex-low", "Codex 5.3 Low", false, false),
        model("gpt-5.3-codex-high", "Codex 5.3 High", false, false),
        model("gpt-5.3-codex-xhigh", "Codex 5.3 Extra High", false, false),
        model("gpt-5.3-codex-fast", "Codex 5.3 Fast", false, false),
        model(
            "gpt-5.3-codex-high-fast",
            "Codex 5.3 High Fast",
            false,
            false,
        ),
        model("gpt-5.6-sol-high", "GPT-5.6 Sol High", false, false),
        model("claude-opus-4-8", "Claude Opus 4.8", false, false),
        model(
            "claude-opus-4-8-thinking",
            "Claude Opus 4.8 Thinking",
            false,
            false,
        ),
        // Split on the first ` - `: the rest belongs to the display name.
        model("gemini-3.1-pro", "Gemini 3.1 Pro - Preview", false, false),
        // A parenthesis that is not a marker stays in the name.
        model("sonnet-4.6", "Sonnet 4.6 (1M)", false, false),
    ];
    assert_eq!(parse_list_models(ANSI), ListModels::Models(expected));
}

#[test]
fn plain_output_parses_like_coloured_output() {
    assert_eq!(parse_list_models(PLAIN), parse_list_models(ANSI));
    assert_eq!(strip_ansi(ANSI), PLAIN);
}

#[test]
fn both_markers_are_read() {
    let parsed = parse_list_models("Available models\n\nauto - Auto (current, default)\n");
    assert_eq!(
        parsed,
        ListModels::Models(vec![model("auto", "Auto", true, true)])
    );
}

#[test]
fn no_models_line_is_its_own_outcome() {
    assert_eq!(parse_list_models(EMPTY), ListModels::NoModelsForAccount);
}

#[test]
fn unparseable_lines_are_skipped() {
    let text = "Loading models…\n\
                Available models\n\
                \n\
                bad id - Has a space\n\
                weird/id - Slash\n\
                composer-2.5 - Composer 2.5\n\
                composer-2.5 - Duplicate keeps the first\n\
                lonely-id\n\
                nameless - \n\
                Tip: use --model <id> (or /model <id> in interactive mode) to switch.\n";
    assert_eq!(
        parse_list_models(text),
        ListModels::Models(vec![model("composer-2.5", "Composer 2.5", false, false)])
    );
}

#[test]
fn output_without_models_is_unrecognised() {
    assert_eq!(parse_list_models(""), ListModels::Unrecognised);
    assert_eq!(
        parse_list_models("Available models\n\nTip: use --model <id> to switch.\n"),
        ListModels::Unrecognised
    );
}
