//! Applying one edit or several to one text: the view the ladder matches
//! against (BOM and CRLF), the checks around the ladder, and the splice.

use std::borrow::Cow;

use super::checks;
use super::climb::{climb, Climb};
use super::explain;
use super::indent;
use super::ladder::{Reindent, Src};
use super::numbers;
use super::similarity;
use super::types::{Edit, EditResult, EditsResult, Options, Outcome, Reason, Strategy};
use crate::error::{Error, Result};
use crate::repair::context::RepairKind;
use crate::text::Splice;

/// Applies one edit. A failed match is a result with `ok == false` and the
/// source unchanged, never an error.
/// Texts over the [limits](crate::limits), and a fuzzy search that would need
/// more work than they allow, are errors (`input_too_large`).
pub fn apply_edit(source: &str, edit: &Edit, options: &Options) -> Result<EditResult> {
    Ok(EditResult::new(source, find(source, edit, options)?))
}

/// Applies edits in order, each to the previous one's output; stops at the
/// first failure.
pub fn apply_edits(source: &str, edits: &[Edit], options: &Options) -> Result<EditsResult> {
    let mut text = source.to_string();
    let mut results = Vec::with_capacity(edits.len());
    find_each::<Error>(source, edits, options, |at, outcome| {
        let r = EditResult::new(at, outcome);
        if r.ok {
            text.clone_from(&r.text);
        }
        results.push(r);
        Ok(())
    })?;
    let applied = results.iter().filter(|r| r.ok).count();
    Ok(EditsResult { ok: applied == edits.len(), text, results, applied })
}

/// Decides edits in order, each on the previous one's output, stopping after
/// the first failure: calls `step` with the text each edit was tried on and
/// its outcome (the npm binding sends these back one by one); an edit over
/// the limits stops it with that error. An edit's
/// `start_line` counts lines of the file before any edit: it is moved by the
/// lines the edits before it added or removed.
pub fn find_each<E: From<Error>>(
    source: &str,
    edits: &[Edit],
    options: &Options,
    mut step: impl FnMut(&str, Outcome) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut current: Option<String> = None;
    let mut delta: isize = 0;
    // Each edit searches (and copies) the whole text: bounded over the call.
    let mut rereads = crate::limits::Rereads::edits();
    for edit in edits {
        let text = current.as_deref().unwrap_or(source);
        rereads.read(text.len())?;
        // A start line is a hint from a read tool's numbering (rare): the
        // edit is copied to move it, which costs no more than its search.
        let outcome = match edit.start_line {
            Some(line) => find(text, &Edit { start_line: Some(line.saturating_add_signed(delta)), ..edit.clone() }, options)?,
            None => find(text, edit, options)?,
        };
        let next = outcome.splice.as_ref().map(|s| {
            let removed = text.get(s.start..s.end).map_or(0, |t| t.matches('\n').count());
            let added = s.text.matches('\n').count();
            delta = delta.saturating_add_unsigned(added).saturating_sub_unsigned(removed);
            crate::text::apply_splices(text, std::slice::from_ref(s))
        });
        step(text, outcome)?;
        match next {
            Some(t) => current = Some(t),
            None => break,
        }
    }
    Ok(())
}

/// The text the ladder matches against. Compatible: the source itself. With
/// `newlines`: without a leading BOM and with CRLF line breaks as LF, plus
/// what it takes to map offsets back.
struct View<'a> {
    text: Cow<'a, str>,
    /// Bytes of the BOM left out (0 or 3).
    bom: usize,
    /// View offsets of the `\n`s that were `\r\n` in the source.
    crlf: Vec<usize>,
    /// The newline replacements are written with.
    newline: &'static str,
}

impl<'a> View<'a> {
    fn plain(source: &'a str) -> Self {
        View { text: Cow::Borrowed(source), bom: 0, crlf: Vec::new(), newline: "\n" }
    }

    fn normalized(source: &'a str) -> Self {
        let bom = if source.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        let body = source.get(bom..).unwrap_or("");
        let bytes = body.as_bytes();
        let newline = match memchr::memchr(b'\n', bytes) {
            Some(p) if p > 0 && bytes.get(p - 1) == Some(&b'\r') => "\r\n",
            _ => "\n",
        };
        if memchr::memmem::find(bytes, b"\r\n").is_none() {
            return View { text: Cow::Borrowed(body), bom, crlf: Vec::new(), newline };
        }
        let mut text = String::with_capacity(body.len());
        let mut crlf = Vec::new();
        let mut pos = 0;
        for p in memchr::memchr_iter(b'\n', bytes) {
            if p > pos && bytes.get(p - 1) == Some(&b'\r') {
                text.push_str(body.get(pos..p - 1).unwrap_or(""));
                crlf.push(text.len());
                text.push('\n');
                pos = p + 1;
            }
        }
        text.push_str(body.get(pos..).unwrap_or(""));
        View { text: Cow::Owned(text), bom, crlf, newline }
    }

