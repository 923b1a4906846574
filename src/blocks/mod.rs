//! Search/replace edit blocks (the `<<<<<<< SEARCH` / `=======` /
//! `>>>>>>> REPLACE` edits of aider, Cline and Roo), applied with the ladder
//! of the apply-edit-block package, and a `safe` preset that refuses the
//! guesses that corrupt files.
//!
//! An edit is tried with each strategy in turn; the first that matches wins:
//!
//! | strategy | matches |
//! | --- | --- |
//! | `empty-search` | an empty SEARCH text: the replacement is put first |
//! | `exact` | the SEARCH text as a substring |
//! | `trailing-ws` | whole lines equal but for trailing spaces and tabs |
//! | `indent` | whole lines equal but for leading spaces and tabs; the replacement is re-indented |
//! | `anchor` | the first and last non-blank SEARCH lines, `anchor_slack` lines apart at most from where the SEARCH text puts them |
//! | `fuzzy` | the window of as many lines whose line-LCS [`similarity()`] is highest, if at least `threshold` |
//!
//! [`Options::SAFE`] (the default) refuses the guesses that damage files:
//! see [`Options`]. With [`Options::COMPATIBLE`] every result — `ok`, text,
//! strategy, similarity, offsets — is apply-edit-block 0.1.0's, quirks
//! included.
//!
//! **Offsets are byte offsets** into the text the edit was applied to (the
//! npm package turns them into UTF-16 code units; apply-edit-block's are code
//! points). Line numbers in failure reports are 1-based.
//!
//! ```
//! use applypatch::blocks::{apply_edit, Edit, Options, Strategy};
//!
//! let source = "def f():\n    return 1\n";
//! let edit = Edit::new("def f():\n  return 1", "def f():\n  return 2");
//! // apply-edit-block shifts the replacement by the first lines' difference (0 here)...
//! let r = apply_edit(source, &edit, &Options::COMPATIBLE)?;
//! assert_eq!((r.strategy, r.text.as_str()), (Some(Strategy::Indent), "def f():\n  return 2\n"));
//! // ...the safe preset keeps the nesting, in the file's indentation.
//! let r = apply_edit(source, &edit, &Options::SAFE)?;
//! assert_eq!(r.text, "def f():\n    return 2\n");
//!
//! // The safe preset refuses an edit that matches two places.
//! let r = apply_edit("x = 1\nx = 1\n", &Edit::new("x = 1", "x = 2"), &Options::SAFE)?;
//! assert!(!r.ok);
//! assert_eq!(r.matches, 2);
//! # Ok::<(), applypatch::Error>(())
//! ```

mod checks;
mod explain;
mod files;
mod indent;
mod ladder;
mod names;
mod numbers;
mod parse;
mod similarity;

use std::borrow::Cow;

pub use files::{
    apply_blocks, apply_blocks_in, apply_named_blocks_to, apply_parsed_blocks, apply_parsed_blocks_to, name_blocks, BlockResult,
    BlocksResult, NamedBlocks,
};
pub use parse::{parse_blocks, parse_blocks_detailed, Parsed, ParsedEdit, Problem};
pub use similarity::similarity;

use crate::error::{Error, Result};
use crate::repair::{Allow, Repair, RepairKind};
use crate::text::Splice;
use ladder::{Found, Reindent, Src};

/// One search/replace edit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Edit {
    /// The text to find (SEARCH).
    pub search: String,
    /// The text to put there (REPLACE).
    pub replace: String,
    /// Roo Code's `:start_line:N`: the 1-based line of the file where the
    /// SEARCH text starts, as the model read it. With
    /// [`Options::line_hints`], it chooses among several equal matches.
    #[cfg_attr(feature = "serde", serde(rename = "startLine", skip_serializing_if = "Option::is_none"))]
    pub start_line: Option<usize>,
    /// Roo Code's `:end_line:N` (kept, not used for matching).
    #[cfg_attr(feature = "serde", serde(rename = "endLine", skip_serializing_if = "Option::is_none"))]
    pub end_line: Option<usize>,
    /// continue.dev's `replace_all`: replace every non-overlapping exact
    /// occurrence of the SEARCH text (also [`Options::replace_all`]).
    #[cfg_attr(feature = "serde", serde(rename = "replaceAll", skip_serializing_if = "std::ops::Not::not"))]
    pub replace_all: bool,
}

