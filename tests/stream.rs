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

/// Codex puts a section of added lines alone at the input's end whenever it
/// comes: the preview applies the placed sections in the input's order, not
/// in the order found.
#[test]
fn the_preview_applies_sections_in_the_input_order() {
    let mut s = DiffStream::new("a\nb\n", Mode::Codex);
    assert_eq!(s.input(), "a\nb\n");
    let placed = s.push("@@\n+x\n@@\n-a\n+A\n@@\n").len();
    assert_eq!(placed, 2);
    assert_eq!(s.preview(), "A\nb\nx\n");
    assert_eq!(s.push("-b\n+B\n"), []);
    assert_eq!(s.end().unwrap(), "A\nB\nx\n");
}

/// In a patch, an update's last section is placed at the envelope line after
/// its body.
#[test]
fn a_patch_update_places_its_last_section_at_the_next_envelope_line() {
    use applypatch::stream::{PatchEvent, PatchStream};
    let mut s = PatchStream::new([("a.txt".to_string(), "a\nb\n".to_string())], Mode::Strict);
    let sections = |events: &[PatchEvent]| -> Vec<usize> {
        events.iter().filter_map(|e| if let PatchEvent::Section { placed, .. } = e { Some(placed.index) } else { None }).collect()
    };
    let events = s.push("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n@@\n-b\n+B\n");
    assert!(matches!(events.first(), Some(PatchEvent::Operation { line: 2, .. })), "{events:?}");
    assert_eq!(sections(&events), [0]);
    let events = s.push("*** End Patch\n");
    assert_eq!(sections(&events), [1]);
    let Some(PatchEvent::Section { path, placed, input }) = events.first() else { panic!("{events:?}") };
    assert_eq!((path.as_str(), &**input), ("a.txt", "a\nb\n"));
    assert_eq!(placed.splices, [applypatch::Splice { start: 2, end: 3, text: "B".into() }]);
}

/// An update with no body fails at the envelope line after its header, with
/// the one-shot call's error for the text through the header.
#[test]
fn a_patch_update_with_no_body_fails_at_the_next_envelope_line() {
    use applypatch::stream::{PatchEvent, PatchStream};
    let files = [("a.txt".to_string(), "a\n".to_string()), ("b.txt".to_string(), "b\n".to_string())];
    let lookup = |p: &str| files.iter().find(|(k, _)| k == p).map(|(_, v)| v.as_str());
    for next in ["*** End Patch\n", "*** Delete File: b.txt\n*** End Patch\n"] {
        let head = "*** Begin Patch\n*** Update File: a.txt\n";
        let through = applypatch::apply_patch(&format!("{head}*** End Patch\n"), Mode::Strict, lookup).unwrap_err();
        let mut s = PatchStream::new(files.clone(), Mode::Strict);
        assert!(!s.push(head).iter().any(|e| matches!(e, PatchEvent::Error(_))));
        let events = s.push(next);
        assert_eq!(events.last(), Some(&PatchEvent::Error(through.clone())), "{next:?}");
        assert_eq!(through.diff_line, Some(2), "{}", through.message);
    }
}

