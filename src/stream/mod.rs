//! Streaming: a V4A update diff applied while it is still being written.
//!
//! A [`DiffStream`] takes the diff in pieces cut anywhere ([`DiffStream::push`])
//! and keeps the parser's state (`diff::Reader`) and the matcher's
//! (`strict::Plan` or `codex::Plan`, and the input's line index) between
//! them: every line is read once, and every section is found once, as soon
//! as it is complete. A section is complete, and *placed*, when the line
//! after it opens another section, at its `*** End of File`, or at the end:
//! until then a later line could still belong to it, and Strict's "exactly
//! once" is decided on the whole section.
//!
//! The end ([`DiffStream::end`]) is [`Mode::changes`] of the whole text by
//! construction: the same parser steps, the same searches in the same order
//! on the same index, the same verdicts in the same order (limits, then
//! parse errors, then the input's line breaks, then the sections, then
//! Strict's "already applied"). The first error comes as an [`Event::Error`]
//! as soon as one is certain; it is what `Mode::changes` answers for the
//! text up to the line where it was found ([`DiffStream::failed_through`]).
//!
//! The index is built for many searches from the first one (its fingerprint
//! table), as the one-shot call builds it for a diff of more than a few
//! sections: the two count the same search work, so even the work limit
//! (`Index::check_work`) trips at the same section. For a diff of only a few
//! sections the one-shot call scans the lines instead; its work is then far
//! below that limit either way.

mod patch;
mod unified;

pub use patch::{PatchEvent, PatchStream};
pub use unified::{UnifiedEvent, UnifiedStream};

use std::borrow::Cow;
use std::ops::Range;

use crate::diff::{Anchor, BodyEnd, DiffLine, LineKind, Reader, Section, Step};
use crate::error::{Error, Result};
use crate::matcher::index::{Index, Saved};
use crate::matcher::{codex, strict, DiffEdit};
use crate::mode::{Changes, Mode};
use crate::repair::context::Ctx;
use crate::text::{self, Ending, FinalNewline, Line, LineEdit, Lines, Splice};

/// What a push completed.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A section was found, and where it goes is final.
    Section(Placed),
    /// The first failure: what [`Mode::changes`] answers for the text up to
    /// the line where it was found. No event comes after it.
    Error(Error),
}

/// A placed section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The section's index in the diff (0-based).
    pub index: usize,
    /// Its first diff line (its `@@`, else its first line), 1-based.
    pub diff_line: usize,
    /// The input line where its context and removed lines start (where its
    /// lines are inserted, for a section that only adds), 1-based.
    pub input_line: usize,
    /// Its changes: byte ranges of the input and their new text, sorted,
    /// disjoint, and minimal (what is the same before and after is left out).
    pub splices: Vec<Splice>,
}

/// The section being read: its lines' text in one buffer.
#[derive(Debug, Default)]
struct Pending {
    header: Option<usize>,
    anchors: Vec<(Range<usize>, usize)>,
    lines: Vec<(LineKind, Range<usize>, usize)>,
    eof: Option<usize>,
    text: String,
}

impl Pending {
    fn keep(&mut self, s: &str) -> Range<usize> {
        let start = self.text.len();
        self.text.push_str(s);
        start..self.text.len()
    }

    /// Empties it, keeping its buffers' capacity for the next section.
    fn clear(&mut self) {
        self.header = None;
        self.anchors.clear();
        self.lines.clear();
        self.eof = None;
        self.text.clear();
    }

