//! Stream rules ("time-traveling stream rules"): a rule with a `condition` regex is checked
//! against Cursor's output while it streams; on a match the run is interrupted and the chat
//! resumed with the rule injected.
//!
//! Keys (any dialect): `condition` (a regex or a list of regexes; any one matching fires the
//! rule), `ttsr_trigger`/`ttsrTrigger` (the older single-regex spelling), `scope` (where to
//! look: `text`, `thinking`, `tool`, `tool:<name>`; default text and every tool),
//! `interruptMode` (`always` — the default —, `never`: inject on the next turn without
//! interrupting, `prose-only`, `tool-only`).
//!
//! Matching never rescans: all conditions of the rulebook are compiled into one lazy DFA
//! (`regex-automata`'s hybrid engine, every pattern reported), and each stream (the assistant
//! text, the thinking text, each tool call's arguments) keeps only its current automaton state
//! — constant memory per stream, constant work per byte, whatever the turn's length or the
//! number of rules. A match is seen when the byte after it arrives or when the stream ends
//! (the text stream ends at each tool call and at the result; a tool call's arguments are one
//! whole stream), so `$` and `\b` at the end of a condition mean the end of the stream, never
//! the end of a network chunk. Word boundaries (`\b`, `\B`) are ASCII in conditions: a DFA
//! cannot decide Unicode boundaries byte by byte.
//!
//! A tool call's stream is the tool's string arguments, each followed by a newline (nested
//! values included, keys in order), so `^rm -rf` matches a shell command and `unwrap\(\)`
//! matches code an edit writes.

use std::collections::BTreeSet;
use std::collections::HashSet;

use regex_automata::Anchored;
use regex_automata::MatchKind;
use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::Cache;
use regex_automata::hybrid::dfa::DFA;
use regex_automata::util::start;
use serde_json::Value as Json;

use super::diagnostic::Diagnostic;
use super::diagnostic::DiagnosticKind;
use super::diagnostic::Severity;
use super::reader::Reader;
use super::rule::InterruptMode;
use super::rule::Rule;
use super::rule::StreamKind;
use super::rule::StreamRule;
use super::rule::StreamScope;
use crate::cursor::events::RunEvent;
use crate::cursor::events::ToolCall;

/// Interrupts one Claude turn may cause at most; later matches are delivered with the next
/// turn instead (no interrupt).
pub(crate) const MAX_INTERRUPTS_PER_TURN: usize = 3;

