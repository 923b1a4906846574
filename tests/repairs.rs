//! Repairs (src/repair/): each kind applied when the repaired match is
//! unique, refused when it is not, and reported; "already applied" with and
//! without the repair, for diffs and whole patches.

use std::collections::BTreeMap;

use applypatch::repair::{self, Allow, RepairKind};
use applypatch::{apply, ErrorKind, Mode};

/// A repair as the tests compare it: kind, diff line, input line, message.
type Seen = (RepairKind, Option<usize>, Option<usize>, String);

fn repaired(input: &str, diff: &str) -> (String, Vec<Seen>) {
    let r = repair::apply(input, diff, Allow::ALL).unwrap_or_else(|e| panic!("{}", e.message));
    (r.value, r.repairs.into_iter().map(|r| (r.kind, r.diff_line, r.input_line, r.message)).collect())
}

fn refused(input: &str, diff: &str) -> applypatch::Error {
    match repair::apply(input, diff, Allow::ALL) {
        Ok(r) => panic!("expected a refusal, got {:?}", r.value),
        Err(e) => e,
    }
}

#[test]
fn trailing_whitespace_keeps_the_input_text() {
    let input = "def f():\n    x = 1   \n    return x\n";
    let diff = "@@\n def f():\n-    x = 1\n+    x = 2\n     return x";
    // Strict refuses it.
    assert_eq!(apply(input, diff).unwrap_err().kind, ErrorKind::ContextNotFound);
    let (out, reps) = repaired(input, diff);
    assert_eq!(out, "def f():\n    x = 2\n    return x\n");
    assert_eq!(reps.len(), 1);
    let (kind, dl, il, msg) = &reps[0];
    assert_eq!((*kind, *dl, *il), (RepairKind::TrailingWs, Some(3), Some(2)));
    assert_eq!(
        msg,
        "Section 1 (diff lines 1-5): 1 context or removed line differs from the input only in trailing whitespace (diff line 3, input line 2); it matched once, at input line 1, and the input's own text was kept."
    );
    // A context line with trailing whitespace in the input stays as it is.
    let input = "a  \nb\n";
    assert_eq!(repaired(input, " a\n-b\n+c").0, "a  \nc\n");
}

#[test]
fn unicode_punctuation_uses_codexs_list() {
    let input = "msg = \u{201C}hi\u{201D} \u{2013} there\nend\n";
    let (out, reps) = repaired(input, "-msg = \"hi\" - there\n+msg = \"hello\"\n end");
    assert_eq!(out, "msg = \"hello\"\nend\n");
    assert_eq!(reps[0].0, RepairKind::Unicode);
    // An ellipsis is not three dots (not on Codex's list).
    let e = refused("a\u{2026}\nb\n", "-a...\n+c\n b");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
}

#[test]
fn tabs_against_spaces_and_added_lines_follow_the_file() {
    let input = "fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n";
    let diff = "@@\n     if x {\n-        y();\n+        z();\n+        w();\n     }";
    let (out, reps) = repaired(input, diff);
    assert_eq!(out, "fn f() {\n\tif x {\n\t\tz();\n\t\tw();\n\t}\n}\n");
    assert_eq!(reps.len(), 1);
    assert_eq!(reps[0].0, RepairKind::Tabs);
    assert!(reps[0].3.ends_with("Also, the input indents with tabs where the diff has 4 spaces, so the added lines' leading spaces were written as tabs (4 spaces = 1 tab)."), "{}", reps[0].3);
}

#[test]
fn uniform_indentation_shifts_the_added_lines() {
    let input = "class A:\n    def f(self):\n        return 1\n";
    // The model outdented the whole method by 4 spaces.
    let diff = "@@\n def f(self):\n-    return 1\n+    return 2";
    let (out, reps) = repaired(input, diff);
    assert_eq!(out, "class A:\n    def f(self):\n        return 2\n");
    assert_eq!(reps[0].0, RepairKind::Indent);
    assert!(
        reps[0].3.contains("every matched line is indented 4 spaces more in the input, so the added lines were indented 4 spaces more too"),
        "{}",
        reps[0].3
    );
    // One line indented differently among lines that match exactly is a
    // different line, not drift: refused (tests/repair_rules.rs).
    let input = "if a:\n    b = 1\n    c = 2\n";
    assert_eq!(refused(input, " if a:\n-      b = 1\n+    b = 3\n     c = 2").kind, ErrorKind::ContextNotFound);
}

