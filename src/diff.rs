//! The V4A update-diff parser: a diff becomes sections of anchors, context,
//! removed and added lines, each element keeping its diff line number.
//!
//! Strict and Codex read a few lines differently (how `@@`, whitespace and
//! stray lines are taken): one parser, switched by the [`Mode`]: Strict rules
//! give every line one meaning or an error; Codex's update-hunk rules read
//! `@@` markers and `*** End of File` on the right-trimmed line, ignore blank
//! lines after `*** End of File`, and use Codex's error wording. Neither
//! looks at the input; matching is the matcher's job.

use crate::error::{Error, ErrorKind, Result};
use crate::mode::Mode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// ` text` (or an empty diff line): must be in the input, is kept.
    Context,
    /// `-text`: must be in the input, is removed.
    Remove,
    /// `+text`: is added.
    Add,
}

/// One context, removed or added line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiffLine<'d> {
    pub kind: LineKind,
    pub text: &'d str,
    /// 1-based line in the diff (or in the whole patch).
    pub line: usize,
}

/// An `@@ text` line: the search moves past the input line equal to `text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor<'d> {
    pub text: &'d str,
    pub line: usize,
}

/// One section (hunk): its anchors, then its lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section<'d> {
    /// Diff line of the `@@` that opened the section (none for a first
    /// section written without one).
    pub header: Option<usize>,
    pub anchors: Vec<Anchor<'d>>,
    pub lines: Vec<DiffLine<'d>>,
    /// Diff line of `*** End of File`, when the section is pinned to the end.
    pub eof: Option<usize>,
}

impl<'d> Section<'d> {
    /// The lines the input must contain: context and removed lines, in order.
    pub fn old(&self) -> impl Iterator<Item = &DiffLine<'d>> + Clone {
        self.lines.iter().filter(|l| l.kind != LineKind::Add)
    }

    /// The lines the section leaves: context and added lines, in order.
    pub fn new_side(&self) -> impl Iterator<Item = &DiffLine<'d>> + Clone {
        self.lines.iter().filter(|l| l.kind != LineKind::Remove)
    }

    pub fn has_changes(&self) -> bool {
        self.lines.iter().any(|l| l.kind != LineKind::Context)
    }

    /// The diff line to point at for the section as a whole: its `@@` (every
    /// section with anchors has one, on its first anchor's line), else its
    /// first line.
    pub fn first_line(&self) -> usize {
        self.header.or_else(|| self.lines.first().map(|l| l.line)).unwrap_or(1)
    }

    /// Diff lines `first..=last` the section spans (header to last line).
    pub fn span(&self) -> (usize, usize) {
        let first = self.first_line();
        let last = self.eof.or_else(|| self.lines.last().map(|l| l.line)).unwrap_or(first);
        (first, last)
    }
}

/// A parsed update diff.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff<'d> {
    pub sections: Vec<Section<'d>>,
}

impl Diff<'_> {
    /// The searches finding this diff in an input takes (`Index::for_searches`):
    /// one per anchor, and two per section (Strict looks for its old lines, then
    /// for its new lines before them: already applied?).
    pub fn searches(&self) -> usize {
        self.sections.iter().map(|s| 2 + s.anchors.len()).sum()
    }
}

/// Splits a diff into lines: `\n` or `\r\n` breaks, and a final break ends the
/// last line instead of starting an empty one.
pub fn diff_lines(diff: &str) -> impl Iterator<Item = &str> {
    let body = diff.strip_suffix('\n').unwrap_or(diff);
    // One scan finds every break (`text::Breaks`); `str::split` looks for
    // each one anew, which costs more than the rest of parsing on the short
    // diffs agents send.
    let mut breaks = crate::text::Breaks::new(body.as_bytes(), b'\n', b'\n');
    let mut start = if diff.is_empty() { None } else { Some(0) };
    std::iter::from_fn(move || {
        let from = start?;
        match breaks.next() {
            Some(at) => {
                start = Some(at + 1);
                body.get(from..at)
            }
            None => {
                start = None;
                body.get(from..)
            }
        }
    })
    .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// Parses an update diff. `first_line` is the number of its first line (1 for
/// a diff on its own, more for the body of an update inside a patch).
pub fn parse(diff: &str, mode: Mode, first_line: usize) -> Result<Diff<'_>> {
    match mode {
        Mode::Strict => parse_strict(diff, first_line),
        Mode::Codex => parse_codex(diff, &BodyEnd::alone(diff, first_line)),
    }
}