/// `\b` → `(?-u:\b)`, `\B` → `(?-u:\B)` outside classes; everything else unchanged.
fn ascii_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.chars().peekable();
    let mut class_depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(b @ ('b' | 'B')) if class_depth == 0 && chars.peek() != Some(&'{') => {
                    out.push_str("(?-u:\\");
                    out.push(b);
                    out.push(')');
                }
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            '[' => {
                class_depth += 1;
                out.push(c);
            }
            ']' if class_depth > 0 => {
                class_depth -= 1;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

fn dfa_builder() -> regex_automata::hybrid::dfa::Builder {
    let mut builder = DFA::builder();
    builder.configure(DFA::config().match_kind(MatchKind::All));
    builder
}

/// Compiles one condition alone: the error text, or a refusal when it matches empty text.
fn check_condition(pattern: &str) -> Result<(), String> {
    let dfa = dfa_builder()
        .build(&ascii_word_boundaries(pattern))
        .map_err(|e| e.to_string())?;
    let mut cache = dfa.create_cache();
    let config = start::Config::new().anchored(Anchored::No);
    let sid = dfa
        .start_state(&mut cache, &config)
        .map_err(|e| e.to_string())?;
    let sid = dfa
        .next_eoi_state(&mut cache, sid)
        .map_err(|e| e.to_string())?;
    if sid.is_match() {
        return Err(String::from(
            "it matches empty text, so it would fire on every turn",
        ));
    }
    Ok(())
}

/// Reads `condition`, `ttsr_trigger`, `scope` and `interruptMode`; bad regexes are errors and
/// are left out. `None` when no valid condition remains (the rule then applies by its other
/// keys).
pub(crate) fn parse_stream_rule(reader: &mut Reader<'_>) -> Option<StreamRule> {
    let mut conditions = Vec::new();
    let mut had_any = false;
    for key in ["condition", "ttsrtrigger"] {
        for pattern in reader.raw_strings(key) {
            had_any = true;
            match check_condition(&pattern) {
                Ok(()) => conditions.push(pattern),
                Err(error) => {
                    let message = format!(
                        "stream condition `{pattern}` is not usable: {}; it is ignored",
                        error.lines().next().unwrap_or_default()
                    );
                    reader.error(DiagnosticKind::BadRegex, key, &message);
                }
            }
        }
    }
    if !had_any {
        return None;
    }
    if conditions.is_empty() {
        reader.error(
            DiagnosticKind::BadRegex,
            "condition",
            "no stream condition is valid: the rule is not a stream rule and applies by its other keys",
        );
        return None;
    }
    let mut scope = StreamScope::default();
    let tokens = reader.list("scope");
    if !tokens.is_empty() {
        scope = StreamScope {
            text: false,
            thinking: false,
            all_tools: false,
            tools: Vec::new(),
        };
        for token in tokens {
            let lower = token.to_ascii_lowercase();
            match lower.as_str() {
                "text" | "prose" => scope.text = true,
                "thinking" => scope.thinking = true,
                "tool" | "tools" | "toolcall" => scope.all_tools = true,
                _ => match lower.strip_prefix("tool:") {
                    Some(name) if !name.is_empty() => {
                        let name = name.trim_end_matches("toolcall");
                        scope.tools.push(name.to_string());
                    }
                    _ => {
                        let message = format!(
                            "unknown scope `{token}` (expected text, thinking, tool or tool:<name>); ignored"
                        );
                        reader.error(DiagnosticKind::BadValue, "scope", &message);
                    }
                },
            }
        }
        if !scope.text && !scope.thinking && !scope.all_tools && scope.tools.is_empty() {
            reader.error(
                DiagnosticKind::BadValue,
                "scope",
                "the scope names no stream; the default (text and tools) is used",
            );
            scope = StreamScope::default();
        }
    }
    let interrupt = match reader
        .string("interruptmode")
        .map(|s| s.to_ascii_lowercase())
    {
        None => InterruptMode::Always,
        Some(mode) => match mode.as_str() {
            "always" => InterruptMode::Always,
            "never" => InterruptMode::Never,
            "prose-only" | "prose_only" | "proseonly" => InterruptMode::ProseOnly,
            "tool-only" | "tool_only" | "toolonly" => InterruptMode::ToolOnly,
            other => {
                let message = format!(
                    "unknown interruptMode `{other}` (expected always, never, prose-only or tool-only); `always` is used"
                );
                reader.error(DiagnosticKind::BadValue, "interruptmode", &message);
                InterruptMode::Always
            }
        },
    };
    Some(StreamRule {
        conditions,
        scope,
        interrupt,
    })
}

/// Every active stream rule's conditions in one automaton.
#[derive(Debug)]
pub(crate) struct StreamMatcher {
    dfa: Option<DFA>,
    /// Pattern id → index of its rule in the rulebook.
    owners: Vec<usize>,
}

impl StreamMatcher {
    /// Compiles the conditions of the active rules of `rules` (already validated one by one).
    pub(crate) fn build(rules: &mut [Rule]) -> StreamMatcher {
        let mut patterns = Vec::new();
        let mut owners = Vec::new();
        for (index, rule) in rules.iter().enumerate() {
            if !rule.is_active() {
                continue;
            }
            if let Some(stream) = &rule.ttsr {
                for condition in &stream.conditions {
                    patterns.push(ascii_word_boundaries(condition));
                    owners.push(index);
                }
            }
        }
        if patterns.is_empty() {
            return StreamMatcher { dfa: None, owners };
        }
        match dfa_builder().build_many(&patterns) {
            Ok(dfa) => StreamMatcher {
                dfa: Some(dfa),
                owners,
            },
            Err(error) => {
                // Each pattern compiled alone; together they exceed a size limit. Say so on
                // every stream rule: none of them can be watched.
                let mut indices = owners.clone();
                indices.sort_unstable();
                indices.dedup();
                for index in indices {
                    if let Some(rule) = rules.get_mut(index) {
                        rule.diagnostics.push(Diagnostic::new(
                            Severity::Error,
                            DiagnosticKind::BadRegex,
                            Some(&rule.path.clone()),
                            format!("the stream conditions of the rulebook could not be compiled together: {error}"),
                        ));
                    }
                }
                StreamMatcher {
                    dfa: None,
                    owners: Vec::new(),
                }
            }
        }
    }
}

/// A stream rule that matched.
#[derive(Debug, Clone)]
pub struct Fired<'a> {
    /// The rule.
    pub rule: &'a Rule,
    /// Where it matched.
    pub stream: StreamKind,
    /// The tool whose arguments matched, for [`StreamKind::Tool`].
    pub tool: Option<String>,
    /// Whether the run should be interrupted now (otherwise the rule goes with the next turn:
    /// `interruptMode: never`, or the turn's interrupt budget is spent).
    pub interrupt: bool,
}

