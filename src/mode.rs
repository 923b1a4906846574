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
/// new text, sorted and disjoint. [`Changes::apply`] builds the new text; the
/// JS binding sends only these, not the whole text, back across the boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    splices: Vec<Splice>,
}

impl Changes {
    /// Wraps splices that are sorted and disjoint (the engine's own).
    pub(crate) fn new(splices: Vec<Splice>) -> Self {
        Changes { splices }
    }

    /// The splices, sorted by start and disjoint.
    pub fn splices(&self) -> &[Splice] {
        &self.splices
    }

    /// The new text: `input` with every splice applied.
    pub fn apply(&self, input: &str) -> String {
        text::apply_splices(input, &self.splices)
    }
}
