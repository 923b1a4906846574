//! Diffs and patches sent again to what they produced (issue 22): recognised
//! as already applied (with `repair`, a reported no-op), never applied twice,
//! and a fresh diff never taken for a re-sent one.

use std::collections::BTreeMap;

use applypatch::repair::{self, Allow, RepairKind};
use applypatch::{apply, ErrorKind, Mode};

fn files(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
    entries.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
}

const BEFORE: &str = "fn a() {\n    1\n}\n\nfn b() {\n    3\n}\n";
const AFTER: &str = "fn a() {\n    1\n}\n\nfn new() {\n    2\n}\n\nfn b() {\n    3\n}\n";
/// A function inserted between two others: its added lines end like the
/// context after them (`}` and a blank line).
const INSERTION: &str = "@@\n     1\n }\n \n+fn new() {\n+    2\n+}\n+\n fn b() {\n     3\n }";

#[test]
fn an_insertion_ending_like_its_context_is_recognised_when_sent_again() {
    assert_eq!(apply(BEFORE, INSERTION).unwrap(), AFTER);
    let e = apply(AFTER, INSERTION).unwrap_err();
    assert_eq!((e.kind, e.diff_line, e.input_lines.clone()), (ErrorKind::AlreadyApplied, Some(1), vec![2]));
    assert_eq!(
        e.message,
        "The diff is already applied. Its new lines are already in the input, where it would put them: section 1 (diff lines 1-11) at input line 2. Nothing was changed, and the diff was not applied a second time. Do not send it again; re-read the file if you want to change it further."
    );
    let r = repair::apply(AFTER, INSERTION, Allow::ALL).unwrap();
    assert_eq!(r.value, AFTER);
    assert_eq!(r.repairs.len(), 1);
    assert_eq!(r.repairs[0].kind, RepairKind::AlreadyApplied);
    // A fresh insertion of the same shape is never taken for a re-sent one.
    let other = "@@\n     1\n }\n \n+fn other() {\n+    4\n+}\n+\n fn b() {\n     3\n }";
    assert_eq!(apply(BEFORE, other).unwrap(), "fn a() {\n    1\n}\n\nfn other() {\n    4\n}\n\nfn b() {\n    3\n}\n");
}

#[test]
fn new_lines_found_with_the_old_ones_still_there_are_not_called_applied() {
    // The old lines are still there (indented differently), so the new
    // lines found are not the change done: context_not_found, and the
    // message does not say the change looks applied.
    let e = apply("x = 1\ny = 2\n", "@@\n-  x = 1\n+y = 2").unwrap_err();
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert!(!e.message.contains("looks already applied"), "{}", e.message);
    assert_eq!(
        e.message,
        "Section 1 (diff lines 1-3): its context and removed lines are not in the input. Its context and added lines are, at input line 2, but its old lines are not gone (they are still in the input, perhaps with other whitespace or one line changed, or its removed lines are still next to the added ones), so it was not taken as already applied either. Re-read the file, then send a diff of what it does not have yet."
    );
}

#[test]
fn a_move_sent_again_is_already_applied() {
    let patch = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+two\n*** End Patch";
    let once = applypatch::apply_files(&files(&[("a.txt", "one\n")]), patch, Mode::Strict).unwrap();
    assert_eq!(once, files(&[("b.txt", "two\n")]));
    let e = applypatch::apply_files(&once, patch, Mode::Strict).unwrap_err();
    assert_eq!((e.kind, e.operation, e.diff_line), (ErrorKind::AlreadyApplied, Some(0), Some(2)));
    assert_eq!(
        e.message,
        "The patch is already applied: operation 1 (update a.txt, patch line 2). Every file already has its change (updates: their new lines are where they would go; added files: the same contents; deleted files: already gone). Nothing was changed, and nothing was applied a second time. Do not send this patch again; re-read the files if you want to change them further."
    );
    let r = repair::apply_files(&once, patch, Allow::ALL).unwrap();
    assert_eq!(r.value, once);
    assert_eq!(r.repairs.iter().map(|r| r.kind).collect::<Vec<_>>(), [RepairKind::AlreadyApplied]);
    // The destination without the change: the source is missing, as before
    // (and b.txt, one letter away, is listed as a near path).
    let e = applypatch::apply_files(&files(&[("b.txt", "other\n")]), patch, Mode::Strict).unwrap_err();
    assert_eq!(e.kind, ErrorKind::FileNotFound);
    assert_eq!(
        e.message,
        "a.txt: there is no file at this path to update. Nothing was applied. The files have similar paths: b.txt. Check the path (it is used exactly as written, relative to the project root); to create the file, write '*** Add File: a.txt' instead, with every line of the new file starting with '+'."
    );
    // Codex mode keeps Codex's behaviour.
    let e = applypatch::apply_files(&once, patch, Mode::Codex).unwrap_err();
    assert_eq!(e.kind, ErrorKind::FileNotFound);
}

