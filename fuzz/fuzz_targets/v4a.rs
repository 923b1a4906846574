//! V4A diffs in both modes, one diff and batches. The input is split on
//! U+0001: the text, then the diffs. Invariants beyond "no panic":
//! - `changes` and `apply` agree, and a failure returns no output;
//! - a batch of one diff is that diff;
//! - Strict: the same text and diff with CRLF line breaks give the same
//!   result with CRLF breaks (or fail the same way).
#![no_main]
use applypatch::Mode;
use libfuzzer_sys::fuzz_target;

fn crlf(t: &str) -> String {
    t.replace('\n', "\r\n")
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let mut parts = s.split('\u{1}');
    let input = parts.next().unwrap_or("");
    let diffs: Vec<&str> = parts.collect();
    let diff = diffs.first().copied().unwrap_or("");
    for mode in [Mode::Strict, Mode::Codex] {
        let one = mode.apply(input, diff);
        match mode.changes(input, diff) {
            Ok(c) => assert_eq!(Ok(&c.apply(input)), one.as_ref(), "changes and apply differ"),
            Err(e) => assert_eq!(one.as_ref().err().map(|e| e.kind), Some(e.kind)),
        }
        let batch = mode.apply_batch(input, &[diff]);
        assert_eq!(batch.as_ref().ok(), one.as_ref().ok(), "a batch of one diff differs from the diff");
        if mode == Mode::Strict && input.contains('\n') && !input.contains('\r') && !diff.contains('\r') {
            let other = mode.apply(&crlf(input), &crlf(diff));
            match (&one, &other) {
                (Ok(a), Ok(b)) => assert_eq!(&crlf(a), b, "CRLF result differs"),
                (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "CRLF error differs"),
                _ => panic!("LF {:?} but CRLF {:?}", one.as_ref().map(|_| ()), other.as_ref().map(|_| ())),
            }
        }
        if diffs.len() > 1 {
            let _ = mode.apply_batch(input, &diffs);
        }
    }
});
