//! Unified diffs: what `git diff`, GNU `diff -u` and many models write.
//!
//! - [`parse`] reads plain and git-style diffs (extended headers, renames,
//!   copies, modes, `\ No newline at end of file`, several files; text
//!   before the first file is skipped; binary patches are refused).
//! - [`apply`] applies one over a map of files, all or nothing, in
//!   [`UnifiedMode::Strict`] (exact, at the stated line or at exactly one
//!   other place; header counts must agree) or [`UnifiedMode::Git`] (what
//!   `git apply` writes).
//! - [`write`] makes unified diffs: [`write::diff_files`] between two file
//!   maps, [`write::file_diff`] for one file, [`write::line_ops`] the line
//!   diff itself (Myers).
//!
//! Lines here are split on `\n` only and keep it: a `\r` is part of a line,
//! so CRLF files and their diffs match byte for byte, as in `git apply`.

mod apply;
mod parse;
pub mod write;

pub use apply::{apply, Placement, UnifiedChange, UnifiedResult};
pub use parse::parse;

/// How a unified diff is matched against the files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnifiedMode {
    /// Each hunk's context and removed lines match byte for byte, at the line
    /// its header states, or else at exactly one other place (the offset is
    /// reported); hunks follow the file and do not overlap; the lines of each
    /// hunk add up to its header's counts.
    #[default]
    Strict,
    /// What `git apply` (2.47, no options) writes: each hunk at the nearest
    /// exact match to its stated line (searching down, then up, alternately),
    /// a hunk starting at line 1 pinned to the start of the file and one
    /// without trailing context pinned to its end; a line already changed by
    /// an earlier hunk is never matched again; lines after a hunk's counts
    /// are ignored.
    Git,
}

/// A parsed unified diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unified<'a> {
    pub files: Vec<FilePatch<'a>>,
    /// The diff line of a hunk line without a line break (the last line of a
    /// text that does not end with one), if any.
    pub unterminated: Option<usize>,
}

/// What a file diff does to its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    Modify,
    Add,
    Delete,
    Rename,
    Copy,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Modify => "modified",
            FileKind::Add => "added",
            FileKind::Delete => "deleted",
            FileKind::Rename => "renamed",
            FileKind::Copy => "copied",
        }
    }
}

/// One file of a unified diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePatch<'a> {
    /// The path before (`a/` removed), `None` for a new file.
    pub old_path: Option<String>,
    /// The path after (`b/` removed), `None` for a deleted file.
    pub new_path: Option<String>,
    pub kind: FileKind,
    /// `old mode` / `deleted file mode`, e.g. `0o100644`.
    pub old_mode: Option<u32>,
    /// `new mode` / `new file mode`, e.g. `0o100755`.
    pub new_mode: Option<u32>,
    /// `similarity index` (or `dissimilarity index`) in percent.
    pub similarity: Option<u32>,
    /// The `index` line's value (`abc123..def456 100644`).
    pub index: Option<String>,
    pub hunks: Vec<Hunk<'a>>,
    /// 1-based diff line where the file's header starts.
    pub line: usize,
    /// Whether it had a `diff --git` header.
    pub git: bool,
}

impl FilePatch<'_> {
    fn new(line: usize, git: bool) -> Self {
        FilePatch {
            old_path: None,
            new_path: None,
            kind: FileKind::Modify,
            old_mode: None,
            new_mode: None,
            similarity: None,
            index: None,
            hunks: Vec::new(),
            line,
            git,
        }
    }

    /// The path to name in messages: the new one, or the old for a delete.
    pub fn display_path(&self) -> Option<&str> {
        self.new_path.as_deref().or(self.old_path.as_deref())
    }
}

/// One `@@ -l,s +l,s @@` hunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk<'a> {
    pub old_start: usize,
    pub old_len: usize,
    pub new_start: usize,
    pub new_len: usize,
    /// The text after the second `@@` (git's function context), may be empty.
    pub section: &'a str,
    /// 1-based diff line of the `@@` header.
    pub line: usize,
    pub lines: Vec<HunkLine<'a>>,
    /// How many lines that look like hunk lines follow the counted ones (a
    /// miscounted header): `git apply` ignores them, Strict refuses.
    pub overrun: usize,
    /// The old and new line counts of the hunk's lines, overrun included.
    pub counted: (usize, usize),
}

impl Hunk<'_> {
    /// The lines the hunk expects in the file: context and removed.
    pub fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter(|l| l.kind != LineKind::Add).map(|l| l.text)
    }

    /// The lines it leaves there: context and added.
    pub fn new_lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter(|l| l.kind != LineKind::Remove).map(|l| l.text)
    }

    /// The last diff line of the hunk.
    pub fn last_line(&self) -> usize {
        self.lines.last().map_or(self.line, |l| l.line)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    Context,
    Remove,
    Add,
}

/// One line of a hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HunkLine<'a> {
    pub kind: LineKind,
    /// The line's text with its `\n`, which is missing when
    /// `\ No newline at end of file` follows.
    pub text: &'a str,
    /// 1-based diff line.
    pub line: usize,
}

impl HunkLine<'_> {
    pub fn no_newline(&self) -> bool {
        !self.text.ends_with('\n')
    }

    /// The text without its line break.
    pub fn content(&self) -> &str {
        self.text.strip_suffix('\n').unwrap_or(self.text)
    }
}

/// Splits a text into lines that keep their `\n` (the last may have none).
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}
