//! Unified diffs in the engine: the parser (plain and git-style), Strict and
//! git mode over file maps, every error kind with its whole message, and the
//! writer's round trip.

#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;

use applypatch::unified::{self, write, FileKind, LineKind, UnifiedMode};
use applypatch::ErrorKind;

type Files = BTreeMap<String, String>;

fn files(pairs: &[(&str, &str)]) -> Files {
    pairs.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
}

/// Applies and returns the whole file map afterwards.
fn apply(map: &Files, diff: &str, mode: UnifiedMode) -> applypatch::Result<Files> {
    let r = unified::apply(diff, mode, |p| map.get(p).map(String::as_str))?;
    let mut out = map.clone();
    for c in r.changes {
        match c.contents {
            Some(t) => out.insert(c.path, t),
            None => out.remove(&c.path),
        };
    }
    Ok(out)
}

fn strict_err(map: &Files, diff: &str) -> applypatch::Error {
    apply(map, diff, UnifiedMode::Strict).unwrap_err()
}

const GIT_DIFF: &str = "From 1234 Mon Sep 17 00:00:00 2001
From: A U Thor <a@example.com>
Subject: [PATCH] several files

Body text, with a line that looks like a diff:
--- not a header

---
 a.txt | 2 +-
diff --git a/a.txt b/a.txt
index 3b18e51..8d0b5ab 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@ section text
 one
-two
+2
 three
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/old name.txt b/new name.txt
similarity index 90%
rename from old name.txt
rename to new name.txt
index 1111111..2222222 100644
--- a/old name.txt
+++ b/new name.txt
@@ -1,2 +1,2 @@
 keep
-last
\\ No newline at end of file
+last
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 1111111..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/empty.txt b/empty.txt
new file mode 100644
index 0000000..e69de29
diff --git \"a/tab\\there.txt\" \"b/tab\\there.txt\"
new file mode 100755
--- /dev/null
+++ \"b/tab\\there.txt\"
@@ -0,0 +1 @@
+#!/bin/sh
-- 
2.47.3
";

#[test]
fn parses_a_format_patch_mail_with_every_git_header() {
    let u = unified::parse(GIT_DIFF).unwrap();
    let summary: Vec<(Option<&str>, Option<&str>, FileKind)> =
        u.files.iter().map(|f| (f.old_path.as_deref(), f.new_path.as_deref(), f.kind)).collect();
    assert_eq!(
        summary,
        [
            (Some("a.txt"), Some("a.txt"), FileKind::Modify),
            (Some("run.sh"), Some("run.sh"), FileKind::Modify),
            (Some("old name.txt"), Some("new name.txt"), FileKind::Rename),
            (Some("gone.txt"), None, FileKind::Delete),
            (None, Some("empty.txt"), FileKind::Add),
            (None, Some("tab\there.txt"), FileKind::Add),
        ]
    );
    let a = &u.files[0];
    assert_eq!(a.index.as_deref(), Some("3b18e51..8d0b5ab 100644"));
    let h = &a.hunks[0];
    assert_eq!((h.old_start, h.old_len, h.new_start, h.new_len, h.section, h.line), (1, 3, 1, 3, "section text", 14));
    assert_eq!(h.lines.iter().map(|l| l.kind).collect::<Vec<_>>(), [LineKind::Context, LineKind::Remove, LineKind::Add, LineKind::Context]);
    assert_eq!((u.files[1].old_mode, u.files[1].new_mode), (Some(0o100644), Some(0o100755)));
    assert_eq!(u.files[2].similarity, Some(90));
    let renamed = &u.files[2].hunks[0].lines;
    assert!(renamed[1].no_newline() && !renamed[2].no_newline());
    assert_eq!(u.files[5].new_mode, Some(0o100755));
}

#[test]
fn applies_the_mail_all_at_once() {
    let map = files(&[("a.txt", "one\ntwo\nthree\n"), ("run.sh", "echo\n"), ("old name.txt", "keep\nlast"), ("gone.txt", "bye\n")]);
    for mode in [UnifiedMode::Strict, UnifiedMode::Git] {
        let out = apply(&map, GIT_DIFF, mode).unwrap();
        assert_eq!(
            out,
            files(&[
                ("a.txt", "one\n2\nthree\n"),
                ("empty.txt", ""),
                ("new name.txt", "keep\nlast\n"),
                ("run.sh", "echo\n"),
                ("tab\there.txt", "#!/bin/sh\n")
            ])
        );
    }
    let r = unified::apply(GIT_DIFF, UnifiedMode::Strict, |p| map.get(p).map(String::as_str)).unwrap();
    let modes: Vec<(&str, Option<u32>)> = r.changes.iter().map(|c| (c.path.as_str(), c.mode)).collect();
    assert!(modes.contains(&("run.sh", Some(0o100755))));
    assert!(modes.contains(&("tab\there.txt", Some(0o100755))));
}

