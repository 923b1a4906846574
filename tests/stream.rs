//! A diff pushed in pieces (`applypatch::stream`) ends exactly as the one-shot
//! call (`Mode::changes`), whatever the cuts: the corpora of this repository
//! (the Strict vectors, the Agents SDK's applyDiff cases, the repairs sample,
//! and the update bodies of the Codex parity patches over their files), each
//! also with CRLF line breaks, in both modes, pushed whole, one character at
//! a time, and in random pieces. The first error event is the one-shot
//! error of the text up to the line where it was found, and no event
//! follows it.

// The corpora are read from tests/fixtures with the host's file system;
// `wasm-pack test` builds every test target for wasm32, where this file is empty.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use applypatch::stream::{DiffStream, Event};
use applypatch::{Mode, Operation};
use serde_json::Value;

struct Case {
    name: String,
    input: String,
    diff: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let strict: Value = common::fixture("strict.json");
    for c in strict["apply"].as_array().into_iter().flatten() {
        out.push(Case { name: format!("strict.json {}", c["name"]), input: str_of(&c["input"]), diff: str_of(&c["diff"]) });
    }
    let agents: Value = common::fixture("agents-applyDiff.cases.json");
    for c in agents.as_array().into_iter().flatten().filter(|c| c["diff"].is_string()) {
        out.push(Case { name: format!("agents {}", c["name"]), input: str_of(&c["input"]), diff: str_of(&c["diff"]) });
    }
    let repairs: Value = common::fixture("repairs-sample.json");
    for (i, c) in repairs.as_array().into_iter().flatten().enumerate() {
        out.push(Case { name: format!("repairs {i} {}", c["kind"]), input: str_of(&c["input"]), diff: str_of(&c["diff"]) });
    }
    let parity: Value = common::fixture("codex-parity.json");
    for c in parity["cases"].as_array().into_iter().flatten() {
        let Ok(patch) = applypatch::parse_patch(c["patch"].as_str().unwrap_or("")) else { continue };
        for op in patch.operations() {
            let Operation::Update { path, diff, .. } = op else { continue };
            let input = c["files"][path.as_str()].as_str().unwrap_or("").to_string();
            out.push(Case { name: format!("parity {} {path}", c["name"]), input, diff: diff.clone() });
        }
    }
    let crlf: Vec<Case> = out
        .iter()
        .map(|c| Case { name: format!("{} (CRLF)", c.name), input: c.input.replace('\n', "\r\n"), diff: c.diff.replace('\n', "\r\n") })
        .collect();
    out.extend(crlf);
    assert!(out.len() > 400, "only {} cases", out.len());
    out
}

fn str_of(v: &Value) -> String {
    v.as_str().unwrap_or("").to_string()
}

/// A small deterministic generator (xorshift), for the random cuts.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Pieces of `text` cut at char boundaries: one char each, or random sizes
/// (0 to 12 bytes: empty pushes too).
fn pieces<'t>(text: &'t str, rng: Option<&mut Rng>) -> Vec<&'t str> {
    let mut cuts: Vec<usize> = Vec::new();
    match rng {
        None => cuts.extend(text.char_indices().map(|(i, _)| i).skip(1)),
        Some(rng) => {
            let mut at = 0;
            while at < text.len() {
                at += rng.below(13);
                while !text.is_char_boundary(at.min(text.len())) {
                    at += 1;
                }
                cuts.push(at.min(text.len()));
            }
        }
    }
    let mut out = Vec::new();
    let mut from = 0;
    for c in cuts {
        if c >= from {
            out.push(&text[from..c]);
            from = c;
        }
    }
    out.push(&text[from..]);
    out
}

/// The first `lines` lines of a diff, with their line breaks.
fn first_lines(diff: &str, lines: usize) -> &str {
    let mut end = 0;
    for _ in 0..lines {
        match diff[end..].find('\n') {
            Some(i) => end += i + 1,
            None => return diff,
        }
    }
    &diff[..end]
}