impl Fired<'_> {
    /// The display row telling the user which rule fired.
    pub fn row(&self) -> String {
        let place = match (&self.stream, &self.tool) {
            (StreamKind::Tool, Some(tool)) => format!("a {tool} call"),
            (StreamKind::Tool, None) => String::from("a tool call"),
            (StreamKind::Text, _) => String::from("Cursor's text"),
            (StreamKind::Thinking, _) => String::from("Cursor's thinking"),
        };
        if self.interrupt {
            format!(
                "[rules] stream rule `{}` matched {place}: Cursor was interrupted and resumed with the rule",
                self.rule.name
            )
        } else {
            format!(
                "[rules] stream rule `{}` matched {place}: it is sent with the next prompt",
                self.rule.name
            )
        }
    }
}

/// Watches the streams of one Claude turn (which may span several Cursor runs when a rule
/// interrupts one). See the module docs.
pub struct StreamWatch<'a> {
    /// The rulebook's rules (pattern owners index into them).
    rules: &'a [Rule],
    matcher: &'a StreamMatcher,
    cache: Option<Cache>,
    text: Option<LazyStateID>,
    thinking: Option<LazyStateID>,
    seen_calls: HashSet<String>,
    done: Vec<bool>,
    /// Stream rules that can still fire (not `done`): none left, nothing is scanned.
    live: usize,
    fired: BTreeSet<String>,
    interrupts: usize,
    max_interrupts: usize,
    failed: bool,
}

