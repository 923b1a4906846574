//! The improvements over apply-edit-block, each behind an option and all on
//! in `Options::SAFE`. Each test starts from a complaint users of search/replace
//! appliers have filed (see the README) and shows what the option does.

use applypatch::blocks::{apply_blocks, apply_edit, apply_edits, DifferenceKind, Edit, EditResult, LineRange, Options, Reason, Strategy};
use applypatch::FileChange;

fn run(source: &str, search: &str, replace: &str, options: &Options) -> EditResult {
    apply_edit(source, &Edit::new(search, replace), options).unwrap()
}

fn lines(start: usize, end: usize) -> LineRange {
    LineRange { start, end }
}

// ---- matches and `unique` --------------------------------------------------

/// Complaint: the first of several matches is silently replaced (aider#1988,
/// hermes#77001 "Found N matches" with no locations).
#[test]
fn every_result_counts_matches_and_unique_refuses_ambiguity() {
    let source = "def a():\n    return None\n\ndef b():\n    return None\n";
    let compat = run(source, "    return None", "    return []", &Options::COMPATIBLE);
    assert!(compat.ok);
    assert_eq!(compat.matches, 2, "compatible still applies the first, but says there were two");
    assert_eq!(compat.text, "def a():\n    return []\n\ndef b():\n    return None\n");

    let safe = run(source, "    return None", "    return []", &Options::SAFE);
    assert!(!safe.ok);
    assert_eq!(safe.text, source, "nothing is written");
    assert_eq!((safe.strategy, safe.range, safe.matches), (None, None, 2));
    let f = safe.failure.unwrap();
    assert_eq!(f.reason, Reason::Ambiguous);
    assert_eq!(f.candidates, [lines(2, 2), lines(5, 5)]);
    assert!(f.message.contains("matches 2 places") && f.message.contains("line 2, line 5"), "{}", f.message);

    // `unique` alone, on top of the compatible behaviour.
    let only_unique = Options { unique: true, ..Options::COMPATIBLE };
    assert!(!run(source, "    return None", "x", &only_unique).ok);
    // And switched off in the safe preset.
    assert!(run(source, "    return None", "x", &Options { unique: false, ..Options::SAFE }).ok);
}

#[test]
fn unique_applies_at_every_rung() {
    // trailing-ws: two windows.
    let r = run("a\nb\na\nb\n", "a \nb", "x", &Options::SAFE);
    assert_eq!((r.ok, r.matches), (false, 2));
    assert_eq!(r.failure.unwrap().candidates, [lines(1, 2), lines(3, 4)]);
    // indent: two windows.
    let r = run("  f()\n  g()\n    f()\n    g()\n", "f()\ng()", "x", &Options::SAFE);
    assert_eq!((r.ok, r.matches), (false, 2));
    // fuzzy: apply-edit-block takes the first of two equal windows (a tie).
    let o = Options { threshold: 0.6, ..Options::SAFE };
    let r = run("a\nb\nX\na\nb\nY\n", "a\nb\nZ", "R", &o);
    assert_eq!((r.ok, r.matches), (false, 2));
    assert_eq!(r.failure.unwrap().candidates, [lines(1, 3), lines(4, 6)]);
    // A fuzzy match shifted by a line is the same place, not a second one.
    let src: String = (0..40).map(|i| format!("line {i}\n")).collect();
    // Its first line differs too, so the anchor rung cannot take it.
    let search: String = (10..30).map(|i| if i == 10 || i == 20 { format!("changed {i}\n") } else { format!("line {i}\n") }).collect();
    let r = run(&src, search.trim_end(), "R", &Options::SAFE);
    assert_eq!((r.ok, r.strategy, r.matches), (true, Some(Strategy::Fuzzy), 1));
}

/// Complaint: overlapping matches are missed when checking ambiguity (agent-os#2290).
#[test]
fn overlapping_exact_matches_count() {
    let r = run("}\n}\n}\n", "}\n}", "x", &Options::SAFE);
    assert_eq!((r.ok, r.matches), (false, 2));
    assert_eq!(r.failure.unwrap().candidates, [lines(1, 2), lines(2, 3)]);
}

