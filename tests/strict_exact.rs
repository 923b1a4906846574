//! Strict compares whole lines byte for byte: lines that differ in a single
//! byte anywhere (the engine's line index only samples a line's start,
//! middle and end to find candidates) are different lines.

use applypatch::{apply, ErrorKind};

/// Two 81-byte lines that differ only at byte 20: same length, same start,
/// middle and end.
fn twins() -> (String, String) {
    let line = |c: char| format!("{}{c}{}", "p".repeat(20), "q".repeat(60));
    (line('X'), line('Y'))
}

#[test]
fn a_long_line_differing_in_one_byte_is_not_matched() {
    let (x, y) = twins();
    let input = format!("start\n{x}\nend\n");
    let e = apply(&input, &format!("-{y}\n+changed")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ContextNotFound, "{}", e.message);
    assert_eq!(e.nearest.map(|n| n.line), Some(2));
}

#[test]
fn the_one_line_that_equals_is_changed_not_its_twin() {
    let (x, y) = twins();
    let input = format!("{x}\n{y}\n");
    assert_eq!(apply(&input, &format!("-{y}\n+changed")).unwrap(), format!("{x}\nchanged\n"));
    assert_eq!(apply(&input, &format!("@@ {x}\n-{y}\n+changed")).unwrap(), format!("{x}\nchanged\n"));
}

#[path = "shared/one_byte.rs"]
mod one_byte;

#[test]
fn every_one_byte_difference_is_seen() {
    one_byte::every_one_byte_difference_is_seen();
}