impl<'a> StreamWatch<'a> {
    pub(crate) fn new(
        rules: &'a [Rule],
        matcher: &'a StreamMatcher,
        already: &BTreeSet<String>,
    ) -> StreamWatch<'a> {
        let done: Vec<bool> = rules.iter().map(|r| already.contains(&r.name)).collect();
        let live = matcher
            .owners
            .iter()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter(|&i| !done.get(i).copied().unwrap_or(true))
            .count();
        StreamWatch {
            rules,
            matcher,
            cache: matcher.dfa.as_ref().map(DFA::create_cache),
            text: None,
            thinking: None,
            seen_calls: HashSet::new(),
            done,
            live,
            fired: BTreeSet::new(),
            interrupts: 0,
            max_interrupts: MAX_INTERRUPTS_PER_TURN,
            failed: false,
        }
    }

    #[cfg(test)]
    /// Changes the per-turn interrupt cap (default `MAX_INTERRUPTS_PER_TURN`).
    pub(crate) fn with_max_interrupts(mut self, max: usize) -> StreamWatch<'a> {
        self.max_interrupts = max;
        self
    }

    /// Whether any stream rule is watched at all: one with a valid condition that has not
    /// fired in this chat (false: feeding is a no-op).
    pub(crate) fn is_active(&self) -> bool {
        self.matcher.dfa.is_some() && self.live > 0
    }

    #[cfg(test)]
    /// Names fired during this watch (add them to the chat's `firedRules`).
    pub(crate) fn fired(&self) -> &BTreeSet<String> {
        &self.fired
    }

    /// Interrupts reported so far in this turn.
    pub fn interrupts(&self) -> usize {
        self.interrupts
    }

    /// Starts a new Cursor run of the same turn (after an interrupt): stream states reset;
    /// fired rules and the interrupt count are kept.
    pub fn next_run(&mut self) {
        self.text = None;
        self.thinking = None;
        self.seen_calls.clear();
    }

    /// Feeds one Cursor event: text and thinking deltas, tool calls (arguments scanned once per
    /// call id), the result (ends the text streams).
    pub fn observe(&mut self, event: &RunEvent) -> Vec<Fired<'a>> {
        match event {
            RunEvent::Text { text } => self.text(text),
            RunEvent::Thinking { text } => self.thinking(text),
            RunEvent::ToolStarted { call } | RunEvent::ToolCompleted { call, .. } => {
                self.tool_call(call)
            }
            RunEvent::Result(_) => {
                let mut fired = self.end_text();
                fired.extend(self.end_thinking());
                fired
            }
            RunEvent::Init { .. } | RunEvent::UserEcho { .. } | RunEvent::Status(_) => Vec::new(),
        }
    }

    /// More of Cursor's answer text.
    pub fn text(&mut self, delta: &str) -> Vec<Fired<'a>> {
        let state = self.text.take();
        let (state, fired) = self.feed(state, StreamKind::Text, None, delta.as_bytes(), false);
        self.text = state;
        fired
    }

    /// The answer text ended (a tool call or the result follows).
    pub fn end_text(&mut self) -> Vec<Fired<'a>> {
        match self.text.take() {
            Some(state) => self.feed(Some(state), StreamKind::Text, None, b"", true).1,
            None => Vec::new(),
        }
    }

    /// More of Cursor's thinking text.
    pub(crate) fn thinking(&mut self, delta: &str) -> Vec<Fired<'a>> {
        let state = self.thinking.take();
        let (state, fired) = self.feed(state, StreamKind::Thinking, None, delta.as_bytes(), false);
        self.thinking = state;
        fired
    }

    /// The thinking text ended.
    fn end_thinking(&mut self) -> Vec<Fired<'a>> {
        match self.thinking.take() {
            Some(state) => {
                self.feed(Some(state), StreamKind::Thinking, None, b"", true)
                    .1
            }
            None => Vec::new(),
        }
    }

    /// A tool call: ends the text streams, then scans its string arguments as one stream (once
    /// per call id; a call without an id is scanned each time it is seen).
    pub fn tool_call(&mut self, call: &ToolCall) -> Vec<Fired<'a>> {
        let mut fired = self.end_text();
        fired.extend(self.end_thinking());
        if call.args.is_null()
            || (!call.call_id.is_empty() && !self.seen_calls.insert(call.call_id.clone()))
        {
            return fired;
        }
        let mut text = String::new();
        strings_of(&call.args, &mut text);
        let (_, more) = self.feed(
            None,
            StreamKind::Tool,
            Some(&call.tool),
            text.as_bytes(),
            true,
        );
        fired.extend(more);
        fired
    }

    fn feed(
        &mut self,
        state: Option<LazyStateID>,
        kind: StreamKind,
        tool: Option<&str>,
        bytes: &[u8],
        end: bool,
    ) -> (Option<LazyStateID>, Vec<Fired<'a>>) {
        let (Some(dfa), Some(cache)) = (self.matcher.dfa.as_ref(), self.cache.as_mut()) else {
            return (None, Vec::new());
        };
        if self.failed || self.live == 0 {
            return (None, Vec::new());
        }
        let mut hits: Vec<usize> = Vec::new();
        let result = run(dfa, cache, state, bytes, end, &mut hits);
        let state = match result {
            Ok(state) => state,
            Err(()) => {
                tracing::warn!(
                    "stream rules: the automaton gave up; stream rules are off for this turn"
                );
                self.failed = true;
                return (None, Vec::new());
            }
        };
        let mut fired = Vec::new();
        for pattern in hits {
            let Some(&index) = self.matcher.owners.get(pattern) else {
                continue;
            };
            if self.done.get(index).copied().unwrap_or(true) {
                continue;
            }
            let Some(rule) = self.rules.get(index) else {
                continue;
            };
            let Some(stream) = &rule.ttsr else {
                continue;
            };
            if !stream.scope.covers(kind, tool) {
                continue;
            }
            if let Some(done) = self.done.get_mut(index) {
                *done = true;
                self.live -= 1;
            }
            self.fired.insert(rule.name.clone());
            fired.push(Fired {
                rule,
                stream: kind,
                tool: tool.map(str::to_string),
                interrupt: stream.interrupt.interrupts(kind),
            });
        }
        if fired.iter().any(|f| f.interrupt) {
            if self.interrupts < self.max_interrupts {
                self.interrupts += 1;
            } else {
                for f in &mut fired {
                    f.interrupt = false;
                }
            }
        }
        (if end { None } else { state }, fired)
    }
}

