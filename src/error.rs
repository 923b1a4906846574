//! One error type for every failure, with a stable machine-readable code and
//! the places it concerns. Messages are written for the model that made the
//! patch: what failed, where, and what to change.

use std::fmt;

macro_rules! error_kinds {
    ($($(#[doc = $doc:literal])* $variant:ident => $code:literal,)*) => {
        /// What kind of failure an [`Error`] is. Each kind has a stable `code`
        /// (the `code` of `PatchError` in JS); codes never change meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorKind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl ErrorKind {
            /// Every kind, in a fixed order (exported to JS as `errorCodes`).
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$variant,)*];

            /// The stable code, e.g. `"context_not_found"`.
            pub fn code(self) -> &'static str {
                match self {
                    $(ErrorKind::$variant => $code,)*
                }
            }
        }
    };
}

error_kinds! {
    /// A diff line that is not a context (` `), removed (`-`), added (`+`),
    /// `@@` header or `*** End of File` line, or one in the wrong place.
    InvalidLine => "invalid_line",
    /// A section header (`@@` or `@@ anchor`) with no lines under it.
    EmptyHunk => "empty_hunk",
    /// An `@@ anchor` line that equals no line of the input.
    AnchorNotFound => "anchor_not_found",
    /// An `@@ anchor` line that equals several lines of the input (Strict).
    AnchorAmbiguous => "anchor_ambiguous",
    /// A section's context and removed lines are not in the input.
    ContextNotFound => "context_not_found",
    /// A section's context and removed lines are in the input more than once (Strict).
    ContextAmbiguous => "context_ambiguous",
    /// An anchor or a section found only before the previous section: sections
    /// must come in file order.
    OutOfOrder => "out_of_order",
    /// Added lines with no context, anchor or `*** End of File` to place them (Strict).
    UnanchoredInsertion => "unanchored_insertion",
    /// The input mixes LF and CRLF line breaks, or has a bare CR (Strict).
    MixedNewlines => "mixed_newlines",
    /// Two diffs of a batch change the same lines or insert at the same place (Strict).
    Overlap => "overlap",
    /// A string argument is not well-formed UTF-16 (it has a lone surrogate).
    InvalidString => "invalid_string",
    /// The patch envelope is wrong: no `*** Begin Patch` first line or
    /// `*** End Patch` last line, or a bad `*** Environment ID:`.
    InvalidPatch => "invalid_patch",
    /// A line where a file header (`*** Add File:`, `*** Delete File:`,
    /// `*** Update File:`) must be, or an Add File line without `+`.
    InvalidHeader => "invalid_header",
    /// An update with no changes (Codex rejects it).
    EmptyUpdate => "empty_update",
    /// A patch with no file operations.
    EmptyPatch => "empty_patch",
    /// An update, delete or move of a path the file map does not have.
    FileNotFound => "file_not_found",
    /// A Responses API operation that is not a `create_file`, `update_file` or
    /// `delete_file` with a non-empty `path` (and a `diff` for create and
    /// update, a non-empty `move_to` when there is one).
    InvalidOperation => "invalid_operation",
    /// A path that leaves the directory being patched (Node helpers): an
    /// absolute path, a `..` escape, or a symlink that leads outside.
    PathOutsideRoot => "path_outside_root",
    /// A path the directory helpers cannot use: empty, with a NUL character,
    /// naming the root itself, or a second spelling of a file the patch
    /// already names another way.
    InvalidPath => "invalid_path",
    /// A file that is not UTF-8 text (a NUL byte or invalid UTF-8): it is
    /// never read as text, so it cannot be updated or moved.
    BinaryFile => "binary_file",
    /// A path that names a directory or another non-regular file where a
    /// file is expected.
    NotAFile => "not_a_file",
    /// A file could not be read (an I/O error other than "not found").
    ReadFailed => "read_failed",
    /// A write, rename or delete failed; every change already made was
    /// undone.
    WriteFailed => "write_failed",
    /// A unified-diff hunk whose lines do not add up to the counts in its
    /// `@@ -l,s +l,s @@` header.
    HunkCountMismatch => "hunk_count_mismatch",
    /// A binary patch (`Binary files … differ`, `GIT binary patch`): refused,
    /// never applied as text.
    BinaryPatch => "binary_patch",
    /// A unified diff creates, renames or copies onto a path that already exists.
    FileExists => "file_exists",
    /// (JS only) The WebAssembly engine could not be compiled when the
    /// package was imported (a Content-Security-Policy without
    /// `'wasm-unsafe-eval'`, or no WebAssembly); every call reports it.
    WasmUnavailable => "wasm_unavailable",
    /// The WebAssembly engine failed inside (a trap, such as running out of
    /// wasm memory). The JS wrapper reports it and starts a fresh instance,
    /// so the next call works.
    InternalError => "internal_error",
    /// A file changed on disk between the moment it was read and the moment
    /// it would have been replaced (another process or thread wrote it): the
    /// patch was not applied, and the file must be read again.
    FileChanged => "file_changed",
    /// An input over one of the documented limits (README "Limits"): too many
    /// bytes or lines, or a similarity or fuzzy search that would need more
    /// work than the engine allows for one call. Refused before the work or
    /// the allocation is done.
    InputTooLarge => "input_too_large",
    /// The change is already in the input (Strict): its new lines are where
    /// they would go and its old lines are not (or come later). Nothing is
    /// applied twice; with the `repair` option it is a reported no-op.
    AlreadyApplied => "already_applied",
    /// The patch was written against an earlier text (the `base` option) and
    /// the input changed since in the same places: merging the patched base
    /// into the input conflicts (`conflicts` lists where). Nothing is applied.
    MergeConflict => "merge_conflict",
}