// ---- anchor_threshold ------------------------------------------------------

/// Complaint: a block-anchor fallback replaced everything between two common
/// lines (cline#2533: `/**` … `}` across the wrong block).
#[test]
fn a_made_up_body_cannot_replace_two_functions() {
    let source = "def f():\n    return 1\n\ndef g():\n    return 2\n";
    let search = "def f():\n    totally\n    hallucinated\n    return 2";
    let compat = run(source, search, "X", &Options::COMPATIBLE);
    assert_eq!((compat.strategy, compat.text.as_str()), (Some(Strategy::Anchor), "X\n"), "apply-edit-block deletes both functions");
    let safe = run(source, search, "X", &Options::SAFE);
    assert!(!safe.ok);
    assert_eq!(safe.text, source);
    // The threshold alone does it too.
    assert!(!run(source, search, "X", &Options { anchor_threshold: 0.5, ..Options::COMPATIBLE }).ok);
}

#[test]
fn identical_anchors_do_not_collapse_onto_one_line() {
    let source = "}\nfoo\n}\nbar\n}\n";
    let compat = run(source, "}\nqux\n}", "REPL", &Options::COMPATIBLE);
    assert_eq!(compat.text, "REPL\nfoo\n}\nbar\n}\n", "apply-edit-block replaces one brace");
    let safe = run(source, "}\nqux\n}", "REPL", &Options::SAFE);
    assert!(!safe.ok);
}

#[test]
fn an_anchor_match_with_a_similar_body_still_applies() {
    // One of three interior lines misremembered: 2/3 >= 0.5.
    let source = "fn f() {\n    let a = 1;\n    let b = 2;\n    let c = 3;\n}\nfn g() {}\n";
    let search = "fn f() {\n    let a = 1;\n    let b = 20;\n    let c = 3;\n}";
    let r = run(source, search, "fn f() {}", &Options::SAFE);
    assert_eq!((r.ok, r.strategy), (true, Some(Strategy::Anchor)));
    assert_eq!(r.text, "fn f() {}\nfn g() {}\n");
}

// ---- newlines --------------------------------------------------------------

/// Complaint: "String to replace not found" on CRLF files, or mixed line
/// endings after an edit (claude-code#164, codex#4003).
#[test]
fn lf_search_matches_a_crlf_file_and_writes_crlf() {
    let source = "a\r\nb\r\nc\r\nd\r\n";
    let compat = run(source, "a\nb\nc", "A\nB\nC", &Options::COMPATIBLE);
    assert_eq!((compat.strategy, compat.text.as_str()), (Some(Strategy::Anchor), "A\nB\nC\nd\r\n"), "mixed line endings");
    let safe = run(source, "a\nb\nc", "A\nB\nC", &Options::SAFE);
    assert_eq!((safe.strategy, safe.text.as_str()), (Some(Strategy::Exact), "A\r\nB\r\nC\r\nd\r\n"));
    assert_eq!(safe.range, Some(0..7));
    // A CRLF search text on a CRLF file, with a trailing newline.
    let r = run("x\r\ny\r\n", "x\r\n", "z\r\n", &Options { newlines: true, ..Options::COMPATIBLE });
    assert_eq!(r.text, "z\r\ny\r\n");
    // Indentation-tolerant rungs see LF lines too.
    let r = run("if x:\r\n    y()\r\n", "if x:\n  y()", "if x:\n  z()", &Options::SAFE);
    assert_eq!((r.strategy, r.text.as_str()), (Some(Strategy::Indent), "if x:\r\n    z()\r\n"));
}