/// What follows an update's body in Codex's parser: it decides the wording
/// of the errors for an empty update or an `@@` with no lines.
#[derive(Clone, Copy, Debug)]
pub struct BodyEnd<'p> {
    /// Number of the body's first line.
    pub first_line: usize,
    /// Line of the `*** Update File:` header (for "is empty").
    pub header_line: usize,
    pub path: &'p str,
    /// The line after the body: its number, and its text unless it is
    /// `*** End Patch` (or the end of a diff given on its own).
    pub next_line: usize,
    pub next: Option<&'p str>,
}

impl<'p> BodyEnd<'p> {
    fn alone(diff: &str, first_line: usize) -> Self {
        let count = diff_lines(diff).count();
        BodyEnd { first_line, header_line: first_line, path: "", next_line: first_line + count, next: None }
    }
}

fn codex_error(kind: ErrorKind, n: usize, what: String) -> Error {
    Error::new(kind, format!("Invalid patch hunk on line {n}: {what}")).at_diff_line(n)
}

fn unexpected(n: usize, line: &str) -> Error {
    codex_error(
        ErrorKind::InvalidLine,
        n,
        format!("Unexpected line found in update hunk: '{line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"),
    )
}

fn expected_marker(n: usize, line: &str) -> Error {
    codex_error(ErrorKind::InvalidLine, n, format!("Expected update hunk to start with a @@ context marker, got: '{line}'"))
}

/// Whether a right-trimmed line is a line of the patch envelope: it ends an
/// update's body in Codex's parser.
pub fn is_envelope_line(u: &str) -> bool {
    u == "*** End Patch"
        || ["*** Add File: ", "*** Delete File: ", "*** Update File: ", "*** Environment ID:"].iter().any(|h| u.starts_with(h))
}