    /// The section as the matchers take it, its lists built in `spare`'s
    /// buffers (a section's view is not allocated again for every section).
    fn view(&self, spare: Section<'static>) -> Section<'_> {
        let at = |r: &Range<usize>| self.text.get(r.clone()).unwrap_or("");
        let (mut anchors, mut lines) = (recycle(spare.anchors), recycle(spare.lines));
        anchors.extend(self.anchors.iter().map(|(r, line)| Anchor { text: at(r), line: *line }));
        lines.extend(self.lines.iter().map(|(kind, r, line)| DiffLine { kind: *kind, text: at(r), line: *line }));
        Section { header: self.header, anchors, lines, eof: self.eof }
    }
}

/// `v` emptied, as a vector of `U` in the same allocation (`T` and `U` are
/// the same type but for a lifetime: the standard library collects an
/// iterator of a vector's own items in place).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

impl Section<'_> {
    /// Its lists emptied, kept for the next section's view.
    fn spare(self) -> Section<'static> {
        Section { header: None, anchors: recycle(self.anchors), lines: recycle(self.lines), eof: None }
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes whose line breaks [`DiffStream::push_into`] counted in a pass
    /// of their own (tests: none for a text within the line limit).
    static COUNTED_FIRST: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A V4A update diff over one input, applied as it arrives.
///
/// ```
/// use applypatch::stream::{DiffStream, Event};
/// use applypatch::Mode;
///
/// let mut s = DiffStream::new("a\nb\nc\n", Mode::Strict);
/// let mut placed = 0;
/// for piece in ["@@\n-a\n+A\n@", "@\n-c\n", "+C\n"] {
///     placed += s.push(piece).iter().filter(|e| matches!(e, Event::Section(_))).count();
/// }
/// assert_eq!(placed, 1); // the second section may still grow
/// assert_eq!(s.preview(), "A\nb\nc\n");
/// assert_eq!(s.end().unwrap(), "A\nb\nC\n");
/// ```
#[derive(Debug)]
pub struct DiffStream {
    mode: Mode,
    input: String,
    /// The input's line table and index, lent to `Lines` and `Index` while a
    /// section is found.
    table: Vec<Line>,
    saved: Saved,
    /// The line break new lines get.
    nl: Ending,
    /// The input over the limits.
    input_error: Option<Error>,
    /// Strict: the input's line breaks are mixed.
    newline_error: Option<Error>,
    reader: Reader,
    /// The first parse error (nothing is read after it).
    parse_error: Option<Error>,
    /// The unfinished last line.
    partial: String,
    /// Lines read so far.
    lines_read: usize,
    /// Bytes pushed, and their `\n` and `\r` bytes (the diff's limits).
    bytes: usize,
    breaks: usize,
    open: Option<Pending>,
    /// The buffers of the last section closed, empty, for the next one (a
    /// section's lines are not allocated again for every section).
    spare: Pending,
    /// The last section's view, emptied ([`Pending::view`]).
    spare_view: Section<'static>,
    /// Every section's diff lines, first and last (Strict's final verdict).
    spans: Vec<(usize, usize)>,
    strict: strict::Plan,
    codex: codex::Plan,
    /// The edits of the sections found so far, in the order found.
    edits: Vec<LineEdit<'static>>,
    /// The first failure, and the lines of the diff through which the
    /// one-shot call gives it.
    failure: Option<(Error, usize)>,
    /// Whether the failure was returned as an event.
    reported: bool,
    /// Events of this push so far.
    queue: Vec<Event>,
}

impl DiffStream {
    /// A stream applying a diff to `input` in `mode`.
    pub fn new(input: impl Into<String>, mode: Mode) -> Self {
        let input = input.into();
        let input_error = crate::limits::check_text("the input", &input).err();
        let (table, nl, newline_error) = if input_error.is_some() {
            (Vec::new(), Ending::Lf, None)
        } else {
            let lines = Lines::split(&input);
            let (nl, err) = match mode {
                Mode::Strict => match strict::newline(&lines) {
                    Ok(nl) => (nl, None),
                    Err(e) => (Ending::Lf, Some(e)),
                },
                Mode::Codex => (lines.first_ending(), None),
            };
            (lines.into_table(), nl, err)
        };
        let failure = input_error.clone().or_else(|| newline_error.clone()).map(|e| (e, 0));
        DiffStream {
            mode,
            input,
            table,
            saved: Saved::default(),
            nl,
            input_error,
            newline_error,
            reader: Reader::new(mode),
            parse_error: None,
            partial: String::new(),
            lines_read: 0,
            bytes: 0,
            breaks: 0,
            open: None,
            spare: Pending::default(),
            spare_view: Section::default(),
            spans: Vec::new(),
            strict: strict::Plan::default(),
            codex: codex::Plan::default(),
            edits: Vec::new(),
            failure,
            reported: false,
            queue: Vec::new(),
        }
    }

    /// The input the diff applies to.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Takes the next piece of the diff, cut anywhere, and returns what it
    /// completed. After an [`Event::Error`] pieces are still read (so that
    /// [`DiffStream::end`] answers for all of them) but no event comes.
    pub fn push(&mut self, chunk: &str) -> Vec<Event> {
        let mut events = Vec::new();
        self.push_into(chunk, &mut events);
        events
    }

