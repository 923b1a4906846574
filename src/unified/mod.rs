//! Unified diffs: what `git diff`, GNU `diff -u` and many models write.
//!
//! - [`parse`] reads plain and git-style diffs (extended headers, renames,
//!   copies, modes, `\ No newline at end of file`, several files; text
//!   before the first file is skipped; binary patches are refused).
//! - [`apply`] applies one over a map of files, all or nothing, in
//!   [`UnifiedMode::Strict`] (exact, at the stated line or at exactly one
//!   other place; header counts must agree) or [`UnifiedMode::Git`] (what
//!   `git apply` writes).
//! - [`mod@write`] makes unified diffs: [`write::diff_files`] between two file
//!   maps, [`write::file_diff`] for one file, [`write::line_ops`] the line
//!   diff itself (Myers).
//!
//! Lines here are split on `\n` only and keep it: a `\r` is part of a line,
//! so CRLF files and their diffs match byte for byte, as in `git apply`.

mod apply;
mod parse;
pub mod write;

pub use apply::{
    apply, apply_parsed, apply_parsed_among, apply_parsed_placed, text_for, FileMode, Placement, UnifiedChange, UnifiedResult,
};
pub(crate) use apply::{close_among, open_among, GitHunks, Opened, StrictHunks, Written};
pub use parse::parse;
pub(crate) use parse::{file_header, has_file_header, is_file_header_pair, next_hunk, Reader};

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

impl UnifiedMode {
    /// Every mode, in a fixed order (the binding takes a mode as its position here).
    pub const ALL: &'static [UnifiedMode] = &[UnifiedMode::Strict, UnifiedMode::Git];

    /// The mode's name: `"strict"` or `"git"`.
    pub fn as_str(self) -> &'static str {
        match self {
            UnifiedMode::Strict => "strict",
            UnifiedMode::Git => "git",
        }
    }
}

/// A parsed unified diff.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(all(feature = "wasm-base", target_arch = "wasm32"), derive(yoke::Yokeable))]
pub struct Unified<'a> {
    /// The file diffs, in the order they appear.
    pub files: Vec<FilePatch<'a>>,
    /// The diff line of a hunk line without a line break (the last line of a
    /// text that does not end with one), if any.
    pub unterminated: Option<usize>,
}

impl Unified<'_> {
    /// Every path the diff names (old and new, each once, in order): the
    /// files [`apply`] may look up.
    pub fn paths(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.files.iter().flat_map(|f| [f.old_path.as_deref(), f.new_path.as_deref()]).flatten().filter(|p| seen.insert(*p)).collect()
    }

    /// The renames, as `(from, to)`, in order.
    pub fn renames(&self) -> Vec<(&str, &str)> {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::Rename)
            .filter_map(|f| Some((f.old_path.as_deref()?, f.new_path.as_deref()?)))
            .collect()
    }
}

/// What a file diff does to its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FileKind {
    /// The file's text (or mode) changes in place.
    #[cfg_attr(feature = "serde", serde(rename = "modified"))]
    Modify,
    /// A new file (`--- /dev/null` or `new file mode`).
    #[cfg_attr(feature = "serde", serde(rename = "added"))]
    Add,
    /// The file is deleted (`+++ /dev/null` or `deleted file mode`).
    #[cfg_attr(feature = "serde", serde(rename = "deleted"))]
    Delete,
    /// `rename from` / `rename to`: the file moves, maybe with changes.
    #[cfg_attr(feature = "serde", serde(rename = "renamed"))]
    Rename,
    /// `copy from` / `copy to`: a copy is made, maybe with changes.
    #[cfg_attr(feature = "serde", serde(rename = "copied"))]
    Copy,
}

impl FileKind {
    /// Every kind, in a fixed order.
    pub const ALL: &'static [FileKind] = &[FileKind::Modify, FileKind::Add, FileKind::Delete, FileKind::Rename, FileKind::Copy];

