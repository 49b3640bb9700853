use std::collections::BTreeSet;

use super::Audience;
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
            !variable.meaning.contains('|') && !variable.default.contains('|'),
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
        .filter(|line| line.starts_with("pub const ") && line.contains("_ENV: &str = \""))
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
