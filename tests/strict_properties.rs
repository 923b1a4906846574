//! Property tests of Strict mode:
//! - random inputs and diffs never panic (a panic in wasm is a trap);
//! - `changes` and `apply` agree, and an error is all a failing call returns;
//! - the LF/CRLF property of tests/fixtures/strict.json;
//! - a diff generated from a random edit of a random file applies back to
//!   exactly the edited file.
#![cfg(not(target_arch = "wasm32"))]

use applypatch::{apply, apply_batch, Mode};
use proptest::prelude::*;

/// Lines from a small vocabulary (so blocks repeat and ambiguity happens),
/// with markers and odd characters that the parser must survive.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "", "a", "b", "{", "}", "  x = 1;", "fn f() {", "  return 0;", "é😀", " lead", "trail ", "\t tab",
        ])
        .prop_map(String::from),
        1 => "[a-c ]{0,4}".prop_map(String::from),
    ]
}

fn noisy_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => line(),
        1 => prop::sample::select(vec![
            "@@", "@@ ", "@@ a", "@@ {", "@@x", "*** End of File", "***", "*** Begin Patch",
            "*** Update File: x", "\r", "a\rb", "\u{2013}", "\u{00a0}", "+", "-", " ",
        ])
        .prop_map(String::from),
        1 => "[ +\\-@*a{}\r\t]{0,6}".prop_map(String::from),
    ]
}

fn diff_line() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => line().prop_map(|l| format!(" {l}")),
        2 => line().prop_map(|l| format!("-{l}")),
        2 => line().prop_map(|l| format!("+{l}")),
        1 => line().prop_map(|l| format!("@@ {l}")),
        1 => Just("@@".to_string()),
        1 => Just("*** End of File".to_string()),
        1 => noisy_line(),
    ]
}

