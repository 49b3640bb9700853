//! The Claude profiles the picker rows borrow (`behavesAs`: `launch::settings::BEHAVES_AS` and
//! `BEHAVES_AS_WITH_EFFORT`) exist in, and are not marked retired by, each Claude Code under
//! test (the pinned 2.1.328 and the newest). Both tables are read from the binary itself: the
//! model table's entries are `{id:"<id>",family:…}`, and the retirement table is one JS object,
//! `"<id>":{modelName:"…",retirementDates:{firstParty:"November 30, 2026",…}}`, the only text
//! with `retirementDates:{` in it (2.1.328 and 2.1.337). When that text is not found the test
//! fails, saying so, rather than passing: a later build that moves the table needs this test
//! read again.

use multi_cursor::launch::settings::BEHAVES_AS;
use multi_cursor::launch::settings::BEHAVES_AS_WITH_EFFORT;
use multi_cursor_test_support::claude;

const TABLE_KEY: &[u8] = b"retirementDates:{";

/// The ids the binary's retirement table names, with their first-party retirement date (`None`
/// for `null`).
fn retirement_table(binary: &[u8]) -> Option<Vec<(String, Option<String>)>> {
    let at = memchr::memmem::find(binary, TABLE_KEY)?;
    let start = binary[..at].windows(2).rposition(|w| w == b"={")?;
    let end = at + memchr::memmem::find(&binary[at..], b"}}};")?;
    let table = String::from_utf8_lossy(&binary[start..end + 4]).into_owned();
    let mut entries = Vec::new();
    for piece in table.split("\"claude-").skip(1) {
        let Some((id, rest)) = piece.split_once("\":{modelName:") else {
            continue;
        };
        let date = rest
            .split_once("retirementDates:{firstParty:\"")
            .and_then(|(_, dates)| dates.split_once('"'))
            .map(|(date, _)| date.to_string());
        entries.push((format!("claude-{id}"), date));
    }
    Some(entries)
}

#[test]
fn the_borrowed_profiles_exist_and_are_not_retired() {
    for binary in claude::builds() {
        let version = claude::version_of(&binary);
        let bytes = std::fs::read(&binary).unwrap();
        let table = retirement_table(&bytes).unwrap_or_else(|| {
            panic!("Claude Code {version}: no retirement table (`retirementDates:{{`) in its binary; read this test again")
        });
        assert!(
            table.iter().any(|(id, _)| id.starts_with("claude-3")),
            "Claude Code {version}: the table read is not the retirement table: {table:?}"
        );
        for profile in [BEHAVES_AS, BEHAVES_AS_WITH_EFFORT] {
            let entry = format!("{{id:\"{profile}\",family:");
            assert!(
                memchr::memmem::find(&bytes, entry.as_bytes()).is_some(),
                "Claude Code {version} has no profile {profile}"
            );
            let retired = table.iter().find(|(id, _)| id == profile);
            assert!(
                retired.is_none(),
                "Claude Code {version} marks the borrowed profile {profile} retired: {retired:?}"
            );
        }
    }
}
