//! Scenario files: lines written verbatim to stdout, and `#!` directives.
//!
//! A scenario is parsed completely before anything is written, so a typo in a directive fails
//! the run (exit 2) instead of producing half a stream. Substitutions (`{{chat_id}}`, …) are
//! applied to output lines and to directive arguments.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::emit::Chunking;
use crate::emit::Emitter;
use crate::emit::Split;
use crate::error::Error;
use crate::linger::LingerSpec;
use crate::subst::Context;
use crate::sys;
use crate::wait;
use crate::wait::Wait;

/// The marker that starts a directive line.
const DIRECTIVE: &[u8] = b"#!";

/// What a huge line carries its filler in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HugeKind {
    /// One `assistant` event whose text is the filler.
    Assistant,
    /// A `readToolCall` `started` event, then a `completed` one whose file content is the filler.
    ToolCall,
}

/// One step of a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Write the bytes and a newline to stdout.
    Line(Vec<u8>),
    /// Write the bytes to stdout, no newline.
    Raw(Vec<u8>),
    /// Write the bytes and a newline to stderr.
    Stderr(Vec<u8>),
    /// Pause.
    Sleep(Duration),
    /// Change the chunking of stdout writes.
    Chunk(Option<Chunking>),
    /// Split the next stdout output at byte offsets.
    Split(Split),
    /// Write one JSON line of exactly this many bytes (newline not counted).
    Huge(usize, HugeKind),
    /// Exit now with this code.
    Exit(i32),
    /// Exit with this code when the scenario ends.
    ExitCode(i32),
    /// Sleep until killed.
    Stall,
    /// After the scenario ends, stay alive this long before exiting.
    KeepAlive(Wait),
    /// Close stdout (the reader sees end-of-file) and go on.
    CloseStdout,
    /// Ignore SIGINT and SIGTERM from now on.
    IgnoreSignals,
    /// Start a lingering grandchild.
    SpawnLingerer(LingerSpec),
    /// Send a signal to ourselves.
    SignalSelf(i32),
    /// An edit of Cursor's: `editToolCall` `started` and `completed` lines for the path
    /// (relative to the workspace), and the file written with the text and a newline; nothing
    /// at all when the run is read-only (`--mode ask|plan`), where Cursor makes no edit.
    Edit { path: String, text: String },
}

/// Reads and parses the scenario file at `path`.
pub(crate) fn load(path: &Path, context: &Context) -> Result<Vec<Step>, Error> {
    let bytes = fs::read(path).map_err(|error| Error::io("reading scenario", path, &error))?;
    parse(&bytes, context).map_err(|error| Error::new(format!("{}: {error}", path.display())))
}

/// Parses scenario text. A final line without a newline is still a line.
pub(crate) fn parse(bytes: &[u8], context: &Context) -> Result<Vec<Step>, Error> {
    let mut lines: Vec<&[u8]> = bytes.split(|byte| *byte == b'\n').collect();
    if lines.last().is_some_and(|last| last.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .enumerate()
        .filter_map(|(index, line)| {
            parse_line(line, context)
                .map_err(|error| Error::new(format!("line {}: {error}", index + 1)))
                .transpose()
        })
        .collect()
}

/// Parses one line: an output line, a directive, or a comment (`None`).
fn parse_line(line: &[u8], context: &Context) -> Result<Option<Step>, Error> {
    let Some(directive) = line.strip_prefix(DIRECTIVE) else {
        return Ok(Some(Step::Line(context.substitute(line).into_owned())));
    };
    let text = String::from_utf8_lossy(directive);
    let text = text.trim_end_matches('\r');
    if text.starts_with('#') {
        return Ok(None);
    }
    let substituted = context.substitute(text.as_bytes());
    let text = String::from_utf8_lossy(&substituted);
    let text = text.trim_start();
    let (name, args) = text.split_once([' ', '\t']).unwrap_or((text, ""));
    parse_directive(name, args).map(Some)
}

/// Parses a directive's name and the rest of its line.
fn parse_directive(name: &str, args: &str) -> Result<Step, Error> {
    let step = match name {
        "line" => Step::Line(args.as_bytes().to_vec()),
        "raw" => Step::Raw(args.as_bytes().to_vec()),
        "stderr" => Step::Stderr(args.as_bytes().to_vec()),
        "sleep" => Step::Sleep(wait::parse_duration(args)?),
        "chunk" => Step::Chunk(parse_chunk(args)?),
        "split" => Step::Split(parse_split(args)?),
        "huge-line" => parse_huge(args)?,
        "exit" => Step::Exit(parse_code(args)?),
        "exit-code" => Step::ExitCode(parse_code(args)?),
        "stall" => Step::Stall,
        "keep-alive" => Step::KeepAlive(Wait::parse(args)?),
        "close-stdout" => Step::CloseStdout,
        "ignore-signals" => Step::IgnoreSignals,
        "spawn-lingerer" => Step::SpawnLingerer(LingerSpec::parse(args)?),
        "edit" => {
            let (path, text) = args.split_once(' ').unwrap_or((args, ""));
            if path.is_empty() {
                return Err(Error::new("#!edit: give a path and the text"));
            }
            Step::Edit {
                path: path.to_owned(),
                text: text.to_owned(),
            }
        }
        "signal-self" => Step::SignalSelf(
            sys::signal_number(args)
                .ok_or_else(|| Error::new(format!("#!signal-self: unknown signal {args:?}")))?,
        ),
        other => return Err(Error::new(format!("unknown directive #!{other}"))),
    };
    Ok(step)
}

/// Whether this run was started read-only (`--mode ask` or `--mode plan`, either spelling).
fn read_only_run() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().enumerate().any(|(index, arg)| {
        let value = match arg.strip_prefix("--mode") {
            Some("") => args.get(index + 1).map(String::as_str),
            Some(rest) => rest.strip_prefix('='),
            None => None,
        };
        matches!(value, Some("ask" | "plan"))
    })
}