#[test]
fn a_repair_never_chooses_between_places() {
    let input = "def a():\n    return None\ndef b():\n    return None\n";
    let e = refused(input, "@@\n-    return None  \n+    return []");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert!(e.message.contains("\nRepair: ignoring trailing whitespace, it matches 2 places (input lines 2 and 4), so it was not repaired: a repair never chooses between places."), "{}", e.message);
    // Indentation forgiven would match two places: refused too.
    let input = "x = 1\nif a:\n    x = 1\n";
    let e = refused(input, "-  x = 1\n+  x = 2");
    assert!(e.message.contains("ignoring indentation, it matches 2 places (input lines 1 and 3)"), "{}", e.message);
}

#[test]
fn a_smaller_slip_wins_when_it_is_unique() {
    // Trailing whitespace alone matches once; ignoring indentation would match twice.
    let input = "x = 1 \nif a:\n    x = 1\n";
    let (out, reps) = repaired(input, "-x = 1\n+x = 2");
    assert_eq!(out, "x = 2\nif a:\n    x = 1\n");
    assert_eq!(reps[0].0, RepairKind::TrailingWs);
}

#[test]
fn line_number_prefixes_from_a_read_tool() {
    let input = "a\nb\nc\nd\n";
    for (diff, expected) in [
        (" 2 | b\n-3 | c\n+C\n 4 | d", "a\nb\nC\nd\n"),
        (" 2:b\n-3:c\n+C", "a\nb\nC\nd\n"),
        ("      2\tb\n-     3\tc\n+C", "a\nb\nC\nd\n"),
        (" 2→b\n-3→c\n+3→C", "a\nb\nC\nd\n"),
    ] {
        let (out, reps) = repaired(input, diff);
        assert_eq!(out, expected, "{diff:?}");
        assert_eq!(reps[0].0, RepairKind::LineNumbers, "{diff:?}");
    }
    // Numbers that are not consecutive are not line numbers.
    assert_eq!(refused(input, " 2 | b\n-9 | c\n+C").kind, ErrorKind::ContextNotFound);
    // Ambiguous once stripped: refused.
    let e = refused("x\ny\nx\ny\n", " 1 | x\n-2 | y\n+Y");
    assert!(e.message.contains("without its line-number prefixes"), "{}", e.message);
}

#[test]
fn unified_hunk_headers_read_as_bare_at_at() {
    let input = "a\nb\nc\n";
    let diff = "@@ -2,2 +2,2 @@\n b\n-c\n+C";
    assert_eq!(apply(input, diff).unwrap_err().kind, ErrorKind::AnchorNotFound);
    let (out, reps) = repaired(input, diff);
    assert_eq!(out, "a\nb\nC\n");
    assert_eq!((reps[0].0, reps[0].1), (RepairKind::HunkHeader, Some(1)));
    // Its numbers never place anything: the lines do.
    let (out, _) = repaired(input, "@@ -40,2 +40,2 @@ def f():\n a\n-b\n+B");
    assert_eq!(out, "a\nB\nc\n");
}

#[test]
fn only_the_allowed_kinds() {
    let input = "a \nb\n";
    let e = repair::apply(input, "-a\n+c\n b", Allow::only(&[RepairKind::Indent])).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    let r = repair::apply(input, "-a\n+c\n b", Allow::only(&[RepairKind::TrailingWs])).unwrap();
    assert_eq!(r.value, "c\nb\n");
    assert_eq!(
        RepairKind::ALL.iter().map(|k| k.code()).collect::<Vec<_>>(),
        ["trailing-ws", "unicode", "tabs", "indent", "line-numbers", "hunk-header", "envelope", "already-applied", "file-name"]
    );
}

