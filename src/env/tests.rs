use std::collections::BTreeSet;

use super::Audience;
use super::DEFAULT_FIRST_EVENT;
use super::DEFAULT_LOG_FILTER;
use super::DEFAULT_UPSTREAM;
use super::FIRST_EVENT_ENV;
use super::LOG_ENV;
use super::UPSTREAM_ENV;
use super::Unset;
use super::VARIABLES;
use super::reference_table;

#[test]
fn every_variable_is_ours_and_listed_once() {
    let mut seen = BTreeSet::new();
    for variable in VARIABLES {
        assert!(
            variable.name.starts_with("MULTI_CURSOR_"),
            "{}",
            variable.name
        );
        assert!(seen.insert(variable.name), "{} twice", variable.name);
        assert!(
            !variable.meaning.is_empty(),
            "{} has no meaning",
            variable.name
        );
        assert!(
            !variable.meaning.contains('|') && !variable.default.to_string().contains('|'),
            "{}: a `|` breaks the table",
            variable.name
        );
    }
}

/// Every `*_ENV` constant of this module is in [`VARIABLES`], so none goes undocumented.
#[test]
fn every_constant_is_documented() {
    let source = include_str!("../env.rs");
    let constants: Vec<&str> = source
        .lines()
        .filter(|line| {
            (line.starts_with("pub const ") || line.starts_with("pub(crate) const "))
                && line.contains("_ENV: &str = \"")
        })
        .filter_map(|line| line.split('"').nth(1))
        .collect();
    assert!(constants.len() >= 20, "{constants:?}");
    for name in constants {
        assert!(
            VARIABLES.iter().any(|v| v.name == name),
            "{name} is not in VARIABLES"
        );
    }
}

#[test]
fn the_tables_have_a_row_per_variable_of_their_audience() {
    for audience in [Audience::User, Audience::Ours, Audience::Development] {
        let table = reference_table(audience);
        let rows = table.lines().count() - 2;
        let expected = VARIABLES.iter().filter(|v| v.audience == audience).count();
        assert_eq!(rows, expected, "{audience:?}");
    }
    assert!(reference_table(Audience::Ours).starts_with("| variable | meaning |\n"));
}

/// A default that is a value the code holds is taken from its constant, never typed again as
/// words: no default in words is a bare number.
#[test]
fn no_default_is_a_number_typed_by_hand() {
    for variable in VARIABLES {
        if let Unset::Words(words) = variable.default {
            assert!(
                words.trim().trim_matches('`').parse::<f64>().is_err(),
                "{}: its default {words:?} is a number: use Unset::Number with the code's constant",
                variable.name
            );
        }
    }
}

/// The defaults the page shows are the code's constants.
#[test]
fn the_page_shows_the_code_s_defaults() {
    let row = |name: &str| {
        reference_table(Audience::User)
            .lines()
            .find(|line| line.starts_with(&format!("| `{name}` |")))
            .map(str::to_owned)
            .unwrap()
    };
    assert!(
        row(FIRST_EVENT_ENV).ends_with(&format!("| {} |", DEFAULT_FIRST_EVENT.as_secs())),
        "{}",
        row(FIRST_EVENT_ENV)
    );
    assert!(row(UPSTREAM_ENV).ends_with(&format!("else `{DEFAULT_UPSTREAM}` |")));
    assert!(row(LOG_ENV).ends_with(&format!("| `{DEFAULT_LOG_FILTER}` |")));
    assert_eq!(Unset::Nothing.to_string(), "");
}