/// Runs `bytes` through the automaton from `state` (the start state when `None`), pushing the
/// pattern ids of every match state reached; with `end`, also the end-of-input transition.
fn run(
    dfa: &DFA,
    cache: &mut Cache,
    state: Option<LazyStateID>,
    bytes: &[u8],
    end: bool,
    hits: &mut Vec<usize>,
) -> Result<Option<LazyStateID>, ()> {
    let mut sid = match state {
        Some(sid) => sid,
        None => {
            let config = start::Config::new().anchored(Anchored::No);
            dfa.start_state(cache, &config).map_err(|_| ())?
        }
    };
    for &byte in bytes {
        sid = dfa.next_state(cache, sid, byte).map_err(|_| ())?;
        if sid.is_tagged() {
            if sid.is_match() {
                collect(dfa, cache, sid, hits);
            } else if sid.is_dead() || sid.is_quit() {
                return Ok(None);
            }
        }
    }
    if end {
        let eoi = dfa.next_eoi_state(cache, sid).map_err(|_| ())?;
        if eoi.is_match() {
            collect(dfa, cache, eoi, hits);
        }
    }
    Ok(Some(sid))
}

fn collect(dfa: &DFA, cache: &Cache, sid: LazyStateID, hits: &mut Vec<usize>) {
    for i in 0..dfa.match_len(cache, sid) {
        let pattern = dfa.match_pattern(cache, sid, i).as_usize();
        if !hits.contains(&pattern) {
            hits.push(pattern);
        }
    }
}

/// Every string inside `value`, each followed by a newline.
fn strings_of(value: &Json, out: &mut String) {
    match value {
        Json::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Json::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        Json::Object(map) => map.values().for_each(|v| strings_of(v, out)),
        Json::Null | Json::Bool(_) | Json::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_boundaries_become_ascii() {
        assert_eq!(ascii_word_boundaries(r"\bfoo\b"), r"(?-u:\b)foo(?-u:\b)");
        assert_eq!(ascii_word_boundaries(r"[\b]\\b\d"), r"[\b]\\b\d");
        assert_eq!(ascii_word_boundaries(r"\b{start}x"), r"\b{start}x");
    }

    #[test]
    fn conditions_are_checked() {
        assert!(check_condition(r"\.unwrap\(\)").is_ok());
        assert!(check_condition(r"\bTODO\b").is_ok());
        assert!(check_condition("(unclosed").is_err());
        assert!(check_condition("a*").is_err());
    }

    #[test]
    fn the_automaton_matches_across_chunks() {
        let dfa = dfa_builder()
            .build_many(&[r"unwrap\(\)", r"(?-u:\b)TODO(?-u:\b)"])
            .unwrap();
        let mut cache = dfa.create_cache();
        let mut hits = Vec::new();
        let s = run(&dfa, &mut cache, None, b"x.unw", false, &mut hits).unwrap();
        assert!(hits.is_empty());
        let s = run(&dfa, &mut cache, s, b"rap()", false, &mut hits).unwrap();
        // Seen one byte late, or at the end of the stream.
        assert!(hits.is_empty());
        let _ = run(&dfa, &mut cache, s, b"", true, &mut hits).unwrap();
        assert_eq!(hits, vec![0]);
        let mut hits = Vec::new();
        let s = run(&dfa, &mut cache, None, b"a TODO", false, &mut hits).unwrap();
        let _ = run(&dfa, &mut cache, s, b"S", true, &mut hits).unwrap();
        assert!(hits.is_empty(), "TODOS is not TODO");
    }
}