/// Each envelope error comes at its line, as the one-shot call's error for
/// the text through it: an `*** Environment ID:` after an operation, a
/// second one, an empty one; a section that cannot apply, found at the end
/// of its update's body; in Codex mode, a Delete of a file that is not there
/// (Strict judges that, and "already applied", on the whole patch: no event,
/// and the end is the one-shot call's).
#[test]
fn envelope_errors_come_at_their_line_as_the_one_shot_errors() {
    use applypatch::stream::{PatchEvent, PatchStream};
    let files = [("a.txt".to_string(), "a\n".to_string())];
    let lookup = |p: &str| (p == "a.txt").then_some("a\n");
    let update = "*** Update File: a.txt\n@@\n-a\n+A\n";
    let cases = [
        (Mode::Strict, format!("*** Begin Patch\n{update}*** Environment ID: x\n"), true),
        (Mode::Strict, "*** Begin Patch\n*** Environment ID: x\n*** Environment ID: y\n".to_string(), true),
        (Mode::Strict, "*** Begin Patch\n*** Environment ID:  \n".to_string(), true),
        (Mode::Strict, "*** Begin Patch\n*** Update File: a.txt\n@@\n-missing\n+x\n*** End Patch\n".to_string(), true),
        (Mode::Codex, "*** Begin Patch\n*** Delete File: gone.txt\n".to_string(), true),
        (Mode::Strict, "*** Begin Patch\n*** Delete File: gone.txt\n".to_string(), false),
        (Mode::Strict, "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+a\n*** End Patch\n".to_string(), false),
    ];
    for (mode, text, fails_here) in cases {
        let mut s = PatchStream::new(files.clone(), mode);
        let events = s.push(&text);
        let end = if text.ends_with("*** End Patch\n") { text.clone() } else { format!("{text}*** End Patch\n") };
        let through = applypatch::apply_patch(&end, mode, lookup);
        match events.last() {
            Some(PatchEvent::Error(e)) => {
                assert!(fails_here, "{mode:?} {text:?}: {e:?}");
                assert_eq!(Err(e.clone()), through, "{mode:?} {text:?}");
            }
            last => {
                assert!(!fails_here, "{mode:?} {text:?}: no error event, {last:?}");
                assert_eq!(s.push(end.get(text.len()..).unwrap_or("")), []);
                assert!(through.is_err(), "{mode:?} {text:?}");
                assert_eq!(s.end(), through, "{mode:?} {text:?}");
            }
        }
    }
}