    /// The source offset of view offset `v`.
    fn to_source(&self, v: usize) -> usize {
        self.bom + v + self.crlf.partition_point(|&p| p < v)
    }

    /// Text as written into the file: LF line breaks become the file's.
    fn write(&self, text: &str) -> String {
        if self.newline == "\n" {
            text.to_string()
        } else {
            text.replace('\n', self.newline)
        }
    }
}

/// Decides what [`apply_edit`] does with one edit, without building the new
/// text (the npm binding sends only the splice back).
pub fn find(source: &str, edit: &Edit, options: &Options) -> Result<Outcome> {
    let mut outcome = find_as_written(source, edit, options)?;
    if outcome.ok() || outcome.failure.as_ref().is_some_and(|f| f.reason != Reason::NotFound) {
        return Ok(outcome);
    }
    let Some(numbered) = numbers::strip(source, &edit.search, &edit.replace) else { return Ok(outcome) };
    if options.repair.has(RepairKind::LineNumbers) {
        // The numbers say where: the first place they name, among equal ones,
        // in either preset (without `unique` the first equal place would win,
        // whatever line the numbers name).
        let stripped =
            Edit { search: numbered.search.clone(), replace: numbered.replace.clone(), start_line: Some(numbered.first), ..edit.clone() };
        let mut repaired = find_as_written(source, &stripped, &Options { line_hints: true, unique: true, ..*options })?;
        if repaired.ok() {
            repaired.repairs.push(numbered.repair());
            return Ok(repaired);
        }
    } else if let Some(f) = outcome.failure.as_mut() {
        f.message.push_str(&numbered.hint());
    }
    Ok(outcome)
}