/// Parses `#!chunk SIZE [PAUSE]` or `#!chunk off`.
fn parse_chunk(args: &str) -> Result<Option<Chunking>, Error> {
    let mut words = args.split_whitespace();
    let size = words.next().unwrap_or("");
    if size == "off" || size == "0" {
        return Ok(None);
    }
    let size: usize = size
        .parse()
        .map_err(|_| Error::new(format!("#!chunk: {size:?} is not a byte count or `off`")))?;
    let pause = words
        .next()
        .map(wait::parse_duration)
        .transpose()?
        .unwrap_or_default();
    Ok(Some(Chunking { size, pause }))
}

/// Parses `#!split OFFSET[,OFFSET…] [PAUSE]`.
fn parse_split(args: &str) -> Result<Split, Error> {
    let mut words = args.split_whitespace();
    let list = words.next().unwrap_or("");
    let offsets = list
        .split(',')
        .map(|offset| {
            offset
                .trim()
                .parse::<usize>()
                .map_err(|_| Error::new(format!("#!split: {offset:?} is not a byte offset")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if offsets.windows(2).any(|pair| pair[0] >= pair[1]) {
        return Err(Error::new("#!split: offsets must increase"));
    }
    let pause = words
        .next()
        .map(wait::parse_duration)
        .transpose()?
        .unwrap_or_default();
    Ok(Split { offsets, pause })
}

/// Parses `#!huge-line BYTES [assistant|tool_call]`.
fn parse_huge(args: &str) -> Result<Step, Error> {
    let mut words = args.split_whitespace();
    let size = words.next().unwrap_or("");
    let size: usize = size
        .parse()
        .map_err(|_| Error::new(format!("#!huge-line: {size:?} is not a byte count")))?;
    let kind = match words.next().unwrap_or("assistant") {
        "assistant" => HugeKind::Assistant,
        "tool_call" => HugeKind::ToolCall,
        other => {
            return Err(Error::new(format!(
                "#!huge-line: unknown kind {other:?} (assistant or tool_call)"
            )));
        }
    };
    Ok(Step::Huge(size, kind))
}

/// Parses an exit code.
fn parse_code(args: &str) -> Result<i32, Error> {
    args.trim()
        .parse()
        .map_err(|_| Error::new(format!("{args:?} is not an exit code")))
}

/// The state of a scenario being played.
struct Player<'a> {
    /// The stdout writer.
    out: Emitter,
    /// Substitution context (chat id for huge lines).
    context: &'a Context,
    /// Exit code at the end.
    exit_code: i32,
    /// Wait after the end, if any.
    keep_alive: Option<Wait>,
}

/// What to do after a step.
enum Flow {
    /// Go on with the next step.
    Continue,
    /// Exit now with this code.
    Exit(i32),
}

/// Plays `steps`; returns the exit code.
pub(crate) fn play(steps: Vec<Step>, context: &Context) -> Result<i32, Error> {
    let mut player = Player {
        out: Emitter::new()?,
        context,
        exit_code: 0,
        keep_alive: None,
    };
    for step in steps {
        if let Flow::Exit(code) = player.step(step)? {
            return Ok(code);
        }
    }
    player.out.settle()?;
    if let Some(wait) = player.keep_alive {
        wait.sleep();
    }
    Ok(player.exit_code)
}

impl Player<'_> {
    /// Runs one step.
    fn step(&mut self, step: Step) -> Result<Flow, Error> {
        match step {
            Step::Line(mut bytes) => {
                bytes.push(b'\n');
                self.out.emit(&bytes)?;
            }
            Step::Raw(bytes) => self.out.emit(&bytes)?,
            Step::Chunk(chunking) => self.out.set_chunking(chunking)?,
            Step::Split(split) => self.out.split_next(split),
            Step::Huge(size, kind) => self.huge(size, kind)?,
            Step::ExitCode(code) => self.exit_code = code,
            Step::KeepAlive(wait) => self.keep_alive = Some(wait),
            other => {
                self.out.settle()?;
                return self.blocking_step(other);
            }
        }
        Ok(Flow::Continue)
    }

    /// Runs a step that pauses, leaves, or touches something other than stdout's byte stream;
    /// pending chunk bytes have been written already.
    fn blocking_step(&mut self, step: Step) -> Result<Flow, Error> {
        match step {
            Step::Stderr(mut bytes) => {
                bytes.push(b'\n');
                std::io::stderr()
                    .write_all(&bytes)
                    .map_err(|error| Error::new(format!("writing stderr: {error}")))?;
            }
            Step::Sleep(duration) => std::thread::sleep(duration),
            Step::Exit(code) => return Ok(Flow::Exit(code)),
            Step::Stall => wait::sleep_forever(),
            Step::CloseStdout => self.out.close()?,
            Step::IgnoreSignals => sys::ignore_interrupts()
                .map_err(|error| Error::new(format!("ignoring signals: {error}")))?,
            Step::SpawnLingerer(spec) => {
                spec.spawn()?;
            }
            Step::SignalSelf(signal) => sys::signal_self(signal)
                .map_err(|error| Error::new(format!("signalling ourselves: {error}")))?,
            Step::Edit { path, text } => {
                if !read_only_run() {
                    self.edit(&path, &text)?;
                }
            }
            other => return Err(Error::new(format!("unexpected step {other:?}"))),
        }
        Ok(Flow::Continue)
    }

    /// Writes the file of [`Step::Edit`] between its `started` and `completed` lines.
    fn edit(&mut self, relative: &str, text: &str) -> Result<(), Error> {
        let path = Path::new(&self.context.workspace).join(relative);
        let shown = path.to_string_lossy().into_owned();
        let chat = &self.context.chat_id;
        let call = |subtype: &str, inner: serde_json::Value| {
            let mut line = serde_json::json!({"type": "tool_call", "subtype": subtype, "call_id": "edit-1", "tool_call": {"editToolCall": inner}, "session_id": chat, "timestamp_ms": 1});
            let mut bytes = line.take().to_string().into_bytes();
            bytes.push(b'\n');
            bytes
        };
        self.out.emit(&call(
            "started",
            serde_json::json!({"args": {"path": shown}}),
        ))?;
        self.out.settle()?;
        std::fs::write(&path, format!("{text}\n"))
            .map_err(|error| Error::io("writing", &path, &error))?;
        let done = serde_json::json!({"args": {"path": shown}, "result": {"success": {"path": shown, "linesAdded": 1, "linesRemoved": 0}}});
        self.out.emit(&call("completed", done))?;
        self.out.settle()
    }

    /// Writes a huge line (and, for a tool call, its small `started` line first).
    fn huge(&mut self, size: usize, kind: HugeKind) -> Result<(), Error> {
        let chat = &self.context.chat_id;
        let (prefix, suffix) = match kind {
            HugeKind::Assistant => (
                r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":""#.to_owned(),
                format!(r#""}}]}},"session_id":"{chat}"}}"#),
            ),
            HugeKind::ToolCall => {
                let started = format!(
                    r#"{{"type":"tool_call","subtype":"started","call_id":"{HUGE_CALL_ID}","tool_call":{{"readToolCall":{{"args":{{"path":"huge.txt"}}}}}},"session_id":"{chat}"}}"#
                );
                self.step(Step::Line(started.into_bytes()))?;
                (
                    format!(
                        r#"{{"type":"tool_call","subtype":"completed","call_id":"{HUGE_CALL_ID}","tool_call":{{"readToolCall":{{"args":{{"path":"huge.txt"}},"result":{{"success":{{"content":""#
                    ),
                    format!(
                        r#"","isEmpty":false,"exceededLimit":false}}}}}}}},"session_id":"{chat}"}}"#
                    ),
                )
            }
        };
        let line = huge_line(&prefix, &suffix, size)?;
        self.step(Step::Line(line))?;
        Ok(())
    }
}

/// The `call_id` of `#!huge-line … tool_call`.
const HUGE_CALL_ID: &str = "fake-huge-call";

/// `prefix`, ASCII filler, `suffix`: exactly `size` bytes.
fn huge_line(prefix: &str, suffix: &str, size: usize) -> Result<Vec<u8>, Error> {
    let envelope = prefix.len() + suffix.len();
    let fill = size.checked_sub(envelope).ok_or_else(|| {
        Error::new(format!(
            "#!huge-line: {size} bytes is smaller than the {envelope}-byte event around the filler"
        ))
    })?;
    const PATTERN: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789 ";
    let mut line = Vec::with_capacity(size);
    line.extend_from_slice(prefix.as_bytes());
    line.extend(PATTERN.iter().copied().cycle().take(fill));
    line.extend_from_slice(suffix.as_bytes());
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context {
            chat_id: "c1".to_owned(),
            prompt: "p".to_owned(),
            workspace: "/w".to_owned(),
            model: "auto".to_owned(),
            model_name: "Auto".to_owned(),
            request_id: "r".to_owned(),
            api_key_source: "login".to_owned(),
        }
    }

    #[test]
    fn lines_directives_and_comments() {
        let text = b"{\"a\":\"{{chat_id}}\"}\n#!# a comment\n#!sleep 5\n#!chunk 7 1ms\n#!split 1,4\n#!stderr oops {{chat_id}}\n#!raw {\"partial\n#!exit 3\nplain text";
        let steps = parse(text, &context()).ok();
        assert_eq!(
            steps,
            Some(vec![
                Step::Line(b"{\"a\":\"c1\"}".to_vec()),
                Step::Sleep(Duration::from_millis(5)),
                Step::Chunk(Some(Chunking {
                    size: 7,
                    pause: Duration::from_millis(1)
                })),
                Step::Split(Split {
                    offsets: vec![1, 4],
                    pause: Duration::ZERO
                }),
                Step::Stderr(b"oops c1".to_vec()),
                Step::Raw(b"{\"partial".to_vec()),
                Step::Exit(3),
                Step::Line(b"plain text".to_vec()),
            ])
        );
    }

    #[test]
    fn bad_directives_name_the_line() {
        let error = parse(b"ok\n#!slep 5\n", &context())
            .err()
            .map(|e| e.to_string());
        assert_eq!(error.as_deref(), Some("line 2: unknown directive #!slep"));
        assert!(parse(b"#!split 5,2\n", &context()).is_err());
        assert!(parse(b"#!chunk many\n", &context()).is_err());
    }

    #[test]
    fn huge_lines_are_exact_json() {
        let line = huge_line("{\"t\":\"", "\"}", 1000).ok().unwrap_or_default();
        assert_eq!(line.len(), 1000);
        let value: serde_json::Value = serde_json::from_slice(&line).unwrap_or_default();
        assert_eq!(value["t"].as_str().map(str::len), Some(992));
        assert!(huge_line("{\"t\":\"", "\"}", 3).is_err());
    }

    /// Every scenario shipped in `scenarios/` parses, and its output lines are JSON (except in
    /// the files that deliberately carry plain text).
    #[test]
    fn shipped_scenarios_are_valid() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut pending = vec![root];
        let mut checked = 0;
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                    continue;
                }
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let plain_text_allowed = name.contains("error") || name.contains("unknown");
                for step in load(&path, &context()).unwrap() {
                    if let Step::Line(bytes) = step {
                        let json = serde_json::from_slice::<serde_json::Value>(&bytes);
                        assert!(json.is_ok() || plain_text_allowed, "{name}: {bytes:?}");
                    }
                }
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} scenarios found");
    }
}