#[test]
fn plain_diffs_strip_one_component_unless_there_is_none() {
    let d = "--- src/lib.rs\t2024-01-01 10:00:00.000000000 +0100\n+++ src/lib.rs\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n";
    let out = apply(&files(&[("lib.rs", "a\n")]), d, UnifiedMode::Strict).unwrap();
    assert_eq!(out["lib.rs"], "b\n");
    let d = "--- x.txt\n+++ x.txt\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(apply(&files(&[("x.txt", "a\n")]), d, UnifiedMode::Strict).unwrap()["x.txt"], "b\n");
    // diff -N marks a missing file with the epoch.
    let d = "--- a/new.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ b/new.txt\t2024-01-01\n@@ -0,0 +1 @@\n+hi\n";
    assert_eq!(apply(&Files::new(), d, UnifiedMode::Strict).unwrap()["new.txt"], "hi\n");
}

#[test]
fn crlf_and_missing_final_newlines_are_bytes() {
    let map = files(&[("w.txt", "a\r\nb\r\nc")]);
    let d = "--- a/w.txt\n+++ b/w.txt\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\n\\ No newline at end of file\n";
    assert_eq!(apply(&map, d, UnifiedMode::Strict).unwrap()["w.txt"], "a\r\nB\r\nc");
    assert_eq!(apply(&map, d, UnifiedMode::Git).unwrap()["w.txt"], "a\r\nB\r\nc");
}

#[test]
fn strict_applies_at_the_stated_line_or_the_one_other_place_and_reports_the_offset() {
    let map = files(&[("f", "x\nx\nx\nhead\na\nb\nc\n")]);
    let d = "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n a\n-b\n+B\n c\n";
    let r = unified::apply(d, UnifiedMode::Strict, |p| map.get(p).map(String::as_str)).unwrap();
    assert_eq!(r.changes[0].contents.as_deref(), Some("x\nx\nx\nhead\na\nB\nc\n"));
    assert_eq!((r.placements[0].stated_line, r.placements[0].line, r.placements[0].offset()), (2, 5, 3));
    // At the stated line, even when the lines are elsewhere too.
    let map = files(&[("f", "a\nb\na\nb\n")]);
    let d = "--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n a\n-b\n+B\n";
    assert_eq!(apply(&map, d, UnifiedMode::Strict).unwrap()["f"], "a\nb\na\nB\n");
}

#[test]
fn git_mode_reports_where_each_hunk_was_found() {
    let map = files(&[("f", "x\nx\nx\nhead\na\nb\nc\n")]);
    let d = "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n a\n-b\n+B\n c\n";
    let r = unified::apply(d, UnifiedMode::Git, |p| map.get(p).map(String::as_str)).unwrap();
    assert_eq!(r.changes[0].contents.as_deref(), Some("x\nx\nx\nhead\na\nB\nc\n"));
    assert_eq!((r.placements[0].stated_line, r.placements[0].line, r.placements[0].offset()), (2, 5, 3));
}

#[test]
fn renames_lists_each_rename_as_from_and_to() {
    let d = "diff --git a/a b/b\nsimilarity index 100%\nrename from a\nrename to b\ndiff --git a/c b/c\n--- a/c\n+++ b/c\n@@ -1 +1 @@\n-x\n+y\n";
    assert_eq!(unified::parse(d).unwrap().renames(), vec![("a", "b")]);
}

