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

mod apply;
mod checks;
mod climb;
mod explain;
mod files;
mod indent;
mod ladder;
mod names;
mod numbers;
mod parse;
mod similarity;
mod types;

pub use apply::{apply_edit, apply_edits, find, find_each};
pub(crate) use climb::{climb, Climb};
pub use files::{
    apply_blocks, apply_blocks_in, apply_named_blocks_to, apply_parsed_blocks, apply_parsed_blocks_to, name_blocks, BlockResult,
    BlocksResult, NamedBlocks,
};
pub(crate) use parse::is_marker_outside_block;
pub use parse::{parse_blocks, parse_blocks_detailed, Parsed, ParsedEdit, Problem};
pub use similarity::similarity;
pub(crate) use types::py_strip;
pub use types::{
    Difference, DifferenceKind, Edit, EditResult, EditsResult, Failure, LineRange, NearestBlock, Options, Outcome, Reason, Strategy,
    LINE_HINT_REACH,
};