#[test]
fn search_ending_in_a_newline_takes_the_newline() {
    // apply-edit-block leaves the newline after the match: an extra blank line.
    let compat = run("x\nfoo\nbar\n", "foo \n", "FOO\n", &Options::COMPATIBLE);
    assert_eq!(compat.text, "x\nFOO\n\nbar\n");
    let safe = run("x\nfoo\nbar\n", "foo \n", "FOO\n", &Options::SAFE);
    assert_eq!((safe.strategy, safe.text.as_str()), (Some(Strategy::TrailingWs), "x\nFOO\nbar\n"));
    let compat = run("a\r\nb\r\nc\r\n", "a\nb\n", "A\nB\n", &Options::COMPATIBLE);
    assert_eq!(compat.text, "A\nB\n\nc\r\n");
    let safe = run("a\r\nb\r\nc\r\n", "a\nb\n", "A\nB\n", &Options::SAFE);
    assert_eq!(safe.text, "A\r\nB\r\nc\r\n");
}

/// Complaint: the BOM is lost or moved (codex#4003/#35789).
#[test]
fn a_bom_stays_first() {
    let source = "\u{feff}first\nsecond\n";
    let compat = run(source, "", "header\n", &Options::COMPATIBLE);
    assert_eq!(compat.text, "header\n\u{feff}first\nsecond\n", "apply-edit-block puts text before the BOM");
    // (The safe preset refuses an empty SEARCH on a non-empty file; without
    // that check, the text goes after the BOM.)
    assert!(!run(source, "", "header\n", &Options::SAFE).ok);
    let safe = run(source, "", "header\n", &Options { empty_search: false, ..Options::SAFE });
    assert_eq!(safe.text, "\u{feff}header\nfirst\nsecond\n");
    assert_eq!(safe.range, Some(3..3));
    // Line rungs do not see the BOM as part of the first line.
    let safe = run(source, "first  \nsecond", "one\ntwo", &Options::SAFE);
    assert_eq!((safe.strategy, safe.text.as_str()), (Some(Strategy::TrailingWs), "\u{feff}one\ntwo\n"));
    assert!(!run(source, "first  \nsecond", "one\ntwo", &Options::COMPATIBLE).ok);
}

// ---- relative_indent -------------------------------------------------------

/// Complaint: tabs turn into spaces (claude-code#9163, harness-sdk#3175).
#[test]
fn tabs_stay_tabs() {
    let source = "\t\tif x:\n\t\t\ty()\n";
    let compat = run(source, "if x:\n\ty()", "if x:\n\tz()", &Options::COMPATIBLE);
    assert_eq!(compat.text, "  if x:\n  \tz()\n", "apply-edit-block mixes spaces into a tab file");
    let safe = run(source, "if x:\n\ty()", "if x:\n\tz()", &Options::SAFE);
    assert_eq!(safe.text, "\t\tif x:\n\t\t\tz()\n");
    // The model read the tabs as four spaces each.
    let safe = run(source, "if x:\n    y()", "if x:\n    z()\n    w()", &Options::SAFE);
    assert_eq!((safe.strategy, safe.text.as_str()), (Some(Strategy::Indent), "\t\tif x:\n\t\t\tz()\n\t\t\tw()\n"));
}

/// Complaint: re-indentation flattens or doubles nesting (snow-cli#48,
/// hermes#88283, ShinkaEvolve#190).
#[test]
fn the_replacement_keeps_its_nesting_in_the_files_unit() {
    // A 4-space file edited from a 2-space copy: levels map to levels.
    let source = "class A:\n    def f(self):\n        return 1\n";
    let search = "def f(self):\n  return 1";
    let replace = "def f(self):\n  if self.x:\n    return 2\n  return 1";
    let safe = run(source, search, replace, &Options::SAFE);
    assert_eq!(safe.strategy, Some(Strategy::Indent));
    assert_eq!(safe.text, "class A:\n    def f(self):\n        if self.x:\n            return 2\n        return 1\n");
    let compat = run(source, search, replace, &Options::COMPATIBLE);
    assert_eq!(
        compat.text, "class A:\n    def f(self):\n      if self.x:\n        return 2\n      return 1\n",
        "a uniform shift breaks Python"
    );
}

