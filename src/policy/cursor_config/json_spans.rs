//! Where an object's members sit in a JSON text, so one member's value can be replaced or the
//! member removed while every other byte of the file (key order, spacing, unknown keys) stays
//! as it was. serde_json's `Value` keeps neither order nor layout here (its `preserve_order`
//! feature is off), so a parse-and-reserialise would rewrite the user's whole file.
//!
//! The scanner only finds boundaries; it does not validate. Whoever edits with it parses the
//! result and compares it with the intended value before writing anything.

use std::ops::Range;

/// One `"key": value` member of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Member {
    /// The decoded key.
    pub key: String,
    /// From the key's opening quote to the end of the value.
    pub span: Range<usize>,
    /// The value's bytes.
    pub value: Range<usize>,
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The end (exclusive) of the string whose opening quote is at `at`.
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        match bytes.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The end (exclusive) of the value starting at `at` (no leading whitespace).
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' => members(bytes, at).map(|(_, end)| end),
        b'[' => {
            let mut i = skip_ws(bytes, at + 1);
            if bytes.get(i) == Some(&b']') {
                return Some(i + 1);
            }
            loop {
                i = skip_ws(bytes, skip_value(bytes, i)?);
                match bytes.get(i)? {
                    b',' => i = skip_ws(bytes, i + 1),
                    b']' => return Some(i + 1),
                    _ => return None,
                }
            }
        }
        _ => {
            let len = bytes[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())
                .unwrap_or(bytes.len() - at);
            (len > 0).then_some(at + len)
        }
    }
}

/// The members of the object whose `{` is at `open`, and the end (exclusive) of the object.
fn members(bytes: &[u8], open: usize) -> Option<(Vec<Member>, usize)> {
    let mut found = Vec::new();
    let mut i = skip_ws(bytes, open + 1);
    if bytes.get(i) == Some(&b'}') {
        return Some((found, i + 1));
    }
    loop {
        if bytes.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = skip_string(bytes, i)?;
        let key: String = serde_json::from_slice(&bytes[i..key_end]).ok()?;
        let colon = skip_ws(bytes, key_end);
        if bytes.get(colon) != Some(&b':') {
            return None;
        }
        let value_start = skip_ws(bytes, colon + 1);
        let value_end = skip_value(bytes, value_start)?;
        found.push(Member {
            key,
            span: i..value_end,
            value: value_start..value_end,
        });
        i = skip_ws(bytes, value_end);
        match bytes.get(i)? {
            b',' => i = skip_ws(bytes, i + 1),
            b'}' => return Some((found, i + 1)),
            _ => return None,
        }
    }
}

/// The members of the top-level object of `text` (`None` when it is not one).
pub(super) fn top_members(text: &str) -> Option<Vec<Member>> {
    let bytes = text.as_bytes();
    let open = skip_ws(bytes, 0);
    (bytes.get(open) == Some(&b'{')).then_some(())?;
    members(bytes, open).map(|(found, _)| found)
}

/// The members of the object that is `member`'s value (`None` when it is not an object).
pub(super) fn nested_members(text: &str, member: &Member) -> Option<Vec<Member>> {
    let bytes = text.as_bytes();
    (bytes.get(member.value.start) == Some(&b'{')).then_some(())?;
    members(bytes, member.value.start).map(|(found, _)| found)
}

/// The byte ranges to cut to remove the members at `indices` (of one object) with their
/// separating commas: a run of removed members goes up to the next kept member when there is
/// one, else from the end of the previous kept one.
pub(super) fn removals(members: &[Member], indices: &[usize]) -> Vec<Range<usize>> {
    let mut sorted = indices.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let first = sorted[i];
        let mut last = first;
        while sorted.get(i + 1) == Some(&(last + 1)) {
            i += 1;
            last += 1;
        }
        i += 1;
        let (Some(a), Some(b)) = (members.get(first), members.get(last)) else {
            continue;
        };
        let range = if let Some(next) = members.get(last + 1) {
            a.span.start..next.span.start
        } else if let Some(previous) = first.checked_sub(1).and_then(|p| members.get(p)) {
            previous.span.end..b.span.end
        } else {
            a.span.start..b.span.end
        };
        ranges.push(range);
    }
    ranges
}

/// `text` with each range replaced by its text; ranges must not overlap.
pub(super) fn apply(text: &str, mut edits: Vec<(Range<usize>, String)>) -> Option<String> {
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut out = text.to_string();
    let mut limit = text.len();
    for (range, replacement) in edits {
        if range.end > limit || range.start > range.end {
            return None;
        }
        out.replace_range(range.clone(), &replacement);
        limit = range.start;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  \"version\": 1,\n  \"model\": {\n    \"modelId\": \"gpt-5\",\n    \"maxMode\": false\n  },\n  \"hasChangedDefaultModel\": true,\n  \"permissions\": { \"allow\": [\"Shell(ls)\", \"a\\\"]}\"], \"deny\": [] }\n}\n";

    #[test]
    fn members_and_their_values() {
        let top = top_members(TEXT).unwrap();
        let keys: Vec<&str> = top.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(
            keys,
            ["version", "model", "hasChangedDefaultModel", "permissions"]
        );
        assert_eq!(&TEXT[top[2].value.clone()], "true");
        let model = nested_members(TEXT, &top[1]).unwrap();
        assert_eq!(model[0].key, "modelId");
        assert_eq!(&TEXT[model[0].value.clone()], "\"gpt-5\"");
        assert!(nested_members(TEXT, &top[0]).is_none());
        assert!(top_members("[1]").is_none());
        assert!(top_members("{\"a\": 1").is_none());
        assert_eq!(top_members(" {} ").unwrap(), []);
    }

    #[test]
    fn removing_keeps_the_rest_valid() {
        let top = top_members(TEXT).unwrap();
        let sets: [&[usize]; 7] = [&[0], &[1], &[3], &[1, 2], &[2, 3], &[0, 2], &[0, 1, 2, 3]];
        for set in sets {
            let edits = removals(&top, set)
                .into_iter()
                .map(|range| (range, String::new()))
                .collect();
            let edited = apply(TEXT, edits).unwrap();
            let mut expected: serde_json::Value = serde_json::from_str(TEXT).unwrap();
            for index in set {
                expected.as_object_mut().unwrap().remove(&top[*index].key);
            }
            let value: serde_json::Value = serde_json::from_str(&edited).unwrap();
            assert_eq!(value, expected, "{set:?}: {edited}");
        }
    }

    #[test]
    fn edits_apply_from_the_end() {
        assert_eq!(
            apply("abcdef", vec![(0..1, "X".into()), (4..6, String::new())]).unwrap(),
            "Xbcd"
        );
        assert_eq!(
            apply("abc", vec![(0..2, String::new()), (1..3, String::new())]),
            None
        );
    }
}
