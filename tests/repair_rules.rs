//! When a repair forgives and when it refuses (issue 22): a missing
//! `*** End Patch` only where the text shows the patch is complete, and an
//! indentation difference only when every line of the section is shifted by
//! the same amount.

use std::collections::BTreeMap;

use applypatch::repair::{self, Allow, RepairKind};
use applypatch::{ErrorKind, Mode};

fn files(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
    entries.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
}

#[test]
fn a_patch_without_end_marker_or_closing_wrapper_may_be_cut_off() {
    // The reproducer: an Add File whose last line may be the half of a file.
    let e = repair::apply_files(&files(&[]), "*** Begin Patch\n*** Add File: note.txt\n+hello", Allow::ALL).unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::InvalidPatch, Some(3)));
    assert_eq!(
        e.message,
        "Invalid patch: the patch does not end with '*** End Patch' (its last line, patch line 3, is '+hello'), and nothing after its last operation shows that it is complete (no closing Markdown fence or heredoc terminator), so it may have been cut off, for example by the model's output token limit, and its last file would be written only in part. Nothing was applied. Send the whole patch again, ending with '*** End Patch'; if it is long, split it into several smaller patches."
    );
    // An update cut off, with trailing blank lines and no Begin marker either.
    let start = files(&[("a.txt", "one\ntwo\n")]);
    let e = repair::apply_files(&start, "*** Update File: a.txt\n-one\n+uno\n two\n\n", Allow::ALL).unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::InvalidPatch, Some(4)));
    assert!(
        e.message.starts_with("Invalid patch: the patch does not end with '*** End Patch' (its last line, patch line 4, is ' two')"),
        "{}",
        e.message
    );
    // A cell magic closes nothing.
    let e = repair::apply_files(&start, "%%bash\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno", Allow::ALL).unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::InvalidPatch, Some(5)));
    // Only the envelope repair is asked about: with other repairs the plain error stands.
    let e =
        repair::apply_files(&start, "*** Begin Patch\n*** Update File: a.txt\n-one\n+uno", Allow::only(&[RepairKind::Indent])).unwrap_err();
    assert_eq!(e.message, "Invalid patch: The last line of the patch must be '*** End Patch'");
}

#[test]
fn a_closing_fence_heredoc_or_quote_shows_the_patch_is_complete() {
    let start = files(&[("a.txt", "one\ntwo\n")]);
    let want = files(&[("a.txt", "uno\ntwo\n")]);
    let added = "the patch did not end with '*** End Patch'; the marker was added. Send the patch itself: '*** Begin Patch', the file operations, '*** End Patch', and nothing around it.";
    for wrapped in [
        "```diff\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\n```\n",
        "~~~\n*** Update File: a.txt\n-one\n+uno\n~~~",
        "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\nEOF\n",
        "bash -lc \"apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\nPATCH\"",
        "apply_patch '*** Begin Patch\n*** Update File: a.txt\n-one\n+uno'",
    ] {
        let r = repair::apply_files(&start, wrapped, Allow::ALL).unwrap_or_else(|e| panic!("{wrapped}: {}", e.message));
        assert_eq!(r.value, want, "{wrapped}");
        assert!(r.repairs.iter().any(|r| r.kind == RepairKind::Envelope && r.message == added), "{wrapped}: {:?}", r.repairs);
    }
    // A fence opened but never closed is no evidence: the patch is refused.
    let e = repair::apply_files(&start, "```diff\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno", Allow::ALL).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidPatch);
    assert_eq!(
        applypatch::apply_files(&start, "*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\n*** End Patch", Mode::Strict).unwrap(),
        want
    );
}

#[test]
fn codex_mode_keeps_its_own_envelope_rules() {
    // No envelope repair in Codex mode: its parser's verdicts, unchanged.
    let start = files(&[("a.txt", "one\n")]);
    let e = applypatch::apply_files(&start, "*** Begin Patch\n*** Update File: a.txt\n-one\n+uno", Mode::Codex).unwrap_err();
    assert_eq!(e.message, "Invalid patch: The last line of the patch must be '*** End Patch'");
    let e = applypatch::apply_files(&start, "```\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\n*** End Patch\n```", Mode::Codex)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidPatch);
}

/// A test file of Express's shape: the closing line of an inner block
/// (`  })`) and of the outer one (`})`).
const EXPRESS: &str = "describe('res', function(){\n  it('should work', function(done){\n    done()\n  })\n})\n";