/// An error kind serializes as its code.
#[cfg(feature = "serde")]
impl serde::Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The place in the input that came closest to what the diff expected.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Nearest {
    /// 1-based input line where the closest candidate starts.
    pub line: usize,
    /// The input's text there (the candidate's lines, joined with `\n`).
    pub text: String,
    /// Share of the expected lines that are equal there, in 0..=1.
    pub similarity: f64,
}

/// The other side of an overlap in a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Conflict {
    /// 0-based index of the other diff in the batch.
    pub diff: usize,
    /// 1-based line in that diff.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub diff_line: Option<usize>,
}

/// A conflict of a three-way merge: the lines of each text it covers, as
/// `[first, last]`, 1-based and inclusive. An empty range is `[n + 1, n]`:
/// nothing, after line `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MergeConflict {
    /// Our lines (the current input's, for the `base` option).
    pub ours: [usize; 2],
    /// The base's lines.
    pub base: [usize; 2],
    /// Their lines (the patched base's, for the `base` option).
    pub theirs: [usize; 2],
}

/// A failure, with everything known about where it happened. All line numbers
/// are 1-based.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct Error {
    /// What kind of failure: [`Error::code`] is its stable code.
    #[cfg_attr(feature = "serde", serde(rename = "code"))]
    pub kind: ErrorKind,
    /// What failed, where, and what to change, written for the model.
    pub message: String,
    /// Line in the diff (or in the whole patch, for `apply_files`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub diff_line: Option<usize>,
    /// Lines of the input: for an ambiguous match, the first line of each match.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub input_lines: Vec<usize>,
    /// The file, for patches over several files.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub path: Option<String>,
    /// 0-based index of the operation in the patch.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub operation: Option<usize>,
    /// 0-based index of the diff in a batch.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub diff: Option<usize>,
    /// Where the input came closest, when a match was not found.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nearest: Option<Nearest>,
    /// For an overlap: the other diff of the batch.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub conflict: Option<Conflict>,
    /// For a merge conflict: each conflict, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub conflicts: Vec<MergeConflict>,
}

impl Error {
    /// An error of `kind` with `message` and no location yet.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            diff_line: None,
            input_lines: Vec::new(),
            path: None,
            operation: None,
            diff: None,
            nearest: None,
            conflict: None,
            conflicts: Vec::new(),
        }
    }

    /// The stable code of the error's kind, e.g. `"context_not_found"`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    pub(crate) fn at_diff_line(mut self, line: usize) -> Self {
        self.diff_line = Some(line);
        self
    }

    pub(crate) fn at_input_lines(mut self, lines: impl IntoIterator<Item = usize>) -> Self {
        self.input_lines = lines.into_iter().collect();
        self
    }

    pub(crate) fn with_nearest(mut self, nearest: Option<Nearest>) -> Self {
        self.nearest = nearest;
        self
    }

    pub(crate) fn in_batch(mut self, index: usize) -> Self {
        self.diff = Some(index);
        self.message = format!("diff {} of the batch: {}", index + 1, self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The result of every fallible function of the crate.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for kind in ErrorKind::ALL {
            let code = kind.code();
            assert!(seen.insert(code), "duplicate code {code}");
            assert!(code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{code}");
        }
    }
}