    /// [`DiffStream::push`], appending the events to `events` (a caller
    /// that keeps one vector for every push allocates none for them).
    pub fn push_into(&mut self, chunk: &str, events: &mut Vec<Event>) {
        self.bytes = self.bytes.saturating_add(chunk.len());
        // The piece's `\n` and `\r` bytes are counted in the pass that
        // splits its lines; but the limit asks for them (only once the text
        // is longer than the line limit) before any line is read, so such a
        // piece is counted first.
        let counted_first = self.bytes > crate::limits::MAX_LINES;
        if counted_first {
            #[cfg(test)]
            COUNTED_FIRST.with(|n| n.set(n.get() + chunk.len()));
            self.breaks = self.breaks.saturating_add(memchr::memchr2_iter(b'\n', b'\r', chunk.as_bytes()).count());
        }
        if self.failure.is_none() {
            if let Err(e) = crate::limits::check_size("the diff", self.bytes, || self.breaks) {
                self.failure = Some((e, self.lines_read));
            }
        }
        let bytes = chunk.as_bytes();
        let (mut start, mut breaks) = (0, 0usize);
        for at in text::Breaks::new(bytes, b'\n', b'\r') {
            breaks += 1;
            if bytes.get(at) != Some(&b'\n') {
                continue;
            }
            let line = chunk.get(start..at).unwrap_or("");
            start = at + 1;
            if self.partial.is_empty() {
                self.line(line);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.push_str(line);
                self.line(&whole);
                whole.clear();
                self.partial = whole;
            }
        }
        if !counted_first {
            self.breaks = self.breaks.saturating_add(breaks);
        }
        self.partial.push_str(chunk.get(start..).unwrap_or(""));
        self.report(events);
    }

    /// Reads the unfinished last line and completes the last section, as
    /// if the text ended here (an update's body in a patch ends at the next
    /// line of the envelope): returns what that completed. Nothing may be
    /// pushed after it but [`DiffStream::end`] still answers.
    pub fn close_body(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if !self.partial.is_empty() {
            let last = std::mem::take(&mut self.partial);
            self.line(&last);
        }
        self.close();
        self.report(&mut events);
        events
    }

    /// The number of diff lines through which [`Mode::changes`] gives the
    /// error the stream reported (0: the error of an empty diff).
    pub fn failed_through(&self) -> Option<usize> {
        self.failure.as_ref().map(|(_, n)| *n)
    }

    /// The input with every placed section applied.
    pub fn preview(&self) -> String {
        let lines = Lines::from_parts(&self.input, self.table.clone());
        let policy = match self.mode {
            Mode::Strict => FinalNewline::Keep,
            Mode::Codex => FinalNewline::Always,
        };
        text::apply_splices(&self.input, &text::splices(&lines, &self.sorted_edits(), self.nl, policy))
    }

    /// What [`Mode::apply`] gives for the whole diff pushed.
    pub fn end(self) -> Result<String> {
        let changes = self.end_changes()?;
        Ok(changes.0.apply(&changes.1))
    }

    /// What [`Mode::changes`] gives for the whole diff pushed, and the input
    /// they apply to.
    pub fn end_changes(mut self) -> Result<(Changes, String)> {
        if !self.partial.is_empty() {
            let last = std::mem::take(&mut self.partial);
            self.line(&last);
        }
        if let Some(e) = self.input_error.take() {
            return Err(e);
        }
        crate::limits::check_size("the diff", self.bytes, || self.breaks)?;
        if let Some(e) = self.parse_error.take() {
            return Err(e);
        }
        match self.mode {
            Mode::Strict => self.reader.finish_strict()?,
            Mode::Codex => self.reader.finish_codex(&BodyEnd {
                first_line: 1,
                header_line: 1,
                path: "",
                next_line: self.lines_read + 1,
                next: None,
            })?,
        }
        if let Some(e) = self.newline_error.take() {
            return Err(e);
        }
        self.close();
        if let Some((e, _)) = self.failure.take() {
            return Err(e);
        }
        if self.mode == Mode::Strict && self.strict.finish(&self.spans, &mut Ctx::default())? {
            return Ok((Changes::new(Vec::new()), self.input));
        }
        // The edits themselves, not a copy (`sorted_edits` is for the preview).
        let mut edits = std::mem::take(&mut self.edits);
        if self.mode == Mode::Codex {
            crate::order::sort_by_key(&mut edits, |e| (e.start, 0));
        }
        let lines = Lines::from_parts(&self.input, std::mem::take(&mut self.table));
        let policy = match self.mode {
            Mode::Strict => FinalNewline::Keep,
            Mode::Codex => FinalNewline::Always,
        };
        let changes = Changes::new(text::splices(&lines, &edits, self.nl, policy));
        Ok((changes, self.input))
    }