/// What one line of an update diff does to the sections read so far: the
/// parser's rules give every line one of these (or an error), so the whole
/// diff ([`parse`]) and a diff read line by line (`crate::stream`) are read
/// the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'l> {
    /// Opens a new section at its `@@` line (the one before it is complete),
    /// with the anchor that line names, if any.
    Open { header: usize, anchor: Option<Anchor<'l>> },
    /// One more anchor for the open section.
    Anchor(Anchor<'l>),
    /// One more line for the open section (a first section written without
    /// `@@` opens with it).
    Line(DiffLine<'l>),
    /// `*** End of File`: the open section is pinned to the end of the input.
    Eof(usize),
    /// Nothing (Codex: a blank line after `*** End of File`, or that marker
    /// before any section).
    Skip,
}

/// The section being read, as far as the rules need it.
#[derive(Clone, Debug, Default)]
struct Open {
    header: Option<usize>,
    anchors: Vec<usize>,
    lines: usize,
    eof: Option<usize>,
}

impl Open {
    /// `Section::first_line` of a section with no lines yet.
    fn first_line(&self) -> usize {
        self.header.unwrap_or(1)
    }
}

/// The parser's state between lines: reads an update diff one line at a
/// time, by the mode's rules.
#[derive(Clone, Debug)]
pub struct Reader {
    mode: Mode,
    open: Option<Open>,
    /// Strict: the line of `*** End of File`, after which no line may come.
    eof_line: Option<usize>,
    /// Strict: whether a line may hold a carriage return. A whole diff is
    /// scanned for one once ([`parse`]): most diffs have none, and a search
    /// in every line cost 2,000 instructions of a 45,000-instruction call
    /// on a small file.
    cr: bool,
}

impl Reader {
    /// A reader of lines that come one at a time (each is checked for a
    /// carriage return).
    pub fn new(mode: Mode) -> Self {
        Reader { mode, open: None, eof_line: None, cr: true }
    }

    /// A reader of the lines of `diff` (searched for a carriage return once).
    fn over(mode: Mode, diff: &str) -> Self {
        Reader { cr: mode == Mode::Strict && memchr::memchr(b'\r', diff.as_bytes()).is_some(), ..Reader::new(mode) }
    }

    /// Reads line `n` of the diff (`raw`, without its line break).
    pub fn read<'l>(&mut self, n: usize, raw: &'l str) -> Result<Step<'l>> {
        let step = match self.mode {
            Mode::Strict => self.strict(n, raw)?,
            Mode::Codex => self.codex(n, raw)?,
        };
        match step {
            Step::Open { header, anchor } => {
                self.open = Some(Open { header: Some(header), anchors: anchor.iter().map(|a| a.line).collect(), ..Open::default() })
            }
            Step::Anchor(a) => self.open.get_or_insert_with(Open::default).anchors.push(a.line),
            Step::Line(_) => self.open.get_or_insert_with(Open::default).lines += 1,
            Step::Eof(n) => {
                if let Some(s) = self.open.as_mut() {
                    s.eof = Some(n);
                }
                if self.mode == Mode::Strict {
                    self.eof_line = Some(n);
                }
            }
            Step::Skip => {}
        }
        Ok(step)
    }

    /// Strict's verdict at the end of the diff.
    pub fn finish_strict(&self) -> Result<()> {
        match &self.open {
            Some(s) if s.lines == 0 => Err(empty_hunk(s.first_line())),
            _ => Ok(()),
        }
    }

    /// Codex's verdict at the end of an update's body (`end` says what
    /// follows it).
    pub fn finish_codex(&self, end: &BodyEnd) -> Result<()> {
        match &self.open {
            None => Err(Error::new(
                ErrorKind::EmptyUpdate,
                format!("Invalid patch hunk on line {}: Update file hunk for path '{}' is empty", end.header_line, end.path),
            )
            .at_diff_line(end.header_line)),
            Some(s) if s.lines == 0 => Err(match end.next {
                None => codex_error(ErrorKind::EmptyHunk, end.next_line, "Update hunk does not contain any lines".into()),
                Some(next) => unexpected(end.next_line, next),
            }),
            Some(_) => Ok(()),
        }
    }

    /// Codex's update-hunk state machine (codex-rs streaming_parser).
    fn codex<'l>(&self, n: usize, line: &'l str) -> Result<Step<'l>> {
        let last = self.open.as_ref();
        // A context, removed or added line, unless it follows an end-of-file
        // marker: no envelope line, header or marker starts like one.
        if last.is_none_or(|s| s.eof.is_none()) {
            if let Some(kind) = line_kind(line) {
                return Ok(Step::Line(DiffLine { kind, text: line.get(1..).unwrap_or(""), line: n }));
            }
        }
        let u = line.trim_end();
        if is_envelope_line(u) {
            // Inside a patch these end the body; a diff on its own has none.
            return Err(codex_error(
                ErrorKind::InvalidLine,
                n,
                format!("'{u}' is a line of a whole '*** Begin Patch' patch, not of an update diff. Pass the whole patch to applyFiles(), or only the update's body to apply()."),
            ));
        }
        if let Some(s) = last {
            if s.eof.is_some() {
                if u.is_empty() {
                    return Ok(Step::Skip);
                }
                if !u.starts_with("@@") {
                    return Err(expected_marker(n, line));
                }
            }
        }
        if u == "@@" || u.starts_with("@@ ") {
            if last.is_some_and(|s| s.lines == 0) {
                return Err(unexpected(n, line));
            }
            return Ok(Step::Open { header: n, anchor: u.strip_prefix("@@ ").map(|text| Anchor { text, line: n }) });
        }
        if u == "*** End of File" {
            return match last {
                None => Ok(Step::Skip),
                Some(s) if s.lines == 0 => Err(codex_error(ErrorKind::EmptyHunk, n, "Update hunk does not contain any lines".into())),
                Some(_) => Ok(Step::Eof(n)),
            };
        }
        Err(match last {
            Some(s) if s.lines > 0 => expected_marker(n, line),
            _ => unexpected(n, line),
        })
    }

    fn strict<'l>(&self, n: usize, raw: &'l str) -> Result<Step<'l>> {
        if let Some(eof) = self.eof_line {
            return Err(invalid(
                n,
                raw,
                format!("'*** End of File' (diff line {eof}) must be the last line of the diff. Put the section that ends at the end of the file last, and its '*** End of File' after it."),
            ));
        }
        #[cfg(test)]
        CR_SEARCHES.with(|c| c.set(c.get() + usize::from(self.cr)));
        if self.cr && memchr::memchr(b'\r', raw.as_bytes()).is_some() {
            return Err(invalid(n, raw, "the line contains a carriage return (\\r) inside it. Only whole lines ending in \\n or \\r\\n are allowed; the input's own line breaks are kept by the engine.".to_string()));
        }
        // Most lines are context, removed or added lines, which no header or
        // marker starts like: read them before looking for those.
        if let Some(kind) = line_kind(raw) {
            return Ok(Step::Line(DiffLine { kind, text: raw.get(1..).unwrap_or(""), line: n }));
        }
        // A section still waiting for its first line, if the last one is.
        let open_header = self.open.as_ref().filter(|s| s.lines == 0);
        if raw == "@@" {
            if let Some(s) = open_header {
                return Err(if s.anchors.is_empty() { empty_hunk(s.first_line()) } else { bare_after_anchor(&s.anchors, n) });
            }
            Ok(Step::Open { header: n, anchor: None })
        } else if let Some(text) = raw.strip_prefix("@@ ") {
            let anchor = Anchor { text, line: n };
            Ok(if open_header.is_some() { Step::Anchor(anchor) } else { Step::Open { header: n, anchor: Some(anchor) } })
        } else if raw.starts_with("@@") {
            Err(invalid(
                n,
                raw,
                "a section header is '@@' alone, or '@@ ' (one space) followed by a line of the input to anchor on.".to_string(),
            ))
        } else if raw == "*** End of File" {
            match &self.open {
                Some(s) if s.lines > 0 => Ok(Step::Eof(n)),
                Some(s) => Err(empty_hunk(s.first_line())),
                None => Err(Error::new(
                    ErrorKind::EmptyHunk,
                    format!("Diff line {n}: '*** End of File' has no section above it. It marks the end of a section whose lines must be the last lines of the input; put those lines (or the '+' lines to append) before it."),
                )
                .at_diff_line(n)),
            }
        } else if raw.starts_with("***") {
            Err(invalid(n, raw, star_line_help(raw)))
        } else {
            Err(invalid(n, raw, prefix_help(raw)))
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Lines Strict's reader searched for a carriage return (tests: a diff
    /// without one is searched once, as a whole, not line by line).
    static CR_SEARCHES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// What a diff line starting with its prefix is: an empty line or one
/// starting with a space is context, `-` removed, `+` added; any other is
/// not such a line.
fn line_kind(raw: &str) -> Option<LineKind> {
    match raw.as_bytes().first() {
        None | Some(b' ') => Some(LineKind::Context),
        Some(b'-') => Some(LineKind::Remove),
        Some(b'+') => Some(LineKind::Add),
        Some(_) => None,
    }
}

/// The lines a section has room for when its first line is read.
const FIRST_LINES: usize = 16;

/// Adds what one line did to the sections read so far.
fn build<'d>(sections: &mut Vec<Section<'d>>, step: Step<'d>) {
    match step {
        Step::Open { header, anchor } => {
            sections.push(Section { header: Some(header), anchors: anchor.into_iter().collect(), ..Section::default() })
        }
        Step::Anchor(a) => {
            if let Some(s) = sections.last_mut() {
                s.anchors.push(a);
            }
        }
        Step::Line(l) => {
            if sections.is_empty() {
                sections.push(Section::default());
            }
            if let Some(s) = sections.last_mut() {
                if s.lines.capacity() == 0 {
                    // A Vec grows to 4, 8, then 16: most sections have a
                    // dozen lines, so they start at 16 (at most 16 unused a
                    // section) instead of growing three times.
                    s.lines.reserve_exact(FIRST_LINES);
                }
                s.lines.push(l);
            }
        }
        Step::Eof(n) => {
            if let Some(s) = sections.last_mut() {
                s.eof = Some(n);
            }
        }
        Step::Skip => {}
    }
}