#[test]
fn a_diff_sent_twice_never_applies_twice() {
    // An insertion right after an anchor: Strict used to insert it again.
    let input = "def f():\n    return 1\n";
    let diff = "@@ def f():\n+    log()";
    let once = apply(input, diff).unwrap();
    assert_eq!(once, "def f():\n    log()\n    return 1\n");
    let e = apply(&once, diff).unwrap_err();
    assert_eq!(e.kind, ErrorKind::AlreadyApplied);
    assert_eq!(
        e.message,
        "The diff is already applied. Its new lines are already in the input, where it would put them: section 1 (diff lines 1-2) at input line 2. Nothing was changed, and the diff was not applied a second time. Do not send it again; re-read the file if you want to change it further."
    );
    assert_eq!((e.diff_line, e.input_lines.as_slice()), (Some(1), &[2][..]));
    // An insertion after a context line.
    let input = "a\nb\n";
    let once = apply(input, " a\n+x").unwrap();
    assert_eq!(apply(&once, " a\n+x").unwrap_err().kind, ErrorKind::AlreadyApplied);
    // A removal whose lines also appear further down.
    let input = "a\nx\nb\n\na\nx\n";
    let diff = " a\n-x\n b";
    let once = apply(input, diff).unwrap();
    assert_eq!(once, "a\nb\n\na\nx\n");
    let e = apply(&once, " a\n-x\n b");
    // The old lines a,x,b are gone; the new ones are there once.
    assert_eq!(e.unwrap_err().kind, ErrorKind::AlreadyApplied);
    let diff = "-x\n b";
    let input = "x\nb\nx\nb\n";
    let _ = input;
    // With the repair it is a reported no-op.
    let r = repair::apply("def f():\n    log()\n    return 1\n", "@@ def f():\n+    log()", Allow::ALL).unwrap();
    assert_eq!(r.value, "def f():\n    log()\n    return 1\n");
    assert_eq!(r.repairs.len(), 1);
    assert_eq!(r.repairs[0].kind, RepairKind::AlreadyApplied);
    assert_eq!(
        r.repairs[0].message,
        "the diff is already applied (section 1 (diff lines 1-2) at input line 2): nothing was changed. Do not send it again."
    );
    let _ = diff;
}

#[test]
fn new_lines_before_the_old_ones_are_already_applied() {
    // The change landed at the first place; a copy of the old text further
    // down must not be changed by the replay.
    let diff = " keep\n-old\n+new\n end";
    let input = "keep\nnew\nend\nkeep\nold\nend\n";
    let e = apply(input, diff).unwrap_err();
    assert_eq!((e.kind, e.input_lines.as_slice()), (ErrorKind::AlreadyApplied, &[1][..]));
    // But new lines after the old ones do not count: that is another place.
    let input = "keep\nold\nend\nkeep\nnew\nend\n";
    assert_eq!(apply(input, " keep\n-old\n+new\n end").unwrap(), "keep\nnew\nend\nkeep\nnew\nend\n");
}

#[test]
fn a_partly_applied_diff_names_the_parts() {
    let input = "a\nB\nc\nd\ne\n";
    let e = apply(input, "@@\n a\n-b\n+B\n@@\n d\n-e\n+E").unwrap_err();
    assert_eq!(e.kind, ErrorKind::AlreadyApplied);
    assert_eq!(
        e.message,
        "Part of the diff is already applied: section 1 (diff lines 1-4) at input line 1 is already in the input, but section 2 (diff lines 5-8) is not. Nothing was changed. Re-read the file, then send only the changes it does not have yet."
    );
    // With the repair too: nothing is guessed.
    assert_eq!(repair::apply(input, "@@\n a\n-b\n+B\n@@\n d\n-e\n+E", Allow::ALL).unwrap_err().kind, ErrorKind::AlreadyApplied);
}

fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
}

