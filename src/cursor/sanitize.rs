//! Control characters out of text we hand to Claude Code: Cursor's prose, rows, the echoed
//! prompt, error messages. Claude Code prints what it is given to the user's terminal, so an
//! escape sequence in a model's answer (or in a file it quotes) could retitle the window,
//! clear the screen, write the clipboard (OSC 52) or forge output.
//!
//! Removed: every C0 control but newline and tab (so also CR, BEL, BS, ESC), DEL, every C1
//! control (U+0080–U+009F), and whole escape sequences — CSI (`ESC [` … final byte), OSC, DCS,
//! SOS, PM and APC strings (to BEL or ST), `ESC` + intermediates + final, and two-character
//! escapes — in their 7-bit and C1 forms. Everything else passes unchanged.
//!
//! [`Sanitizer`] keeps its state across pushes, so a sequence split over two streamed deltas
//! neither leaks (its tail is not shown as text) nor eats text (the text after it is kept).
//! Plain text is never held back: only an unfinished sequence is, and it is dropped anyway. A
//! string sequence (OSC, …) that never ends is given up at a newline or after
//! [`MAX_SEQUENCE`] characters, so a stray `ESC ]` costs at most the rest of its line.
//! Passthrough bytes to Anthropic are never touched; this is for text we generate.

/// Longest escape sequence followed; beyond it the sequence is dropped and text resumes.
pub(crate) const MAX_SEQUENCE: usize = 4096;

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';
/// C1 String Terminator.
const ST: char = '\u{9c}';
/// C1 Control Sequence Introducer.
const CSI: char = '\u{9b}';

/// Where the stripper is inside an escape sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    /// Plain text.
    #[default]
    Text,
    /// After `ESC`.
    Escape,
    /// After `ESC` and intermediates (0x20–0x2F): until a final 0x30–0x7E.
    Intermediate,
    /// Inside a CSI: parameters and intermediates until a final 0x40–0x7E.
    Csi,
    /// Inside a string (OSC, DCS, SOS, PM, APC): until BEL, `ESC \` or ST.
    Str,
    /// Inside a string, after an `ESC` (an `\` ends the string).
    StrEscape,
}

/// A control-sequence stripper for one stream of text (see the module documentation).
#[derive(Debug, Clone, Default)]
pub(crate) struct Sanitizer {
    state: State,
    /// Characters of the current sequence so far.
    length: usize,
}

impl Sanitizer {
    /// A stripper in the plain-text state.
    pub(crate) fn new() -> Sanitizer {
        Sanitizer::default()
    }

    /// The text of `delta` that may be shown, given everything pushed before it.
    pub(crate) fn push(&mut self, delta: &str) -> String {
        let mut out = String::with_capacity(delta.len());
        for c in delta.chars() {
            self.step(c, &mut out);
        }
        out
    }

    /// Ends the stream: an unfinished sequence is dropped. Returns what is left to show
    /// (always empty, since plain text is never held; kept for callers that flush).
    pub(crate) fn finish(&mut self) -> String {
        self.state = State::Text;
        self.length = 0;
        String::new()
    }

    fn enter(&mut self, state: State) {
        self.state = state;
        self.length = 1;
    }

    fn step(&mut self, c: char, out: &mut String) {
        if self.state != State::Text {
            self.length += 1;
            if self.length > MAX_SEQUENCE {
                self.state = State::Text;
            }
        }
        match self.state {
            State::Text => self.text(c, out),
            State::Escape => match c {
                '[' => self.enter(State::Csi),
                ']' | 'P' | 'X' | '^' | '_' => self.enter(State::Str),
                '\u{20}'..='\u{2f}' => self.state = State::Intermediate,
                '\u{30}'..='\u{7e}' => self.state = State::Text,
                // Not a sequence after all: the ESC goes, the character is text.
                _ => {
                    self.state = State::Text;
                    self.text(c, out);
                }
            },
            State::Intermediate => match c {
                '\u{20}'..='\u{2f}' => {}
                '\u{30}'..='\u{7e}' => self.state = State::Text,
                _ => {
                    self.state = State::Text;
                    self.text(c, out);
                }
            },
            State::Csi => match c {
                '\u{20}'..='\u{3f}' => {}
                '\u{40}'..='\u{7e}' => self.state = State::Text,
                _ => {
                    self.state = State::Text;
                    self.text(c, out);
                }
            },
            State::Str => match c {
                BEL | ST => self.state = State::Text,
                ESC => self.state = State::StrEscape,
                // An unterminated string gives up at the end of its line.
                '\n' => {
                    self.state = State::Text;
                    out.push('\n');
                }
                _ => {}
            },
            State::StrEscape => match c {
                '\\' => self.state = State::Text,
                ESC => {}
                '\n' => {
                    self.state = State::Text;
                    out.push('\n');
                }
                _ => self.state = State::Str,
            },
        }
    }

