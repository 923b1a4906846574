//! The whole error of every kind Strict mode reports, pinned as snapshots
//! (tests/snapshots/strict_messages__<code>.snap, one readable file per error
//! kind): code, locations, nearest place and the full message. Messages are
//! read by models, so any change to them shows up in review. After an
//! intended change: `INSTA_UPDATE=always cargo test --test strict_messages`
//! and review the diff (or `cargo insta review`).

// The snapshots (insta) and the per-case harness (libtest-mimic) run on the
// host only; `wasm-pack test` builds every test target for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use applypatch::{apply, apply_batch};
use common::Cases;

fn snapshot(kind: &str, cases: &Cases) {
    insta::assert_snapshot!(kind, cases.all_of(kind));
}

fn one(cases: &mut Cases, title: &str, input: &str, diff: &str) {
    cases.add(title, &[("input", input), ("diff", diff)], apply(input, diff));
}

fn batch(cases: &mut Cases, title: &str, input: &str, diffs: &[&str]) {
    let mut texts = vec![("input", input)];
    let names: Vec<String> = (1..=diffs.len()).map(|i| format!("diff {i}")).collect();
    texts.extend(names.iter().map(String::as_str).zip(diffs.iter().copied()));
    cases.add(title, &texts, apply_batch(input, diffs));
}

#[test]
fn invalid_line() {
    let mut c = Cases::default();
    one(&mut c, "a tab instead of a space", "a\nb\n", "@@\n a\n\tb\n+c");
    one(&mut c, "a whole patch given to apply", "a\n", "*** Begin Patch\n*** Update File: a\n-a\n+b\n*** End Patch");
    one(&mut c, "a line after *** End of File", "a\nb\n", "-b\n+c\n*** End of File\n a");
    one(&mut c, "@@ with no space before the anchor", "a\nb\n", "@@a\n-b\n+c");
    one(&mut c, "a carriage return inside a line", "a\nb\n", "-a\rb\n+c");
    one(&mut c, "text after *** End of File", "a\nb\n", "-b\n+c\n*** End of File please");
    one(&mut c, "another *** line", "a\nb\n", "-b\n+c\n*** Something");
    one(&mut c, "a *** Move to: line", "a\nb\n", "*** Move to: b.txt\n-b\n+c");
    snapshot("invalid_line", &c);
}

#[test]
fn empty_hunk() {
    let mut c = Cases::default();
    one(&mut c, "an anchor with nothing under it", "a\nb\n", "@@ a\n@@\n-b\n+c");
    one(&mut c, "a trailing bare @@", "a\nb\n", "-a\n+c\n@@");
    one(&mut c, "*** End of File with no section above it", "a\n", "*** End of File");
    one(&mut c, "an anchor then *** End of File", "a\n", "@@ a\n*** End of File");
    snapshot("empty_hunk", &c);
}

