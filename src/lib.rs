//! # applypatch
//!
//! Applies the edits coding agents write: exactly what the model meant, or an
//! [`Error`] the model can act on, and never a half-applied or misplaced edit.
//! The engine is plain Rust with no JS types and no I/O; it never panics. The
//! npm package binds it with wasm-bindgen behind the `wasm` feature (off by
//! default), so depending on this crate pulls in no wasm dependency.
//!
//! Three formats, each in two modes ([`Mode::Strict`], the default: every
//! line matches byte for byte and exactly once; [`Mode::Codex`]: exactly what
//! the Codex CLI's `apply_patch` writes):
//!
//! **V4A update diffs** (the `diff` of the Responses API `apply_patch` tool):
//! [`apply`], [`apply_batch`], or [`Mode::apply`] and [`Mode::changes`].
//!
//! ```
//! let out = applypatch::apply("def greet():\n    print(\"Hi\")\n",
//!     "@@ def greet():\n-    print(\"Hi\")\n+    print(\"Hello\")").unwrap();
//! assert_eq!(out, "def greet():\n    print(\"Hello\")\n");
//!
//! // A failure says what, where, and what to change.
//! let e = applypatch::apply("a\nb\n", "@@\n-c\n+d").unwrap_err();
//! assert_eq!((e.kind, e.diff_line), (applypatch::ErrorKind::ContextNotFound, Some(2)));
//! ```
//!
//! **`*** Begin Patch` patches** of the Codex CLI (add, delete, update and
//! move files): [`parse_patch`], [`apply_files`] over a map, or
//! [`apply_patch`] over any lookup (the filesystem stays with the caller),
//! all or nothing; [`summary`] is Codex's success text. Responses API
//! operations: [`apply_file_operation`] and [`create_file`].
//!
//! ```
//! use std::collections::BTreeMap;
//! use applypatch::{apply_files, summary, Mode};
//!
//! let files = BTreeMap::from([("app.py".to_string(), "x = 1\n".to_string())]);
//! let patch = "*** Begin Patch\n*** Update File: app.py\n@@\n-x = 1\n+x = 2\n*** Add File: notes.txt\n+hello\n*** End Patch";
//! let out = apply_files(&files, patch, Mode::Strict).unwrap();
//! assert_eq!(out["app.py"], "x = 2\n");
//! assert_eq!(out["notes.txt"], "hello\n");
//! assert_eq!(summary(patch).unwrap(), "Success. Updated the following files:\nA notes.txt\nM app.py\n");
//! ```
//!
//! **Search/replace edit blocks** (`<<<<<<< SEARCH` … `>>>>>>> REPLACE`):
//! [`blocks::parse_blocks`], [`blocks::apply_edits`], with the safe preset
//! by default or [`blocks::Options::COMPATIBLE`] for exactly
//! apply-edit-block's results. Only an input over the [`limits`] is an error.
//!
//! ```
//! use applypatch::blocks::{apply_edits, parse_blocks, Options, Strategy};
//!
//! let message = "<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n";
//! let r = apply_edits("def f():\n    return 1\n", &parse_blocks(message), &Options::SAFE).unwrap();
//! assert!(r.ok);
//! assert_eq!(r.text, "def f():\n    return 2\n");
//! assert_eq!(r.results[0].strategy, Some(Strategy::Exact));
//! ```
//!
//! **Unified diffs** (`git diff`, `diff -u`): [`unified::apply`] over any
//! lookup, in [`unified::UnifiedMode::Strict`] or as `git apply` writes
//! ([`unified::UnifiedMode::Git`]); [`unified::parse`] and
//! [`unified::write`] to read and make them.
//!
//! ```
//! use applypatch::unified::{apply, UnifiedMode};
//!
//! let diff = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";
//! let r = apply(diff, UnifiedMode::Strict, |p| (p == "app.py").then_some("x = 1\n")).unwrap();
//! assert_eq!(r.changes[0].contents.as_deref(), Some("x = 2\n"));
//! ```
//!
//! [`detect_format`] tells the formats apart by the parsers' own rules, and
//! [`tool`] has the Codex `apply_patch` tool's description and grammar.
#![deny(missing_docs)]
// Errors are the rare path and carry several locations; their public fields
// are easier to use than a boxed error, so a large Err variant is accepted.
#![allow(clippy::result_large_err)]
#![cfg_attr(
    not(test),
    deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::unreachable, clippy::todo)
)]

mod batch;
pub mod blocks;
mod diff;
mod error;
mod files;
mod format;
pub mod limits;
mod matcher;
pub mod merge;
mod mode;
pub mod near;
mod order;
mod patch;
mod positions;
pub mod repair;
pub mod stream;
mod text;
pub mod tool;
pub mod unified;
pub mod utf16;
#[cfg(all(feature = "wasm-base", target_arch = "wasm32"))]
mod wasm;

pub use error::{Conflict, Error, ErrorKind, MergeConflict, Nearest, Result};
pub use files::{
    apply_file_operation, apply_file_operation_among, apply_file_operation_placed, apply_file_operation_with, apply_files, apply_patch,
    apply_patch_with, create_file, summary, summary_with, FileChange, FileOperation, Written,
};
pub use format::{detect_format, Format, FormatLines};
pub use mode::{Changes, Mode, Placed};
pub use patch::{parse as parse_patch, Operation, OperationKind, Patch, Touch};
pub use positions::{compose_splices, edit_splices, minimal_splices, splices_between};
pub use repair::envelope::parse as parse_patch_with;
pub use text::Splice;

/// Applies an update diff in Strict mode (the default).
pub fn apply(input: &str, diff: &str) -> Result<String> {
    Mode::Strict.apply(input, diff)
}

/// Applies several update diffs to one input in Strict mode.
pub fn apply_batch<S: AsRef<str>>(input: &str, diffs: &[S]) -> Result<String> {
    Mode::Strict.apply_batch(input, diffs)
}

/// Internals the profiling example times step by step. Not part of the API:
/// it may change in any release.
#[doc(hidden)]
pub mod __profile {
    /// Splits `input` into lines; returns how many.
    pub fn split_lines(input: &str) -> usize {
        crate::text::Lines::split(input).len()
    }

    /// Splits `input` into lines and builds the line index.
    pub fn index_lines(input: &str) -> usize {
        let lines = crate::text::Lines::split(input);
        // Expecting many searches, the first one (a count that stops at
        // once) builds the fingerprint table.
        let index = crate::matcher::index::Index::for_searches(&lines, usize::MAX);
        std::hint::black_box(index.count("", 0));
        lines.len()
    }
}