fn text_of(lines: &[String], sep: &str, final_newline: bool) -> String {
    let mut t = lines.join(sep);
    if final_newline && !lines.is_empty() {
        t.push_str(sep);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn never_panics(
        input in prop::collection::vec(noisy_line(), 0..12),
        sep in prop::sample::select(vec!["\n", "\r\n", "\r"]),
        final_newline: bool,
        diffs in prop::collection::vec(prop::collection::vec(diff_line(), 0..10), 1..4),
        diff_sep in prop::sample::select(vec!["\n", "\r\n"]),
        diff_final: bool,
    ) {
        let input = text_of(&input, sep, final_newline);
        let diffs: Vec<String> = diffs.iter().map(|d| text_of(d, diff_sep, diff_final)).collect();
        for d in &diffs {
            let applied = apply(&input, d);
            // `changes` is what the binding uses; it must say the same thing.
            let changes = Mode::Strict.changes(&input, d).map(|c| c.apply(&input));
            prop_assert_eq!(&applied.as_ref().ok(), &changes.as_ref().ok());
            prop_assert_eq!(applied.is_err(), changes.is_err());
            if let Err(e) = applied {
                prop_assert!(!e.message.is_empty());
            }
        }
        let batch = apply_batch(&input, &diffs);
        // A batch fails whenever one of its diffs fails on its own.
        if diffs.iter().any(|d| apply(&input, d).is_err()) {
            prop_assert!(batch.is_err());
        }
        // Codex mode: never panics either, and every line it leaves ends
        // with a line break (an empty result has no line).
        for d in &diffs {
            if let Ok(out) = Mode::Codex.apply(&input, d) {
                prop_assert!(out.is_empty() || out.ends_with('\n') || out.ends_with('\r'), "{:?}", out);
            }
        }
        let _ = Mode::Codex.apply_batch(&input, &diffs);
    }

    #[test]
    fn patches_never_panic(
        files in prop::collection::vec((prop::sample::select(vec!["a", "b", "c d", "é"]), prop::collection::vec(noisy_line(), 0..6)), 0..3),
        ops in prop::collection::vec((
            prop::sample::select(vec!["*** Add File: ", "*** Delete File: ", "*** Update File: ", "  *** Update File: ", "*** Move to: ", "*** Environment ID: ", "", "*** End Patch"]),
            prop::sample::select(vec!["a", "b", "c d", "é", "", " x"]),
            prop::collection::vec(diff_line(), 0..5),
        ), 0..4),
        wrap in prop::sample::select(vec!["", "<<'EOF'", "\n  "]),
        sep in prop::sample::select(vec!["\n", "\r\n"]),
    ) {
        let files: std::collections::BTreeMap<String, String> =
            files.iter().map(|(p, lines)| (p.to_string(), lines.join("\n"))).collect();
        let mut patch = vec![wrap.to_string(), "*** Begin Patch".to_string()];
        for (header, path, body) in &ops {
            patch.push(format!("{header}{path}"));
            patch.extend(body.iter().cloned());
        }
        patch.push("*** End Patch".to_string());
        if wrap == "<<'EOF'" {
            patch.push("EOF".to_string());
        }
        let patch = patch.join(sep);
        for mode in [Mode::Strict, Mode::Codex] {
            match applypatch::apply_files(&files, &patch, mode) {
                Ok(out) => {
                    // Every operation's path is accounted for.
                    let parsed = applypatch::parse_patch(&patch).unwrap();
                    for (k, op) in parsed.operations().iter().enumerate() {
                        if op.kind() == applypatch::OperationKind::Add {
                            let later = parsed.operations().iter().skip(k + 1).any(|o| o.path() == op.path() || o.destination() == op.path());
                            prop_assert!(later || out.contains_key(op.path()));
                        }
                    }
                }
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }
        let _ = applypatch::summary(&patch);
    }

    #[test]
    fn lf_and_crlf_agree(
        input in prop::collection::vec(line(), 1..12),
        final_newline: bool,
        diff in prop::collection::vec(diff_line(), 0..10),
    ) {
        let lf = text_of(&input, "\n", final_newline);
        let diff = diff.join("\n");
        prop_assume!(lf.contains('\n') && !lf.contains('\r') && !diff.contains('\r'));
        let crlf = lf.replace('\n', "\r\n");
        match (apply(&lf, &diff), apply(&crlf, &diff)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a.replace('\n', "\r\n"), b),
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "LF gave {:?}, CRLF gave {:?}", a, b),
        }
    }

    #[test]
    fn generated_diffs_apply_back(
        old in prop::collection::vec(line(), 0..30),
        final_newline: bool,
        ops in prop::collection::vec((0usize..40, 0usize..3, prop::collection::vec(line(), 0..3)), 0..5),
        context in 0usize..3,
        use_eof: bool,
        use_anchor: bool,
        crlf: bool,
    ) {
        // A text cannot end with an empty line and no final newline.
        // An empty text has no final newline.
        let final_newline = (final_newline || old.last().is_some_and(|l| l.is_empty())) && !old.is_empty();
        let (new, regions) = edit(&old, &ops);
        let diff = make_diff(&old, &regions, context, use_eof, use_anchor);
        let sep = if crlf { "\r\n" } else { "\n" };
        let input = text_of(&old, sep, final_newline);
        // New lines take the input's line break; LF when it has none.
        let sep = if input.contains(sep) { sep } else { "\n" };
        let mut want = new.join(sep);
        if final_newline && !new.is_empty() {
            want.push_str(sep);
        }
        let got = apply(&input, &diff);
        prop_assert_eq!(got.as_ref().ok(), Some(&want), "diff:\n{}\nerror: {:?}", diff, got.as_ref().err());
    }
}

/// A region of the old file replaced by new lines: `old[start..end]` -> `new`.
#[derive(Clone, Debug)]
struct Region {
    start: usize,
    end: usize,
    new: Vec<String>,
}

/// Applies random ops (position, lines to delete, lines to insert) to `old`,
/// merging ops that touch, and returns the new file and the regions.
fn edit(old: &[String], ops: &[(usize, usize, Vec<String>)]) -> (Vec<String>, Vec<Region>) {
    let n = old.len();
    let mut regions: Vec<Region> = ops
        .iter()
        .map(|(pos, del, ins)| {
            let start = if n == 0 { 0 } else { pos % (n + 1) };
            Region { start, end: (start + del).min(n), new: ins.clone() }
        })
        .filter(|r| r.start != r.end || !r.new.is_empty())
        .collect();
    regions.sort_by_key(|r| (r.start, r.end));
    let mut merged: Vec<Region> = Vec::new();
    for r in regions {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => {
                last.end = last.end.max(r.end);
                last.new.extend(r.new);
            }
            _ => merged.push(r),
        }
    }
    let mut new = Vec::new();
    let mut pos = 0;
    for r in &merged {
        new.extend_from_slice(&old[pos..r.start]);
        new.extend(r.new.iter().cloned());
        pos = r.end;
    }
    new.extend_from_slice(&old[pos..]);
    (new, merged)
}

