//! A picker row's `behavesAs` decides whether Claude Code's effort setting reaches Cursor: for
//! a Cursor id with effort variants (`gpt-5.3-codex` → `-low`, `-high`, `-xhigh`) the chosen
//! effort runs that variant (Claude Code's default for the profile is `high`; `medium` is the
//! id itself); for an id without variants (`composer-2.5`) the effort changes nothing.

use multi_cursor_test_support::launcher;

use launcher::Launch;

fn cursor_model_for(model: &str, effort: Option<&str>) -> String {
    let mut launch = Launch::real()
        .env("MULTI_CURSOR_EXTRA_MODELS", "gpt-5.3-codex")
        .args([
            "-p",
            "say hi",
            "--model",
            model,
            "--permission-mode",
            "bypassPermissions",
        ]);
    if let Some(effort) = effort {
        launch = launch.args(["--effort", effort]);
    }
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    let turns = launch.turns();
    assert_eq!(turns.len(), 1, "{turns:#?}");
    let argv = turns[0]["argv"].as_array().unwrap();
    argv.iter()
        .find_map(|a| a.as_str()?.strip_prefix("--model="))
        .unwrap()
        .to_string()
}

#[test]
fn effort_selects_a_listed_variant_only() {
    let codex = "multi/cursor/gpt-5.3-codex";
    assert_eq!(cursor_model_for(codex, None), "gpt-5.3-codex-high");
    assert_eq!(cursor_model_for(codex, Some("medium")), "gpt-5.3-codex");
    assert_eq!(cursor_model_for(codex, Some("low")), "gpt-5.3-codex-low");
    assert_eq!(
        cursor_model_for("multi/cursor/composer-2.5", Some("low")),
        "composer-2.5"
    );
}