#[test]
fn nesting_that_differs_is_not_an_indent_match() {
    // The SEARCH text puts y() at the top level; the file nests it.
    let source = "if a:\n    x()\n    y()\n";
    let compat = run(source, "if a:\n    x()\ny()", "if a:\n    x()\nz()", &Options::COMPATIBLE);
    assert_eq!(compat.text, "if a:\n    x()\nz()\n", "apply-edit-block moves z() out of the if");
    let safe = run(source, "if a:\n    x()\ny()", "if a:\n    x()\nz()", &Options::SAFE);
    assert!(!safe.ok);
    let near = safe.failure.unwrap().nearest.unwrap();
    assert_eq!(near.differences[0].kind, DifferenceKind::Whitespace);
    assert_eq!((near.differences[0].search_line, near.differences[0].file_line), (Some(3), Some(3)));
}

// ---- explain ---------------------------------------------------------------

/// Complaint: "Diff Edit Mismatch" / "not found" with nothing to go on, so the
/// model loops or rewrites the whole file (cline#1511, claude-code#51365).
#[test]
fn a_failure_says_where_how_close_and_which_lines_differ() {
    let mut source = String::new();
    for i in 1..=30 {
        source.push_str(&format!("    total += value_{i}\n"));
    }
    // Two of three lines between the anchors misremembered, one indented with a tab.
    let search = "    total += value_11\n    total += value_12 + 1\n    total += VALUE_13\n    total += value_14\n\ttotal += value_15";
    let r = run(&source, search, "    pass", &Options::SAFE);
    assert!(!r.ok);
    assert_eq!(r.similarity, 0.4, "the compatible best-window score is still reported");
    let f = r.failure.unwrap();
    assert_eq!(f.reason, Reason::NotFound);
    let near = f.nearest.unwrap();
    assert_eq!(near.lines, lines(11, 15));
    assert_eq!(near.similarity, 0.6);
    let kinds: Vec<_> = near.differences.iter().map(|d| (d.kind, d.search_line, d.file_line)).collect();
    assert_eq!(
        kinds,
        [
            (DifferenceKind::Changed, Some(2), Some(12)),
            (DifferenceKind::Changed, Some(3), Some(13)),
            (DifferenceKind::Whitespace, Some(5), Some(15))
        ]
    );
    assert!(f.message.contains("lines 11-15"), "{}", f.message);
    assert!(f.message.contains("\"    total += VALUE_13\" is \"    total += value_13\" in the file (line 13)"), "{}", f.message);
    assert!(f.message.contains("only in whitespace"), "{}", f.message);
    // Without `explain` a failure is just `ok: false` (and the same similarity).
    let plain = run(&source, search, "    pass", &Options { explain: false, ..Options::SAFE });
    assert_eq!((plain.failure, plain.similarity), (None, 0.4));
}

/// Complaint: the most common failure is re-sending an edit that already
/// landed (hermes is_already_applied, aider "The REPLACE lines are already in").
#[test]
fn an_edit_already_applied_is_recognised() {
    let r = run("a\nnew line\nc\n", "old line", "new line", &Options::SAFE);
    let f = r.failure.unwrap();
    assert_eq!(f.already_applied, Some(lines(2, 2)));
    assert!(f.message.contains("already in the file at line 2"), "{}", f.message);
    // A deletion (an empty or blank REPLACE) is never "already applied": the
    // empty text is everywhere.
    for replace in ["", "  "] {
        let f = run("a\n\nc\n", "old line", replace, &Options::SAFE).failure.unwrap();
        assert_eq!(f.already_applied, None);
        assert_eq!(
            f.message,
            "Edit not applied: its SEARCH text (1 line) is not in the file. Nothing was changed. No line of the SEARCH text is in the file, even ignoring whitespace: check that the edit is meant for this file, and read the file again before editing it."
        );
    }
}

