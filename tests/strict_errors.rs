//! Each Strict error kind: its code, the places it names, and a message that
//! says what to change.

use applypatch::{apply, apply_batch, Error, ErrorKind};

fn fail(input: &str, diff: &str) -> Error {
    match apply(input, diff) {
        Ok(out) => panic!("expected an error, got {out:?}"),
        Err(e) => e,
    }
}

#[test]
fn ambiguous_context_lists_every_place_and_suggests_an_anchor() {
    let input = "fn a() {\n    return None\n}\nfn b() {\n    return None\n}\n";
    let e = fail(input, "@@\n-    return None\n+    return []");
    assert_eq!(e.kind, ErrorKind::ContextAmbiguous);
    assert_eq!(e.code(), "context_ambiguous");
    assert_eq!(e.diff_line, Some(2));
    assert_eq!(e.input_lines, [2, 5]);
    assert!(e.message.contains("2 places"), "{}", e.message);
    assert!(e.message.contains("'@@ fn a() {'") && e.message.contains("'@@ fn b() {'"), "{}", e.message);
}

#[test]
fn ambiguous_anchor_names_both_lines() {
    let e = fail("h\na\nh\nb", "@@ h\n-a\n+c");
    assert_eq!(e.kind, ErrorKind::AnchorAmbiguous);
    assert_eq!((e.diff_line, e.input_lines.as_slice()), (Some(1), &[1, 3][..]));
}

#[test]
fn missing_anchor_points_at_the_line_that_differs_in_whitespace() {
    let e = fail("class A:\n    def f(self):\n        pass\n", "@@ def f(self):\n-        pass\n+        return 1");
    assert_eq!(e.kind, ErrorKind::AnchorNotFound);
    assert_eq!(e.input_lines, [2]);
    assert!(e.message.contains("only whitespace differs"), "{}", e.message);
}

#[test]
fn context_not_found_reports_the_nearest_place_and_the_first_difference() {
    let input = "one\ntwo\nthree\nfour\nfive\n";
    let e = fail(input, "@@\n two\n-thre\n+3\n four");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    // The diff line to fix: the first that differs at the closest place.
    assert_eq!(e.diff_line, Some(3));
    let nearest = e.nearest.as_ref().expect("nearest");
    assert_eq!(nearest.line, 2);
    assert_eq!(nearest.text, "two\nthree\nfour");
    assert!((nearest.similarity - 2.0 / 3.0).abs() < 1e-9);
    assert!(e.message.contains("diff line 3 expects 'thre'"), "{}", e.message);
    assert!(e.message.contains("input line 3 is    'three'"), "{}", e.message);
}

#[test]
fn context_not_found_names_in_its_fields_the_input_line_its_message_names() {
    // The closest place starts at input line 2; the line that differs there is
    // input line 4, paired with diff line 4: the fields say what the message says.
    let e = fail("a\nb\nc\nd\ne\n", "@@\n b\n c\n-X\n+Y");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert_eq!(
        e.message,
        "Section 1 (diff lines 1-5): its context and removed lines were not found in the input. The closest place is input line 2, where 2 of 3 lines are equal:\n  diff line 4 expects 'X'\n  input line 4 is    'd'\nStrict mode compares lines byte for byte. Copy the lines exactly as the input has them (re-read the file if it may have changed)."
    );
    assert_eq!((e.diff_line, e.input_lines.as_slice()), (Some(4), &[4][..]));
    assert_eq!(e.nearest.as_ref().map(|n| n.line), Some(2));
}

#[test]
fn whitespace_only_difference_is_named() {
    let e = fail("  indented\n", "-indented\n+changed");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert!(e.message.contains("only whitespace differs"), "{}", e.message);
    assert_eq!(e.nearest.map(|n| n.line), Some(1));
}

#[test]
fn sections_out_of_file_order() {
    let e = fail("a\nb\nc\nd\n", "@@\n-c\n+C\n@@\n-a\n+A");
    assert_eq!(e.kind, ErrorKind::OutOfOrder);
    assert_eq!((e.diff_line, e.input_lines.as_slice()), (Some(5), &[1][..]));
}

#[test]
fn already_applied_change_is_recognised() {
    let e = fail("a\nB\nc\n", "@@\n a\n-b\n+B\n c");
    assert_eq!(e.kind, ErrorKind::AlreadyApplied);
    assert!(e.message.starts_with("The diff is already applied."), "{}", e.message);
    assert_eq!(e.input_lines, [1]);
}

#[test]
fn end_of_file_section_found_elsewhere() {
    let e = fail("a\nb\n", "-a\n+c\n*** End of File");
    assert!(e.message.contains("must be the last lines"), "{}", e.message);
    assert_eq!(e.input_lines, [1]);
}

