//! Stacked anchors and an anchor's reach in Strict mode (README "Anchors and
//! their reach"), on Python-, brace- and Markdown-shaped files; and the
//! property that every anchor an ambiguity error suggests makes the diff
//! apply at the place it was suggested for.
#![cfg(not(target_arch = "wasm32"))]

use applypatch::{apply, Error, ErrorKind};
use proptest::prelude::*;

fn fail(input: &str, diff: &str) -> Error {
    match apply(input, diff) {
        Ok(out) => panic!("expected an error, got {out:?}"),
        Err(e) => e,
    }
}

#[test]
fn the_tool_descriptions_stacked_anchors_apply() {
    let input = "class A\n  def f():\n    pass\nclass B\n  def f():\n    pass\n";
    let out = apply(input, "@@ class B\n@@   def f():\n-    pass\n+    return 1").unwrap();
    assert_eq!(out, "class A\n  def f():\n    pass\nclass B\n  def f():\n    return 1\n");
}

#[test]
fn python_methods_repeated_in_three_classes() {
    let input = "class A:\n    def run(self):\n        pass\n\nclass B:\n    def run(self):\n        pass\n\n    def stop(self):\n        pass\n\nclass C:\n    def run(self):\n        pass\n";
    let out = apply(input, "@@ class C:\n@@     def run(self):\n-        pass\n+        return 3").unwrap();
    assert_eq!(out, input.replacen("class C:\n    def run(self):\n        pass", "class C:\n    def run(self):\n        return 3", 1));
    // The method is unique in the class, the section is not unique in the
    // rest of the file: the reach of the second anchor decides.
    let out = apply(input, "@@ class B:\n@@     def run(self):\n-        pass\n+        return 2").unwrap();
    assert_eq!(
        out,
        input.replacen("    def run(self):\n        pass\n\n    def stop", "    def run(self):\n        return 2\n\n    def stop", 1)
    );
}

#[test]
fn brace_functions_with_the_same_if() {
    let input = "function a() {\n  if (x) {\n    return 1;\n  }\n}\n\nfunction b()\n{\n  if (x) {\n    return 1;\n  }\n}\n";
    let out = apply(input, "@@ function b()\n@@   if (x) {\n-    return 1;\n+    return 2;").unwrap();
    assert_eq!(out, "function a() {\n  if (x) {\n    return 1;\n  }\n}\n\nfunction b()\n{\n  if (x) {\n    return 2;\n  }\n}\n");
    let out = apply(input, "@@ function a() {\n-    return 1;\n+    return 0;").unwrap();
    assert!(out.starts_with("function a() {\n  if (x) {\n    return 0;"), "{out}");
}

#[test]
fn markdown_headings_narrow_by_level() {
    let input = "# Guide\n## Install\n### Options\n- fast\n## Usage\n### Options\n- fast\n## More\n### Options\n- fast\n";
    let out = apply(input, "@@ ## Usage\n@@ ### Options\n-- fast\n+- faster").unwrap();
    assert_eq!(out, "# Guide\n## Install\n### Options\n- fast\n## Usage\n### Options\n- faster\n## More\n### Options\n- fast\n");
    // One anchor suffices when the section is unique in the heading's reach.
    let out = apply(input, "@@ ## More\n-- fast\n+- slow").unwrap();
    assert!(out.ends_with("## More\n### Options\n- slow\n"), "{out}");
}

#[test]
fn a_chain_that_still_fits_two_places_names_both() {
    let input = "class B\n  def f():\n    pass\n  def f():\n    pass\n";
    let e = fail(input, "@@ class B\n@@   def f():\n-    pass\n+    return 1");
    assert_eq!(e.kind, ErrorKind::AnchorAmbiguous);
    assert_eq!((e.diff_line, e.input_lines.as_slice()), (Some(2), &[2, 4][..]));
    assert_eq!(
        e.message,
        "The anchor '@@   def f():' (diff line 2) equals 2 lines of the input within the reach of the anchor above it (input line 1, whose reach is input lines 2-5): lines 2 and 4. An anchor must name exactly one line: anchor on a line that occurs once, such as the signature of the enclosing function or class (an anchor written right after another is looked for within that one's reach first), or use context lines instead."
    );
}

#[test]
fn a_section_ambiguous_within_the_reach_names_the_places_there() {
    let input = "def a():\n    return None\n    return None\ndef b():\n    return None\n";
    let e = fail(input, "@@ def a():\n-    return None\n+    return []");
    assert_eq!(e.kind, ErrorKind::ContextAmbiguous);
    assert_eq!(e.input_lines, [2, 3]);
    assert!(
        e.message.contains("in 2 places within the reach of the anchor at input line 1 (input lines 2-3): at input lines 2 and 3."),
        "{}",
        e.message
    );
}

#[test]
fn the_reach_is_named_by_the_anchor_line_wherever_it_is() {
    let input = "import x\ndef a():\n    return None\n    return None\ndef b():\n    return None\n";
    let e = fail(input, "@@ def a():\n-    return None\n+    return []");
    assert_eq!(e.input_lines, [3, 4]);
    assert!(
        e.message.contains("in 2 places within the reach of the anchor at input line 2 (input lines 3-4): at input lines 3 and 4."),
        "{}",
        e.message
    );
}

#[test]
fn a_heading_may_be_indented_by_up_to_three_spaces() {
    // CommonMark: `   ## Install` is a heading, and its reach ends at the next
    // heading of its level; `    ## Install` (four spaces) is code.
    let input = "# Guide\n   ## Install\n- fast\n## Usage\n- fast\n";
    let out = apply(input, "@@    ## Install\n-- fast\n+- faster").unwrap();
    assert_eq!(out, "# Guide\n   ## Install\n- faster\n## Usage\n- fast\n");
}