#[test]
fn a_patch_sent_twice() {
    let start = files(&[("a.py", "def f():\n    return 1\n"), ("old.txt", "bye\n")]);
    let patch = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** Add File: n.txt\n+new\n*** Delete File: old.txt\n*** End Patch";
    let once = applypatch::apply_files(&start, patch, Mode::Strict).unwrap();
    let e = applypatch::apply_files(&once, patch, Mode::Strict).unwrap_err();
    assert_eq!(e.kind, ErrorKind::AlreadyApplied);
    assert_eq!(
        e.message,
        "The patch is already applied: operation 1 (update a.py, patch line 2); operation 2 (add n.txt, patch line 6); operation 3 (delete old.txt, patch line 8). Every file already has its change (updates: their new lines are where they would go; added files: the same contents; deleted files: already gone). Nothing was changed, and nothing was applied a second time. Do not send this patch again; re-read the files if you want to change them further."
    );
    let r = repair::apply_files(&once, patch, Allow::ALL).unwrap();
    assert_eq!(r.value, once);
    assert_eq!(r.repairs.len(), 1);
    assert_eq!(r.repairs[0].kind, RepairKind::AlreadyApplied);
    // Partly applied: the update is there, the delete is not.
    let partly = files(&[("a.py", "def f():\n    return 2\n"), ("old.txt", "bye\n")]);
    let e = repair::apply_files(&partly, patch, Allow::ALL).unwrap_err();
    assert_eq!(e.kind, ErrorKind::AlreadyApplied);
    assert!(e.message.starts_with("Part of the patch is already applied: operation 1 (update a.py, patch line 2) is already done, but operation 2 (add n.txt, patch line 6); operation 3 (delete old.txt, patch line 8) are not."), "{}", e.message);
    // A delete of a missing file alone is already applied when no path of
    // the files is near it (issue 22), and refused when one is (a typo); an
    // Add equal to the file beside real changes is harmless.
    let delete = "*** Begin Patch\n*** Delete File: x\n*** End Patch";
    let e = applypatch::apply_files(&files(&[("other/thing.md", "z\n")]), delete, Mode::Strict).unwrap_err();
    assert_eq!(e.kind, ErrorKind::AlreadyApplied);
    let r = repair::apply_files(&files(&[]), delete, Allow::ALL).unwrap();
    assert_eq!((r.value, r.repairs.iter().map(|r| r.kind).collect::<Vec<_>>()), (files(&[]), vec![RepairKind::AlreadyApplied]));
    let e = repair::apply_files(&files(&[("y", "z\n")]), delete, Allow::ALL).unwrap_err();
    assert_eq!((e.kind, e.path.as_deref()), (ErrorKind::FileNotFound, Some("x")));
    let out = applypatch::apply_files(
        &files(&[("n", "x\n"), ("m", "1\n")]),
        "*** Begin Patch\n*** Add File: n\n+x\n*** Update File: m\n-1\n+2\n*** End Patch",
        Mode::Strict,
    )
    .unwrap();
    assert_eq!(out, files(&[("n", "x\n"), ("m", "2\n")]));
    // Codex mode keeps Codex's behaviour: the insertion applies again.
    let codex =
        applypatch::apply_files(&files(&[("f", "a\n")]), "*** Begin Patch\n*** Update File: f\n@@ a\n+b\n*** End Patch", Mode::Codex)
            .unwrap();
    assert_eq!(codex, files(&[("f", "a\nb\n")]));
}