#[test]
fn unanchored_insertion_and_mixed_newlines() {
    assert_eq!(fail("a", "+b").kind, ErrorKind::UnanchoredInsertion);
    let e = fail("a\r\nb\n", "-a\n+c");
    assert_eq!((e.kind, e.input_lines.as_slice()), (ErrorKind::MixedNewlines, &[1, 2][..]));
    let e = fail("a\rb\n", "-a\n+c");
    assert_eq!((e.kind, e.input_lines.as_slice()), (ErrorKind::MixedNewlines, &[1][..]));
}

#[test]
fn overlap_names_both_diffs_and_lines() {
    let e = apply_batch("a\nb\n", &["-a\n+x", " a\n-b\n+y", "@@\n-a\n+z"]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Overlap);
    assert_eq!(e.diff, Some(2));
    assert_eq!(e.conflict.as_ref().map(|c| (c.diff, c.diff_line)), Some((0, Some(1))));
    assert_eq!(e.diff_line, Some(2));
    assert_eq!(e.input_lines, [1, 1]);
    assert!(e.message.starts_with("diff 1 (diff line 1) changes input line 1 and diff 3 (diff line 2)"), "{}", e.message);
}

#[test]
fn insertions_at_one_place_overlap_but_adjacent_changes_do_not() {
    let e = apply_batch("a\nb\n", &["@@ a\n+x", "@@ a\n+y"]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Overlap);
    let e = apply_batch("a\nb\n", &["@@ a\n+x", "-b\n+y"]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Overlap, "an insertion where a change starts is an order guess");
    assert_eq!(apply_batch("a\nb\nc\n", &["-a\n+x", "-b\n+y", "-c\n+z"]).unwrap(), "x\ny\nz\n");
    // Using another diff's changed line as context is not an overlap.
    assert_eq!(apply_batch("a\nb\nc\n", &[" a\n-b\n+B", "-a\n+A"]).unwrap(), "A\nB\nc\n");
}

#[test]
fn batch_errors_name_the_diff() {
    let e = apply_batch("a\nb\n", &["-a\n+x", "-missing\n+y"]).unwrap_err();
    assert_eq!(e.diff, Some(1));
    assert!(e.message.starts_with("diff 2 of the batch:"), "{}", e.message);
    // A single apply has no batch index.
    assert_eq!(fail("a\n", "-missing\n+y").diff, None);
}

#[test]
fn parse_errors_quote_the_line() {
    let e = fail("a", "@@\n a\n\tb");
    assert_eq!((e.kind, e.diff_line), (ErrorKind::InvalidLine, Some(3)));
    assert!(e.message.contains("'\\tb'") && e.message.contains("starts with '\\t'"), "{}", e.message);
    let e = fail("a", "*** Begin Patch\n*** Update File: a\n-a\n+b\n*** End Patch");
    assert!(e.message.contains("applyFiles"), "{}", e.message);
}

#[test]
fn context_only_and_empty_diffs_change_nothing_but_must_match() {
    assert_eq!(apply("a\nb\n", "").unwrap(), "a\nb\n");
    assert_eq!(apply("a\nb\n", " a\n b").unwrap(), "a\nb\n");
    assert_eq!(fail("a\nb\n", " x").kind, ErrorKind::ContextNotFound);
}

#[test]
fn a_trailing_blank_line_that_breaks_the_match_is_named() {
    let e = fail("one\ntwo\n", "@@\n-one\n+ONE\n\n");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert!(
        e.message.contains("Its last line (diff line 4) is an empty context line; without it the section matches once, at input line 1."),
        "{}",
        e.message
    );
    // No hint when the blank line is not the problem.
    let e = fail("one\ntwo\n", "@@\n-uno\n+ONE\n\n");
    assert!(!e.message.contains("empty context line"), "{}", e.message);
}

#[test]
fn a_line_quoted_in_a_message_shows_its_control_characters() {
    let e = fail("a\n", "?b\u{7}\t");
    assert_eq!(
        e.message,
        "Diff line 1 ('?b\\u{7}\\t') is not valid: every line of a section starts with ' ' (context), '-' (removed) or '+' (added), and this one starts with '?'. If it is a line of the input, put a space before it, even when it is empty or starts with a tab."
    );
}

#[test]
fn an_end_of_file_marker_right_under_a_header_is_an_empty_section() {
    // Also with a line after the marker: the empty section is the error, not
    // the line after an end-of-file marker.
    for diff in ["@@\n*** End of File", "@@ a\n*** End of File", "@@\n*** End of File\n+b"] {
        let e = fail("a\n", diff);
        assert_eq!(e.kind, ErrorKind::EmptyHunk);
        assert_eq!(
            e.message,
            "The section starting at diff line 1 has no lines under its '@@' header. Give it its context (' '), removed ('-') and added ('+') lines, or remove the header."
        );
    }
}