/// Reads every line of `diff` (numbered from `first_line`) into sections.
fn read_all<'d>(reader: &mut Reader, diff: &'d str, first_line: usize) -> Result<Vec<Section<'d>>> {
    let mut sections: Vec<Section> = Vec::new();
    for (i, line) in diff_lines(diff).enumerate() {
        let step = reader.read(first_line + i, line)?;
        build(&mut sections, step);
    }
    Ok(sections)
}

/// Codex's update-hunk state machine (codex-rs streaming_parser), for one body.
pub fn parse_codex<'d>(diff: &'d str, end: &BodyEnd) -> Result<Diff<'d>> {
    let mut reader = Reader::over(Mode::Codex, diff);
    let sections = read_all(&mut reader, diff, end.first_line)?;
    reader.finish_codex(end)?;
    Ok(Diff { sections })
}

fn parse_strict(diff: &str, first_line: usize) -> Result<Diff<'_>> {
    let mut reader = Reader::over(Mode::Strict, diff);
    let sections = read_all(&mut reader, diff, first_line)?;
    reader.finish_strict()?;
    Ok(Diff { sections })
}

fn invalid(n: usize, raw: &str, why: String) -> Error {
    Error::new(ErrorKind::InvalidLine, format!("Diff line {n} ({}) is not valid: {why}", show(raw))).at_diff_line(n)
}