impl Edit {
    /// An edit from its SEARCH and REPLACE texts.
    pub fn new(search: impl Into<String>, replace: impl Into<String>) -> Self {
        Edit { search: search.into(), replace: replace.into(), ..Edit::default() }
    }
}

/// The strategy (rung of the ladder) that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Strategy {
    /// An empty SEARCH text: the replacement goes first.
    EmptySearch,
    /// The SEARCH text as a substring.
    Exact,
    /// Whole lines, equal but for trailing spaces and tabs.
    TrailingWs,
    /// Whole lines, equal but for leading spaces and tabs; the replacement
    /// is re-indented.
    Indent,
    /// The first and last non-blank SEARCH lines, within `anchor_slack`.
    Anchor,
    /// The most similar window of as many lines, if at least `threshold`.
    Fuzzy,
}

impl Strategy {
    /// Every strategy, in ladder order.
    pub const ALL: &'static [Strategy] =
        &[Strategy::EmptySearch, Strategy::Exact, Strategy::TrailingWs, Strategy::Indent, Strategy::Anchor, Strategy::Fuzzy];

    /// The name apply-edit-block uses: `"empty-search"`, `"exact"`,
    /// `"trailing-ws"`, `"indent"`, `"anchor"`, `"fuzzy"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::EmptySearch => "empty-search",
            Strategy::Exact => "exact",
            Strategy::TrailingWs => "trailing-ws",
            Strategy::Indent => "indent",
            Strategy::Anchor => "anchor",
            Strategy::Fuzzy => "fuzzy",
        }
    }
}

/// How edits are matched. Start from [`Options::SAFE`] (the default) or
/// [`Options::COMPATIBLE`] and change single fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// `anchor`: how many lines the gap between the two anchors may differ
    /// from the SEARCH text's (2). Negative: the anchor strategy never matches.
    pub anchor_slack: i64,
    /// `fuzzy`: the lowest similarity accepted (0.85).
    pub threshold: f64,
    /// Fail, listing the candidates, when the winning strategy matches more
    /// than one place (`matches > 1`). Compatible: off (the first place wins).
    pub unique: bool,
    /// `anchor`: the lowest similarity of the lines between the anchors
    /// (stripped, line LCS over the longer side), so that a made-up body
    /// cannot replace whatever lies between two common lines. `0` checks
    /// nothing (compatible); safe: 0.5.
    pub anchor_threshold: f64,
    /// Newline-aware matching: a CRLF file is matched as if it had LF line
    /// breaks (so is the SEARCH text), the replacement is written with the
    /// file's newline (the first line break in the file), a byte order mark
    /// stays first and out of the match, and a SEARCH text that ends with a
    /// newline matches whole lines including their newline (instead of
    /// leaving one behind, which adds a blank line). Compatible: off.
    pub newlines: bool,
    /// `indent` (and `anchor`): the file lines must be nested like the SEARCH
    /// lines (relative indentation, scaled between indentation widths, so a
    /// 2-space or a tabs-as-spaces copy matches), and the replacement keeps
    /// its own nesting, written in the file's indentation (tabs stay tabs).
    /// Compatible: off (a uniform shift in spaces, nesting not checked).
    pub relative_indent: bool,
    /// On failure, a [`Failure`] saying where the closest place is (line
    /// range), how similar it is and which lines differ, or that the REPLACE
    /// text is already there. Compatible: off.
    pub explain: bool,
    /// An empty REPLACE that matched whole lines removes them with their
    /// line breaks (instead of leaving an empty line). Compatible: off.
    pub whole_lines: bool,
    /// An empty SEARCH only creates a file: it is refused on a non-empty file
    /// (the message says how to insert), and the file it creates ends with a
    /// newline. Compatible: off (the REPLACE text is put first, as is).
    pub empty_search: bool,
    /// Fail when the SEARCH and REPLACE texts are the same: nothing would
    /// change. Compatible: off (reported as a plain success).
    pub no_change: bool,
    /// With `unique`, an edit's `start_line` chooses among several equal
    /// matches (exact, or equal but for trailing whitespace): the one that
    /// starts nearest it, within [`LINE_HINT_REACH`] lines, is applied and
    /// the result's `note` says so. Compatible: off.
    pub line_hints: bool,
    /// Every edit replaces all non-overlapping exact occurrences of its
    /// SEARCH text (as if each had `replace_all`). Off in both presets.
    pub replace_all: bool,
    /// The repairs allowed, each reported in the result's `repairs`:
    /// `line-numbers` (a SEARCH text whose lines carry read-tool prefixes
    /// that are their own line numbers in the file, tried when the text as
    /// written is not found) and, in [`apply_blocks_in`], `file-name`. None
    /// in both presets.
    pub repair: Allow,
}