/// Eight differences are listed, then how many more.
#[test]
fn the_differences_listed_stop_at_eight() {
    let file: String = (0..12).map(|i| format!("v{i} = {i}\n")).collect();
    let search = |changed: usize| {
        (0..12).map(|i| if i < changed { format!("v{i} = {i}!") } else { format!("v{i} = {i}") }).collect::<Vec<_>>().join("\n")
    };
    let message = |changed: usize| run(&file, &search(changed), "x", &Options::SAFE).failure.unwrap().message;
    let nine = message(9);
    assert_eq!(nine.matches("\n- ").count(), 9, "{nine}");
    assert!(nine.contains("\n- … and 1 more\n"), "{nine}");
    let eight = message(8);
    assert_eq!(eight.matches("\n- ").count(), 8, "{eight}");
    assert!(!eight.contains("more"), "{eight}");
}

/// The closest place is looked for around the best window only: a SEARCH
/// line that also stands further up does not pull the place there.
#[test]
fn the_closest_place_stays_around_the_best_window() {
    let search = "l1\nl2\nl3\nl4\nX\nl6\nl7\nZ";
    let file = format!("l1\n{}l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nend\n", "filler\n".repeat(10));
    let f = run(&file, search, "y", &Options::SAFE).failure.unwrap();
    let near = f.nearest.unwrap();
    assert_eq!((near.lines, near.similarity), (lines(12, 19), 0.75));
    assert_eq!(near.text, "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8");
    // At the top of the file too, the whole place.
    let f = run("l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nend\n", search, "y", &Options::SAFE).failure.unwrap();
    assert_eq!(f.nearest.map(|n| n.lines), Some(lines(1, 8)));
}

#[test]
fn a_search_unrelated_to_the_file_says_so() {
    let r = run("alpha\nbeta\n", "gamma\ndelta", "x", &Options::SAFE);
    let f = r.failure.unwrap();
    assert_eq!(f.nearest, None);
    assert!(f.message.contains("No line of the SEARCH text is in the file"), "{}", f.message);
}

#[test]
fn apply_edits_stops_at_the_first_failure_in_safe_mode_too() {
    let edits = [Edit::new("a", "A"), Edit::new("x", "X"), Edit::new("b", "B")];
    let r = apply_edits("a\nb\nx\nx\n", &edits, &Options::SAFE).unwrap();
    assert_eq!((r.ok, r.applied, r.text.as_str(), r.results.len()), (false, 1, "A\nb\nx\nx\n", 2));
    assert_eq!(r.results[1].failure.as_ref().unwrap().reason, Reason::Ambiguous);
}

/// Cline and Roo remove the line: an empty REPLACE deletes whole lines.
#[test]
fn an_empty_replace_removes_whole_lines_with_their_breaks() {
    assert_eq!(run("a\nb\nc\n", "b", "", &Options::SAFE).text, "a\nc\n");
    assert_eq!(run("a\nb\nc", "c", "", &Options::SAFE).text, "a\nb");
    assert_eq!(run("a\r\nb\r\nc\r\n", "b", "", &Options::SAFE).text, "a\r\nc\r\n");
    // Part of a line stays part of a line.
    assert_eq!(run("abc\n", "b", "", &Options::SAFE).text, "ac\n");
    assert_eq!(run("a\nb\nc\n", "b", "", &Options::COMPATIBLE).text, "a\n\nc\n");
}

/// OpenHands and Cline refuse an empty SEARCH on a file that has content.
#[test]
fn an_empty_search_on_a_non_empty_file_says_how_to_insert() {
    let r = run("a\nb\n", "", "x", &Options::SAFE);
    assert!(!r.ok);
    assert_eq!(r.text, "a\nb\n");
    let f = r.failure.unwrap();
    assert_eq!(f.reason.as_str(), "empty-search");
    assert_eq!(
        f.message,
        "Edit not applied: its SEARCH text is empty, and an empty SEARCH only creates a new file, but this file is not empty (2 lines). Nothing was changed. To insert lines, put the lines they go after in SEARCH, and the same lines followed by the new ones in REPLACE: to append at the end, SEARCH \"b\" and REPLACE \"b\" then the new lines; to insert at the top, SEARCH \"a\" and REPLACE the new lines then \"a\"."
    );
    // Following the message works.
    assert_eq!(run("a\nb\n", "b", "b\nx", &Options::SAFE).text, "a\nb\nx\n");
    assert_eq!(run("a\nb\n", "a", "x\na", &Options::SAFE).text, "x\na\nb\n");
    assert_eq!(run("a\nb\n", "", "x", &Options::COMPATIBLE).text, "xa\nb\n");
}