#[test]
fn one_line_indented_differently_among_exact_ones_is_another_line() {
    // The model lost the context line `  })`: its lone `})` would match the
    // inner block's `  })`, and the new block would go inside the outer one.
    let diff = "@@\n     done()\n })\n+\n+describe('other', function(){\n+})";
    let e = repair::apply(EXPRESS, diff, Allow::ALL).unwrap_err();
    assert_eq!((e.kind, e.diff_line), (ErrorKind::ContextNotFound, Some(3)));
    assert_eq!(
        e.message,
        "Section 1 (diff lines 1-6): its context and removed lines were not found in the input. The closest place is input line 3, where 1 of 2 lines are equal:\n  diff line 3 expects '})'\n  input line 4 is    '  })'  (only whitespace differs)\nStrict mode compares lines byte for byte. Copy the lines exactly as the input has them (re-read the file if it may have changed).\nRepair: ignoring indentation, it matches at input line 3, but its lines are not all shifted by the same amount there (a line that matches exactly is a shift of 0), so it was not repaired: one line indented differently among lines that match is another line, not drift."
    );
    // With the line it lost, the diff applies in Strict, at the right place.
    let whole = "@@\n     done()\n   })\n })\n+\n+describe('other', function(){\n+})";
    assert_eq!(
        applypatch::apply(EXPRESS, whole).unwrap(),
        "describe('res', function(){\n  it('should work', function(done){\n    done()\n  })\n})\n\ndescribe('other', function(){\n})\n"
    );
    // Every line shifted by the same amount is drift: repaired.
    let shifted = "@@\n   done()\n })\n+  assert(true)";
    let r = repair::apply(EXPRESS, shifted, Allow::ALL).unwrap();
    assert_eq!(r.value, "describe('res', function(){\n  it('should work', function(done){\n    done()\n  })\n    assert(true)\n})\n");
    assert_eq!(r.repairs.len(), 1);
    assert_eq!(
        r.repairs[0].message,
        "Section 1 (diff lines 1-4): 2 context or removed lines differ from the input only in indentation (diff lines 2 and 3, input lines 3 and 4); it matched once, at input line 3, and the input's own text was kept. Also, every matched line is indented 2 spaces more in the input, so the added lines were indented 2 spaces more too."
    );
}

/// Blank lines inside the wrapper are skipped, and each envelope repair
/// names the line of the patch as given where it applies: the fence, and
/// the line after the last line of the patch for the End marker added.
#[test]
fn envelope_repairs_name_their_lines() {
    let start = files(&[("a.txt", "one\ntwo\n")]);
    let wrapped = "```diff\n\n\n*** Begin Patch\n*** Update File: a.txt\n-one\n+uno\n\n```\n";
    let r = repair::apply_files(&start, wrapped, Allow::ALL).unwrap();
    assert_eq!(r.value, files(&[("a.txt", "uno\ntwo\n")]));
    let lines: Vec<(RepairKind, Option<usize>)> = r.repairs.iter().map(|r| (r.kind, r.diff_line)).collect();
    assert_eq!(lines, [(RepairKind::Envelope, Some(1)), (RepairKind::Envelope, Some(8))], "{:?}", r.repairs);
}

/// Unicode punctuation forgiven: the report says which slip it was.
#[test]
fn a_unicode_repair_says_so() {
    let r = repair::apply("say \u{201c}hi\u{201d} \u{2014} twice\nend\n", "@@\n say \"hi\" - twice\n+again", Allow::ALL).unwrap();
    assert_eq!(r.value, "say \u{201c}hi\u{201d} \u{2014} twice\nagain\nend\n");
    let found: Vec<(RepairKind, &str)> = r.repairs.iter().map(|r| (r.kind, r.message.as_str())).collect();
    assert_eq!(
        found,
        [(RepairKind::Unicode, "Section 1 (diff lines 1-3): 1 context or removed line differs from the input only in Unicode punctuation (dashes, quotes or spaces written as their ASCII look-alikes, or the reverse) (diff line 2, input line 1); it matched once, at input line 1, and the input's own text was kept.")]
    );
}

/// A section with one non-blank matched line: its indentation is repaired,
/// but one line is no evidence of how the added lines should be shifted,
/// so they stay as the diff wrote them (and the report says nothing more).
#[test]
fn one_matched_line_does_not_shift_the_added_lines() {
    let r = repair::apply("fn main() {\n    run();\n}\n", "@@\n run();\n+stop();", Allow::only(&[RepairKind::Indent])).unwrap();
    assert_eq!(r.value, "fn main() {\n    run();\nstop();\n}\n");
    assert_eq!(r.repairs.len(), 1);
    assert_eq!(
        r.repairs[0].message,
        "Section 1 (diff lines 1-3): 1 context or removed line differs from the input only in indentation (diff line 2, input line 2); it matched once, at input line 2, and the input's own text was kept."
    );
    // Listing a kind twice allows it as once.
    let twice =
        repair::apply("fn main() {\n    run();\n}\n", "@@\n run();\n+stop();", Allow::only(&[RepairKind::Indent, RepairKind::Indent]));
    assert_eq!(twice.unwrap().value, r.value);
}