    fn text(&mut self, c: char, out: &mut String) {
        match c {
            ESC => self.enter(State::Escape),
            CSI => self.enter(State::Csi),
            // C1 DCS, SOS, OSC, PM, APC.
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => self.enter(State::Str),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// `text` with control characters and escape sequences removed, in one go.
pub(crate) fn sanitize(text: &str) -> String {
    let mut sanitizer = Sanitizer::new();
    let mut out = sanitizer.push(text);
    out.push_str(&sanitizer.finish());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sequences_and_controls_go() {
        for (input, expected) in [
            ("\u{1b}]0;PWN\u{7}title", "title"),
            ("a\u{1b}[2Jb\u{1b}[31mred\u{1b}[0m", "abred"),
            ("\u{1b}]52;c;aGVsbG8=\u{1b}\\copied", "copied"),
            ("x\u{9b}31my", "xy"),
            ("x\u{9d}8;;http://e\u{9c}y", "xy"),
            ("bell\u{7} back\u{8} cr\r\n", "bell back cr\n"),
            ("tab\tnew\nline", "tab\tnew\nline"),
            ("\u{1b}(Bascii", "ascii"),
            ("\u{1b}7saved\u{1b}8", "saved"),
            ("c1\u{85}next", "c1next"),
            ("del\u{7f}", "del"),
            ("é ü 日本 🎉", "é ü 日本 🎉"),
            ("lone \u{1b}", "lone "),
            ("esc then é: \u{1b}é", "esc then é: é"),
            ("\u{1b}]unterminated\nnext line", "\nnext line"),
        ] {
            assert_eq!(sanitize(input), expected, "{input:?}");
        }
    }

    #[test]
    fn a_sequence_split_across_deltas_neither_leaks_nor_eats() {
        let mut s = Sanitizer::new();
        assert_eq!(s.push("before \u{1b}]0;ti"), "before ");
        assert_eq!(s.push("tle\u{7} after"), " after");
        assert_eq!(s.push("\u{1b}"), "");
        assert_eq!(s.push("[3"), "");
        assert_eq!(s.push("1mred"), "red");
        assert_eq!(s.finish(), "");
    }

    #[test]
    fn a_runaway_sequence_is_given_up() {
        let long = format!("\u{1b}[{}", "1;".repeat(MAX_SEQUENCE));
        let out = sanitize(&format!("{long}text"));
        assert!(out.ends_with("text"), "{out:?}");
        assert!(!out.contains('\u{1b}'));
    }

    fn pieces() -> impl Strategy<Value = Vec<String>> {
        let piece = prop_oneof![
            "[a-z é日\n\t]{0,8}",
            Just("\u{1b}[31m".to_string()),
            Just("\u{1b}]0;t\u{7}".to_string()),
            Just("\u{1b}]52;c;x\u{1b}\\".to_string()),
            Just("\u{9b}2J".to_string()),
            Just("\r\u{8}\u{7}\u{0}".to_string()),
            Just("\u{1b}".to_string()),
            Just("\u{1b}(".to_string()),
        ];
        prop::collection::vec(piece, 0..12)
    }

    proptest! {
        #[test]
        fn output_has_no_controls_but_newline_and_tab(input in any::<String>()) {
            let out = sanitize(&input);
            prop_assert!(out.chars().all(|c| c == '\n' || c == '\t' || !c.is_control()));
        }

        #[test]
        fn plain_text_is_unchanged(input in "[^\u{0}-\u{1f}\u{7f}-\u{9f}]*") {
            prop_assert_eq!(sanitize(&input), input);
        }

        #[test]
        fn chunking_never_changes_the_output(parts in pieces(), cuts in prop::collection::vec(0usize..64, 0..6)) {
            let whole: String = parts.concat();
            let mut bounds: Vec<usize> = cuts
                .iter()
                .map(|c| c % (whole.len() + 1))
                .filter(|c| whole.is_char_boundary(*c))
                .collect();
            bounds.sort_unstable();
            let mut s = Sanitizer::new();
            let mut chunked = String::new();
            let mut at = 0;
            for b in bounds.into_iter().chain(std::iter::once(whole.len())) {
                chunked.push_str(&s.push(&whole[at..b]));
                at = b;
            }
            chunked.push_str(&s.finish());
            prop_assert_eq!(chunked, sanitize(&whole));
        }

        #[test]
        fn text_around_a_sequence_is_kept(a in "[a-z .]{0,10}", b in "[a-z .]{0,10}", which in 0usize..5) {
            let seq = ["\u{1b}[1;31m", "\u{1b}]0;x\u{7}", "\u{1b}]8;;u\u{1b}\\", "\u{9b}K", "\u{1b}M"][which];
            prop_assert_eq!(sanitize(&format!("{a}{seq}{b}")), format!("{a}{b}"));
        }
    }
}
