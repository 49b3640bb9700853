//! `MULTI_CURSOR_PICKER=all` puts every route the account can run in `/model`: the launcher's
//! `--settings` rows are `--cursor-models --json`'s routes, in its order and with its labels
//! (and `--cursor-models` marks each as a picker row); unset, the rows stay the short list; an
//! unknown value stops the launch with the fix.

use multi_cursor_test_support::launcher;

use launcher::Launch;

fn cursor_models(picker: Option<&str>) -> Vec<serde_json::Value> {
    let mut launch = Launch::scripted().args(["--cursor-models", "--json"]);
    if let Some(value) = picker {
        launch = launch.env("MULTI_CURSOR_PICKER", value);
    }
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    serde_json::from_str(&output.stdout).unwrap()
}

fn picker_rows(picker: Option<&str>) -> Vec<serde_json::Value> {
    let mut launch = Launch::scripted().args(["-p", "hi"]);
    if let Some(value) = picker {
        launch = launch.env("MULTI_CURSOR_PICKER", value);
    }
    let output = launch.run();
    assert_eq!(output.status, Some(0), "{output:?}");
    launch.claude_settings()["modelPicker"]["options"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn all_lists_every_route_as_cursor_models_shows_it() {
    let listed = cursor_models(Some("all"));
    let rows = picker_rows(Some("all"));
    let pairs = |items: &[serde_json::Value]| -> Vec<(String, String)> {
        items
            .iter()
            .map(|item| {
                (
                    item["model"].as_str().unwrap().to_string(),
                    item["label"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(pairs(&rows), pairs(&listed));
    assert!(
        listed.iter().all(|route| route["picker"] == true),
        "{listed:#?}"
    );
    let short = picker_rows(None);
    assert!(short.len() < rows.len(), "{short:#?}");
    assert_eq!(pairs(&rows[..short.len()]), pairs(&short));
    assert_eq!(
        cursor_models(None)
            .iter()
            .filter(|route| route["picker"] == true)
            .count(),
        short.len()
    );
}

#[test]
fn an_unknown_value_stops_the_launch_with_the_fix() {
    let mut launch = Launch::scripted()
        .env("MULTI_CURSOR_PICKER", "everything")
        .args(["-p", "hi"]);
    let output = launch.run();
    assert_ne!(output.status, Some(0), "{output:?}");
    assert!(
        output
            .stderr
            .contains("MULTI_CURSOR_PICKER=\"everything\" is not understood"),
        "{output:?}"
    );
    assert!(
        launch.claude_argv().is_none(),
        "Claude Code was not started"
    );
}