#[test]
fn strict_refuses_an_ambiguous_move() {
    let map = files(&[("f", "a\nb\nzzz\na\nb\nzzz\n")]);
    let e = strict_err(&map, "--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n a\n-b\n+B\n");
    assert_eq!(e.kind, ErrorKind::ContextAmbiguous);
    assert_eq!(e.input_lines, [1, 4]);
    assert_eq!(e.diff_line, Some(3));
    assert_eq!(e.path.as_deref(), Some("f"));
    assert_eq!(
        e.message,
        "f: hunk 1 (diff lines 3-6, '@@ -2,2 +2,2 @@'): its context and removed lines are not at line 2 as the header says, and they match 2 other places: lines 1, 4. Strict mode moves a hunk away from its stated line only when it matches exactly one place. Nothing was changed. Correct the line numbers in the header (the nearest place is line 1), or add context lines that tell the places apart."
    );
    // git takes the nearest to the stated line.
    assert_eq!(
        apply(&map, "--- a/f\n+++ b/f\n@@ -3,3 +3,3 @@\n a\n-b\n+B\n zzz\n", UnifiedMode::Git).unwrap()["f"],
        "a\nb\nzzz\na\nB\nzzz\n"
    );
}

#[test]
fn strict_names_the_closest_place_and_the_first_line_that_differs() {
    let map = files(&[("src/app.py", "def f():\n    total = 1\n    return total\n")]);
    let e = strict_err(
        &map,
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,3 @@\n def f():\n-    total = 0\n+    total = 2\n     return total\n",
    );
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert_eq!(e.diff_line, Some(5));
    assert_eq!(e.input_lines, [1]);
    let near = e.nearest.unwrap();
    assert_eq!((near.line, near.text.as_str()), (1, "def f():\n    total = 1\n    return total"));
    assert!((near.similarity - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(
        e.message,
        "src/app.py: hunk 1 (diff lines 3-7, '@@ -1,3 +1,3 @@'): its 3 context and removed lines are not in the file. Nothing was changed. The closest place is line 1, where 2 of 3 lines are equal. Diff line 5 has '    total = 0\\n', but line 2 of the file is '    total = 1\\n'. Copy the context and removed lines exactly from the current file and send the diff again."
    );
}

#[test]
fn strict_hints_at_line_breaks() {
    let e = strict_err(&files(&[("f", "a\r\nb\r\n")]), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
    assert!(e.message.contains("(the file has CRLF line breaks, the diff LF: make the diff's lines end with \\r\\n)"), "{}", e.message);
    let e = strict_err(&files(&[("f", "a\nb")]), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
    assert!(
        e.message.contains("(the file's last line has no line break: add '\\ No newline at end of file' after that diff line)"),
        "{}",
        e.message
    );
}

#[test]
fn strict_says_when_only_whitespace_differs() {
    let e = strict_err(&files(&[("f", "a \nb\n")]), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
    assert!(e.message.contains("Diff line 4 has 'a\\n', but line 1 of the file is 'a \\n' (only whitespace differs)."), "{}", e.message);
}

#[test]
fn strict_finds_the_closest_place_far_from_the_stated_line_in_a_large_file() {
    // 200 lines of context over 120,000 lines is past the 20,000,000 line
    // comparisons a full search may make: the search keeps to 50,000 lines
    // on each side of the stated line, which still reaches 30,000 lines away.
    let mut file: Vec<String> = (0..120_000).map(|i| format!("line {i}\n")).collect();
    let pre: Vec<String> = (0..200).map(|i| format!("ctx {i}\n")).collect();
    for (i, l) in pre.iter().enumerate() {
        file[40_000 + i] = if i == 100 { "changed\n".to_string() } else { l.clone() };
    }
    let hunk: String = pre.iter().enumerate().map(|(i, l)| if i == 100 { format!("-{l}+new\n") } else { format!(" {l}") }).collect();
    let d = format!("--- a/f\n+++ b/f\n@@ -10001,200 +10001,200 @@\n{hunk}");
    let e = strict_err(&files(&[("f", &file.concat())]), &d);
    assert!(e.message.contains("The closest place is line 40001, where 199 of 200 lines are equal."), "{}", e.message);
}

#[test]
fn a_short_hunk_counts_the_lines_that_follow_it() {
    // Context, removed and added lines after the hunk stopped all count.
    let cases = [
        (
            "a\nc\n",
            "@@ -1,3 +1,1 @@\n a\n-b\n c\n",
            "f: hunk 1 (diff line 3): its header '@@ -1,3 +1,1 @@' counts 3 old and 1 new lines, but diff line 6 (' c') is not a hunk line after 2 old and 1 new. The hunk's lines count -1,3 +1,2: write that in the header ('@@ -1,3 +1,2 @@'), or add the missing lines. Each ' ' line counts as old and new, '-' as old, '+' as new.",
        ),
        (
            "a\nb\n",
            "@@ -1,1 +1,2 @@\n a\n-b\n",
            "f: hunk 1 (diff line 3): its header '@@ -1,1 +1,2 @@' counts 1 old and 2 new lines, but diff line 5 ('-b') is not a hunk line after 1 old and 1 new. The hunk's lines count -1,2 +1,1: write that in the header ('@@ -1,2 +1,1 @@'), or add the missing lines. Each ' ' line counts as old and new, '-' as old, '+' as new.",
        ),
        (
            "a\nb\n",
            "@@ -1,3 +1,1 @@\n a\n+b\n+c\n",
            "f: hunk 1 (diff line 3): its header '@@ -1,3 +1,1 @@' counts 3 old and 1 new lines, but diff line 5 ('+b') is not a hunk line after 1 old and 1 new. The hunk's lines count -1,1 +1,3: write that in the header ('@@ -1,1 +1,3 @@'), or add the missing lines. Each ' ' line counts as old and new, '-' as old, '+' as new.",
        ),
        (
            // A no-newline marker before any line of the hunk is not a hunk line.
            "a\n",
            "@@ -1,1 +1,1 @@\n\\ No newline at end of file\n-a\n+b\n",
            "f: hunk 1 (diff line 3): its header '@@ -1,1 +1,1 @@' counts 1 old and 1 new lines, but diff line 4 ('\\ No newline at end of file') is not a hunk line after 0 old and 0 new. The hunk's lines count -1,1 +1,1: write that in the header ('@@ -1,1 +1,1 @@'), or add the missing lines. Each ' ' line counts as old and new, '-' as old, '+' as new.",
        ),
    ];
    for (text, hunk, message) in cases {
        let e = strict_err(&files(&[("f", text)]), &format!("--- a/f\n+++ b/f\n{hunk}"));
        assert_eq!(e.kind, ErrorKind::HunkCountMismatch);
        assert_eq!(e.message, message);
    }
}

#[test]
fn lines_past_the_count_after_blank_lines_still_count() {
    let e = strict_err(&files(&[("f", "a\n\n\nc\n")]), "--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n+b\n\n\n c\n");
    assert_eq!(
        e.message,
        "f: hunk 1 (diff line 3): its header '@@ -1,1 +1,1 @@' counts 1 old and 1 new lines, but the hunk goes on: diff lines 6-8 look like more of its lines. With them the hunk counts -1,4 +1,4: write '@@ -1,4 +1,4 @@' if they belong to it, or remove them. Each ' ' line counts as old and new, '-' as old, '+' as new. (git apply ignores the lines past the count; Strict mode does not guess.)"
    );
}

#[test]
fn strict_requires_file_order() {
    let map = files(&[("f", "a\nb\nc\nd\n")]);
    let e = strict_err(&map, "--- a/f\n+++ b/f\n@@ -3,1 +3,1 @@\n-c\n+C\n@@ -1,1 +1,1 @@\n-a\n+A\n");
    assert_eq!(e.kind, ErrorKind::OutOfOrder);
    assert_eq!(e.diff_line, Some(6));
    assert_eq!(
        e.message,
        "f: hunk 2 (diff lines 6-8, '@@ -1,1 +1,1 @@'): its lines are found only at line 1, before the end of hunk 1 (line 3). Hunks must follow the file in order and must not overlap. Nothing was changed. Put the hunks in file order, or merge overlapping hunks into one."
    );
}

#[test]
fn strict_refuses_miscounted_headers_and_git_ignores_the_extra_lines() {
    let map = files(&[("f", "a\nb\nc\nd\n")]);
    let d = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n d\n";
    let e = strict_err(&map, d);
    assert_eq!(e.kind, ErrorKind::HunkCountMismatch);
    assert_eq!(e.diff_line, Some(8));
    assert_eq!(
        e.message,
        "f: hunk 1 (diff line 3): its header '@@ -1,3 +1,3 @@' counts 3 old and 3 new lines, but the hunk goes on: diff line 8 looks like more of its lines. With them the hunk counts -1,4 +1,4: write '@@ -1,4 +1,4 @@' if they belong to it, or remove them. Each ' ' line counts as old and new, '-' as old, '+' as new. (git apply ignores the lines past the count; Strict mode does not guess.)"
    );
    assert_eq!(apply(&map, d, UnifiedMode::Git).unwrap()["f"], "a\nB\nc\nd\n");
    // Too few lines for the header: both refuse.
    let d = "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n";
    for mode in [UnifiedMode::Strict, UnifiedMode::Git] {
        let e = apply(&map, d, mode).unwrap_err();
        assert_eq!(e.kind, ErrorKind::HunkCountMismatch);
        assert_eq!(
            e.message,
            "f: hunk 1 (diff line 3): its header '@@ -1,4 +1,4 @@' counts 4 old and 4 new lines, but the diff ends after 3 old and 3 new. The hunk's lines count -1,3 +1,3: write that in the header ('@@ -1,3 +1,3 @@'), or add the missing lines. Each ' ' line counts as old and new, '-' as old, '+' as new."
        );
    }
}

#[test]
fn file_operations_check_what_is_there() {
    let map = files(&[("a", "x\n"), ("b", "y\n")]);
    let e = strict_err(&map, "--- /dev/null\n+++ b/a\n@@ -0,0 +1 @@\n+new\n");
    assert_eq!((e.kind, e.path.as_deref(), e.diff_line), (ErrorKind::FileExists, Some("a"), Some(1)));
    assert_eq!(e.message, "a: the diff (line 1) creates this file, but it already exists. Nothing was changed. To change the existing file, diff against its contents ('--- a/a'); to replace it, delete it first.");
    let e = strict_err(&map, "diff --git a/a b/b\nsimilarity index 100%\nrename from a\nrename to b\n");
    assert_eq!(e.kind, ErrorKind::FileExists);
    assert_eq!(e.message, "b: the diff (line 1) renames a to this path, but a file is already there. Nothing was changed. Delete it first or choose another name.");
    let e = strict_err(&map, "--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-x\n+y\n");
    assert_eq!((e.kind, e.path.as_deref()), (ErrorKind::FileNotFound, Some("missing.txt")));
    assert_eq!(e.message, "missing.txt: the diff (line 1) changes this file, but there is no such file. Nothing was changed. Check the path (the 'a/' and 'b/' prefixes are removed).");
    let e = strict_err(&files(&[("a", "x\ny\n")]), "--- a/a\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert_eq!(e.message, "a: the diff (line 1) deletes this file, but its hunks leave 1 line of it: a deletion removes every line ('-'). Nothing was changed. Make the diff against the whole current file.");
    // All or nothing: the second file fails, the first is not returned.
    assert!(apply(&map, "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+X\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-nope\n+Y\n", UnifiedMode::Strict).is_err());
    // A rename moves the contents; a copy keeps the source.
    let out = apply(&map, "diff --git a/a b/c\nsimilarity index 100%\ncopy from a\ncopy to c\n", UnifiedMode::Git).unwrap();
    assert_eq!(out, files(&[("a", "x\n"), ("b", "y\n"), ("c", "x\n")]));
    let out = apply(&map, "diff --git a/a b/c\nsimilarity index 100%\nrename from a\nrename to c\n", UnifiedMode::Strict).unwrap();
    assert_eq!(out, files(&[("b", "y\n"), ("c", "x\n")]));
}

#[test]
fn malformed_diffs_are_named() {
    let e = unified::parse("just some text\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::EmptyPatch);
    let e = unified::parse("@@ -1 +1 @@\n-a\n+b\n").unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::InvalidHeader, Some(1)));
    assert_eq!(e.message, "Diff line 1: the hunk header '@@ -1 +1 @@' comes before any file header. Put '--- a/PATH' and '+++ b/PATH' lines (or a 'diff --git' header) before the first hunk of each file.");
    let e = unified::parse("--- a/f\n+++ b/f\n@@ ... @@\n-a\n+b\n").unwrap_err();
    assert_eq!((e.kind, e.diff_line, e.path.as_deref()), (ErrorKind::InvalidHeader, Some(3), Some("f")));
    assert_eq!(e.message, "f: hunk 1 (diff line 3): the header '@@ ... @@' is not '@@ -START,COUNT +START,COUNT @@'. A unified diff needs the line numbers and counts in every hunk header; write them, or send a '*** Begin Patch' patch or search/replace blocks instead, which need none.");
    let e = unified::parse("--- a/f\n+++ b/f\n@@ -1,0 +1,0 @@\n").unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::EmptyHunk, Some(3)));
    assert_eq!(e.message, "f: hunk 1 (diff line 3) is empty: its header counts no lines. Remove it, or give the lines it changes.");
    let e = unified::parse("diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n").unwrap_err();
    assert_eq!((e.kind, e.diff_line, e.path.as_deref()), (ErrorKind::BinaryPatch, Some(3), Some("img.png")));
    assert_eq!(e.message, "Diff line 3: a binary patch for img.png. Only text diffs are applied; nothing was changed. Make the diff with text hunks, or copy the binary file separately.");
    let e =
        unified::parse("diff --git a/x.bin b/x.bin\nnew file mode 100644\nGIT binary patch\nliteral 3\nKcmZ?wa{vGU0RR91\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::BinaryPatch);
}

#[test]
fn insertion_past_the_end_is_refused() {
    let e = strict_err(&files(&[("f", "a\n")]), "--- a/f\n+++ b/f\n@@ -5,0 +6 @@\n+x\n");
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    assert_eq!(e.message, "f: hunk 1 (diff lines 3-4, '@@ -5,0 +6,1 @@'): it inserts after line 5, but the file has only 1 lines. Nothing was changed. Correct the line number in the header, or add context lines around the insertion.");
}

#[test]
fn the_writer_round_trips_through_both_modes() {
    let words = ["a", "b", "", "  x", "}", "c\r"];
    let mut seed: u64 = 42;
    let mut next = move |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    for _ in 0..600 {
        let text = |len: usize, next: &mut dyn FnMut(usize) -> usize| {
            let mut s: String = (0..len).map(|_| format!("{}\n", words[next(words.len())])).collect();
            if next(5) == 0 {
                s.pop();
            }
            s
        };
        let n = next(25);
        let before = text(n, &mut next);
        let after = if next(2) == 0 {
            text(next(25), &mut next)
        } else {
            let mut lines: Vec<String> = before.split_inclusive('\n').map(str::to_string).collect();
            for _ in 0..next(5) {
                let at = next(lines.len() + 1);
                match next(3) {
                    0 => lines.insert(at, format!("{}\n", words[next(words.len())])),
                    1 if at < lines.len() => {
                        lines.remove(at);
                    }
                    _ => {}
                }
            }
            lines.concat()
        };
        let map = files(&[("f", &before)]);
        let want = files(&[("f", &after)]);
        let diff = write::diff_files(&[("f", &before)], &[("f", &after)], &write::Options::default());
        assert_eq!(diff.is_empty(), before == after);
        if diff.is_empty() {
            continue;
        }
        for mode in [UnifiedMode::Strict, UnifiedMode::Git] {
            assert_eq!(apply(&map, &diff, mode).unwrap(), want, "{mode:?}\n{diff}");
        }
    }
}

/// A file the diff changes that the map does not have: with the map's paths
/// known, the error lists those near it (issue 29), and the listed path,
/// written instead, applies.
#[test]
fn a_missing_file_lists_the_near_paths() {
    use applypatch::unified::{apply_parsed_among, parse, text_for, UnifiedMode};
    let known = ["src/utils.py", "README.md"];
    let get = |p: &str| (p == "src/utils.py").then_some("x = 1\n");
    let diff = |path: &str| format!("--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n");
    let text = diff("src/utlis.py");
    let text = text_for(&text, UnifiedMode::Strict);
    let parsed = parse(&text).unwrap();
    let e = apply_parsed_among(&parsed, UnifiedMode::Strict, get, Some(&known)).unwrap_err();
    assert_eq!(e.kind, applypatch::ErrorKind::FileNotFound);
    assert_eq!(
        e.message,
        "src/utlis.py: the diff (line 1) changes this file, but there is no such file. Nothing was changed. The files have similar paths: src/utils.py. Check the path (the 'a/' and 'b/' prefixes are removed)."
    );
    let fixed = diff("src/utils.py");
    let fixed = text_for(&fixed, UnifiedMode::Strict);
    let parsed = parse(&fixed).unwrap();
    let r = apply_parsed_among(&parsed, UnifiedMode::Strict, get, Some(&known)).unwrap();
    assert_eq!(r.changes[0].contents.as_deref(), Some("x = 2\n"));
}