/// Cline and aider end a created file with a newline.
#[test]
fn a_file_created_from_an_empty_search_ends_with_a_newline() {
    assert_eq!(run("", "", "new content", &Options::SAFE).text, "new content\n");
    assert_eq!(run("", "", "a\n", &Options::SAFE).text, "a\n");
    assert_eq!(run("", "", "new content", &Options::COMPATIBLE).text, "new content");
}

/// OpenHands and Roo reject an edit that changes nothing.
#[test]
fn search_equal_to_replace_fails_saying_nothing_would_change() {
    let r = run("a\nb\n", "a", "a", &Options::SAFE);
    assert!(!r.ok);
    let f = r.failure.unwrap();
    assert_eq!(f.reason.as_str(), "no-change");
    assert_eq!(
        f.message,
        "Edit not applied: its SEARCH and REPLACE texts are the same (1 line), so it would change nothing. Nothing was changed. If the change you meant is already in the file, leave this edit out; otherwise write the new text in REPLACE."
    );
    assert!(run("a\nb\n", "a", "a", &Options::COMPATIBLE).ok);
}

/// Roo's `:start_line:` chooses among equal matches, and the result says so.
#[test]
fn start_line_chooses_among_equal_matches() {
    let source = "x = 1\ny = 2\nx = 1\nz = 3\n";
    let edit = Edit { start_line: Some(3), ..Edit::new("x = 1", "x = 9") };
    let r = apply_edit(source, &edit, &Options::SAFE).unwrap();
    assert_eq!(r.text, "x = 1\ny = 2\nx = 9\nz = 3\n");
    assert_eq!(
        r.note.as_deref(),
        Some("The SEARCH text matches 2 places in the file (exactly): line 1, line 3; applied at line 3, the one nearest its startLine 3.")
    );
    // Too far from both, or as near to both: still ambiguous, and it says why.
    let far = apply_edit(source, &Edit { start_line: Some(40), ..edit.clone() }, &Options::SAFE).unwrap();
    assert!(!far.ok);
    assert!(far.failure.unwrap().message.ends_with("Its startLine 40 did not choose one: it chooses only among exact matches, the one starting within 5 lines of it and nearer than the others."));
    assert!(!apply_edit(source, &Edit { start_line: Some(2), ..edit.clone() }, &Options::SAFE).unwrap().ok);
    // Compatible: the first match, as apply-edit-block.
    assert_eq!(apply_edit(source, &edit, &Options::COMPATIBLE).unwrap().text, "x = 9\ny = 2\nx = 1\nz = 3\n");
    // In a batch, start lines count lines of the file before any edit.
    let edits = [Edit::new("y = 2", "y = 2\nw = 0"), edit.clone()];
    let r = apply_edits(source, &edits, &Options::SAFE).unwrap();
    assert_eq!(r.text, "x = 1\ny = 2\nw = 0\nx = 9\nz = 3\n");
    // Three lines added above: startLine 3 is now line 6, nearer the second x
    // (line 6) than line 3 would be (nearer the first).
    let edits = [Edit::new("y = 2", "y = 2\nw = 0\nw = 1\nw = 2"), edit.clone()];
    let r = apply_edits(source, &edits, &Options::SAFE).unwrap();
    assert_eq!(r.text, "x = 1\ny = 2\nw = 0\nw = 1\nw = 2\nx = 9\nz = 3\n");
    // A Roo Code block's :start_line: reaches apply_blocks' edit.
    let message = "a.py\n<<<<<<< SEARCH\n:start_line:3\n-------\nx = 1\n=======\nx = 9\n>>>>>>> REPLACE";
    let r = apply_blocks(message, &Options::SAFE, None, |p| (p == "a.py").then_some(source)).unwrap();
    assert!(r.ok);
    assert_eq!(r.changes, [FileChange { path: "a.py".into(), contents: Some("x = 1\ny = 2\nx = 9\nz = 3\n".into()) }]);
}

