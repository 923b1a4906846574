//! Lines that differ in one byte, at every place of every length up to 40,
//! are different lines: run natively (tests/strict_exact.rs) and in wasm
//! (tests/wasm.rs), where lines are compared sixteen, eight or four bytes
//! at a time (`text::same`), reading a short line's ends twice.

use applypatch::{apply, ErrorKind};

pub fn every_one_byte_difference_is_seen() {
    // The first line is the longest, so the search starts from it and every
    // other line of the block is compared in full.
    let head = "h".repeat(50);
    for len in 0..=40usize {
        let line: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let input = format!("{head}\n{line}\ntail\n");
        let diff = |removed: &str| format!("@@\n {head}\n-{removed}\n+new\n tail\n");
        assert_eq!(apply(&input, &diff(&line)).unwrap(), format!("{head}\nnew\ntail\n"), "length {len}");
        for at in 0..len {
            let mut other = line.clone().into_bytes();
            other[at] = b'Z';
            let other = String::from_utf8(other).unwrap();
            let e = apply(&input, &diff(&other)).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ContextNotFound, "length {len}, byte {at}: {}", e.message);
        }
    }
}