#[test]
fn anchor_not_found() {
    let mut c = Cases::default();
    one(
        &mut c,
        "only the indentation differs",
        "class A:\n    def f(self):\n        pass\n",
        "@@ def f(self):\n-        pass\n+        return 1",
    );
    one(&mut c, "a line the input does not have", "def a():\n    return 1\n", "@@ def b():\n-    return 1\n+    return 2");
    one(&mut c, "a unified diff hunk header, read as an anchor", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c");
    one(&mut c, "a misspelt anchor: the nearly equal line", TWO_CLASSES, "@@ clas B:\n-        return 2\n+        return 3");
    one(
        &mut c,
        "a line of the input contains it",
        "class A:\n    def f(self):\n        pass\n",
        "@@ def f\n-        pass\n+        return 1",
    );
    snapshot("anchor_not_found", &c);
}

/// One method name in two classes.
const TWO_CLASSES: &str = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 2\n";

#[test]
fn anchor_ambiguous() {
    let mut c = Cases::default();
    one(&mut c, "two equal lines", "h\na\nh\nb\n", "@@ h\n-a\n+c");
    let twelve = "x\ny\n".repeat(12);
    one(&mut c, "twelve equal lines: ten are listed", &twelve, "@@ x\n-y\n+z");
    one(&mut c, "three equal lines", "def f():\n    pass\ndef f():\n    pass\ndef f():\n    pass\n", "@@ def f():\n-    pass\n+    return");
    one(
        &mut c,
        "a method in two classes: stacked anchors suggested",
        TWO_CLASSES,
        "@@     def f(self):\n-        return 1\n+        return 3",
    );
    snapshot("anchor_ambiguous", &c);
}

#[test]
fn context_not_found() {
    let mut c = Cases::default();
    one(&mut c, "the closest place and the first line that differs", "one\ntwo\nthree\nfour\nfive\n", "@@\n two\n-thre\n+3\n four");
    one(&mut c, "only whitespace differs", "  indented\n", "-indented\n+changed");
    one(&mut c, "trailing whitespace differs", "a = 1 \nb = 2\n", "-a = 1\n+a = 3\n b = 2");
    one(&mut c, "an *** End of File section that is not at the end", "a\nb\n", "-a\n+c\n*** End of File");
    one(&mut c, "a trailing empty context line breaks the match", "one\ntwo\n", "@@\n-one\n+ONE\n\n");
    one(&mut c, "nothing alike", "alpha\nbeta\n", "-gamma\n+delta");
    one(&mut c, "not after the previous section", "a\nb\nc\n", "-b\n+B\n@@\n-x\n+y");
    one(&mut c, "a context-only diff for another file", "a\nb\n", " x\n y");
    one(&mut c, "Unicode dashes are not normalised", "x = a \u{2013} b\n", "-x = a - b\n+x = a + b");
    one(&mut c, "an empty input has no line to delete", "", "-a\n+b");
    one(
        &mut c,
        "no line equal, the most similar one is the closest",
        "print('hello there')\nprint('hello world')\nprint('hello')\n",
        "-print('hello worle')\n+print('bye')",
    );
    one(&mut c, "the most similar line is the second of the section", "a\nprint('hello world')\nb\n", "-zz\n-print('hello worle')\n+x");
    one(&mut c, "more than three lines differ", "a\nb\nc\nd\ne\nf\n", "@@\n a\n-B\n+x\n C\n D\n E\n f");
    one(&mut c, "the closest place runs past the end of the input", "a\nb\n", "-b\n-\n+c");
    snapshot("context_not_found", &c);
}

#[test]
fn context_ambiguous() {
    let mut c = Cases::default();
    one(
        &mut c,
        "two places, with an anchor for each",
        "def a():\n    return None\ndef b():\n    return None\n",
        "@@\n-    return None\n+    return []",
    );
    one(&mut c, "no unique line above a place", "x\nx\nx\n", "-x\n+y");
    let many = "{\n    return;\n}\n".repeat(12);
    one(&mut c, "twelve places: ten are listed", &many, "-    return;\n+    return 1;");
    one(
        &mut c,
        "the line just above each place is repeated: a unique line further up",
        "fn a() {\n    let x = 1;\n    return None\n}\nfn b() {\n    let x = 1;\n    return None\n}\n",
        "-    return None\n+    return []",
    );
    snapshot("context_ambiguous", &c);
}

#[test]
fn out_of_order() {
    let mut c = Cases::default();
    one(&mut c, "sections", "a\nb\nc\nd\n", "@@\n-c\n+C\n@@\n-a\n+A");
    one(&mut c, "an anchor", "a\nb\nc\nd\n", "@@ c\n-d\n+D\n@@ a\n-b\n+B");
    one(&mut c, "an anchor found only above the previous section", "x\na\nb\nc\n", "@@ b\n-c\n+C\n@@ b\n-c\n+D");
    snapshot("out_of_order", &c);
}

#[test]
fn unanchored_insertion() {
    let mut c = Cases::default();
    one(&mut c, "added lines only", "a\n", "+b");
    one(&mut c, "a second section of added lines only", "a\nb\n", "-a\n+A\n@@\n+c");
    snapshot("unanchored_insertion", &c);
}

#[test]
fn mixed_newlines() {
    let mut c = Cases::default();
    one(&mut c, "CRLF then LF", "a\r\nb\n", "-a\n+c");
    one(&mut c, "a bare CR", "a\rb\n", "-a\n+c");
    one(&mut c, "LF then CRLF, further down", "a\nb\nc\r\n", "-a\n+c");
    one(&mut c, "a bare CR on the last line", "a\nb\r", "-a\n+c");
    snapshot("mixed_newlines", &c);
}

#[test]
fn overlap() {
    let mut c = Cases::default();
    batch(&mut c, "two diffs change one line", "a\nb\n", &["-a\n+x", " a\n-b\n+y", "@@\n-a\n+z"]);
    batch(&mut c, "two insertions at one place", "a\nb\n", &["@@ a\n+x", "@@ a\n+y"]);
    batch(&mut c, "an insertion where a change starts", "a\nb\n", &["@@ a\n+x", "-b\n+y"]);
    snapshot("overlap", &c);
}

#[test]
fn batch_errors_name_the_diff() {
    let mut c = Cases::default();
    batch(&mut c, "the second diff is not found", "a\nb\n", &["-a\n+x", "-missing\n+y"]);
    batch(&mut c, "the first diff does not parse", "a\nb\n", &["@@\n\tb", "-a\n+x"]);
    insta::assert_snapshot!("batch", c.text());
}

#[test]
fn already_applied() {
    let mut c = Cases::default();
    one(&mut c, "the change is already in the input", "a\nB\nc\n", "@@\n a\n-b\n+B\n c");
    one(&mut c, "an insertion after an anchor, sent twice", "def f():\n    x = 1\n    y = 2\n", "@@ def f():\n+    x = 1\n     y = 2");
    snapshot("already_applied", &c);
}

/// A text of another format given to `apply` says which format it is and
/// which function takes it (the JS test tests/js/other-format.test.mjs
/// checks that following the advice applies it).
#[test]
fn another_format() {
    let mut c = Cases::default();
    let input = "def f():\n    return 1\n";
    one(&mut c, "a unified diff", input, "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n");
    one(
        &mut c,
        "a git diff",
        input,
        "diff --git a/f.py b/f.py\nindex 1111111..2222222 100644\n--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n",
    );
    one(&mut c, "edit blocks", input, "f.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n");
    one(
        &mut c,
        "a whole patch (named by the parser)",
        input,
        "*** Begin Patch\n*** Update File: f.py\n-    return 1\n+    return 2\n*** End Patch",
    );
    batch(
        &mut c,
        "a unified diff second in a batch",
        input,
        &["@@ def f():\n-    return 1\n+    return 2", "--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n-def f():\n+def g():\n"],
    );
    // Of several codes: what each reads as V4A lines fails with.
    insta::assert_snapshot!("another_format", c.text());
}

/// The stacked anchors an ambiguous anchor's error suggests apply, each at
/// the place it names (in a bare diff and in a patch); the nearly equal line
/// of a misspelt anchor, copied, applies too.
#[test]
fn the_suggested_anchors_apply() {
    let e = applypatch::apply(TWO_CLASSES, "@@     def f(self):\n+        # doc").unwrap_err();
    let hints: Vec<(usize, String)> = e
        .message
        .split("for line ")
        .skip(1)
        .map(|h| {
            let line = h.split(',').next().unwrap().parse().unwrap();
            let anchor = h.split('\'').nth(1).unwrap().to_string();
            (line, anchor)
        })
        .collect();
    assert_eq!(hints, [(2, "@@ class A:".to_string()), (6, "@@ class B:".to_string())], "{}", e.message);
    for (line, anchor) in &hints {
        let out = applypatch::apply(TWO_CLASSES, &format!("{anchor}\n@@     def f(self):\n+        # doc")).unwrap();
        assert_eq!(out.lines().nth(*line), Some("        # doc"), "{anchor}: {out}");
    }
    // In a patch: the same suggestion, and it applies.
    let files = std::collections::BTreeMap::from([("m.py".to_string(), TWO_CLASSES.to_string())]);
    let patch =
        |anchors: &str| format!("*** Begin Patch\n*** Update File: m.py\n{anchors}\n-        return 2\n+        return 3\n*** End Patch");
    let e = applypatch::apply_files(&files, &patch("@@     def f(self):"), applypatch::Mode::Strict).unwrap_err();
    assert_eq!(e.kind, applypatch::ErrorKind::AnchorAmbiguous);
    assert!(e.message.contains("for line 6, '@@ class B:' (input line 5) then '@@     def f(self):'"), "{}", e.message);
    let out = applypatch::apply_files(&files, &patch("@@ class B:\n@@     def f(self):"), applypatch::Mode::Strict).unwrap();
    assert_eq!(out["m.py"], TWO_CLASSES.replace("return 2", "return 3"));
    // A misspelt anchor names the nearly equal line; that line applies.
    let e = applypatch::apply(TWO_CLASSES, "@@ clas B:\n-        return 2\n+        return 3").unwrap_err();
    assert_eq!(e.input_lines, [5]);
    let quoted = e.message.split("input line 5, '").nth(1).and_then(|r| r.split('\'').next()).unwrap();
    assert_eq!(
        applypatch::apply(TWO_CLASSES, &format!("@@ {quoted}\n-        return 2\n+        return 3")).unwrap(),
        TWO_CLASSES.replace("return 2", "return 3")
    );
}