/// The start line chooses within five lines, and not when the matches it
/// was shown stop short of it (more matches than are listed).
#[test]
fn start_line_reaches_five_lines_and_only_among_the_matches_listed() {
    let mut source = String::from("x = 1\n");
    source.push_str(&"other\n".repeat(18));
    source.push_str("x = 1\n");
    let edit = Edit { start_line: Some(6), ..Edit::new("x = 1", "x = 9") };
    let r = apply_edit(&source, &edit, &Options::SAFE).unwrap();
    assert!(r.ok, "startLine 6 is five lines from the match at line 1");
    assert_eq!(r.text, source.replacen("x = 1", "x = 9", 1));
    let r = apply_edit(&source, &Edit { start_line: Some(7), ..edit.clone() }, &Options::SAFE).unwrap();
    assert!(!r.ok, "startLine 7 is six lines from the nearest match");
    // 25 copies on odd lines 1..49: the first 20 (lines 1..39) are listed.
    let source = "x = 1\nsep\n".repeat(25);
    let at = |line: usize| apply_edit(&source, &Edit { start_line: Some(line), ..edit.clone() }, &Options::SAFE).unwrap();
    let r = at(11);
    assert!(r.ok);
    assert_eq!(r.text, format!("{}x = 9\nsep\n{}", "x = 1\nsep\n".repeat(5), "x = 1\nsep\n".repeat(19)));
    let listed: Vec<String> = (0..20).map(|k| format!("line {}", 2 * k + 1)).collect();
    assert_eq!(
        r.note.as_deref(),
        Some(
            format!(
                "The SEARCH text matches 25 places in the file (exactly): {}; applied at line 11, the one nearest its startLine 11.",
                listed.join(", ")
            )
            .as_str()
        )
    );
    // Without a start line: ambiguous, the twenty listed and how many more.
    let r = apply_edit(&source, &Edit::new("x = 1", "x = 9"), &Options::SAFE).unwrap();
    let failure = r.failure.unwrap();
    assert_eq!(
        failure.message,
        format!("Edit not applied: its SEARCH text matches 25 places in the file (exactly): {} and 5 more. Nothing was changed. Make the SEARCH text match one place only: add a line above or below the change that differs between these places.", listed.join(", "))
    );
    assert_eq!(failure.candidates.len(), 20);
    // With every place listed, no count of more.
    let r = apply_edit("x = 1\nsep\nx = 1\n", &Edit::new("x = 1", "x = 9"), &Options::SAFE).unwrap();
    assert_eq!(
        r.failure.unwrap().message,
        "Edit not applied: its SEARCH text matches 2 places in the file (exactly): line 1, line 3. Nothing was changed. Make the SEARCH text match one place only: add a line above or below the change that differs between these places."
    );
    // Near the last listed match, an unlisted one may be nearer: no choice.
    assert!(!at(39).ok);
    assert!(!at(35).ok);
    assert!(at(33).ok);
}

/// continue.dev's `replace_all`.
#[test]
fn replace_all_replaces_every_exact_copy_and_counts_them() {
    let edit = Edit { replace_all: true, ..Edit::new("foo", "bar") };
    for options in [Options::SAFE, Options::COMPATIBLE] {
        let r = apply_edit("foo(1)\nfoo(2)\nx\nfoo\n", &edit, &options).unwrap();
        assert_eq!(r.text, "bar(1)\nbar(2)\nx\nbar\n");
        assert_eq!(r.matches, 3);
        assert_eq!(r.note.as_deref(), Some("Replaced 3 places (every exact copy of the SEARCH text): line 1, line 2, line 4."));
    }
    // Twenty places are listed, and how many more there are.
    let r = apply_edit(&"foo\n".repeat(23), &edit, &Options::SAFE).unwrap();
    let listed: Vec<String> = (1..=20).map(|k| format!("line {k}")).collect();
    assert_eq!(
        r.note.as_deref(),
        Some(format!("Replaced 23 places (every exact copy of the SEARCH text): {} and 3 more.", listed.join(", ")).as_str())
    );
    let r = apply_edit("a\r\nfoo\r\nfoo\r\n", &Edit { replace_all: true, ..Edit::new("foo\n", "") }, &Options::SAFE).unwrap();
    assert_eq!(r.text, "a\r\n");
    let r = apply_edit("fo o\n", &edit, &Options::SAFE).unwrap();
    assert!(!r.ok);
    let r = apply_edit("foo  \nfoo  \n", &Edit { replace_all: true, ..Edit::new("foo\nfoo", "x") }, &Options::SAFE).unwrap();
    assert_eq!(
        r.failure.unwrap().message,
        "Edit not applied: replaceAll replaces exact copies of the SEARCH text, and the file has none; it matches ignoring trailing whitespace at lines 1-2. Nothing was changed. Copy the SEARCH text exactly from the file, or send the edit without replaceAll."
    );
}