fn empty_hunk(n: usize) -> Error {
    Error::new(
        ErrorKind::EmptyHunk,
        format!("The section starting at diff line {n} has no lines under its '@@' header. Give it its context (' '), removed ('-') and added ('+') lines, or remove the header."),
    )
    .at_diff_line(n)
}

/// A bare `@@` right after anchors (`@@ class Only` then `@@`): it starts a
/// new section, leaving the anchors' section empty.
fn bare_after_anchor(anchors: &[usize], n: usize) -> Error {
    let lines: Vec<String> = anchors.iter().map(|a| a.to_string()).collect();
    let (what, those) = if lines.len() == 1 { ("anchor", "it") } else { ("anchors", "them") };
    Error::new(
        ErrorKind::EmptyHunk,
        format!(
            "Diff line {n} is a bare '@@', which starts a new section, so the section of the {what} above it (diff line {}) has no lines. To use the {what} for the lines below, remove the bare '@@' on diff line {n}: anchors written one after another narrow step by step, and the section's lines follow {those}.",
            lines.join(", ")
        ),
    )
    .at_diff_line(n)
}

fn star_line_help(raw: &str) -> String {
    let trimmed = raw.trim();
    if ["*** Begin Patch", "*** End Patch"].contains(&trimmed)
        || ["*** Update File:", "*** Add File:", "*** Delete File:", "*** Move to:"].iter().any(|h| trimmed.starts_with(h))
    {
        "this is a header of a whole '*** Begin Patch' patch, but apply() takes one update diff: the lines after '*** Update File: <path>'. Pass the whole patch to applyFiles(), or only the update's body to apply().".to_string()
    } else if trimmed.starts_with("*** End of File") {
        "the end-of-file marker must be exactly '*** End of File', with nothing after it.".to_string()
    } else {
        "the only '***' line allowed in an update diff is '*** End of File'.".to_string()
    }
}

fn prefix_help(raw: &str) -> String {
    let first = raw.chars().next().map_or(String::new(), |c| show(&c.to_string()));
    format!(
        "every line of a section starts with ' ' (context), '-' (removed) or '+' (added), and this one starts with {first}. If it is a line of the input, put a space before it, even when it is empty or starts with a tab."
    )
}

