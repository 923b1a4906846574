//! The two modes and what they answer: [`Mode`] applies a diff or a batch
//! (its `apply` and `changes` live in `batch.rs`, with the calls they wrap),
//! and [`Changes`] are the splices of the input that make the new text.

use crate::text::{self, Splice};

/// How a diff is matched against its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
#[non_exhaustive]
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

impl Mode {
    /// Every mode, in a fixed order.
    pub const ALL: &'static [Mode] = &[Mode::Strict, Mode::Codex];

    /// The mode's name, as the JS API spells it: `"strict"` or `"codex"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Strict => "strict",
            Mode::Codex => "codex",
        }
    }
}

/// The changes a diff makes to one input: byte ranges of the input and their
/// new text, sorted and disjoint, and where each section's changed lines
/// landed. [`Changes::apply`] builds the new text; the JS binding sends only
/// these, not the whole text, back across the boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    splices: Vec<Splice>,
    sections: Vec<Placed>,
}

/// Where a run of changed lines of a diff (removed and added lines between
/// context lines) landed in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// 0-based index of the diff in a batch (0 for a single diff).
    pub diff: usize,
    /// 1-based line in that diff of the run's first removed or added line.
    pub diff_line: usize,
    /// 1-based input line the run replaces from (or inserts before).
    pub input_line: usize,
    /// First byte of the input lines the run replaces (line endings included).
    pub start: usize,
    /// Byte after them (`start` for a pure insertion).
    pub end: usize,
}

impl Changes {
    /// Wraps splices that are sorted and disjoint (the engine's own).
    pub(crate) fn new(splices: Vec<Splice>) -> Self {
        Changes { splices, sections: Vec::new() }
    }

    /// Splices with the placed runs they came from (sorted by start).
    pub(crate) fn placed(splices: Vec<Splice>, sections: Vec<Placed>) -> Self {
        Changes { splices, sections }
    }

    /// The splices, sorted by start and disjoint. Whole lines (the engine
    /// works by lines); [`Changes::minimal`] trims them.
    pub fn splices(&self) -> &[Splice] {
        &self.splices
    }

    /// Where each run of changed lines landed, in input order. Empty for a
    /// Codex batch of several diffs (each applies to the previous one's
    /// output, so their lines are not the input's).
    pub fn sections(&self) -> &[Placed] {
        &self.sections
    }

    /// The same changes with minimal splices: every splice trimmed of the
    /// characters its old and new text share at each end (never splitting a
    /// character), splices that change nothing dropped. `input` is the text
    /// these changes were made for.
    pub fn minimal(&self, input: &str) -> Changes {
        Changes { splices: text::minimize(input, &self.splices), sections: self.sections.clone() }
    }

    /// The new text: `input` with every splice applied.
    pub fn apply(&self, input: &str) -> String {
        text::apply_splices(input, &self.splices)
    }
}