    /// The edits found so far, by start (stably: Codex appends its
    /// insertions at the end of the input whenever they come).
    fn sorted_edits(&self) -> Vec<LineEdit<'static>> {
        let mut edits = self.edits.clone();
        if self.mode == Mode::Codex {
            crate::order::sort_by_key(&mut edits, |e| (e.start, 0));
        }
        edits
    }

    /// The sections placed by this push, then the failure if it is new.
    fn report(&mut self, events: &mut Vec<Event>) {
        events.append(&mut self.queue);
        if let Some((e, _)) = &self.failure {
            if !self.reported {
                events.push(Event::Error(e.clone()));
                self.reported = true;
            }
        }
    }

    /// Reads one line (without its `\n`).
    fn line(&mut self, raw: &str) {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        self.lines_read += 1;
        let n = self.lines_read;
        if self.parse_error.is_some() {
            return;
        }
        let step = match self.reader.read(n, raw) {
            Ok(step) => step,
            Err(e) => {
                self.parse_error = Some(e.clone());
                self.fail(e, n);
                return;
            }
        };
        if self.failure.is_some() {
            return;
        }
        match step {
            Step::Open { header, anchor } => {
                self.close();
                let mut p = std::mem::take(&mut self.spare);
                p.header = Some(header);
                if let Some(a) = anchor {
                    let r = p.keep(a.text);
                    p.anchors.push((r, a.line));
                }
                self.open = Some(p);
            }
            Step::Anchor(a) => {
                let p = self.open.get_or_insert_with(|| std::mem::take(&mut self.spare));
                let r = p.keep(a.text);
                p.anchors.push((r, a.line));
            }
            Step::Line(l) => {
                let p = self.open.get_or_insert_with(|| std::mem::take(&mut self.spare));
                let r = p.keep(l.text);
                p.lines.push((l.kind, r, l.line));
            }
            Step::Eof(n) => {
                if let Some(p) = self.open.as_mut() {
                    p.eof = Some(n);
                }
                self.close();
            }
            Step::Skip => {}
        }
    }

    fn fail(&mut self, e: Error, through: usize) {
        if self.failure.is_none() {
            self.failure = Some((e, through));
        }
    }

    /// Finds the section just completed, unless something failed before.
    fn close(&mut self) {
        let Some(mut pending) = self.open.take() else { return };
        if self.failure.is_none() {
            self.find(&pending);
        }
        pending.clear();
        self.spare = pending;
    }

    /// Finds a section just completed.
    fn find(&mut self, pending: &Pending) {
        let section = pending.view(std::mem::take(&mut self.spare_view));
        let span = section.span();
        self.spans.push(span);
        let lines = Lines::from_parts(&self.input, std::mem::take(&mut self.table));
        let idx = Index::resume(&lines, std::mem::take(&mut self.saved));
        let found = match self.mode {
            Mode::Strict => self.strict.section(&idx, &section, &mut Ctx::default()),
            Mode::Codex => self.codex.section(&idx, &section, None).map(Some),
        };
        let index = self.spans.len() - 1;
        let after_text = lines.is_empty() && self.edits.iter().any(|e| !e.new.is_empty());
        let outcome = found.map(|f| f.map(|(at, edits)| place(&lines, self.nl, &section, index, at, edits, after_text)));
        self.saved = idx.save();
        self.table = lines.into_table();
        self.spare_view = section.spare();
        match outcome {
            Ok(Some((placed, edits))) => {
                self.edits.extend(edits);
                self.queue.push(Event::Section(placed));
            }
            Ok(None) => {}
            Err(e) => self.fail(e, span.1),
        }
    }
}

