//! Throughput of the stream-json parser on a multi-megabyte recorded-style stream, against a
//! naive baseline (newline split + `serde_json::Value` per line), plus the most bytes the parser
//! held at once. Run with `cargo bench --bench stream_parse`.
//!
//! The stream repeats the recorded fixtures (with fresh call ids per copy) and adds a few 2 MB
//! `readToolCall` lines, fed in 64 KiB chunks like pipe reads. Knobs for profiling:
//! `BENCH_REGULAR_MB` (fixture bytes, default 12), `BENCH_BIG_LINES` (default 4) and
//! `BENCH_ONLY_PARSER=1` (skip the baseline).

// A benchmark or tool that cannot set up reports it by panicking.
#![allow(clippy::expect_used)]

use std::error::Error;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use std::time::Instant;

use multi_cursor::cursor::stream::DEFAULT_MAX_LINE;
use multi_cursor::cursor::stream::StreamItem;
use multi_cursor::cursor::stream::StreamParser;

const CHUNK: usize = 64 * 1024;
const ITERATIONS: usize = 12;
const TARGET_REGULAR_BYTES: usize = 12 * 1024 * 1024;
const BIG_LINES: usize = 4;
const BIG_LINE_BYTES: usize = 2 * 1024 * 1024;

fn main() -> Result<(), Box<dyn Error>> {
    let big_lines = std::env::var("BENCH_BIG_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BIG_LINES);
    let regular = std::env::var("BENCH_REGULAR_MB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(TARGET_REGULAR_BYTES, |mb| mb << 20);
    let stream = build_stream(regular, big_lines)?;
    let longest = stream
        .split(|&b| b == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    let mb = stream.len() as f64 / 1e6;
    println!(
        "stream: {mb:.1} MB, {} lines, longest line {longest} bytes, chunks of {CHUNK} bytes",
        stream.iter().filter(|&&b| b == b'\n').count()
    );

    let mut max_buffered = 0;
    let mut items = 0;
    let parser_time = best_of(|| {
        let (count, held) = parse_in_chunks(&stream);
        items = count;
        max_buffered = max_buffered.max(held);
    });
    let mut values = 0;
    let only_parser = std::env::var_os("BENCH_ONLY_PARSER").is_some();
    let baseline_time = if only_parser {
        parser_time
    } else {
        best_of(|| values = baseline(&stream))
    };

    let parser_rate = mb / parser_time.as_secs_f64();
    let baseline_rate = mb / baseline_time.as_secs_f64();
    println!(
        "parser: {parser_rate:.0} MB/s; baseline (split + Value parse): {baseline_rate:.0} MB/s; ratio {:.2}",
        parser_rate / baseline_rate
    );
    println!("items: {items}; baseline values: {values}");
    println!(
        "max buffered(): {max_buffered} bytes; longest line: {longest} bytes ({})",
        if max_buffered <= longest {
            "bounded by the current line"
        } else {
            "OVER the longest line"
        }
    );
    Ok(())
}

/// Best wall time of [`ITERATIONS`] runs (after one warm-up).
fn best_of(mut run: impl FnMut()) -> Duration {
    run();
    (0..ITERATIONS)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Parse the stream in chunks; returns the item count and the most bytes held at once.
fn parse_in_chunks(stream: &[u8]) -> (usize, usize) {
    let mut parser = StreamParser::new(DEFAULT_MAX_LINE);
    let mut out: Vec<StreamItem> = Vec::with_capacity(1024);
    let mut count = 0;
    let mut held = 0;
    for chunk in stream.chunks(CHUNK) {
        if parser.feed(chunk, &mut out).is_err() {
            eprintln!("unexpected over-long line");
        }
        held = held.max(parser.buffered());
        count += out.len();
        black_box(out.drain(..).count());
    }
    if parser.finish(&mut out).is_err() {
        eprintln!("unexpected error at finish");
    }
    (count + out.len(), held)
}

/// The naive baseline: split the whole buffer on newlines and parse every JSON line to a `Value`.
fn baseline(stream: &[u8]) -> usize {
    let mut rest = stream;
    let mut parsed = 0;
    loop {
        let (line, next) = match find_newline(rest) {
            Some(end) => (&rest[..end], Some(&rest[end + 1..])),
            None => (rest, None),
        };
        let line = line.trim_ascii();
        if line.first() == Some(&b'{')
            && let Ok(value) = serde_json::from_slice::<serde_json::Value>(line)
        {
            black_box(value);
            parsed += 1;
        }
        match next {
            Some(next) => rest = next,
            None => return parsed,
        }
    }
}

/// The same word-at-a-time newline search the parser uses (memchr-style).
fn find_newline(haystack: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let (words, tail) = haystack.as_chunks::<8>();
    for (index, word) in words.iter().enumerate() {
        let x = u64::from_le_bytes(*word) ^ NEWLINES;
        let zero_bytes = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero_bytes != 0 {
            return Some(index * 8 + (zero_bytes.trailing_zeros() / 8) as usize);
        }
    }
    let start = words.len() * 8;
    tail.iter().position(|&b| b == b'\n').map(|p| start + p)
}

/// Fixtures repeated (fresh call ids per copy) with a few 2 MB lines spread through.
fn build_stream(regular: usize, big_lines: usize) -> Result<Vec<u8>, Box<dyn Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cursor-stream");
    let mut fixtures = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "ndjson") {
            fixtures.push(std::fs::read_to_string(&path)?);
        }
    }
    fixtures.sort();
    if fixtures.is_empty() {
        return Err(format!("no fixtures in {}", dir.display()).into());
    }
    let mut stream = String::new();
    let mut copy = 0usize;
    let big_every = regular / big_lines.max(1);
    let mut next_big = if big_lines == 0 {
        usize::MAX
    } else {
        big_every / 2
    };
    while stream.len() < regular + big_lines * BIG_LINE_BYTES {
        for fixture in &fixtures {
            copy += 1;
            stream.push_str(
                &fixture
                    .replace("call-", &format!("call-r{copy}-"))
                    .replace("toolu_vrtx_", &format!("toolu_vrtx_r{copy}_")),
            );
        }
        if stream.len() >= next_big {
            stream.push_str(&big_read_line(copy));
            next_big = stream.len() + big_every;
        }
    }
    Ok(stream.into_bytes())
}

/// A `readToolCall` completion embedding a ~2 MB file (escapes and non-ASCII included).
fn big_read_line(copy: usize) -> String {
    let row = "fn main() { println!(\\\"héllo, 世界 {}\\\", 42); }\\n\\t// comment\\n";
    let content = row.repeat(BIG_LINE_BYTES / row.len());
    format!(
        concat!(
            r#"{{"type":"tool_call","subtype":"completed","call_id":"big-{copy}","tool_call":{{"readToolCall":"#,
            r#"{{"args":{{"path":"src/big.rs","toolCallId":"big-{copy}"}},"result":{{"success":{{"content":"{content}","#,
            r#""isEmpty":false,"exceededLimit":false,"totalLines":99999,"fileSize":2097152}}}}}}}},"#,
            r#""model_call_id":"m","session_id":"s","timestamp_ms":1}}"#,
            "\n"
        ),
        copy = copy,
        content = content
    )
}