#[test]
fn a_block_never_runs_past_the_end_of_the_input() {
    // The section's old lines are 'a' and an empty line: the input's 'a' is
    // its last line, with no line after it.
    let e = apply("x\na\n", " a\n \n+b").unwrap_err();
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
}

#[test]
fn an_insertion_among_repeated_blocks_is_recognised_when_sent_again() {
    // Its context is, all but one line, all over the file.
    let block = |name: &str| format!("    /**\n     * @default false\n     */\n    {name}: boolean;\n");
    let before = format!("{}{}{}", block("a"), block("b"), block("c"));
    let diff = "@@\n      * @default false\n      */\n     b: boolean;\n+    /**\n+     * @since 8\n+     */\n+    m: string;\n     /**\n      * @default false\n      */";
    let after = apply(&before, diff).unwrap();
    assert_eq!(after, format!("{}{}    /**\n     * @since 8\n     */\n    m: string;\n{}", block("a"), block("b"), block("c")));
    let e = apply(&after, diff).unwrap_err();
    assert_eq!((e.kind, e.input_lines.clone()), (ErrorKind::AlreadyApplied, vec![6]));
    assert_eq!(repair::apply(&after, diff, Allow::ALL).unwrap().value, after);
}

#[test]
fn a_change_of_indentation_is_recognised_when_sent_again() {
    let diff = "@@\n fn f() {\n-  x();\n+    x();\n }";
    let after = apply("fn f() {\n  x();\n}\n", diff).unwrap();
    assert_eq!(after, "fn f() {\n    x();\n}\n");
    assert_eq!(apply(&after, diff).unwrap_err().kind, ErrorKind::AlreadyApplied);
    // Its old lines elsewhere, with other whitespace: not taken as applied.
    let twice = "fn f() {\n    x();\n}\nfn f() {\n x();\n}\n";
    assert_eq!(apply(twice, diff).unwrap_err().kind, ErrorKind::ContextNotFound);
}

/// A removal whose kept lines are unique and start where its old lines do:
/// the new lines are found at the match itself, and being no longer than
/// the old ones they are not the change done (the old lines are there).
#[test]
fn a_removal_whose_kept_lines_start_its_match_is_fresh() {
    assert_eq!(apply("a\nb\nc\n", "@@\n a\n-b").unwrap(), "a\nc\n");
    assert_eq!(apply("a\nb\nc\n", "@@\n a\n-b\n+b").unwrap(), "a\nb\nc\n");
    // Sent again, it is recognised.
    assert_eq!(apply("a\nc\n", "@@\n a\n-b").unwrap_err().kind, ErrorKind::AlreadyApplied);
}

/// A section pinned to the end of the file whose new lines end it already
/// (its old lines, the last of them, end it too): recognised, not applied
/// a second time. The same new lines anywhere but at the end do not count.
#[test]
fn a_section_at_the_end_of_the_file_is_recognised_when_sent_again() {
    let diff = "@@\n+a\n b\n*** End of File";
    assert_eq!(apply("x\nb\n", diff).unwrap(), "x\na\nb\n");
    let e = apply("x\na\nb\n", diff).unwrap_err();
    assert_eq!((e.kind, e.input_lines.clone()), (ErrorKind::AlreadyApplied, vec![2]));
    assert_eq!(apply("a\nb\ny\nb\n", diff).unwrap(), "a\nb\ny\na\nb\n");
}