    /// The name used in JS results: `modified`, `added`, `deleted`, `renamed`, `copied`.
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

/// One file of a unified diff. Serialized (the `serde` feature) as the JS
/// `parseUnified` gives it: `{ oldPath, newPath, status, oldMode?, newMode?,
/// similarity?, index?, git, line, hunks }`, modes as octal strings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct FilePatch<'a> {
    /// The path before (`a/` removed), `None` for a new file.
    pub old_path: Option<String>,
    /// The path after (`b/` removed), `None` for a deleted file.
    pub new_path: Option<String>,
    /// What the file diff does.
    #[cfg_attr(feature = "serde", serde(rename = "status"))]
    pub kind: FileKind,
    /// `old mode` / `deleted file mode`, e.g. `0o100644`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "octal", skip_serializing_if = "Option::is_none"))]
    pub old_mode: Option<u32>,
    /// `new mode` / `new file mode`, e.g. `0o100755`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "octal", skip_serializing_if = "Option::is_none"))]
    pub new_mode: Option<u32>,
    /// `similarity index` (or `dissimilarity index`) in percent.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub similarity: Option<u32>,
    /// The `index` line's value (`abc123..def456 100644`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub index: Option<String>,
    /// Whether it had a `diff --git` header.
    pub git: bool,
    /// 1-based diff line where the file's header starts.
    pub line: usize,
    /// The `@@` hunks, in order.
    pub hunks: Vec<Hunk<'a>>,
}

/// A git mode as its octal digits (`"100755"`).
#[cfg(feature = "serde")]
fn octal<S: serde::Serializer>(mode: &Option<u32>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match mode {
        Some(m) => s.collect_str(&format_args!("{m:o}")),
        None => s.serialize_none(),
    }
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

/// One `@@ -l,s +l,s @@` hunk. Serialized as `{ oldStart, oldLines,
/// newStart, newLines, section, line, lines }` (the section without a `\r`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Hunk<'a> {
    /// First old line the header states (1-based; 0 for an empty side).
    pub old_start: usize,
    /// Old line count the header states.
    #[cfg_attr(feature = "serde", serde(rename = "oldLines"))]
    pub old_len: usize,
    /// First new line the header states.
    pub new_start: usize,
    /// New line count the header states.
    #[cfg_attr(feature = "serde", serde(rename = "newLines"))]
    pub new_len: usize,
    /// The text after the second `@@` (git's function context), may be empty.
    #[cfg_attr(feature = "serde", serde(serialize_with = "without_cr"))]
    pub section: &'a str,
    /// 1-based diff line of the `@@` header.
    pub line: usize,
    /// The hunk's lines, as many as the header counts.
    pub lines: Vec<HunkLine<'a>>,
    /// How many lines that look like hunk lines follow the counted ones (a
    /// miscounted header): `git apply` ignores them, Strict refuses.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub overrun: usize,
    /// The old and new line counts of the hunk's lines, overrun included.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub counted: (usize, usize),
}

#[cfg(feature = "serde")]
fn without_cr<S: serde::Serializer>(text: &&str, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(text.strip_suffix('\r').unwrap_or(text))
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

/// What a hunk line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum LineKind {
    /// ` ` a line kept.
    Context,
    /// `-` a line removed.
    Remove,
    /// `+` a line added.
    Add,
}

/// One line of a hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HunkLine<'a> {
    /// Context, removed or added.
    pub kind: LineKind,
    /// The line's text with its `\n`, which is missing when
    /// `\ No newline at end of file` follows.
    pub text: &'a str,
    /// 1-based diff line.
    pub line: usize,
}

impl LineKind {
    /// Every kind, in a fixed order.
    pub const ALL: &'static [LineKind] = &[LineKind::Context, LineKind::Remove, LineKind::Add];

    /// The name used in JS results: `context`, `remove`, `add`.
    pub fn as_str(self) -> &'static str {
        match self {
            LineKind::Context => "context",
            LineKind::Remove => "remove",
            LineKind::Add => "add",
        }
    }
}

/// Serialized as `{ kind, text, noNewline?, line }`: the text without its
/// line break, and `noNewline: true` when `\ No newline at end of file`
/// follows.
#[cfg(feature = "serde")]
impl serde::Serialize for HunkLine<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let no_newline = self.no_newline();
        let mut out = s.serialize_struct("HunkLine", if no_newline { 4 } else { 3 })?;
        out.serialize_field("kind", &self.kind)?;
        out.serialize_field("text", self.content())?;
        if no_newline {
            out.serialize_field("noNewline", &true)?;
        }
        out.serialize_field("line", &self.line)?;
        out.end()
    }
}

impl HunkLine<'_> {
    /// Whether `\ No newline at end of file` follows the line.
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