/// Strict's "already applied" rule for a section whose old lines match once:
/// its new lines are there once, before the old ones (or at the same place
/// and longer).
fn looks_applied(hay: &[String], old_block: &[String], new_block: &[String]) -> bool {
    if new_block.is_empty() || old_block == new_block || occurrences(hay, new_block) != 1 {
        return false;
    }
    let at = |block: &[String]| hay.windows(block.len()).position(|w| w == block);
    match (at(new_block), at(old_block)) {
        (Some(n), Some(o)) => n < o || (n == o && new_block.len() > old_block.len()),
        _ => false,
    }
}

fn occurrences(hay: &[String], block: &[String]) -> usize {
    if block.is_empty() || block.len() > hay.len() {
        return 0;
    }
    hay.windows(block.len()).filter(|w| *w == block).count()
}

/// A Strict diff for the regions: each section gets `context` lines on each
/// side, more where needed to match exactly once after the previous section;
/// sections whose context would reach the next region are merged. With
/// `use_anchor`, a first context line that is unique in the whole file becomes
/// an `@@` anchor when the rest still matches once after it.
fn make_diff(old: &[String], regions: &[Region], context: usize, use_eof: bool, use_anchor: bool) -> String {
    let n = old.len();
    let mut out: Vec<String> = Vec::new();
    let mut cursor = 0;
    let mut i = 0;
    while i < regions.len() {
        let mut j = i; // last region of this section
        let (mut before, mut after) = (context, context);
        let (from, to, eof) = loop {
            let from = regions[i].start.saturating_sub(before).max(cursor);
            let to = (regions[j].end + after).min(n);
            if j + 1 < regions.len() && to >= regions[j + 1].start {
                j += 1;
                continue;
            }
            let mut old_block = Vec::new();
            let mut pos = from;
            for r in &regions[i..=j] {
                old_block.extend_from_slice(&old[pos..r.start]);
                old_block.extend_from_slice(&old[r.start..r.end]);
                pos = r.end;
            }
            old_block.extend_from_slice(&old[pos..to]);
            let mut new_block = Vec::new();
            let mut pos = from;
            for r in &regions[i..=j] {
                new_block.extend_from_slice(&old[pos..r.start]);
                new_block.extend(r.new.iter().cloned());
                pos = r.end;
            }
            new_block.extend_from_slice(&old[pos..to]);
            let eof = use_eof && to == n && !old_block.is_empty();
            // Strict reads a section whose new lines already stand where it
            // would put them as already applied (src/repair/applied.rs): give
            // such a section more context, as for an ambiguous one.
            let unique = n == 0
                || if eof {
                    !(new_block.len() > old_block.len() && old.ends_with(&new_block) && occurrences(&old[cursor..], &new_block) == 1)
                } else {
                    occurrences(&old[cursor..], &old_block) == 1 && !looks_applied(&old[cursor..], &old_block, &new_block)
                };
            if unique {
                break (from, to, eof);
            }
            if from > cursor {
                before += 1;
            } else if to < n {
                after += 1;
            } else {
                break (from, to, eof);
            }
        };
        let mut from = from;
        let first_is_context = from < regions[i].start;
        let anchored = use_anchor && first_is_context && !eof && occurrences(old, &old[from..from + 1]) == 1 && {
            let rest = &old[from + 1..to];
            occurrences(&old[from + 1..], rest) == 1
        };
        if anchored {
            out.push(format!("@@ {}", old[from]));
            from += 1;
        } else {
            out.push("@@".to_string());
        }
        let mut pos = from;
        for r in &regions[i..=j] {
            out.extend(old[pos..r.start].iter().map(|l| format!(" {l}")));
            out.extend(old[r.start..r.end].iter().map(|l| format!("-{l}")));
            out.extend(r.new.iter().map(|l| format!("+{l}")));
            pos = r.end;
        }
        out.extend(old[pos..to].iter().map(|l| format!(" {l}")));
        if eof {
            out.push("*** End of File".to_string());
            // Nothing may follow '*** End of File'; it is the last section.
            debug_assert!(j + 1 == regions.len());
        }
        cursor = to;
        i = j + 1;
    }
    out.join("\n")
}
