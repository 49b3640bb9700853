//! libFuzzer target `stream_parser`: the property is `multi_cursor_fuzz_checks::stream_parser::check` (its module
//! doc says what is checked); the regression test runs it on the corpus on every `cargo test`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| multi_cursor_fuzz_checks::stream_parser::check(data));