#[test]
fn envelopes() {
    let start = files(&[("a.txt", "one\n")]);
    let body = "*** Begin Patch\n*** Update File: a.txt\n-one\n+two\n*** End Patch";
    let want = files(&[("a.txt", "two\n")]);
    for (wrapped, what) in [
        (format!("```diff\n{body}\n```"), "a Markdown code fence ('```diff') around the patch was removed"),
        (format!("apply_patch <<'EOF'\n{body}\nEOF"), "the shell heredoc around the patch ('apply_patch <<'EOF'' … 'EOF') was removed"),
        (format!("bash -lc \"cd repo && apply_patch <<'PATCH-1'\n{body}\nPATCH-1\""), "the shell heredoc around the patch"),
        (format!("%%bash\napply_patch <<\"EOF\"\n{body}\nEOF\n"), "the notebook cell magic '%%bash' before the patch was removed"),
        (format!("apply_patch '{body}'"), "the command around the patch ('apply_patch') was removed"),
        ("*** Update File: a.txt\n-one\n+two\n*** End Patch".to_string(), "the patch did not start with '*** Begin Patch'"),
        (
            "```\n*** Begin Patch\n*** Update File: a.txt\n-one\n+two\n```".to_string(),
            "the patch did not end with '*** End Patch'; the marker was added",
        ),
        (
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n-one\n+two\nEOF".to_string(),
            "the patch did not end with '*** End Patch'; the marker was added",
        ),
    ] {
        let plain = applypatch::apply_files(&start, &wrapped, Mode::Strict).unwrap_err();
        assert_eq!(plain.kind, ErrorKind::InvalidPatch, "{wrapped}: {}", plain.message);
        let r = repair::apply_files(&start, &wrapped, Allow::ALL).unwrap_or_else(|e| panic!("{wrapped}: {}", e.message));
        assert_eq!(r.value, want, "{wrapped}");
        assert!(r.repairs.iter().any(|r| r.kind == RepairKind::Envelope && r.message.contains(what)), "{wrapped}: {:?}", r.repairs);
    }
    // Line numbers still count lines of the patch as given.
    let e = repair::apply_files(&start, "```\n*** Begin Patch\n*** Update File: a.txt\n-nope\n+two\n*** End Patch\n```", Allow::ALL)
        .unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::ContextNotFound, Some(4)));
    let e = repair::apply_files(&start, "*** Update File: a.txt\n-nope\n+two\n*** End Patch", Allow::ALL).unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::ContextNotFound, Some(2)));
    // Not a patch at all: the original error.
    let e = repair::apply_files(&start, "hello", Allow::ALL).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidPatch);
}

#[test]
fn every_section_repair_is_refused_when_ambiguous() {
    // Each input has the slipped section twice once the slip is forgiven.
    let cases = [
        (
            "unicode",
            "a = \u{201C}x\u{201D}\nb\na = \u{201C}x\u{201D}\n",
            "-a = \"x\"\n+a = 1",
            "ignoring Unicode punctuation look-alikes, it matches 2 places (input lines 1 and 3)",
        ),
        (
            "tabs",
            "\tx()\ny\n\tx()\n",
            "-    x()\n+    z()",
            "reading tabs in the indentation as spaces, it matches 2 places (input lines 1 and 3)",
        ),
        (
            "line-numbers",
            "x\ny\nx\ny\n",
            " 1 | x\n-2 | y\n+Y",
            "without its line-number prefixes and ignoring trailing whitespace, it matches 2 places",
        ),
    ];
    for (kind, input, diff, why) in cases {
        let e = refused(input, diff);
        assert_eq!(e.kind, ErrorKind::ContextNotFound, "{kind}");
        assert!(e.message.contains(why), "{kind}: {}", e.message);
    }
    // A hunk header read as a bare '@@' leaves Strict's own rule: ambiguous is an error.
    let e = refused("x\ny\nx\ny\n", "@@ -1,2 +1,2 @@\n x\n-y\n+Y");
    assert_eq!(e.kind, ErrorKind::ContextAmbiguous);
    assert_eq!(e.input_lines, [1, 3]);
}

#[test]
fn repairs_in_a_batch_and_a_patch_name_their_diff_or_file() {
    let r = repair::apply_batch("a \nb\nc\n", &["-a\n+A", "-c\n+C"], Allow::ALL).unwrap();
    assert_eq!(r.value, "A\nb\nC\n");
    assert_eq!(r.repairs.iter().map(|r| (r.kind, r.diff)).collect::<Vec<_>>(), [(RepairKind::TrailingWs, Some(0))]);
    let patch = "*** Begin Patch\n*** Update File: f.py\n@@ -1,2 +1,2 @@\n-a\n+A\n*** End Patch";
    let r = repair::apply_files(&files(&[("f.py", "a\n")]), patch, Allow::ALL).unwrap();
    assert_eq!(r.value, files(&[("f.py", "A\n")]));
    let rep = &r.repairs[0];
    assert_eq!((rep.kind, rep.path.as_deref(), rep.operation, rep.diff_line), (RepairKind::HunkHeader, Some("f.py"), Some(0), Some(3)));
}
