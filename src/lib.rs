//! # applypatch
//!
//! Applies the edits coding agents write: exactly what the model meant, or an
//! [`Error`] the model can act on, and never a half-applied or misplaced edit.
//!
//! - V4A update diffs (the `diff` of the Responses API `apply_patch` tool):
//!   [`apply`], [`apply_batch`], or [`Mode::apply`] for another mode.
//! - Search/replace edit blocks (`<<<<<<< SEARCH` … `>>>>>>> REPLACE`):
//!   [`blocks::apply_edit`], [`blocks::apply_edits`], [`blocks::parse_blocks`]
//!   — apply-edit-block's ladder by default, or a safe preset.
//!
//! The engine is plain Rust with no JS types; `src/wasm.rs` binds it for the
//! npm package. It never panics: bad input gets an [`Error`].
//!
//! ```
//! let out = applypatch::apply("def greet():\n    print(\"Hi\")\n",
//!     "@@ def greet():\n-    print(\"Hi\")\n+    print(\"Hello\")").unwrap();
//! assert_eq!(out, "def greet():\n    print(\"Hello\")\n");
//! ```
// Errors are the rare path and carry several locations; their public fields
// are easier to use than a boxed error, so a large Err variant is accepted.
#![allow(clippy::result_large_err)]
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::unreachable, clippy::todo)
)]

pub mod blocks;
pub mod diff;
pub mod error;
pub mod files;
pub mod matcher;
pub mod patch;
pub mod repair;
pub mod text;
pub mod tool;
pub mod unified;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{Conflict, Error, ErrorKind, Nearest, Result};
pub use text::Splice;

use diff::{Dialect, Diff};
use matcher::index::Index;
use matcher::Edit;
use text::{FinalNewline, Lines};

/// How a diff is matched against its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Anchors, context and removed lines match byte for byte and exactly
    /// once, in file order, or the diff fails. Line breaks (LF or CRLF) and a
    /// missing final newline are kept; mixed line breaks are an error.
    #[default]
    Strict,
    /// What the OpenAI Codex CLI's `apply_patch` (0.171.0) writes: the first
    /// match after the previous chunk, found exactly or else ignoring
    /// trailing whitespace, surrounding whitespace, then also Unicode dashes,
    /// quotes and spaces; pure insertions appended at the end of the file;
    /// each line keeps its own ending (new lines take the file's first); the
    /// result always ends with a newline. A batch applies its diffs one after
    /// another, like consecutive `apply_patch` calls.
    Codex,
}

/// The changes a diff makes to one input: byte ranges of the input and their
/// new text, sorted and disjoint. [`Changes::apply`] builds the new text; the
/// JS binding sends only these, not the whole text, back across the boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub splices: Vec<Splice>,
}

impl Changes {
    /// The new text: `input` with every splice applied.
    pub fn apply(&self, input: &str) -> String {
        text::apply_splices(input, &self.splices)
    }
}

impl Mode {
    /// Applies one update diff to `input`.
    pub fn apply(self, input: &str, diff: &str) -> Result<String> {
        Ok(self.changes(input, diff)?.apply(input))
    }

    /// Applies several diffs to one input. In Strict mode every diff targets
    /// the original input, and the batch fails as a whole when a diff fails or
    /// two diffs touch the same lines (or insert at the same place).
    pub fn apply_batch<S: AsRef<str>>(self, input: &str, diffs: &[S]) -> Result<String> {
        Ok(self.batch_changes(input, diffs)?.apply(input))
    }

    /// The changes [`Mode::apply`] would make, without building the text.
    pub fn changes(self, input: &str, diff: &str) -> Result<Changes> {
        match self {
            Mode::Strict => strict_changes(input, &[diff], false, &mut repair::Ctx::default()),
            Mode::Codex => codex(input, &[diff], false),
        }
    }

    /// The changes [`Mode::apply_batch`] would make.
    pub fn batch_changes<S: AsRef<str>>(self, input: &str, diffs: &[S]) -> Result<Changes> {
        match self {
            Mode::Strict => strict_changes(input, diffs, true, &mut repair::Ctx::default()),
            Mode::Codex => codex(input, diffs, true),
        }
    }

    pub(crate) fn dialect(self) -> Dialect {
        match self {
            Mode::Strict => Dialect::Strict,
            Mode::Codex => Dialect::Codex,
        }
    }

    /// Applies a parsed update body to `input` (`path` names the file in
    /// messages). Used by `apply` and by the file operations of a patch.
    pub(crate) fn apply_parsed(self, input: &str, diff: &Diff, path: Option<&str>) -> Result<String> {
        self.apply_parsed_with(input, diff, path, &mut repair::Ctx::default())
    }

    /// [`Mode::apply_parsed`] with the repairs `ctx` allows (Strict only).
    pub(crate) fn apply_parsed_with(self, input: &str, diff: &Diff, path: Option<&str>, ctx: &mut repair::Ctx) -> Result<String> {
        let lines = Lines::split(input);
        let idx = Index::new(&lines);
        let splices = match self {
            Mode::Strict => {
                let nl = matcher::strict::newline(&lines)?;
                let edits: Vec<_> = matcher::strict::plan_with(&idx, diff, ctx)?.into_iter().map(|e| e.edit).collect();
                text::splices(&lines, &edits, nl, FinalNewline::Keep)
            }
            Mode::Codex => {
                let edits: Vec<_> = matcher::codex::plan(&idx, diff, path)?.into_iter().map(|e| e.edit).collect();
                text::splices(&lines, &edits, lines.first_ending(), FinalNewline::Always)
            }
        };
        Ok(text::apply_splices(input, &splices))
    }
}

