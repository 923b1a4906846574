//! The whole error of every kind a `*** Begin Patch` patch or a Responses API
//! operation can fail with (envelope, headers, empty updates and patches,
//! missing files, bad operations, and Strict errors located in the patch),
//! pinned as snapshots (tests/snapshots/patch_messages__<code>.snap). After an
//! intended change: `INSTA_UPDATE=always cargo test --test patch_messages`,
//! then review.

// The snapshots (insta) and the per-case harness (libtest-mimic) run on the
// host only; `wasm-pack test` builds every test target for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use applypatch::{apply_file_operation, apply_file_operation_among, apply_files, create_file, summary, FileOperation, Mode};
use common::Cases;
use std::collections::BTreeMap;

fn files() -> BTreeMap<String, String> {
    BTreeMap::from([("a.txt".to_string(), "one\ntwo\n".to_string())])
}

fn both(cases: &mut Cases, title: &str, patch: &str) {
    for mode in [Mode::Strict, Mode::Codex] {
        cases.add(&format!("{title} ({mode:?})"), &[("a.txt", "one\ntwo\n"), ("patch", patch)], apply_files(&files(), patch, mode));
    }
}

fn strict(cases: &mut Cases, title: &str, patch: &str) {
    cases.add(title, &[("a.txt", "one\ntwo\n"), ("patch", patch)], apply_files(&files(), patch, Mode::Strict));
}

fn operation(cases: &mut Cases, title: &str, op: FileOperation) {
    let files = files();
    let result = apply_file_operation(&op, Mode::Strict, |p| files.get(p).map(String::as_str));
    cases.add(&format!("{title}: {op:?}"), &[("a.txt", "one\ntwo\n")], result);
}

fn snapshot(kind: &str, cases: &Cases) {
    insta::assert_snapshot!(kind, cases.all_of(kind));
}

#[test]
fn invalid_patch() {
    let mut c = Cases::default();
    both(&mut c, "no *** Begin Patch", "*** Update File: a.txt\n-one\n+1\n*** End Patch");
    both(&mut c, "no *** End Patch", "*** Begin Patch\n*** Update File: a.txt\n-one\n+1");
    both(&mut c, "a bare V4A diff", "@@\n-one\n+1");
    both(&mut c, "an empty *** Environment ID:", "*** Begin Patch\n*** Environment ID:\n*** Update File: a.txt\n-one\n+1\n*** End Patch");
    strict(&mut c, "wrapped in JSON", "{\"patch\": \"*** Begin Patch\\n*** End Patch\"}");
    strict(&mut c, "wrapped in a Markdown fence", "```diff\n*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n```");
    strict(&mut c, "a misspelt Begin Patch", "*** begin patch\n*** Delete File: a.txt\n*** End Patch");
    strict(&mut c, "after blank lines: diff_line counts the text as given", "\n\n*** Delete File: a.txt\n*** End Patch");
    strict(
        &mut c,
        "an early *** End Patch",
        "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n*** Delete File: b.txt\n*** End Patch",
    );
    strict(&mut c, "a heredoc whose inside has no *** End Patch", "<<'EOF'\n*** Begin Patch\n*** Delete File: a.txt\nEOF");
    strict(
        &mut c,
        "two Environment IDs",
        "*** Begin Patch\n*** Environment ID: one\n*** Environment ID: two\n*** Delete File: a.txt\n*** End Patch",
    );
    strict(&mut c, "an empty patch text", "");
    c.add("summary of a diff", &[("patch", "-one\n+1")], summary("-one\n+1"));
    snapshot("invalid_patch", &c);
}

#[test]
fn invalid_header() {
    let mut c = Cases::default();
    both(&mut c, "a misspelt header", "*** Begin Patch\n*** Modify File: a.txt\n-one\n+1\n*** End Patch");
    both(&mut c, "a diff line before any header", "*** Begin Patch\n-one\n+1\n*** End Patch");
    strict(
        &mut c,
        "an Environment ID after an operation",
        "*** Begin Patch\n*** Delete File: a.txt\n*** Environment ID: one\n*** End Patch",
    );
    strict(
        &mut c,
        "in a heredoc after blank lines: the message counts from *** Begin Patch, diff_line the text as given",
        "\n\n<<'EOF'\n*** Begin Patch\n*** Modify File: a.txt\n*** End Patch\nEOF\n",
    );
    both(&mut c, "an Add File line without +", "*** Begin Patch\n*** Add File: b.txt\nhello\n*** End Patch");
    snapshot("invalid_header", &c);
}