/// Streams `case` in `pieces`; checks the events and the end against the
/// one-shot call.
fn check(case: &Case, mode: Mode, pieces: &[&str], how: &str) -> Result<(), String> {
    let whole = mode.changes(&case.input, &case.diff).map(|c| c.apply(&case.input));
    let mut s = DiffStream::new(case.input.clone(), mode);
    let mut events = Vec::new();
    for p in pieces {
        events.extend(s.push(p));
    }
    let through = s.failed_through();
    let preview = s.preview();
    let end = s.end();
    let fail = |what: String| Err(format!("{} [{mode:?}, {how}]: {what}", case.name));
    if end != whole {
        return fail(format!("end {end:?}\none-shot {whole:?}"));
    }
    let errors: Vec<usize> = events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Error(_))).map(|(i, _)| i).collect();
    match (errors.as_slice(), through) {
        ([], None) => {}
        ([i], Some(n)) if *i + 1 == events.len() => {
            let Some(Event::Error(e)) = events.last() else { return fail("no error".into()) };
            let prefix = mode.changes(&case.input, first_lines(&case.diff, n)).map(|c| c.apply(&case.input));
            if prefix != Err(e.clone()) {
                return fail(format!("error event {e:?}\none-shot of the first {n} lines {prefix:?}"));
            }
        }
        _ => return fail(format!("error events at {errors:?} of {}, failed through {through:?}", events.len())),
    }
    // The sections placed, in order, and (Strict) their splices make the
    // preview.
    let placed: Vec<_> = events.iter().filter_map(|e| if let Event::Section(p) = e { Some(p) } else { None }).collect();
    if placed.windows(2).any(|w| w[0].index >= w[1].index) {
        return fail("sections out of order".into());
    }
    if mode == Mode::Strict && through.is_none() {
        {
            let mut splices: Vec<_> = placed.iter().flat_map(|p| p.splices.iter().cloned()).collect();
            splices.sort_by_key(|s| s.start);
            let mut out = String::new();
            let mut pos = 0;
            for sp in &splices {
                out.push_str(&case.input[pos..sp.start]);
                out.push_str(&sp.text);
                pos = sp.end;
            }
            out.push_str(&case.input[pos..]);
            if out != preview {
                return fail(format!("sections' splices give {out:?}, preview {preview:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn every_chunking_ends_as_the_one_shot_call() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    let mut runs = 0;
    for case in cases() {
        for &mode in Mode::ALL {
            let mut ways: Vec<(Vec<&str>, String)> =
                vec![(vec![case.diff.as_str()], "whole".into()), (pieces(&case.diff, None), "one char at a time".into())];
            for round in 0..4 {
                ways.push((pieces(&case.diff, Some(&mut rng)), format!("random pieces {round}")));
            }
            for (p, how) in ways {
                runs += 1;
                if let Err(e) = check(&case, mode, &p, &how) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs differ:\n{}",
        failures.len(),
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n\n")
    );
}

#[test]
fn a_section_is_placed_when_the_next_line_opens_another() {
    let mut s = DiffStream::new("a\nb\nc\nd\n", Mode::Strict);
    assert_eq!(s.push("@@\n a\n-b\n+B\n"), []);
    let events = s.push("@@\n");
    let [Event::Section(p)] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!((p.index, p.diff_line, p.input_line), (0, 1, 1));
    assert_eq!(p.splices, [applypatch::Splice { start: 2, end: 3, text: "B".into() }]);
    assert_eq!(s.preview(), "a\nB\nc\nd\n");
    assert_eq!(s.push("-d\n+D"), []);
    assert_eq!(s.end().unwrap(), "a\nB\nc\nD\n");
}

#[test]
fn the_first_error_comes_with_its_section_and_nothing_after_it() {
    let mut s = DiffStream::new("a\nb\n", Mode::Strict);
    assert_eq!(s.push("@@\n-x\n+y\n"), []);
    let events = s.push("@@\n-b\n");
    let [Event::Error(e)] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!(e.kind, applypatch::ErrorKind::ContextNotFound);
    assert_eq!(s.failed_through(), Some(3));
    assert_eq!(s.push("+c\n@@\n"), []);
    // The end answers for everything pushed: here a bare `@@` with no lines.
    assert_eq!(s.end().unwrap_err().kind, applypatch::ErrorKind::EmptyHunk);
}

#[test]
fn an_ambiguous_section_is_decided_on_the_whole_section() {
    // `x` is twice in the input; with its next line, once.
    let mut s = DiffStream::new("x\n1\nx\n2\n", Mode::Strict);
    assert_eq!(s.push("@@\n-x\n"), []);
    assert_eq!(s.push(" 2\n"), []);
    let events = s.push("*** End of File\n");
    let [Event::Section(p)] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!(p.input_line, 3);
    assert_eq!(s.end().unwrap(), "x\n1\n2\n");
}

#[test]
fn input_errors_come_at_the_first_push() {
    let mut s = DiffStream::new("a\nb\r\n", Mode::Strict);
    let events = s.push("");
    assert!(matches!(events.as_slice(), [Event::Error(e)] if e.kind == applypatch::ErrorKind::MixedNewlines), "{events:?}");
    assert_eq!(s.failed_through(), Some(0));
}

/// A `*** Begin Patch` patch over files, pushed in pieces
/// (`applypatch::stream::PatchStream`): the end is the one-shot call's, the
/// error event (when the rest of the patch is well-formed, as in the parity
/// corpus) is the one-shot error, and the preview after the last line is the
/// one-shot result.
mod patches {
    use super::*;
    use applypatch::stream::{PatchEvent, PatchStream};
    use std::collections::BTreeMap;

    struct PatchCase {
        name: String,
        files: Vec<(String, String)>,
        patch: String,
    }

    fn cases() -> Vec<PatchCase> {
        let parity: Value = common::fixture("codex-parity.json");
        let mut out: Vec<PatchCase> = parity["cases"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| PatchCase {
                name: str_of(&c["name"]),
                files: c["files"].as_object().into_iter().flatten().map(|(k, v)| (k.clone(), str_of(v))).collect(),
                patch: str_of(&c["patch"]),
            })
            .collect();
        let crlf: Vec<PatchCase> = out
            .iter()
            .map(|c| PatchCase {
                name: format!("{} (CRLF)", c.name),
                files: c.files.iter().map(|(k, v)| (k.clone(), v.replace('\n', "\r\n"))).collect(),
                patch: c.patch.replace('\n', "\r\n"),
            })
            .collect();
        out.extend(crlf);
        assert!(out.len() >= 800, "only {} cases", out.len());
        out
    }

    /// Returns the events' counts: operations, sections, errors.
    fn check(case: &PatchCase, mode: Mode, pieces: &[&str], how: &str) -> Result<[usize; 3], String> {
        let files: BTreeMap<&str, &str> = case.files.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let whole = applypatch::apply_patch(&case.patch, mode, |p| files.get(p).copied());
        let mut s = PatchStream::new(case.files.clone(), mode);
        let mut events = Vec::new();
        for p in pieces {
            events.extend(s.push(p));
        }
        let preview = s.preview();
        let end = s.end();
        let fail = |what: String| Err(format!("{} [{mode:?}, {how}]: {what}", case.name));
        if end != whole {
            return fail(format!("end {end:?}\none-shot {whole:?}"));
        }
        let errors = events.iter().filter(|e| matches!(e, PatchEvent::Error(_))).count();
        if errors > 1 || (errors == 1 && !matches!(events.last(), Some(PatchEvent::Error(_)))) {
            return fail(format!("{errors} error events, or events after one: {events:?}"));
        }
        match (events.last(), &whole) {
            // The whole text may fail earlier in its reading: at a later line
            // that is malformed (every body is read before any applies).
            (Some(PatchEvent::Error(e)), Err(w)) if e != w && w.diff_line <= e.diff_line => {
                return fail(format!("error event {e:?}\none-shot {w:?}"))
            }
            (Some(PatchEvent::Error(e)), Ok(_)) => return fail(format!("error event {e:?} for a patch that applies")),
            _ => {}
        }
        if let Ok(changes) = &whole {
            let want: Vec<(String, Option<String>)> = changes.iter().map(|c| (c.path.clone(), c.contents.clone())).collect();
            if preview != want && mode == Mode::Codex {
                return fail(format!("preview {preview:?}\none-shot {want:?}"));
            }
        }
        let count = |f: fn(&PatchEvent) -> bool| events.iter().filter(|e| f(e)).count();
        Ok([
            count(|e| matches!(e, PatchEvent::Operation { .. })),
            count(|e| matches!(e, PatchEvent::Section { .. })),
            count(|e| matches!(e, PatchEvent::Error(_))),
        ])
    }

    /// A section that fails, known when the next `@@` opens: the error is the
    /// one-shot call's on the text through that section, not through the
    /// lines after it, even when they came in the same piece (here the next
    /// section's malformed line, which would make it a syntax error).
    #[test]
    fn the_error_is_the_one_shot_error_through_the_failing_section() {
        let head = "*** Begin Patch\n*** Update File: a.txt\n@@\n-missing\n+x\n";
        let patch = format!("{head}@@\nnot a diff line\n*** End Patch\n");
        let files = [("a.txt".to_string(), "a\nb\n".to_string())];
        let mut s = PatchStream::new(files.clone(), Mode::Strict);
        let events = s.push(&patch);
        let Some(PatchEvent::Error(e)) = events.last() else { panic!("no error event: {events:?}") };
        let lookup = |p: &str| (p == "a.txt").then_some("a\nb\n");
        let through = applypatch::apply_patch(&format!("{head}*** End Patch\n"), Mode::Strict, lookup).unwrap_err();
        assert_eq!(e, &through);
        assert_eq!(e.kind, applypatch::ErrorKind::ContextNotFound);
        // The whole text fails otherwise (its malformed line is read first).
        assert_ne!(applypatch::apply_patch(&patch, Mode::Strict, lookup).unwrap_err(), through);
    }

    /// An update that moves its file and has no body: the error comes at the
    /// envelope line after it, and it is the one-shot call's for the text
    /// through the move.
    #[test]
    fn a_move_with_no_body_fails_at_the_next_envelope_line() {
        let head = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n";
        let files = [("a.txt".to_string(), "a\n".to_string())];
        let lookup = |p: &str| (p == "a.txt").then_some("a\n");
        let through = applypatch::apply_patch(&format!("{head}*** End Patch\n"), Mode::Strict, lookup).unwrap_err();
        for next in ["*** End Patch\n", "*** Delete File: a.txt\n*** End Patch\n"] {
            let mut s = PatchStream::new(files.clone(), Mode::Strict);
            let mut events = s.push(head);
            assert!(!events.iter().any(|e| matches!(e, PatchEvent::Error(_))), "{events:?}");
            events = s.push(next);
            assert_eq!(events.last(), Some(&PatchEvent::Error(through.clone())), "{next:?}");
        }
        assert!(through.message.contains("b.txt") || through.message.contains("a.txt"), "{}", through.message);
    }

    #[test]
    fn every_chunking_ends_as_the_one_shot_call() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut failures = Vec::new();
        let mut runs = 0;
        let mut counts = [0; 3];
        for case in cases() {
            for &mode in Mode::ALL {
                let mut ways: Vec<(Vec<&str>, String)> =
                    vec![(vec![case.patch.as_str()], "whole".into()), (pieces(&case.patch, None), "one char at a time".into())];
                for round in 0..2 {
                    ways.push((pieces(&case.patch, Some(&mut rng)), format!("random pieces {round}")));
                }
                for (p, how) in ways {
                    runs += 1;
                    match check(&case, mode, &p, &how) {
                        Ok(c) => counts.iter_mut().zip(c).for_each(|(a, b)| *a += b),
                        Err(e) => failures.push(e),
                    }
                }
            }
        }
        // Every kind of event comes, many times.
        assert!(counts.iter().all(|&c| c > 500), "events: {counts:?}");
        assert!(
            failures.is_empty(),
            "{} of {runs} runs differ:\n{}",
            failures.len(),
            failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n\n")
        );
    }
}

/// The UTF-16 offsets the binding gives splices: ascending offsets read on
/// from the last one, an offset before it starts over.
#[test]
fn utf16_offsets_in_any_order() {
    let text = "é€x😀y";
    let mut c = applypatch::stream::Utf16Cursor::default();
    let at = |c: &mut applypatch::stream::Utf16Cursor, b: usize| c.units(text, b);
    assert_eq!([at(&mut c, 2), at(&mut c, 6), at(&mut c, 10), at(&mut c, 11)], [1, 3, 5, 6]);
    assert_eq!([at(&mut c, 5), at(&mut c, 5), at(&mut c, 0), at(&mut c, 99)], [2, 2, 0, 6]);
}