/// How far (in lines) from an edit's `start_line` a match may start and
/// still be chosen by it.
pub const LINE_HINT_REACH: usize = 5;

impl Options {
    /// apply-edit-block's behaviour, exactly.
    pub const COMPATIBLE: Options = Options {
        anchor_slack: 2,
        threshold: 0.85,
        unique: false,
        anchor_threshold: 0.0,
        newlines: false,
        relative_indent: false,
        explain: false,
        whole_lines: false,
        empty_search: false,
        no_change: false,
        line_hints: false,
        replace_all: false,
        repair: Allow::NONE,
    };

    /// Every improvement on (the default): `unique`, `anchor_threshold` 0.5,
    /// `newlines`, `relative_indent`, `explain`, `whole_lines`,
    /// `empty_search`, `no_change`, `line_hints`; slack and threshold as
    /// compatible.
    pub const SAFE: Options = Options {
        anchor_slack: 2,
        threshold: 0.85,
        unique: true,
        anchor_threshold: 0.5,
        newlines: true,
        relative_indent: true,
        explain: true,
        whole_lines: true,
        empty_search: true,
        no_change: true,
        line_hints: true,
        replace_all: false,
        repair: Allow::NONE,
    };
}

impl Options {
    /// The options as a binding passes them in one value: their names as the
    /// JS API spells them, in the order of [`Options::to_numbers`], and
    /// whether each is a flag (1 or 0) rather than a number.
    pub const FIELDS: [(&'static str, bool); 13] = [
        ("anchorSlack", false),
        ("threshold", false),
        ("anchorThreshold", false),
        ("unique", true),
        ("newlines", true),
        ("relativeIndent", true),
        ("explain", true),
        ("wholeLines", true),
        ("emptySearch", true),
        ("noChange", true),
        ("lineHints", true),
        ("replaceAll", true),
        ("repair", false),
    ];

    /// The options as numbers, in the order of [`Options::FIELDS`] (flags as
    /// 1 or 0; `repair` as the bits of [`Allow::bits`]).
    pub fn to_numbers(&self) -> [f64; 13] {
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        [
            self.anchor_slack as f64,
            self.threshold,
            self.anchor_threshold,
            flag(self.unique),
            flag(self.newlines),
            flag(self.relative_indent),
            flag(self.explain),
            flag(self.whole_lines),
            flag(self.empty_search),
            flag(self.no_change),
            flag(self.line_hints),
            flag(self.replace_all),
            f64::from(self.repair.bits()),
        ]
    }

    /// Options from numbers in the order of [`Options::FIELDS`] (a missing
    /// number keeps the compatible value; a flag is on unless 0). A slack
    /// that is not a whole number is read as apply-edit-block compares
    /// `|gap| <= slack`: a fraction rounds down, NaN and negative numbers
    /// never match, infinity always may.
    pub fn from_numbers(values: &[f64]) -> Options {
        let c = Options::COMPATIBLE;
        let at = |i: usize| values.get(i).copied();
        let flag = |i: usize, default: bool| at(i).map_or(default, |v| v != 0.0);
        let anchor_slack = match at(0) {
            None => c.anchor_slack,
            Some(v) if v.is_nan() => -1,
            Some(v) => v.floor().clamp(-1.0, i64::MAX as f64) as i64,
        };
        Options {
            anchor_slack,
            threshold: at(1).unwrap_or(c.threshold),
            anchor_threshold: at(2).unwrap_or(c.anchor_threshold),
            unique: flag(3, c.unique),
            newlines: flag(4, c.newlines),
            relative_indent: flag(5, c.relative_indent),
            explain: flag(6, c.explain),
            whole_lines: flag(7, c.whole_lines),
            empty_search: flag(8, c.empty_search),
            no_change: flag(9, c.no_change),
            line_hints: flag(10, c.line_hints),
            replace_all: flag(11, c.replace_all),
            repair: at(12).filter(|v| v.is_finite() && *v >= 0.0).map_or(c.repair, |v| Allow::from_bits(v.min(f64::from(u32::MAX)) as u32)),
        }
    }
}

impl Default for Options {
    /// [`Options::SAFE`]: never a silently misplaced or damaging edit.
    fn default() -> Self {
        Options::SAFE
    }
}

/// Why an edit was not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Reason {
    /// No strategy matched.
    NotFound,
    /// With `unique`: the winning strategy matched several places.
    Ambiguous,
    /// [`apply_blocks`]: the block names a file that is not there (or none).
    UnknownFile,
    /// With `empty_search`: an empty SEARCH text on a non-empty file.
    EmptySearch,
    /// With `no_change`: the SEARCH and REPLACE texts are the same.
    NoChange,
}

