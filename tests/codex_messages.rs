//! The whole error of every kind Codex mode reports, for a single diff
//! (`Mode::Codex.apply`) and inside a patch (`apply_files`), pinned as
//! snapshots (tests/snapshots/codex_messages__<code>.snap). The first line is
//! the Codex CLI's own wording (checked against the binary by
//! tests/codex_parity.rs); the lines after it are our hint. After an intended
//! change: `INSTA_UPDATE=always cargo test --test codex_messages`, then review.

// The snapshots (insta) and the per-case harness (libtest-mimic) run on the
// host only; `wasm-pack test` builds every test target for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use applypatch::{apply_files, Mode};
use common::Cases;
use std::collections::BTreeMap;

fn one(cases: &mut Cases, title: &str, input: &str, diff: &str) {
    cases.add(title, &[("input", input), ("diff", diff)], Mode::Codex.apply(input, diff));
}

fn patch(cases: &mut Cases, title: &str, path: &str, contents: &str, patch: &str) {
    let files = BTreeMap::from([(path.to_string(), contents.to_string())]);
    cases.add(title, &[(path, contents), ("patch", patch)], apply_files(&files, patch, Mode::Codex));
}

fn snapshot(kind: &str, cases: &Cases) {
    insta::assert_snapshot!(kind, cases.all_of(kind));
}

#[test]
fn context_not_found() {
    let mut c = Cases::default();
    one(&mut c, "the closest place", "one\ntwo\nthree\nfour\n", "@@\n two\n-thre\n+3\n four");
    one(&mut c, "nothing alike", "alpha\nbeta\n", "-gamma\n+delta");
    one(&mut c, "an *** End of File chunk that is not at the end", "a\nb\n", "-a\n+c\n*** End of File");
    one(&mut c, "not after the previous chunk", "a\nb\nc\n", "-b\n+B\n@@\n-a\n+A");
    patch(
        &mut c,
        "in a patch, with its path",
        "src/app.py",
        "def main():\n    print('hi')\n",
        "*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print('hello')\n+    print('bye')\n*** End Patch",
    );
    snapshot("context_not_found", &c);
}

#[test]
fn anchor_not_found() {
    let mut c = Cases::default();
    one(&mut c, "a line the input does not have", "def a():\n    return 1\n", "@@ def b():\n-    return 1\n+    return 2");
    one(&mut c, "only found above the previous chunk", "a\nb\nc\n", "-b\n+B\n@@ a\n+x");
    patch(&mut c, "in a patch", "a.py", "x = 1\n", "*** Begin Patch\n*** Update File: a.py\n@@ class A:\n-x = 1\n+x = 2\n*** End Patch");
    snapshot("anchor_not_found", &c);
}

#[test]
fn invalid_line() {
    let mut c = Cases::default();
    one(&mut c, "a line with no prefix", "a\nb\n", "@@\n a\nb\n+c");
    one(&mut c, "@@ then another @@", "a\nb\n", "@@ a\n@@\n-b\n+c");
    one(&mut c, "a second chunk without @@", "a\nb\n", "-a\n+A\n*** End of File\n-b\n+B");
    one(&mut c, "a first line with no prefix", "a\nb\n", "x\n-a\n+b");
    one(&mut c, "a patch header in a diff", "a\n", "*** Update File: a.txt\n-a\n+b");
    one(
        &mut c,
        "a blank line after *** End of File is allowed, then a line without @@ is not",
        "a\nb\n",
        "-b\n+B\n*** End of File\n\n-a\n+A",
    );
    patch(
        &mut c,
        "in a patch: a line with no prefix",
        "a.txt",
        "a\nb\n",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\nb\n*** End Patch",
    );
    snapshot("invalid_line", &c);
}

#[test]
fn empty_hunk() {
    let mut c = Cases::default();
    one(&mut c, "a bare @@", "a\n", "@@");
    one(&mut c, "an anchor then *** End of File", "a\n", "@@ a\n*** End of File");
    snapshot("empty_hunk", &c);
}

/// Not a message: Codex's second try. A section whose old lines end with an
/// empty line that the input does not have there is sought again without it,
/// and an empty last new line goes with it; the lines found are replaced by
/// the new lines as a whole (Codex's compute_replacements).
#[test]
fn a_trailing_empty_line_is_dropped_for_the_second_try() {
    // Old lines x, "", "" are not in the input; x, "" are, at line 1. The
    // empty context line goes with the removed one: x, "" become x.
    assert_eq!(Mode::Codex.apply("x\n\ny\n", "@@\n x\n \n-").unwrap(), "x\ny\n");
    // An empty context line that the input lacks at its end: x alone is
    // found, and x, "", z are written there.
    assert_eq!(Mode::Codex.apply("x\n", "@@\n x\n \n+z").unwrap(), "x\n\nz\n");
    // Without an empty last new line, only the old side loses it.
    assert_eq!(Mode::Codex.apply("x\n\ny\n", "@@\n-x\n-\n-\n+z").unwrap(), "z\ny\n");
}