/// The preview shows the files written so far and the update being read,
/// each under its own path.
#[test]
fn a_patch_preview_shows_the_update_being_read_beside_the_files_written() {
    use applypatch::stream::PatchStream;
    let files = [("a.txt".to_string(), "a\n".to_string()), ("b.txt".to_string(), "b\nc\n".to_string())];
    let mut s = PatchStream::new(files, Mode::Strict);
    s.push("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n@@\n");
    let want = [("a.txt".to_string(), Some("A\n".to_string())), ("b.txt".to_string(), Some("B\nc\n".to_string()))];
    assert_eq!(s.preview(), want);
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

    /// Whether the stream may leave the whole patch's failure `w` to the end,
    /// with no error event: the envelope's own errors at the end of the text
    /// (an unfinished or empty patch, text after `*** End Patch`), and in
    /// Strict what is judged with the whole patch: an update already
    /// applied, a file that is not there, and whatever follows an operation
    /// on a path that is not there at that point (a later operation may
    /// explain it: a move sent again).
    fn left_to_end(case: &PatchCase, mode: Mode, w: &applypatch::Error) -> bool {
        use applypatch::ErrorKind::*;
        if matches!(w.kind, InvalidPatch | EmptyPatch) {
            return true;
        }
        if mode == Mode::Codex {
            return false;
        }
        if matches!(w.kind, AlreadyApplied | FileNotFound) {
            return true;
        }
        let mut there: std::collections::BTreeSet<&str> = case.files.iter().map(|(k, _)| k.as_str()).collect();
        let mut updating = None;
        for line in case.patch.lines().map(str::trim) {
            if let Some(p) = line.strip_prefix("*** Add File: ") {
                there.insert(p);
            } else if let Some(p) = line.strip_prefix("*** Delete File: ").or(line.strip_prefix("*** Update File: ")) {
                if !there.contains(p) {
                    return true;
                }
                updating = line.starts_with("*** Update").then_some(p);
                if updating.is_none() {
                    there.remove(p);
                }
            } else if let (Some(d), Some(p)) = (line.strip_prefix("*** Move to: "), updating) {
                there.remove(p);
                there.insert(d);
            }
        }
        false
    }

    /// Returns the events: operations, sections (as their path and place)
    /// and the error.
    fn check(case: &PatchCase, mode: Mode, pieces: &[&str], how: &str) -> Result<Vec<String>, String> {
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
            (_, Err(w)) if errors == 0 && !left_to_end(case, mode, w) => return fail(format!("no error event; one-shot {w:?}")),
            _ => {}
        }
        if let Ok(changes) = &whole {
            let want: Vec<(String, Option<String>)> = changes.iter().map(|c| (c.path.clone(), c.contents.clone())).collect();
            if preview != want && mode == Mode::Codex {
                return fail(format!("preview {preview:?}\none-shot {want:?}"));
            }
        }
        Ok(events
            .iter()
            .map(|e| match e {
                PatchEvent::Operation { path, kind, line } => format!("operation {kind:?} {path} at {line}"),
                PatchEvent::Section { path, placed, .. } => format!("section {} of {path} at {}", placed.index, placed.input_line),
                PatchEvent::Error(e) => format!("error {e:?}"),
            })
            .collect())
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

    /// An update whose last section is an empty `@@` fails only when its body
    /// ends; Codex's message names the envelope line after it (its parser
    /// reads that line as the section's), so the error comes at that line
    /// and is the one-shot call's for the whole patch, whatever comes next.
    #[test]
    fn an_empty_last_section_fails_at_the_envelope_line_after_it() {
        let files = [("a.txt".to_string(), "a\nb\n".to_string())];
        let lookup = |p: &str| (p == "a.txt").then_some("a\nb\n");
        let nexts = [
            "*** End Patch\n",
            "*** Add File: b.txt\n+x\n*** End Patch\n",
            "*** Delete File: a.txt\n*** End Patch\n",
            "*** Update File: a.txt\n@@\n-a\n+A\n*** End Patch\n",
        ];
        for mode in [Mode::Codex, Mode::Strict] {
            for next in nexts {
                let head = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n@@\n";
                let patch = format!("{head}{next}");
                let whole = applypatch::apply_patch(&patch, mode, lookup).unwrap_err();
                let mut s = PatchStream::new(files.clone(), mode);
                assert!(!s.push(head).iter().any(|e| matches!(e, PatchEvent::Error(_))), "{mode:?}");
                let header = next.lines().next().unwrap();
                let events = s.push(&format!("{header}\n"));
                assert_eq!(events.last(), Some(&PatchEvent::Error(whole.clone())), "{mode:?} {header}");
                let named = format!("Unexpected line found in update hunk: '{header}'");
                assert_eq!(whole.message.contains(&named), mode == Mode::Codex && header != "*** End Patch", "{}", whole.message);
            }
        }
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
                // The events are the same whatever the pieces.
                let mut first: Option<Vec<String>> = None;
                for (p, how) in ways {
                    runs += 1;
                    match check(&case, mode, &p, &how) {
                        Ok(events) => {
                            for (i, kind) in ["operation", "section", "error"].iter().enumerate() {
                                counts[i] += events.iter().filter(|e| e.starts_with(kind)).count();
                            }
                            match &first {
                                None => first = Some(events),
                                Some(whole) if *whole != events => {
                                    failures.push(format!("{} [{mode:?}, {how}]: events {events:#?}\nwhole {whole:#?}", case.name))
                                }
                                Some(_) => {}
                            }
                        }
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

/// A unified diff over files, pushed in pieces
/// (`applypatch::stream::UnifiedStream`): the end is the one-shot call's
/// (`unified::apply`), the error event is the one-shot error of the text up
/// to the line the stream names, and every hunk placed is where the one-shot
/// call of the whole diff places it.
mod unified_diffs {
    use super::*;
    use applypatch::stream::{UnifiedEvent, UnifiedStream};
    use applypatch::unified::{self, UnifiedMode};
    use std::collections::BTreeMap;

    struct UnifiedCase {
        name: String,
        files: Vec<(String, String)>,
        diff: String,
    }

    fn cases() -> Vec<UnifiedCase> {
        let recorded: Value = common::fixture("unified-git.json");
        let mut out: Vec<UnifiedCase> = recorded["cases"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| UnifiedCase {
                name: str_of(&c["name"]),
                files: c["files"].as_object().into_iter().flatten().map(|(k, v)| (k.clone(), str_of(v))).collect(),
                diff: str_of(&c["diff"]),
            })
            .collect();
        // CRLF files and diffs (a `\r` is part of a unified diff's line).
        let crlf: Vec<UnifiedCase> = out
            .iter()
            .map(|c| UnifiedCase {
                name: format!("{} (CRLF)", c.name),
                files: c.files.iter().map(|(k, v)| (k.clone(), v.replace('\n', "\r\n"))).collect(),
                diff: c.diff.replace('\n', "\r\n"),
            })
            .collect();
        out.extend(crlf);
        assert!(out.len() >= 2400, "only {} cases", out.len());
        out
    }

    /// Whether the whole diff's failure `w` may come with no error event: when
    /// what it names ends only with the text. That is the last hunk (every
    /// line after the one it names is a hunk line), or the last file diff,
    /// when the error is the whole file's (it names the file diff's first
    /// line, and no other file diff starts after it).
    fn left_to_end(case: &UnifiedCase, w: &applypatch::Error) -> bool {
        let after = w.diff_line.unwrap_or(0);
        let lines: Vec<&str> = case.diff.split_inclusive('\n').collect();
        let hunk_lines = |from: usize| lines.iter().skip(from).all(|l| l.starts_with([' ', '+', '-', '\\']) || l.trim_end().is_empty());
        let last_file = lines.iter().rposition(|l| l.starts_with("diff --git ")).map(|i| i + 1);
        let last_plain = lines.iter().rposition(|l| l.starts_with("--- ")).map(|i| i + 1);
        hunk_lines(after) || [last_file, last_plain].contains(&Some(after))
    }

    /// Returns the events: files, hunks (as their path and place) and the
    /// error; and whether the whole diff's error may be left to the end.
    fn check(case: &UnifiedCase, mode: UnifiedMode, pieces: &[&str], how: &str) -> Result<(Vec<String>, bool), String> {
        let files: BTreeMap<&str, &str> = case.files.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let whole = unified::apply(&case.diff, mode, |p| files.get(p).copied());
        let mut s = UnifiedStream::new(case.files.clone(), mode);
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
        let errors = events.iter().filter(|e| matches!(e, UnifiedEvent::Error(_))).count();
        if errors > 1 || (errors == 1 && !matches!(events.last(), Some(UnifiedEvent::Error(_)))) {
            return fail(format!("{errors} error events, or events after one: {events:?}"));
        }
        if let (Err(w), 0) = (&whole, errors) {
            if !left_to_end(case, w) {
                return fail(format!("no error event; one-shot {w:?}"));
            }
        }
        if let (Some(UnifiedEvent::Error(e)), Some(n)) = (events.last(), through) {
            let prefix = unified::apply(first_lines(&case.diff, n), mode, |p| files.get(p).copied());
            if prefix.as_ref().err() != Some(e) {
                return fail(format!("error event {e:?}\none-shot of the first {n} lines {prefix:?}"));
            }
            match &whole {
                Ok(_) => return fail(format!("error event {e:?} for a diff that applies")),
                // The whole text may fail earlier in its reading: at a later
                // line that is malformed (the whole diff is parsed first).
                Err(w) if w != e && !(e.diff_line.is_some() && w.diff_line > e.diff_line) => {
                    return fail(format!("error event {e:?}\none-shot {w:?}"))
                }
                Err(_) => {}
            }
        }
        // Every hunk placed is where the one-shot call places it, in its order.
        if let Ok(result) = &whole {
            let hunks: Vec<_> = events
                .iter()
                .filter_map(|e| if let UnifiedEvent::Hunk { path, placed, .. } = e { Some((path, placed)) } else { None })
                .collect();
            for ((path, placed), want) in hunks.iter().zip(&result.placements) {
                if (path.as_str(), placed.index + 1, placed.input_line) != (want.path.as_str(), want.hunk, want.line) {
                    return fail(format!("hunk event {path} {placed:?}\none-shot placement {want:?}"));
                }
            }
            if hunks.len() > result.placements.len() {
                return fail(format!("{} hunk events, {} hunks", hunks.len(), result.placements.len()));
            }
            // A file one file diff changes: its hunks' splices, offsets into
            // the file, give the preview (applied in order: git may place a
            // hunk before the one before it).
            for (path, contents) in &preview {
                let (Some(text), Some(old)) = (contents, files.get(path.as_str())) else { continue };
                let written = events.iter().filter(|e| matches!(e, UnifiedEvent::File { path: p, .. } if p == path)).count();
                let own: Vec<_> = hunks.iter().filter(|(p, _)| *p == path).map(|(_, placed)| placed).collect();
                if written != 1 || own.is_empty() {
                    continue;
                }
                let got = splice(old, own.iter().flat_map(|p| p.splices.iter()));
                if &got != text {
                    return fail(format!("{path}: the splices give {got:?}, the preview is {text:?}"));
                }
            }
        }
        let events = events
            .iter()
            .map(|e| match e {
                UnifiedEvent::File { path, kind, line } => format!("file {kind:?} {path} at {line}"),
                UnifiedEvent::Hunk { path, placed, .. } => format!("hunk {} of {path} at {}", placed.index, placed.input_line),
                UnifiedEvent::Error(e) => format!("error {e:?}"),
            })
            .collect();
        Ok((events, whole.as_ref().err().is_some_and(|w| left_to_end(case, w))))
    }

    /// `text` with `splices` (sorted, disjoint byte ranges of it) applied.
    fn splice<'s>(text: &str, splices: impl Iterator<Item = &'s applypatch::Splice>) -> String {
        let mut sorted: Vec<_> = splices.collect();
        sorted.sort_by_key(|s| s.start);
        let (mut out, mut at) = (String::new(), 0);
        for s in sorted {
            out.push_str(&text[at..s.start]);
            out.push_str(&s.text);
            at = s.end;
        }
        out + &text[at..]
    }

    #[test]
    fn every_chunking_ends_as_the_one_shot_call() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        let mut failures = Vec::new();
        let mut runs = 0;
        let mut counts = [0; 3];
        for case in cases() {
            for &mode in UnifiedMode::ALL {
                let mut ways: Vec<(Vec<&str>, String)> =
                    vec![(vec![case.diff.as_str()], "whole".into()), (pieces(&case.diff, None), "one char at a time".into())];
                for round in 0..2 {
                    ways.push((pieces(&case.diff, Some(&mut rng)), format!("random pieces {round}")));
                }
                // The events are the same whatever the pieces; but for an
                // error that may be left to the end: the stream reads a step
                // again only at a line that can end it, or when its lines have
                // doubled, so in pieces it may not have read it again by the
                // end (a miscounted last hunk, whose extra lines are hunk lines).
                let mut first: Option<Vec<String>> = None;
                for (p, how) in ways {
                    runs += 1;
                    match check(&case, mode, &p, &how) {
                        Ok((events, late)) => {
                            for (i, kind) in ["file", "hunk", "error"].iter().enumerate() {
                                counts[i] += events.iter().filter(|e| e.starts_with(kind)).count();
                            }
                            let error_left = |whole: &[String]| {
                                late && whole.len() == events.len() + 1
                                    && whole.starts_with(&events)
                                    && whole.last().is_some_and(|e| e.starts_with("error"))
                            };
                            match &first {
                                None => first = Some(events),
                                Some(whole) if *whole != events && !error_left(whole) => {
                                    failures.push(format!("{} [{mode:?}, {how}]: events {events:#?}\nwhole {whole:#?}", case.name))
                                }
                                Some(_) => {}
                            }
                        }
                        Err(e) => failures.push(e),
                    }
                }
            }
        }
        eprintln!("{runs} runs; events: {counts:?} (files, hunks, errors)");
        assert!(counts.iter().all(|&c| c > 500), "events: {counts:?}");
        assert!(
            failures.is_empty(),
            "{} of {runs} runs differ:\n{}",
            failures.len(),
            failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n\n")
        );
    }

    #[test]
    fn a_hunk_is_placed_once_the_line_after_it_shows_it_is_over() {
        let files = [("a.txt".to_string(), "one\ntwo\nthree\n".to_string())];
        let mut s = UnifiedStream::new(files, UnifiedMode::Strict);
        let events = s.push("--- a/a.txt\n+++ b/a.txt\n@@ -3 +3 @@\n-three\n+THREE");
        assert!(
            matches!(events.as_slice(), [UnifiedEvent::File { path, kind: unified::FileKind::Modify, line: 1 }] if path == "a.txt"),
            "{events:?}"
        );
        // Nothing placed yet: the file is not in the preview.
        assert_eq!(s.preview(), []);
        // The hunk's counts are used up, but a '\\ No newline' line could still change its last line.
        assert_eq!(s.push("\n"), []);
        let events = s.push("\\ No newline at end of file\nThat is all.\n");
        let [UnifiedEvent::Hunk { path, placed, input }] = events.as_slice() else { panic!("{events:?}") };
        assert_eq!((path.as_str(), placed.index, placed.diff_line, placed.input_line), ("a.txt", 0, 3, 3));
        assert_eq!(placed.splices, [applypatch::Splice { start: 8, end: 14, text: "THREE".into() }]);
        assert_eq!(&**input, "one\ntwo\nthree\n");
        assert_eq!(s.preview(), [("a.txt".to_string(), Some("one\ntwo\nTHREE".to_string()))]);
        assert_eq!(s.end().unwrap().changes[0].contents.as_deref(), Some("one\ntwo\nTHREE"));
    }

    #[test]
    fn a_hunk_is_placed_at_the_push_that_ends_it_whatever_follows_in_that_push() {
        // The second hunk, pushed a line at a time, is read at its 1st, 2nd,
        // 4th and 8th line (each time it has too few); the push that ends it
        // also starts the next hunk and ends with that one's lines.
        let input: String = (1..=26).map(|i| format!("l{i}\n")).collect();
        let mut s = UnifiedStream::new([("a.txt".to_string(), input)], UnifiedMode::Strict);
        let events = s.push("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-l1\n+L1\n");
        assert_eq!(events.len(), 1, "{events:?}");
        let mut events = s.push("@@ -3,8 +3,8 @@\n");
        // The first hunk is placed, in the file diff still being read.
        let preview = s.preview();
        let [(path, Some(text))] = preview.as_slice() else { panic!("{preview:?}") };
        assert_eq!((path.as_str(), text.get(..10)), ("a.txt", Some("L1\nl2\nl3\nl")));
        for i in 3..=9 {
            events.extend(s.push(&format!(" l{i}\n")));
        }
        assert_eq!(events.iter().filter(|e| matches!(e, UnifiedEvent::Hunk { .. })).count(), 1, "{events:?}");
        let events = s.push("-l10\n+L10\n@@ -20 +20 @@\n-l20\n+L20\n");
        let [UnifiedEvent::Hunk { placed, .. }] = events.as_slice() else { panic!("{events:?}") };
        assert_eq!((placed.index, placed.input_line), (1, 3));
    }

    #[test]
    fn git_mode_places_each_hunk_on_the_file_the_hunks_before_made() {
        let files = [("a.txt".to_string(), "a\nb\nc\nd\n".to_string())];
        let mut s = UnifiedStream::new(files, UnifiedMode::Git);
        let mut events = s.push("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n a\n+x\n b\n@@ -3,2 +4,2 @@\n c\n-d\n+D\n");
        // Placed at the next line that can end it (not a hunk line).
        assert_eq!(s.push("--- a/a.txt\n+++ b/a.txt\n").len(), 0);
        events.extend(s.push("Done.\n"));
        let hunks: Vec<_> = events
            .iter()
            .filter_map(|e| if let UnifiedEvent::Hunk { placed, input, .. } = e { Some((placed, input)) } else { None })
            .collect();
        // The second hunk's line is in the file the first one made; its
        // splices, as every hunk's, are offsets into the file as given.
        assert_eq!(hunks.len(), 2, "{events:?}");
        assert_eq!((hunks[1].0.input_line, &**hunks[1].1), (4, "a\nb\nc\nd\n"));
        assert_eq!(hunks[1].0.splices, [applypatch::Splice { start: 6, end: 7, text: "D".into() }]);
    }

    #[test]
    fn the_error_event_is_the_one_shot_error_of_the_diff_up_to_the_hunk_that_fails() {
        let files = [("a.py".to_string(), "x = 1\ny = 2\n".to_string()), ("b.py".to_string(), "z = 3\n".to_string())];
        let diff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 10\n@@ -2 +2 @@\n-y = 2 \n+y = 20\n--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-z = 3\n+z = 30\n";
        let mut s = UnifiedStream::new(files.clone(), UnifiedMode::Strict);
        let mut events = Vec::new();
        for piece in diff.as_bytes().chunks(4) {
            events.extend(s.push(std::str::from_utf8(piece).unwrap()));
        }
        let kinds: Vec<_> = events
            .iter()
            .map(|e| match e {
                UnifiedEvent::File { .. } => "file",
                UnifiedEvent::Hunk { .. } => "hunk",
                UnifiedEvent::Error(_) => "error",
            })
            .collect();
        assert_eq!(kinds, ["file", "hunk", "error"]);
        let Some(UnifiedEvent::Error(e)) = events.last() else { panic!() };
        assert_eq!(s.failed_through(), Some(8));
        assert_eq!(
            e.message,
            "a.py: hunk 2 (diff lines 6-8, '@@ -2,1 +2,1 @@'): its 1 context and removed line are not in the file after hunk 1. Nothing was changed. The closest place is line 2, where 0 of 1 lines are equal. Diff line 7 has 'y = 2 \\n', but line 2 of the file is 'y = 2\\n' (only whitespace differs). Copy the context and removed lines exactly from the current file and send the diff again."
        );
        let map: BTreeMap<&str, &str> = files.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(unified::apply(diff, UnifiedMode::Strict, |p| map.get(p).copied()).unwrap_err(), *e);
        assert_eq!(s.end().unwrap_err(), *e);
    }

    /// A file diff for a file that is not there, and a hunk that goes on past
    /// its counts (Strict refuses it): each error comes at the line that
    /// shows it (the `+++` line; the first line after the hunk that is no
    /// hunk line, here the `@@` after the next file's `---` and `+++`), and
    /// it is the one-shot error of the whole diff.
    #[test]
    fn a_missing_file_and_an_overrun_hunk_fail_as_the_whole_diff() {
        let files = [("a.txt".to_string(), "a\nb\nc\n".to_string())];
        let map: BTreeMap<&str, &str> = files.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let rest = "--- a/a.txt\n+++ b/a.txt\n@@ -3 +3 @@\n-c\n+C\n";
        let missing = format!("--- a/gone.txt\n+++ b/gone.txt\n@@ -1 +1 @@\n-x\n+y\n{rest}");
        let overrun = format!("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n b\n c\n{rest}");
        for (diff, kind, at) in [(missing, "file_not_found", 2), (overrun, "hunk_count_mismatch", 10)] {
            let whole = unified::apply(&diff, UnifiedMode::Strict, |p| map.get(p).copied()).unwrap_err();
            assert_eq!(whole.kind.code(), kind);
            let mut s = UnifiedStream::new(files.clone(), UnifiedMode::Strict);
            for (i, line) in diff.split_inclusive('\n').enumerate() {
                let events = s.push(line);
                let error = events.iter().find_map(|e| if let UnifiedEvent::Error(e) = e { Some(e) } else { None });
                assert_eq!(error, (i + 1 == at).then_some(&whole), "{kind}: diff line {}", i + 1);
            }
        }
    }

    #[test]
    fn each_line_is_read_a_few_times_whatever_the_pieces() {
        // 2,000 hunks in one file, one character at a time; then one hunk of
        // 20,000 lines, one line at a time: the lines the parser is given add
        // up to a small multiple of the diff's, not its square.
        let input: String = (0..8000).map(|i| format!("row {i}\n")).collect();
        let mut diff = String::from("--- a/f.txt\n+++ b/f.txt\n");
        for i in (0..8000).step_by(4) {
            diff.push_str(&format!("@@ -{} +{} @@\n-row {i}\n+ROW {i}\n", i + 1, i + 1));
        }
        let lines = diff.matches('\n').count();
        let mut s = UnifiedStream::new([("f.txt".to_string(), input.clone())], UnifiedMode::Strict);
        let mut hunks = 0;
        for (i, _) in diff.char_indices() {
            hunks += s.push(&diff[i..i + 1]).iter().filter(|e| matches!(e, UnifiedEvent::Hunk { .. })).count();
        }
        assert_eq!(hunks, 1999);
        // Each hunk's lines are read when its last one comes (the reading
        // runs out there: a `\\ No newline` line could follow), and again
        // at the next `@@`, which ends it.
        assert_eq!(s.lines_read(), 2 * (lines - 2), "{lines} lines");
        eprintln!("2,000 hunks, one char at a time: {} lines read for {lines}", s.lines_read());
        assert!(s.end().is_ok());

        let mut big = String::from("--- a/f.txt\n+++ b/f.txt\n@@ -1,8000 +1,20000 @@\n");
        big.extend((0..8000).map(|i| format!("-row {i}\n")));
        big.extend((0..20000).map(|i| format!("+new {i}\n")));
        big.push_str("Done.\n");
        let lines = big.matches('\n').count();
        let mut s = UnifiedStream::new([("f.txt".to_string(), input.clone())], UnifiedMode::Strict);
        let mut hunks = 0;
        for line in big.split_inclusive('\n') {
            hunks += s.push(line).iter().filter(|e| matches!(e, UnifiedEvent::Hunk { .. })).count();
        }
        assert_eq!(hunks, 1);
        // Read at its 1st, 2nd, 4th, ... line (each time it had too few),
        // then at the last: a little over twice its lines.
        assert_eq!(s.lines_read(), 60_772, "{lines} lines");
        eprintln!("one hunk of 28,000 lines, a line at a time: {} lines read for {lines}", s.lines_read());

        // A git header of 2,000 extended lines, a line at a time: each of
        // them could end it, but only 8 such readings come before the rule
        // of doubling takes over.
        let mut header = String::from("diff --git a/f.txt b/f.txt\n");
        header.extend((0..2000).map(|i| format!("index {i}..2 100644\n")));
        header.push_str("--- a/f.txt\n+++ b/f.txt\n@@ -3 +3 @@\n-row 2\n+ROW 2\n");
        let mut s = UnifiedStream::new([("f.txt".to_string(), input)], UnifiedMode::Strict);
        for line in header.split_inclusive('\n') {
            s.push(line);
        }
        assert_eq!(s.lines_read(), 2_595);
    }

    /// Blank lines are context lines (some tools drop the space of an empty
    /// one): they do not count among the lines that could end a hunk, whose
    /// readings are few (8), so the line that does end it is read at once.
    #[test]
    fn blank_lines_keep_a_hunk_open() {
        let input: String = (0..200).map(|i| if i % 2 == 0 { "\n".to_string() } else { format!("r{i}\n") }).collect();
        let mut diff = String::from("--- a/f.txt\n+++ b/f.txt\n@@ -1,200 +1,200 @@\n");
        diff.extend((0..199).map(|i| if i % 2 == 0 { "\n".to_string() } else { format!(" r{i}\n") }));
        diff.push_str("-r199\n+R199\n");
        let mut s = UnifiedStream::new([("f.txt".to_string(), input)], UnifiedMode::Strict);
        for line in diff.split_inclusive('\n') {
            let events = s.push(line);
            assert!(events.iter().all(|e| matches!(e, UnifiedEvent::File { .. })), "{line:?}: {events:?}");
        }
        let events = s.push("Done.\n");
        assert!(matches!(events.as_slice(), [UnifiedEvent::Hunk { placed, .. }] if placed.input_line == 1), "{events:?}");
    }
}