/// Applies an update diff in Strict mode (the default).
pub fn apply(input: &str, diff: &str) -> Result<String> {
    Mode::Strict.apply(input, diff)
}

/// Applies several update diffs to one input in Strict mode.
pub fn apply_batch<S: AsRef<str>>(input: &str, diffs: &[S]) -> Result<String> {
    Mode::Strict.apply_batch(input, diffs)
}

/// Codex over one diff or a batch: each diff applies to the previous one's
/// output. The changes come back as one splice around what differs.
fn codex<S: AsRef<str>>(input: &str, diffs: &[S], batch: bool) -> Result<Changes> {
    let tag = |i: usize| move |e: Error| if batch { e.in_batch(i) } else { e };
    let parsed: Vec<Diff> =
        diffs.iter().enumerate().map(|(i, d)| diff::parse(d.as_ref(), Dialect::Codex, 1).map_err(tag(i))).collect::<Result<_>>()?;
    if let [only] = parsed.as_slice() {
        let lines = Lines::split(input);
        let idx = Index::new(&lines);
        let edits: Vec<_> = matcher::codex::plan(&idx, only, None)?.into_iter().map(|e| e.edit).collect();
        return Ok(Changes { splices: text::splices(&lines, &edits, lines.first_ending(), FinalNewline::Always) });
    }
    let mut current = input.to_string();
    for (i, d) in parsed.iter().enumerate() {
        current = Mode::Codex.apply_parsed(&current, d, None).map_err(tag(i))?;
    }
    Ok(Changes { splices: text::difference(input, &current).into_iter().collect() })
}

/// Strict over one diff or a batch (`batch`: errors and repairs name the
/// diff's index), with the repairs `ctx` allows.
pub(crate) fn strict_changes<S: AsRef<str>>(input: &str, diffs: &[S], batch: bool, ctx: &mut repair::Ctx) -> Result<Changes> {
    let tag = |i: usize| move |e: Error| if batch { e.in_batch(i) } else { e };
    let parsed: Vec<Diff> =
        diffs.iter().enumerate().map(|(i, d)| diff::parse(d.as_ref(), Mode::Strict.dialect(), 1).map_err(tag(i))).collect::<Result<_>>()?;
    let lines = Lines::split(input);
    let nl = matcher::strict::newline(&lines)?;
    let idx = Index::new(&lines);
    let mut tagged: Vec<(usize, Edit)> = Vec::new();
    for (i, d) in parsed.iter().enumerate() {
        let before = ctx.repairs.len();
        let edits = matcher::strict::plan_with(&idx, d, ctx).map_err(tag(i))?;
        for r in ctx.repairs.iter_mut().skip(before).filter(|_| batch) {
            r.diff = Some(i);
        }
        tagged.extend(edits.into_iter().map(|e| (i, e)));
    }
    if parsed.len() > 1 {
        tagged.sort_by_key(|(i, e)| (e.edit.start, e.edit.end, *i));
        check_overlaps(&tagged)?;
    }
    let edits: Vec<text::LineEdit> = tagged.into_iter().map(|(_, e)| e.edit).collect();
    Ok(Changes { splices: text::splices(&lines, &edits, nl, FinalNewline::Keep) })
}

/// Two edits of different diffs conflict when they change a common line, or
/// one inserts where the other starts, ends or inserts: their order would be
/// a guess. `edits` is sorted by start.
fn check_overlaps(edits: &[(usize, Edit)]) -> Result<()> {
    let mut active: Vec<&(usize, Edit)> = Vec::new();
    for cur in edits {
        let (ci, ce) = (cur.0, &cur.1.edit);
        active.retain(|(_, e)| e.edit.end >= ce.start);
        for prev in &active {
            let (pi, pe) = (prev.0, &prev.1.edit);
            if pi == ci {
                continue;
            }
            let touching = ce.start == pe.end && (ce.start == ce.end || pe.start == pe.end);
            if ce.start < pe.end || touching {
                let (first, second) = if pi < ci { (*prev, cur) } else { (cur, *prev) };
                let what = |e: &text::LineEdit| {
                    if e.start == e.end {
                        format!("inserts before input line {}", e.start + 1)
                    } else if e.end - e.start == 1 {
                        format!("changes input line {}", e.start + 1)
                    } else {
                        format!("changes input lines {}-{}", e.start + 1, e.end)
                    }
                };
                let message = format!(
                    "diff {} (diff line {}) {} and diff {} (diff line {}) {}. Every diff of a batch applies to the original input, so two diffs may not change the same lines or insert at the same place: merge them into one diff.",
                    first.0 + 1,
                    first.1.diff_line,
                    what(&first.1.edit),
                    second.0 + 1,
                    second.1.diff_line,
                    what(&second.1.edit)
                );
                let mut err = Error::new(ErrorKind::Overlap, message)
                    .at_diff_line(second.1.diff_line)
                    .at_input_lines([first.1.edit.start + 1, second.1.edit.start + 1]);
                err.diff = Some(second.0);
                err.conflict = Some(Conflict { diff: first.0, diff_line: Some(first.1.diff_line) });
                return Err(err);
            }
        }
        active.push(cur);
    }
    Ok(())
}