#[test]
fn a_stacked_anchor_outside_the_reach_must_be_unique_in_the_rest() {
    // `  helper():` is not inside `def main():` but occurs once after it.
    let input = "def main():\n    run()\n\ndef other():\n    pass\n  helper():\n    x\n";
    let out = apply(input, "@@ def main():\n@@   helper():\n-    x\n+    y").unwrap();
    assert_eq!(out, "def main():\n    run()\n\ndef other():\n    pass\n  helper():\n    y\n");
    let e = fail("a:\n b\nc\nd\nc\n", "@@ a:\n@@ c\n-d\n+e");
    assert_eq!(e.kind, ErrorKind::AnchorAmbiguous);
    assert_eq!(e.input_lines, [3, 5]);
    let e = fail("c\na:\n b\n", "@@ a:\n@@ c\n- b\n+e");
    assert_eq!(e.kind, ErrorKind::OutOfOrder);
}

#[test]
fn the_readme_examples_suggested_anchors_apply_where_named() {
    let input = "def a():\n    return None\ndef b():\n    return None\n";
    let e = fail(input, "@@\n-    return None\n+    return []");
    assert!(
        e.message.contains(
            "for example '@@ def a():' (input line 1) for the match at line 2, or '@@ def b():' (input line 3) for the match at line 4."
        ),
        "{}",
        e.message
    );
    assert_eq!(
        apply(input, "@@ def a():\n-    return None\n+    return []").unwrap(),
        "def a():\n    return []\ndef b():\n    return None\n"
    );
    assert_eq!(
        apply(input, "@@ def b():\n-    return None\n+    return []").unwrap(),
        "def a():\n    return None\ndef b():\n    return []\n"
    );
}

/// The suggestions of an ambiguity message: (anchor text, its input line,
/// the match it is for), all 1-based.
fn suggestions(message: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut rest = message;
    while let Some(i) = rest.find("'@@ ") {
        let after = &rest[i + 4..];
        let Some(j) = after.find("' (input line ") else { break };
        let text = &after[..j];
        let tail = &after[j + "' (input line ".len()..];
        let Some(k) = tail.find(") for the match at line ") else { break };
        let line: usize = tail[..k].parse().unwrap();
        let tail2 = &tail[k + ") for the match at line ".len()..];
        let digits: String = tail2.chars().take_while(|c| c.is_ascii_digit()).collect();
        out.push((text.to_string(), line, digits.parse().unwrap()));
        rest = &tail2[digits.len()..];
    }
    out
}

const VOCABULARY: &[&str] = &[
    "def a():",
    "def b():",
    "    return None",
    "    x = 1",
    "class A:",
    "    def f():",
    "        pass",
    "fn g() {",
    "  y();",
    "}",
    "## S",
    "",
    "z",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// For every ambiguity error that suggests an anchor, the diff with that
    /// anchor added (after any anchors it has) applies, at the named place.
    #[test]
    fn every_suggested_anchor_applies_where_it_was_suggested(
        picks in prop::collection::vec(0..VOCABULARY.len(), 2..30),
        start in 0usize..30,
        len in 1usize..3,
        anchor_pick in prop::option::of(0usize..30),
    ) {
        let lines: Vec<&str> = picks.iter().map(|&i| VOCABULARY[i]).collect();
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let start = start % lines.len();
        let len = len.min(lines.len() - start);
        let block = &lines[start..start + len];
        // The first line is context when there are two, the rest removed.
        let body: String = block
            .iter()
            .enumerate()
            .map(|(j, l)| if j == 0 && len > 1 { format!(" {l}\n") } else { format!("-{l}\n") })
            .collect::<String>()
            + "+NEW";
        let anchors: String = anchor_pick.filter(|&a| a < start).map(|a| format!("@@ {}\n", lines[a])).unwrap_or_default();
        let Err(e) = apply(&input, &format!("{anchors}{body}")) else { return Ok(()) };
        if e.kind != ErrorKind::ContextAmbiguous {
            return Ok(());
        }
        for (text, line, at) in suggestions(&e.message) {
            prop_assert_eq!(lines[line - 1], text.as_str());
            let fixed = format!("{anchors}@@ {text}\n{body}");
            let out = apply(&input, &fixed);
            prop_assert!(out.is_ok(), "{:?} with {:?}: {:?}", input, fixed, out);
            let s = at - 1;
            let keep = usize::from(len > 1);
            let mut want: Vec<&str> = lines[..s + keep].to_vec();
            want.push("NEW");
            want.extend_from_slice(&lines[s + len..]);
            let want: String = want.iter().map(|l| format!("{l}\n")).collect();
            prop_assert_eq!(out.unwrap(), want, "{:?} with {:?}", input, fixed);
        }
    }
}

#[test]
fn a_bare_header_after_an_anchor_says_to_remove_it() {
    let input = "class Only\n    def run():\n        pass\n";
    let e = fail(input, "@@ class Only\n@@\n-        pass\n+        return 1");
    assert_eq!((e.kind, e.diff_line), (ErrorKind::EmptyHunk, Some(2)));
    assert_eq!(
        e.message,
        "Diff line 2 is a bare '@@', which starts a new section, so the section of the anchor above it (diff line 1) has no lines. To use the anchor for the lines below, remove the bare '@@' on diff line 2: anchors written one after another narrow step by step, and the section's lines follow it."
    );
    // Following it works.
    assert_eq!(apply(input, "@@ class Only\n-        pass\n+        return 1").unwrap(), "class Only\n    def run():\n        return 1\n");
}