impl Reason {
    /// Every reason, in a fixed order.
    pub const ALL: &'static [Reason] = &[Reason::NotFound, Reason::Ambiguous, Reason::UnknownFile, Reason::EmptySearch, Reason::NoChange];

    /// The name the JS API uses: `"not-found"`, `"ambiguous"`, `"unknown-file"`,
    /// `"empty-search"` or `"no-change"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NotFound => "not-found",
            Reason::Ambiguous => "ambiguous",
            Reason::UnknownFile => "unknown-file",
            Reason::EmptySearch => "empty-search",
            Reason::NoChange => "no-change",
        }
    }
}

/// 1-based, inclusive range of lines of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LineRange {
    /// The first line.
    #[cfg_attr(feature = "serde", serde(rename = "startLine"))]
    pub start: usize,
    /// The last line.
    #[cfg_attr(feature = "serde", serde(rename = "endLine"))]
    pub end: usize,
}

/// How a SEARCH line and the file differ at the closest place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum DifferenceKind {
    /// The lines differ only in whitespace.
    Whitespace,
    /// The SEARCH line is a different line in the file.
    Changed,
    /// The SEARCH line has no counterpart in the file there.
    NotInFile,
    /// The file has a line there that the SEARCH text does not.
    NotInSearch,
}

impl DifferenceKind {
    /// Every kind, in a fixed order.
    pub const ALL: &'static [DifferenceKind] =
        &[DifferenceKind::Whitespace, DifferenceKind::Changed, DifferenceKind::NotInFile, DifferenceKind::NotInSearch];

    /// The name the JS API uses: `"whitespace"`, `"changed"`,
    /// `"not-in-file"` or `"not-in-search"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DifferenceKind::Whitespace => "whitespace",
            DifferenceKind::Changed => "changed",
            DifferenceKind::NotInFile => "not-in-file",
            DifferenceKind::NotInSearch => "not-in-search",
        }
    }
}

/// One difference between the SEARCH text and the closest place.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Difference {
    /// How the lines differ.
    pub kind: DifferenceKind,
    /// 1-based line in the SEARCH text.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub search_line: Option<usize>,
    /// That SEARCH line's text.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub search: Option<String>,
    /// 1-based line in the file.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub file_line: Option<usize>,
    /// That file line's text.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub file: Option<String>,
}