// Property tests run on the host only (proptest does not build for wasm32).
#[cfg(not(target_arch = "wasm32"))]
mod property {
    use applypatch::repair::{self, Allow, RepairKind};
    use proptest::prelude::*;

    const TOKENS: &[&str] = &["})", "}", "x()", "y()", "if (a) {", "return"];

    fn width(s: &str) -> usize {
        s.len() - s.trim_start().len()
    }

    /// The places where every line of `old`, shifted by one amount, is the
    /// input's line (the exactly matching ones fix that amount at 0).
    fn uniform_places(input: &[String], old: &[String]) -> Vec<usize> {
        (0..=input.len().saturating_sub(old.len()))
            .filter(|&p| {
                let shifts: Vec<isize> = old
                    .iter()
                    .zip(&input[p..p + old.len()])
                    .map(|(d, f)| if d.trim() == f.trim() { Some(width(f) as isize - width(d) as isize) } else { None })
                    .collect::<Option<_>>()
                    .unwrap_or_default();
                shifts.len() == old.len() && shifts.windows(2).all(|w| w[0] == w[1])
            })
            .collect()
    }

    fn line() -> impl Strategy<Value = String> {
        (0..3usize, 0..TOKENS.len()).prop_map(|(i, t)| format!("{}{}", "  ".repeat(i), TOKENS[t]))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A repaired section lands only where the lines of the section that
        /// needed no repair would put it too: where every line is the
        /// input's line shifted by one common amount.
        #[test]
        fn an_indent_repair_lands_only_where_one_shift_fits_every_line(
            input in prop::collection::vec(line(), 3..24),
            start in 0usize..24,
            len in 2usize..5,
            shifts in prop::collection::vec(prop_oneof![3 => Just(0isize), 1 => Just(2), 1 => Just(-2)], 5),
            drop in prop::option::of(0usize..5),
            removed in 0usize..5,
        ) {
            let start = start % input.len();
            let end = (start + len).min(input.len());
            let mut old: Vec<String> = input[start..end]
                .iter()
                .zip(&shifts)
                .map(|(l, &s)| {
                    let w = width(l) as isize;
                    format!("{}{}", " ".repeat((w + s).max(0) as usize), l.trim_start())
                })
                .collect();
            if let Some(d) = drop.filter(|&d| d < old.len() && old.len() > 1) {
                old.remove(d);
            }
            let removed = removed % old.len();
            let mut diff = String::from("@@");
            for (i, l) in old.iter().enumerate() {
                diff.push_str(&format!("\n{}{l}", if i == removed { '-' } else { ' ' }));
                if i == removed {
                    diff.push_str("\n+NEW");
                }
            }
            let text = format!("{}\n", input.join("\n"));
            if let Ok(r) = repair::apply(&text, &diff, Allow::only(&[RepairKind::Indent])) {
                let out: Vec<&str> = r.value.lines().collect();
                let places = uniform_places(&input, &old);
                let landed = places.iter().any(|&p| {
                    let at = p + removed;
                    out.len() == input.len()
                        && out.get(at).is_some_and(|l| l.trim() == "NEW")
                        && out.iter().enumerate().all(|(i, l)| i == at || *l == input[i])
                });
                prop_assert!(landed, "diff {diff:?} on {text:?} gave {:?}; places where one shift fits: {places:?}", r.value);
            }
        }
    }
}

/// `Mode::changes_with`: the changes of one diff with the repairs allowed,
/// reported in the context (Strict), as `repair::apply` makes them.
#[test]
fn changes_with_repairs_are_those_apply_makes() {
    let (input, diff) = ("fn main() {\n    run();\n}\n", "@@\n run();\n+stop();");
    let mut ctx = repair::Ctx::new(Allow::ALL);
    let changes = Mode::Strict.changes_with(input, diff, &mut ctx).unwrap();
    let whole = repair::apply(input, diff, Allow::ALL).unwrap();
    assert_eq!(changes.apply(input), whole.value);
    assert_eq!(ctx.repairs, whole.repairs);
    let mut none = repair::Ctx::new(Allow::ALL);
    assert_eq!(Mode::Codex.changes_with(input, diff, &mut none).unwrap().apply(input), "fn main() {\n    run();\nstop();\n}\n");
}