fn find_as_written(source: &str, edit: &Edit, options: &Options) -> Result<Outcome> {
    crate::limits::check_text("the source", source)?;
    crate::limits::check_text("the SEARCH text", &edit.search)?;
    crate::limits::check_text("the REPLACE text", &edit.replace)?;
    let view = if options.newlines { View::normalized(source) } else { View::plain(source) };
    let lf = |s: &'_ str| -> String {
        if options.newlines {
            s.replace("\r\n", "\n")
        } else {
            s.to_string()
        }
    };
    let (search, replace) = (lf(&edit.search), lf(&edit.replace));

    if options.no_change && search == replace {
        return Ok(checks::no_change(&search));
    }
    if search.is_empty() {
        let at = view.bom;
        let mut replace = replace;
        if options.empty_search {
            if !view.text.is_empty() {
                return Ok(checks::empty_search(&view.text));
            }
            if !replace.is_empty() && !replace.ends_with('\n') {
                replace.push('\n');
            }
        }
        return Ok(Outcome {
            strategy: Some(Strategy::EmptySearch),
            similarity: 1.0,
            matches: 1,
            splice: Some(Splice { start: at, end: at, text: view.write(&replace) }),
            failure: None,
            note: None,
            repairs: Vec::new(),
        });
    }

    let src = Src::new(&view.text);
    if edit.replace_all || options.replace_all {
        return checks::replace_all(&src, source, &search, &replace, options, |o| view.to_source(o), |t| view.write(t));
    }
    let (strategy, found) = match climb(&src, &search, &replace, options)? {
        Climb::Matched(strategy, found) => (strategy, found),
        Climb::Failed(outcome) => return Ok(outcome),
    };
    let mut hit = found.winner;
    let similarity = match strategy {
        Strategy::EmptySearch | Strategy::Exact => 1.0,
        _ => similarity::similarity(&search, view.text.get(hit.start..hit.end).unwrap_or(""))?,
    };
    let mut note = None;
    if options.unique && found.count > 1 {
        let chosen =
            edit.start_line.filter(|_| options.line_hints).and_then(|line| checks::by_start_line(&src, strategy, &found, line, options));
        match chosen {
            Some((h, n)) => (hit, note) = (h, Some(n)),
            None => {
                return Ok(checks::with_start_line(
                    explain::ambiguous(&src, strategy, &found, similarity, options),
                    edit.start_line.filter(|_| options.line_hints),
                ))
            }
        }
    }
    if options.whole_lines && replace.is_empty() {
        (hit.start, hit.end) = checks::whole_lines(&view.text, hit.start, hit.end, 0);
    }
    let text = match &found.reindent {
        Reindent::None => replace,
        Reindent::Shift(delta) => indent::shift(&replace, *delta),
        Reindent::Relative(r) => r.apply(&replace),
    };
    let splice = Splice { start: view.to_source(hit.start), end: view.to_source(hit.end), text: view.write(&text) };
    Ok(Outcome {
        strategy: Some(strategy),
        similarity,
        matches: found.count,
        splice: Some(splice),
        failure: None,
        note,
        repairs: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::types::py_strip;
    use super::*;

    fn run(source: &str, search: &str, replace: &str, options: &Options) -> EditResult {
        apply_edit(source, &Edit::new(search, replace), options).unwrap()
    }

    /// An exact match (or an empty SEARCH) is similarity 1.0 without
    /// computing it: a linear pass over the matched text saved per edit
    /// (bounded cost is pinned by counting the work, not by timing it).
    #[test]
    fn an_exact_match_computes_no_similarity() {
        let computed = || super::super::similarity::COMPUTED.with(std::cell::Cell::get);
        // (source, search, similarities the match computes)
        for (source, search, want) in [("a\nb\nc\n", "b\n", 0), ("", "", 0), ("a\nb\nc\n", "  b\n", 1)] {
            let before = computed();
            let r = run(source, search, "x\n", &Options::default());
            assert!(r.ok, "{search:?}");
            let spent = computed() - before;
            assert_eq!(spent, want, "{search:?} in {source:?}: {spent} similarities computed");
        }
    }

    #[test]
    fn ladder_in_order() {
        let o = Options::COMPATIBLE;
        assert_eq!(run("a\nb\n", "", "x\n", &o).strategy, Some(Strategy::EmptySearch));
        assert_eq!(run("a\nb\n", "a", "x", &o).strategy, Some(Strategy::Exact));
        assert_eq!(run("a\nb\n", "a  \nb", "x", &o).strategy, Some(Strategy::TrailingWs));
        assert_eq!(run("  a\n  b\n", "a\nb", "x", &o).strategy, Some(Strategy::Indent));
        assert_eq!(run("s\nq\ne\n", "s\nz\ne", "x", &o).strategy, Some(Strategy::Anchor));
        let src: String = (0..10).map(|i| format!("l{i}\n")).collect();
        let search = "l1\nl2\nl3\nl4\nX\nl6\nl7\nl8\nl9\nY";
        assert_eq!(run(&src, search, "x", &Options { threshold: 0.8, ..o }).strategy, Some(Strategy::Fuzzy));
        let r = run(&src, search, "x", &o);
        assert!(!r.ok);
        assert_eq!((r.similarity, r.range, r.text.as_str()), (0.8, None, src.as_str()));
        // find's outcome says the same, without the new text.
        assert!(find("a\nb\n", &Edit::new("a", "x"), &o).unwrap().ok());
        assert!(!find(&src, &Edit::new(search, "x"), &o).unwrap().ok());
    }

    #[test]
    fn offsets_are_bytes() {
        let r = run("😀😀\nfoo\n", "foo", "bar", &Options::COMPATIBLE);
        assert_eq!(r.range, Some(9..12));
        let r = run("é\n  foo\nx", "foo\n x", "bar", &Options::COMPATIBLE);
        assert_eq!(r.strategy, Some(Strategy::Indent));
        assert_eq!(r.range, Some(3..10));
    }

    #[test]
    fn view_maps_crlf_and_bom() {
        let v = View::normalized("\u{feff}a\r\nb\r\nc");
        assert_eq!(v.text, "a\nb\nc");
        assert_eq!(v.newline, "\r\n");
        assert_eq!([0, 1, 2, 3, 5].map(|o| v.to_source(o)), [3, 4, 6, 7, 10]);
        let v = View::normalized("a\nb\r\n");
        assert_eq!((v.text.as_ref(), v.newline), ("a\nb\n", "\n"));
    }

    #[test]
    fn py_whitespace() {
        assert_eq!(py_strip("\u{1c}\u{a0} x \u{85}"), "x");
        assert_eq!(py_strip("\u{feff}x"), "\u{feff}x");
        // Unicode whitespace at one end only is stripped too.
        assert_eq!(py_strip("x\u{3000}"), "x");
        assert_eq!(py_strip("\u{2003}x"), "x");
    }
}