/// Quotes a line for a message: single quotes, control characters escaped,
/// very long lines shortened.
pub fn show(s: &str) -> String {
    const MAX: usize = 160;
    let mut out = String::with_capacity(s.len().min(MAX) + 2);
    out.push('\'');
    for (count, c) in s.chars().enumerate() {
        if count >= MAX {
            out.push('…');
            break;
        }
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(diff: &str) -> Result<Diff<'_>> {
        parse(diff, Mode::Strict, 1)
    }

    #[test]
    fn only_a_diff_with_a_carriage_return_is_searched_line_by_line() {
        let searched = |diff: &str| {
            CR_SEARCHES.with(|c| c.set(0));
            let ok = strict(diff).is_ok();
            (ok, CR_SEARCHES.with(|c| c.get()))
        };
        let lines: String = (0..100).map(|i| format!(" line {i}\n")).collect();
        assert_eq!(searched(&format!("@@\n{lines}-a\n+b\n")), (true, 0));
        assert_eq!(searched(&format!("@@\r\n{lines}-a\n+b\n")), (true, 103));
    }

    #[test]
    fn searches_count_two_per_section_and_one_per_anchor() {
        assert_eq!(strict("@@\n-a\n+b\n").map(|d| d.searches()), Ok(2));
        assert_eq!(strict("@@ class A\n@@ def f\n-a\n+b\n@@\n-c\n+d\n").map(|d| d.searches()), Ok(6));
    }

    #[test]
    fn lines_and_final_break() {
        assert_eq!(diff_lines("").count(), 0);
        assert_eq!(diff_lines("\n").collect::<Vec<_>>(), [""]);
        assert_eq!(diff_lines("-a\r\n+b\r\n").collect::<Vec<_>>(), ["-a", "+b"]);
        assert_eq!(diff_lines("-a\n+b").collect::<Vec<_>>(), ["-a", "+b"]);
    }

    #[test]
    fn sections_anchors_and_line_numbers() {
        let d = strict("@@ a\n@@ b\n x\n-y\n+z\n@@\n\n+w\n*** End of File").unwrap();
        assert_eq!(d.sections.len(), 2);
        let s = &d.sections[0];
        assert_eq!(s.anchors.iter().map(|a| (a.text, a.line)).collect::<Vec<_>>(), [("a", 1), ("b", 2)]);
        assert_eq!(s.lines.iter().map(|l| l.line).collect::<Vec<_>>(), [3, 4, 5]);
        let t = &d.sections[1];
        assert_eq!(t.header, Some(6));
        assert_eq!(t.lines[0], DiffLine { kind: LineKind::Context, text: "", line: 7 });
        assert_eq!(t.eof, Some(9));
        assert_eq!(strict("@@ ").unwrap_err().kind, ErrorKind::EmptyHunk);
        assert_eq!(strict("@@ \n+a").unwrap().sections[0].anchors[0].text, "");
    }

    #[test]
    fn rejects() {
        let kind = |d| strict(d).unwrap_err().kind;
        assert_eq!(kind("@@invalid\n-a"), ErrorKind::InvalidLine);
        assert_eq!(kind("@@"), ErrorKind::EmptyHunk);
        assert_eq!(kind("@@\n@@\n-a"), ErrorKind::EmptyHunk);
        assert_eq!(kind("*** End of File"), ErrorKind::EmptyHunk);
        assert_eq!(kind("-a\n*** End of File\n+c"), ErrorKind::InvalidLine);
        assert_eq!(kind("*** Update File: x"), ErrorKind::InvalidLine);
        assert_eq!(kind("*** End of File garbage"), ErrorKind::InvalidLine);
        assert_eq!(kind("\tx"), ErrorKind::InvalidLine);
        assert_eq!(kind("-a\rb"), ErrorKind::InvalidLine);
        let e = strict(" a\n-b\nplain").unwrap_err();
        assert_eq!(e.diff_line, Some(3));
        assert!(e.message.contains("'plain'"), "{}", e.message);
    }
}
