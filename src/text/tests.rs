use proptest::prelude::*;

use super::*;

#[test]
fn bounds_keep_the_right_end() {
    assert_eq!(clip_chars("abcdef", 4), "abc…");
    assert_eq!(clip_chars_end("abcdef", 4), "…def");
    assert_eq!(clip_chars("abc", 4), "abc");
}

#[test]
fn one_line_strips_controls_and_ansi() {
    assert_eq!(one_line("\u{1b}[31mred\u{1b}[0m\n\tnext\u{7}"), "red next");
    assert_eq!(one_line("  a  b  "), "a b");
}

#[test]
fn examples() {
    assert_eq!(ellipsize_bytes("héllo", 2), "h…");
    assert_eq!(ellipsize_bytes("héllo", 3), "hé…");
    assert_eq!(clip_bytes_end("héllo", 4), "llo");
    assert_eq!(multi_line("a\r\nb\u{7}\tc"), "a\nb\tc");
    assert_eq!(
        strip_ansi("\u{1b}]8;;http://x\u{7}link\u{1b}]8;;\u{7}"),
        "link"
    );
}

#[test]
fn middle_keeps_both_ends_at_lines() {
    let text: String = (0..2000).map(|i| format!("line {i}\n")).collect();
    let clipped = clip_middle(&text, 4096, |n| format!("[{n} left out]"));
    assert!(clipped.starts_with("line 0\n"));
    assert!(clipped.trim_end().ends_with("line 1999"));
    assert!(clipped.len() <= 4096 + 20);
}

proptest! {
    #[test]
    fn byte_clips_stay_within_the_limit_on_boundaries(text in "\\PC{0,40}", limit in 0usize..80) {
        let head = clip_bytes(&text, limit);
        prop_assert!(head.len() <= limit);
        prop_assert!(text.starts_with(head));
        prop_assert!(head.len() + 4 > limit.min(text.len()));
        let tail = clip_bytes_end(&text, limit);
        prop_assert!(tail.len() <= limit);
        prop_assert!(text.ends_with(tail));
        let marked = ellipsize_bytes(&text, limit);
        if text.len() <= limit {
            prop_assert_eq!(&marked, &text);
        } else {
            prop_assert_eq!(marked, format!("{head}…"));
        }
    }

    #[test]
    fn char_clips_count_the_mark(text in "\\PC{0,40}", limit in 1usize..50) {
        let head = clip_chars(&text, limit);
        let tail = clip_chars_end(&text, limit);
        prop_assert!(head.chars().count() <= limit);
        prop_assert!(tail.chars().count() <= limit);
        if text.chars().count() <= limit {
            prop_assert_eq!(&head, &text);
            prop_assert_eq!(&tail, &text);
        } else {
            prop_assert!(head.ends_with('…'));
            prop_assert!(tail.starts_with('…'));
        }
    }

    #[test]
    fn middle_clips_keep_the_ends(text in "[a-z\\n]{0,300}", limit in 8usize..200) {
        let clipped = clip_middle(&text, limit, |n| format!("[{n}]"));
        if text.len() <= limit {
            prop_assert_eq!(clipped, text);
        } else {
            let (head, rest) = clipped.split_once('\n').unwrap_or((&clipped, ""));
            prop_assert!(text.starts_with(head));
            prop_assert!(rest.contains('['));
            prop_assert!(head.len() <= limit / 2);
        }
    }

    #[test]
    fn one_line_has_no_breaks_or_controls(text in "\\PC{0,20}[\\n\\t\\r ]{0,3}\\PC{0,20}") {
        let line = one_line(&text);
        prop_assert!(!line.chars().any(char::is_control));
        prop_assert!(!line.contains("  "));
        prop_assert_eq!(line.trim(), line.as_str());
    }
}