#[test]
fn empty_update() {
    let mut c = Cases::default();
    both(&mut c, "an update with no body", "*** Begin Patch\n*** Update File: a.txt\n*** End Patch");
    both(&mut c, "an update with only a move", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch");
    snapshot("empty_update", &c);
}

#[test]
fn empty_patch() {
    let mut c = Cases::default();
    both(&mut c, "no operations", "*** Begin Patch\n*** End Patch");
    c.add("summary of no operations", &[("patch", "*** Begin Patch\n*** End Patch")], summary("*** Begin Patch\n*** End Patch"));
    snapshot("empty_patch", &c);
}

#[test]
fn file_not_found() {
    let mut c = Cases::default();
    both(&mut c, "update of a missing file", "*** Begin Patch\n*** Update File: b.txt\n-one\n+1\n*** End Patch");
    both(&mut c, "delete of a missing file", "*** Begin Patch\n*** Delete File: b.txt\n*** End Patch");
    both(&mut c, "update after a delete", "*** Begin Patch\n*** Delete File: a.txt\n*** Update File: a.txt\n-one\n+1\n*** End Patch");
    operation(&mut c, "an operation", FileOperation::Delete { path: "b.txt" });
    snapshot("file_not_found", &c);
}

#[test]
fn invalid_operation() {
    let mut c = Cases::default();
    operation(&mut c, "an empty path", FileOperation::Delete { path: "" });
    operation(&mut c, "an empty move_to", FileOperation::Update { path: "a.txt", diff: "-one\n+1", move_to: Some("") });
    snapshot("invalid_operation", &c);
}

#[test]
fn strict_errors_inside_a_patch() {
    let mut c = Cases::default();
    strict(
        &mut c,
        "context not found: the path, patch lines",
        "*** Begin Patch\n*** Add File: b.txt\n+b\n*** Update File: a.txt\n@@\n-uno\n+1\n*** End Patch",
    );
    strict(&mut c, "an ambiguous context", "*** Begin Patch\n*** Update File: a.txt\n+zero\n*** End Patch");
    strict(
        &mut c,
        "a blank line before the next header",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n\n*** Delete File: a.txt\n*** End Patch",
    );
    strict(&mut c, "an invalid line", "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n\tbad\n*** End Patch");
    let classes = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 2\n";
    let patch = "*** Begin Patch\n*** Update File: m.py\n@@     def f(self):\n-        return 2\n+        return 3\n*** End Patch";
    let files = BTreeMap::from([("m.py".to_string(), classes.to_string())]);
    c.add(
        "an ambiguous anchor: stacked anchors suggested",
        &[("m.py", classes), ("patch", patch)],
        apply_files(&files, patch, Mode::Strict),
    );
    operation(&mut c, "an update operation", FileOperation::Update { path: "a.txt", diff: "@@\n-uno\n+1", move_to: None });
    c.add("a create diff line without +", &[("diff", "+a\nb")], create_file("+a\nb"));
    insta::assert_snapshot!("strict_in_patch", c.text());
}

#[test]
fn already_applied() {
    let mut c = Cases::default();
    operation(&mut c, "a create_file equal to the file", FileOperation::Create { path: "a.txt", diff: "+one\n+two" });
    operation(
        &mut c,
        "an update_file whose new lines are there",
        FileOperation::Update { path: "a.txt", diff: "-uno\n+one", move_to: None },
    );
    strict(&mut c, "an Add File equal to the file", "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** End Patch");
    snapshot("already_applied", &c);
}

/// Not a message: the last line only has to read `*** End Patch` once trimmed
/// (as Codex checks it), and an update's body stops before it even when it is
/// indented.
#[test]
fn an_indented_end_patch_still_ends_the_last_update() {
    for mode in [Mode::Strict, Mode::Codex] {
        let out = apply_files(&files(), "*** Begin Patch\n*** Update File: a.txt\n-one\n+1\n  *** End Patch", mode);
        assert_eq!(out.unwrap(), BTreeMap::from([("a.txt".to_string(), "1\ntwo\n".to_string())]), "{mode:?}");
    }
}

/// A Delete File of a missing path beside other operations (Strict): an error
/// when the rest of the patch changes something and nothing is applied yet; a
/// part of "already applied" when every other operation is already there.
#[test]
fn a_missing_delete_beside_other_operations() {
    let mut c = Cases::default();
    strict(
        &mut c,
        "beside a fresh update",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Delete File: gone.txt\n*** End Patch",
    );
    strict(
        &mut c,
        "beside an Add File equal to the file",
        "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Delete File: gone.txt\n*** End Patch",
    );
    strict(
        &mut c,
        "beside an update already applied",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-uno\n+one\n*** Delete File: gone.txt\n*** End Patch",
    );
    insta::assert_snapshot!("missing_delete_beside", c.text());
}

/// A path with no file in a map that has paths near it (issues 29 and 22):
/// the update lists them; a Delete is refused and lists them rather than
/// being taken as already applied; with no path near, a Delete of a path
/// with no file is already applied.
#[test]
fn near_paths_of_a_missing_file() {
    let map = [("src/utils.py", "def f():\n    return 1\n"), ("lib/utils.py", "x = 1\n"), ("README.md", "# r\n")];
    let files: BTreeMap<String, String> = map.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect();
    let mut c = Cases::default();
    let mut case = |title: &str, patch: &str| {
        let mut shown: Vec<(&str, &str)> = map.to_vec();
        shown.push(("patch", patch));
        c.add(title, &shown, apply_files(&files, patch, Mode::Strict));
    };
    case("an update of a misspelt path", "*** Begin Patch\n*** Update File: src/utlis.py\n@@\n-    return 1\n+    return 2\n*** End Patch");
    case("an update in the wrong directory", "*** Begin Patch\n*** Update File: utils.py\n@@\n-x = 1\n+x = 2\n*** End Patch");
    case("a delete of a misspelt path", "*** Begin Patch\n*** Delete File: src/utlis.py\n*** End Patch");
    case("a delete of a path nothing is near (already gone)", "*** Begin Patch\n*** Delete File: docs/old-notes.txt\n*** End Patch");
    insta::assert_snapshot!("near_paths", c.text());
}

/// How far a near path may be: one edit for a name of up to 5 characters,
/// two up to 12, three past that; or the same file name in another
/// directory.
#[test]
fn near_paths_by_length() {
    use applypatch::near::near_paths;
    assert_eq!(near_paths("a.rs", &["b.ts", "a.rb", "x/a.rs"]), ["a.rb", "x/a.rs"]);
    assert_eq!(near_paths("src/a.py", &["src/abc.py", "src/abcd.py"]), ["src/abc.py"]);
    assert_eq!(
        near_paths("src/lib/main.rs", &["src/lob/moin.rs", "src/lb/man.rx", "srx/lob/moin.rx"]),
        ["src/lob/moin.rs", "src/lb/man.rx"]
    );
}

/// A Responses API operation on a path with no file, knowing the files'
/// paths (`apply_file_operation_among`: what `applyOperation` does over a
/// complete map, and over a listed directory): the same rules as a patch.
#[test]
fn near_paths_of_a_missing_file_for_an_operation() {
    let map = [("src/utils.py", "def f():\n    return 1\n"), ("lib/utils.py", "x = 1\n"), ("README.md", "# r\n")];
    let files: BTreeMap<String, String> = map.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect();
    let known: Vec<&str> = files.keys().map(String::as_str).collect();
    let mut c = Cases::default();
    let mut case = |op: FileOperation, allow: applypatch::repair::Allow| {
        let mut ctx = applypatch::repair::Ctx::new(allow);
        let result = apply_file_operation_among(&op, Mode::Strict, &mut ctx, |p| files.get(p).map(String::as_str), Some(&known));
        let allowed = if allow.is_none() { "" } else { ", the already-applied repair allowed" };
        c.add(&format!("{op:?}{allowed}"), &map, result);
    };
    let none = applypatch::repair::Allow::NONE;
    case(FileOperation::Update { path: "src/utlis.py", diff: "@@\n-    return 1\n+    return 2\n", move_to: None }, none);
    case(FileOperation::Delete { path: "src/utlis.py" }, none);
    case(FileOperation::Delete { path: "docs/old-notes.txt" }, none);
    let allow = applypatch::repair::Allow::only(&[applypatch::repair::RepairKind::AlreadyApplied]);
    case(FileOperation::Delete { path: "src/utlis.py" }, allow);
    insta::assert_snapshot!("near_paths_operation", c.text());
    // With the repair, a delete of a path nothing is near is a reported no-op.
    let mut ctx = applypatch::repair::Ctx::new(allow);
    let op = FileOperation::Delete { path: "docs/old-notes.txt" };
    let changes = apply_file_operation_among(&op, Mode::Strict, &mut ctx, |p| files.get(p).map(String::as_str), Some(&known)).unwrap();
    assert!(changes.is_empty(), "{changes:?}");
    let said: Vec<&str> = ctx.repairs.iter().map(|r| r.message.as_str()).collect();
    assert_eq!(said, ["the delete_file of docs/old-notes.txt is already applied (the file is already gone, and no path of the files is near this one): nothing was changed. Do not send it again."]);
}

/// Following the advice of those messages works: the listed path, written
/// instead, applies; `*** Add File:` creates the file.
#[test]
fn the_advice_for_a_missing_file_works() {
    let files = BTreeMap::from([("src/utils.py".to_string(), "def f():\n    return 1\n".to_string())]);
    let update = "*** Begin Patch\n*** Update File: src/utlis.py\n@@\n-    return 1\n+    return 2\n*** End Patch";
    let e = apply_files(&files, update, Mode::Strict).unwrap_err();
    let listed = e.message.split("similar paths: ").nth(1).and_then(|r| r.split(". ").next()).unwrap();
    assert_eq!(listed, "src/utils.py");
    let out = apply_files(&files, &update.replace("src/utlis.py", listed), Mode::Strict).unwrap();
    assert_eq!(out["src/utils.py"], "def f():\n    return 2\n");
    let add = "*** Begin Patch\n*** Add File: src/utlis.py\n+x\n*** End Patch";
    assert!(e.message.contains("'*** Add File: src/utlis.py'"));
    assert_eq!(apply_files(&files, add, Mode::Strict).unwrap()["src/utlis.py"], "x\n");
    let delete = "*** Begin Patch\n*** Delete File: src/utlis.py\n*** End Patch";
    let e = apply_files(&files, delete, Mode::Strict).unwrap_err();
    assert!(e.message.contains("(src/utils.py)"), "{}", e.message);
    assert!(apply_files(&files, &delete.replace("src/utlis.py", "src/utils.py"), Mode::Strict).unwrap().is_empty());
}

/// A Delete of a path with no file after an update that applies: with the
/// files' paths unknown (a lookup), the error names the Delete (its path and
/// its place in the patch), not the update; over a map, where nothing is
/// near that path, the Delete is taken as done and the patch as partly
/// applied. And an error prints as its message.
#[test]
fn a_delete_of_a_gone_file_after_a_fresh_update_is_named() {
    let patch = "*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\n*** Delete File: docs/old-notes.txt\n*** End Patch";
    let e = applypatch::apply_patch(patch, Mode::Strict, |p| (p == "a.txt").then_some("one\n")).unwrap_err();
    assert_eq!((e.kind, e.path.as_deref(), e.operation), (applypatch::ErrorKind::FileNotFound, Some("docs/old-notes.txt"), Some(1)));
    assert_eq!(
        e.message,
        "docs/old-notes.txt: there is no file at this path to delete (it may be deleted already, or the path misspelt). Nothing was applied. Check the path, or leave out '*** Delete File: docs/old-notes.txt' and send the rest again."
    );
    assert_eq!(e.to_string(), e.message);
    let start: BTreeMap<String, String> = [("a.txt".to_string(), "one\n".to_string())].into();
    let e = apply_files(&start, patch, Mode::Strict).unwrap_err();
    assert_eq!(
        e.message,
        "Part of the patch is already applied: operation 2 (delete docs/old-notes.txt, patch line 5) is already done, but operation 1 (update a.txt, patch line 2) is not. Nothing was changed. Re-read the files, then send a patch with only the changes they do not have yet."
    );
}