/// A section found at input line `at` with `edits`: its event, and its
/// edits owned (the section's text goes away). Its splices are those of its
/// edits alone, but for one case: on an empty input (which Strict leaves
/// without a final newline), lines inserted after others placed before
/// (`after_text`) start with the line break the earlier ones left out.
fn place(
    lines: &Lines,
    nl: Ending,
    section: &Section,
    index: usize,
    at: usize,
    edits: Vec<DiffEdit>,
    after_text: bool,
) -> (Placed, Vec<LineEdit<'static>>) {
    let edits: Vec<LineEdit<'static>> = edits
        .into_iter()
        .map(|e| LineEdit {
            start: e.edit.start,
            end: e.edit.end,
            new: e.edit.new.into_iter().map(|l| Cow::Owned(l.into_owned())).collect(),
        })
        .collect();
    let mut splices = text::minimal_splices(lines, &edits, nl);
    if after_text {
        for s in &mut splices {
            s.text.insert_str(0, nl.as_str());
        }
    }
    (Placed { index, diff_line: section.first_line(), input_line: at + 1, splices }, edits)
}

/// Byte offsets of one text turned into UTF-16 code units, for offsets that
/// mostly come in ascending order (the splices of sections placed one after
/// another): each conversion reads only the bytes since the last one, and
/// starts over from the beginning only for an offset before it.
#[derive(Debug, Default)]
pub struct Utf16Cursor {
    byte: usize,
    units: usize,
}

impl Utf16Cursor {
    /// The UTF-16 offset of byte `at` of `text` (a char boundary).
    pub fn units(&mut self, text: &str, at: usize) -> usize {
        if at < self.byte {
            *self = Utf16Cursor::default();
        }
        let bytes = text.as_bytes();
        let at = at.min(bytes.len());
        self.units += crate::utf16::len(bytes.get(self.byte..at).unwrap_or(&[]));
        self.byte = at;
        self.units
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_LINES;

    fn counted_first() -> usize {
        COUNTED_FIRST.with(std::cell::Cell::get)
    }

    /// The cursor reads each byte once for offsets that come in order (the
    /// same offset twice reads nothing again); an earlier one starts over.
    #[test]
    fn the_utf16_cursor_reads_on_from_the_last_offset() {
        let words = || crate::utf16::WORDS.with(std::cell::Cell::get);
        let text = "é".repeat(100);
        let mut c = Utf16Cursor::default();
        assert_eq!(c.units(&text, 100), 50);
        let after_first = words();
        assert!(after_first > 0);
        assert_eq!(c.units(&text, 100), 50);
        assert_eq!(words(), after_first);
        assert_eq!(c.units(&text, 200), 100);
        let read_on = words() - after_first;
        assert_eq!(c.units(&text, 2), 1);
        assert_eq!(c.units(&text, 200), 100);
        assert!(words() - after_first > read_on, "an earlier offset starts over");
    }

    #[test]
    fn line_breaks_are_counted_as_lines_are_split_until_the_line_limit_could_be_passed() {
        // A diff's line breaks are counted in the pass that splits its lines.
        let mut s = DiffStream::new("a\nb\n", Mode::Strict);
        let placed: usize = ["@@\n-a\r", "\n+A\n", "@@\n-b\n+B\n"].iter().map(|piece| s.push(piece).len()).sum();
        assert_eq!((placed, s.breaks, counted_first()), (1, 7, 0));
        assert_eq!(s.end().unwrap(), "A\nB\n");
        // Carriage returns alone (one unfinished line): exactly MAX_LINES
        // bytes need no count of their own; the piece that passes them is
        // counted first, and fails at once, as the one-shot call fails.
        let mut s = DiffStream::new("a\n", Mode::Strict);
        let piece = "\r".repeat(MAX_LINES / 4);
        for _ in 0..4 {
            assert_eq!(s.push(&piece), Vec::new());
        }
        assert_eq!((s.breaks, counted_first()), (MAX_LINES, 0));
        let events = s.push("\r");
        assert_eq!(counted_first(), 1);
        let whole = format!("{}\r", "\r".repeat(MAX_LINES));
        let want = Mode::Strict.changes("a\n", &whole).unwrap_err();
        assert_eq!(events, vec![Event::Error(want.clone())]);
        assert_eq!(s.end().unwrap_err(), want);
    }
}
