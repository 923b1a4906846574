//! The types of edit blocks: an [`Edit`], the [`Options`] and presets, a
//! [`Strategy`], and what an application answers ([`Outcome`],
//! [`EditResult`], [`Failure`] and its parts); and Python's `strip()`, which
//! every rung uses. At the bottom of `blocks/`: it imports none of its files.

use crate::repair::context::{Allow, Repair};
use crate::text::Splice;

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
    /// written is not found) and, in [`apply_blocks_in`](super::apply_blocks_in), `file-name`. None
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
    /// [`apply_blocks`](super::apply_blocks): the block names a file that is not there (or none).
    UnknownFile,
    /// With `empty_search`: an empty SEARCH text on a non-empty file.
    EmptySearch,
    /// With `no_change`: the SEARCH and REPLACE texts are the same.
    NoChange,
    /// The package's `base` option: the edit applied to the text it was
    /// written against, but the text changed since in the same places
    /// ([`crate::merge::merge_into`] found a conflict).
    MergeConflict,
}

impl Reason {
    /// Every reason, in a fixed order.
    pub const ALL: &'static [Reason] =
        &[Reason::NotFound, Reason::Ambiguous, Reason::UnknownFile, Reason::EmptySearch, Reason::NoChange, Reason::MergeConflict];

    /// The name the JS API uses: `"not-found"`, `"ambiguous"`, `"unknown-file"`,
    /// `"empty-search"`, `"no-change"` or `"merge-conflict"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NotFound => "not-found",
            Reason::Ambiguous => "ambiguous",
            Reason::UnknownFile => "unknown-file",
            Reason::EmptySearch => "empty-search",
            Reason::NoChange => "no-change",
            Reason::MergeConflict => "merge-conflict",
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

/// What [`find`](super::find) decided for one edit, without the new text.
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

/// The result of [`apply_edit`](super::apply_edit).
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
    pub(super) fn new(source: &str, outcome: Outcome) -> Self {
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

/// The result of [`apply_edits`](super::apply_edits).
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