/// The place in the file that came closest to the SEARCH text.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct NearestBlock {
    /// The lines of the file.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub lines: LineRange,
    /// Share of the SEARCH lines found there in order, ignoring whitespace
    /// around each line (line LCS over the longer side).
    pub similarity: f64,
    /// The file's lines there, joined with `\n`.
    pub text: String,
    /// The differing lines, in order (at most 50).
    pub differences: Vec<Difference>,
}

/// What is known about a failed edit (with `explain`, or `unique` for
/// ambiguity).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Failure {
    /// Not found, or ambiguous.
    pub reason: Reason,
    /// For the model: what failed, where, and what to change.
    pub message: String,
    /// `Ambiguous`: the places matched (at most 20; `matches` counts all).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub candidates: Vec<LineRange>,
    /// `NotFound` with `explain`: the closest place.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nearest: Option<NearestBlock>,
    /// `NotFound` with `explain`: where the REPLACE text already is, when it
    /// is in the file as it stands (the edit was probably applied already).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub already_applied: Option<LineRange>,
}

/// What [`find`] decided for one edit, without the new text.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The strategy that matched; `None` on failure.
    pub strategy: Option<Strategy>,
    /// apply-edit-block's similarity: 1 for `empty-search` and `exact`, the
    /// line similarity of the SEARCH text and the replaced text otherwise; on
    /// failure the best fuzzy window's score (0 when there is none).
    pub similarity: f64,
    /// How many places the winning strategy matched (for `fuzzy`, windows
    /// that overlap a better one are the same place); 0 on a plain failure.
    pub matches: usize,
    /// On success: bytes `start..end` of the source are replaced by `text`
    /// (the REPLACE text, re-indented and with the file's newline as the
    /// options say).
    pub splice: Option<Splice>,
    /// Why the edit failed, with `explain` or `unique`.
    pub failure: Option<Failure>,
    /// On success, what the caller should know about how the edit was
    /// placed: chosen among several matches by its `start_line`, or how many
    /// places `replace_all` replaced.
    pub note: Option<String>,
    /// On success, the repairs [`Options::repair`] allowed that placed it.
    pub repairs: Vec<Repair>,
}

impl Outcome {
    /// Whether the edit applies.
    pub fn ok(&self) -> bool {
        self.splice.is_some()
    }
}

/// The result of [`apply_edit`].
#[derive(Clone, Debug, PartialEq)]
pub struct EditResult {
    /// Whether the edit applied.
    pub ok: bool,
    /// The new text; on failure the source unchanged.
    pub text: String,
    /// The strategy that matched; `None` on failure.
    pub strategy: Option<Strategy>,
    /// apply-edit-block's similarity (see [`Outcome::similarity`]).
    pub similarity: f64,
    /// Bytes of the source replaced (`None` on failure).
    pub range: Option<std::ops::Range<usize>>,
    /// What was written there.
    pub replacement: String,
    /// How many places the winning strategy matched.
    pub matches: usize,
    /// Why the edit failed, with `explain` or `unique`.
    pub failure: Option<Failure>,
    /// See [`Outcome::note`].
    pub note: Option<String>,
    /// See [`Outcome::repairs`].
    pub repairs: Vec<Repair>,
}

impl EditResult {
    fn new(source: &str, outcome: Outcome) -> Self {
        let Outcome { strategy, similarity, matches, splice, failure, note, repairs } = outcome;
        match splice {
            Some(s) => {
                let text = crate::text::apply_splices(source, std::slice::from_ref(&s));
                EditResult {
                    ok: true,
                    text,
                    strategy,
                    similarity,
                    range: Some(s.start..s.end),
                    replacement: s.text,
                    matches,
                    failure,
                    note,
                    repairs,
                }
            }
            None => EditResult {
                ok: false,
                text: source.to_string(),
                strategy,
                similarity,
                range: None,
                replacement: String::new(),
                matches,
                failure,
                note,
                repairs,
            },
        }
    }
}