// ---- tests that pin what the mutation sample found unpinned ----------------

/// A line-numbered SEARCH text (the `line-numbers` repair) edits the line its
/// numbers name, among equal ones, and its REPLACE text loses its numbers too;
/// in both presets (compatible has no line hints of its own).
#[test]
fn line_numbers_choose_the_line_they_name_and_leave_the_replace_text() {
    let source = "a\nx\nb\nx\nc\n";
    for preset in [Options::COMPATIBLE, Options::SAFE] {
        let options = Options { repair: applypatch::repair::Allow::ALL, ..preset };
        let r = run(source, "4 | x\n", "4 | X\n", &options);
        assert!(r.ok, "{:?}", r.failure);
        assert_eq!(r.text, "a\nx\nb\nX\nc\n");
    }
}

/// Repairs found in a block's file carry that file's path.
#[test]
fn a_block_repair_names_its_file() {
    let source = "a\nx\nb\nx\nc\n";
    let message = "f.txt\n<<<<<<< SEARCH\n4 | x\n=======\n4 | X\n>>>>>>> REPLACE";
    let options = Options { repair: applypatch::repair::Allow::ALL, ..Options::SAFE };
    let r = apply_blocks(message, &options, None, |p| (p == "f.txt").then_some(source)).unwrap();
    assert!(r.ok);
    assert_eq!(r.changes, [FileChange { path: "f.txt".into(), contents: Some("a\nx\nb\nX\nc\n".into()) }]);
    let repairs = &r.results[0].repairs;
    assert_eq!(repairs.len(), 1);
    assert_eq!(repairs[0].path.as_deref(), Some("f.txt"));
}

/// The closest place of a long SEARCH text is aligned over a region padded by
/// a quarter of its lines: three lines inserted into twelve still align to
/// the last SEARCH line.
#[test]
fn the_closest_place_of_a_long_search_text_reaches_its_last_line() {
    let mut file: Vec<String> = (0..5).map(|i| format!("filler_{i} = {i}")).collect();
    let search: Vec<String> = (0..12).map(|i| format!("value_{i} = compute({i})")).collect();
    file.extend(search[..6].iter().cloned());
    file.extend((0..3).map(|i| format!("inserted_{i} = {i}")));
    file.extend(search[6..].iter().cloned());
    file.extend((5..10).map(|i| format!("filler_{i} = {i}")));
    let r = run(&(file.join("\n") + "\n"), &search.join("\n"), "gone", &Options::SAFE);
    assert!(!r.ok);
    let nearest = r.failure.unwrap().nearest.unwrap();
    assert_eq!(nearest.lines, lines(6, 20));
}

/// An ambiguous anchor match lists at most 20 places, and counts them all.
#[test]
fn an_ambiguous_anchor_match_lists_twenty_places_and_counts_all() {
    let source = "s\nz\ne\n".repeat(25);
    let options = Options { unique: true, ..Options::COMPATIBLE };
    let r = run(&source, "s\nq\ne", "x", &options);
    assert_eq!((r.ok, r.strategy, r.matches), (false, None, 25));
    assert_eq!(r.failure.unwrap().candidates.len(), 20);
}
