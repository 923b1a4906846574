//! The engine inside wasm32 (32-bit usize, no std::fs), run under Node by
//! `wasm-pack test --node` (scripts/test.sh): the strict vectors, a Codex
//! case with mixed line endings, and a large input.
#![cfg(target_arch = "wasm32")]

use applypatch::{apply, apply_batch, Mode};
use wasm_bindgen_test::wasm_bindgen_test;

#[derive(serde::Deserialize)]
struct Case {
    input: String,
    #[serde(default)]
    diff: String,
    #[serde(default)]
    diffs: Vec<String>,
    want: String,
    fails: bool,
}

#[derive(serde::Deserialize)]
struct Vectors {
    apply: Vec<Case>,
    #[serde(rename = "applyBatch")]
    apply_batch: Vec<Case>,
}

#[wasm_bindgen_test]
fn strict_vectors_in_wasm() {
    let v: Vectors = serde_json::from_str(include_str!("fixtures/strict.json")).unwrap();
    for c in &v.apply {
        let got = apply(&c.input, &c.diff);
        assert_eq!(got.is_err(), c.fails, "{:?}", c.diff);
        if let Ok(out) = got {
            assert_eq!(out, c.want);
        }
    }
    for c in &v.apply_batch {
        let got = apply_batch(&c.input, &c.diffs);
        assert_eq!(got.is_err(), c.fails);
        if let Ok(out) = got {
            assert_eq!(out, c.want);
        }
    }
}

#[wasm_bindgen_test]
fn codex_mixed_endings_in_wasm() {
    assert_eq!(Mode::Codex.apply("a\r\nb\nc\n", "@@\n b\n+x\n c").unwrap(), "a\r\nb\nx\r\nc\n");
}

#[wasm_bindgen_test]
fn large_input_in_wasm() {
    let input: String = (0..200_000).map(|i| format!("line {i}\n")).collect();
    let out = apply(&input, "@@\n line 199998\n-line 199999\n+last").unwrap();
    assert!(out.ends_with("line 199998\nlast\n"));
    assert_eq!(out.len(), input.len() - "line 199999\n".len() + "last\n".len());
}

/// Lines of every length around wasm's 32- and 16-byte line-break scan (text.rs),
/// each ending in LF, CRLF or a lone CR: Codex mode keeps every other line's
/// own ending (a new line gets the first line's, LF here), so changing one
/// line shows that each was split where it ends.
#[wasm_bindgen_test]
fn line_breaks_at_every_position_of_the_scan() {
    for shift in 0..33 {
        let mut input = "x".repeat(shift);
        input.push('\n');
        let endings = ["\n", "\r\n", "\r"];
        let lines: Vec<String> = (0..40).map(|i| format!("{}{i}", "a".repeat(i % 19))).collect();
        for (i, l) in lines.iter().enumerate() {
            input.push_str(l);
            input.push_str(endings[i % 3]);
        }
        for (i, l) in lines.iter().enumerate() {
            let diff = format!("@@\n-{l}\n+changed\n");
            let out = Mode::Codex.apply(&input, &diff).unwrap();
            let want = input.replacen(&format!("{l}{}", endings[i % 3]), "changed\n", 1);
            assert_eq!(out, want, "shift {shift}, line {i}");
        }
    }
}

#[path = "shared/one_byte.rs"]
mod one_byte;

#[wasm_bindgen_test]
fn every_one_byte_difference_is_seen_in_wasm() {
    one_byte::every_one_byte_difference_is_seen();
}

/// `utf16::is_ascii` reads 64 bytes at a time in wasm: a byte above 0x7F
/// at every place of texts up to 200 bytes long is seen, and so is its
/// absence.
#[wasm_bindgen_test]
fn is_ascii_sees_every_byte_in_wasm() {
    for len in 0..200 {
        let mut b = vec![b'a'; len];
        assert!(applypatch::utf16::is_ascii(&b), "length {len}");
        for at in 0..len {
            b[at] = 0x80;
            assert!(!applypatch::utf16::is_ascii(&b), "length {len}, byte {at}");
            b[at] = 0xFF;
            assert!(!applypatch::utf16::is_ascii(&b), "length {len}, byte {at}");
            b[at] = 0x7F;
            assert!(applypatch::utf16::is_ascii(&b), "length {len}, byte {at}");
            b[at] = b'a';
        }
    }
}