/// The result of [`apply_edits`].
#[derive(Clone, Debug, PartialEq)]
pub struct EditsResult {
    /// Whether every edit applied.
    pub ok: bool,
    /// The text after the last edit that applied.
    pub text: String,
    /// One result per edit tried, the failing one last; offsets refer to the
    /// text at that step.
    pub results: Vec<EditResult>,
    /// How many edits applied.
    pub applied: usize,
}

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
        let outcome = match edit.start_line {
            Some(line) if delta != 0 => find(text, &Edit { start_line: Some(line.saturating_add_signed(delta)), ..edit.clone() }, options)?,
            _ => find(text, edit, options)?,
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

/// Python's `str.isspace()` (what apply-edit-block's `strip()` removes):
/// Rust's whitespace plus the separators U+001C..U+001F.
pub(crate) fn py_is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
pub(crate) fn py_strip(s: &str) -> &str {
    // ASCII whitespace byte by byte first (the common case), then any other
    // Unicode whitespace at either end.
    let ascii = |b: &u8| matches!(b, b'\t'..=b'\r' | 0x1c..=0x20);
    let bytes = s.as_bytes();
    let lead = bytes.iter().take_while(|b| ascii(b)).count();
    let trail = bytes.get(lead..).unwrap_or(&[]).iter().rev().take_while(|b| ascii(b)).count();
    let t = s.get(lead..s.len() - trail).unwrap_or("");
    if t.as_bytes().first().is_some_and(|&b| b >= 0x80) || t.as_bytes().last().is_some_and(|&b| b >= 0x80) {
        t.trim_matches(py_is_space)
    } else {
        t
    }
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
        // The numbers say where: the first place they name, among equal ones.
        let stripped =
            Edit { search: numbered.search.clone(), replace: numbered.replace.clone(), start_line: Some(numbered.first), ..edit.clone() };
        let mut repaired = find_as_written(source, &stripped, &Options { line_hints: true, ..*options })?;
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

/// Where the ladder stopped.
pub(crate) enum Climb {
    Matched(Strategy, Found),
    /// No rung matched (the similarity is apply-edit-block's: the best fuzzy score).
    Failed(Outcome),
}

/// The ladder after `empty-search`: the first rung that matches, or the failure.
pub(crate) fn climb(src: &Src, search: &str, replace: &str, options: &Options) -> Result<Climb> {
    if let Some(found) = ladder::exact(src, search) {
        return Ok(Climb::Matched(Strategy::Exact, found));
    }
    let consume = options.newlines && search.ends_with('\n');
    let mut lines: Vec<&str> = search.split('\n').collect();
    if consume {
        lines.pop();
    }
    let ctx = ladder::Ctx::new(src, &lines, consume, options, replace);
    if let Some(found) = ladder::trailing_ws(&ctx) {
        return Ok(Climb::Matched(Strategy::TrailingWs, found));
    }
    if let Some(found) = ladder::indent(&ctx) {
        return Ok(Climb::Matched(Strategy::Indent, found));
    }
    if let Some(found) = ladder::anchor(&ctx)? {
        return Ok(Climb::Matched(Strategy::Anchor, found));
    }
    let fuzzy = ladder::fuzzy(&ctx)?;
    if let Some(found) = fuzzy.found {
        return Ok(Climb::Matched(Strategy::Fuzzy, found));
    }
    let failure = if options.explain { Some(explain::not_found(src, &lines, replace, options, fuzzy.best, &ctx.budget)?) } else { None };
    Ok(Climb::Failed(Outcome {
        strategy: None,
        similarity: fuzzy.best.max(0.0),
        matches: 0,
        splice: None,
        failure,
        note: None,
        repairs: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str, search: &str, replace: &str, options: &Options) -> EditResult {
        apply_edit(source, &Edit::new(search, replace), options).unwrap()
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
