//! Property tests of unified diffs: random diff-like texts never panic in
//! either mode (a panic in wasm is a trap), and a failing call returns only
//! an error; a diff written by the engine between two random texts applies
//! back to exactly the second in both modes.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::result_large_err)]

use applypatch::unified::{self, write, UnifiedMode};
use proptest::prelude::*;

fn diff_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![" a", "-a", "+b", " ", "", "-", "+", " b\r", "\\ No newline at end of file", " x y"]).prop_map(String::from),
        2 => prop::sample::select(vec![
            "@@ -1 +1 @@", "@@ -1,2 +1,2 @@", "@@ -0,0 +1 @@", "@@ -2,0 +3 @@", "@@ -3,1 +3,0 @@", "@@ -1,99999999999 +1 @@",
            "@@ ... @@", "--- a/f", "+++ b/f", "--- /dev/null", "+++ /dev/null", "diff --git a/f b/f", "diff --git a/f b/g",
            "rename from f", "rename to g", "copy from f", "copy to g", "new file mode 100755", "deleted file mode 100644",
            "old mode 100644", "new mode 100755", "Binary files a/f and b/f differ", "diff --git \"a/\\q\" \"b/\\1\"",
            "similarity index 999999999999999%", "index ..", "--- \"a/f", "+++ b/é😀\t2020",
        ])
        .prop_map(String::from),
        1 => "[ab@ +\\-\\\\]{0,6}".prop_map(String::from),
    ]
}

fn text_line() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "", " ", "x y", "é😀", "a\r"]).prop_map(String::from)
}

fn text() -> impl Strategy<Value = String> {
    (prop::collection::vec(text_line(), 0..12), any::<bool>()).prop_map(|(lines, nl)| {
        let mut s = lines.join("\n");
        if nl && !s.is_empty() {
            s.push('\n');
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_diffs_never_panic(lines in prop::collection::vec(diff_line(), 0..30), f in text(), g in text(), nl in any::<bool>()) {
        let mut diff = lines.join("\n");
        if nl {
            diff.push('\n');
        }
        let get = |p: &str| match p {
            "f" => Some(f.as_str()),
            "g" => Some(g.as_str()),
            _ => None,
        };
        let _ = unified::parse(&diff);
        for mode in [UnifiedMode::Strict, UnifiedMode::Git] {
            if let Err(e) = unified::apply(&diff, mode, get) {
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn written_diffs_apply_back(a in text(), b in text(), context in 0usize..4) {
        let diff = write::diff_files(&[("f", a.as_str())], &[("f", b.as_str())], &write::Options { context, git: true });
        prop_assert_eq!(diff.is_empty(), a == b);
        if !diff.is_empty() {
            for mode in [UnifiedMode::Strict, UnifiedMode::Git] {
                if context == 0 && mode == UnifiedMode::Git {
                    continue; // git apply needs context to place a hunk (or --unidiff-zero)
                }
                let r = unified::apply(&diff, mode, |p| (p == "f").then_some(a.as_str())).map_err(|e| TestCaseError::fail(e.message))?;
                prop_assert_eq!(r.changes[0].contents.as_deref(), Some(b.as_str()));
            }
        }
    }
}
