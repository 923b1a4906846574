//! The limits on what one call may be given, so that no input can make the
//! engine allocate without bound (a failed allocation traps on wasm32) or
//! work for minutes. Each limit is checked before the work or the allocation
//! it guards, and an input over it gets an [`ErrorKind::InputTooLarge`] error
//! that says which limit and by how much. README "Limits" lists them.
//!
//! - [`MAX_TEXT_BYTES`], [`MAX_LINES`]: every text argument (an input, a
//!   diff, a patch, a file's contents, a SEARCH or REPLACE text, a message to
//!   parse). Memory is then proportional to the input: the line tables cost a
//!   few dozen bytes per line.
//! - [`MAX_REREAD_BYTES`]: the file text the updates of one patch or batch
//!   read in all (a file updated many times is read each time), and the text
//!   the edits of one `apply_edits` call or the blocks of one message search.
//! - [`MAX_WORK`]: the line-LCS computations of `similarity` and of the edit
//!   blocks' `fuzzy` and `anchor` rungs, counted in 64-bit word operations of
//!   the bit-parallel LCS. Below it every result is exact; a computation that
//!   would need more stops with the error instead of guessing.

use std::cell::Cell;

use crate::error::{Error, ErrorKind, Result};

/// Largest text argument, in UTF-8 bytes (32 MiB).
pub const MAX_TEXT_BYTES: usize = 32 << 20;

/// Most lines in one text argument (16 Mi).
pub const MAX_LINES: usize = 1 << 24;

/// Most word operations of line-LCS work in one call (2^28, a few tenths of a
/// second).
pub const MAX_WORK: u64 = 1 << 28;

/// Most bytes of file text that the updates of one call read in all (128
/// MiB): each update of a file reads the file as the updates before it left
/// it, so many updates of one large file would read it again and again.
pub const MAX_REREAD_BYTES: usize = 128 << 20;

/// Counts the bytes the updates of one call read ([`MAX_REREAD_BYTES`]), or
/// the edits of one `apply_edits` call or the blocks of one message (each
/// searches the whole text as the ones before it left it).
#[derive(Debug, Default)]
pub struct Rereads {
    read: usize,
    steps: usize,
    edits: bool,
}

impl Rereads {
    /// A counter for edits (or edit blocks) rather than patch updates: the
    /// same limit, with a message about edits.
    pub fn edits() -> Self {
        Rereads { edits: true, ..Default::default() }
    }

    /// Counts an update that reads `bytes` of text, or refuses it (before it
    /// is applied) when the updates so far and it read too much.
    pub fn read(&mut self, bytes: usize) -> Result<()> {
        self.read = self.read.saturating_add(bytes);
        self.steps += 1;
        if self.read <= MAX_REREAD_BYTES {
            return Ok(());
        }
        let message = if self.edits {
            format!(
                "The {} edits up to this one read {} bytes of text, more than the {MAX_REREAD_BYTES} bytes (128 MiB) applypatch reads in one call: each edit searches the whole text as the edits before it left it. Send fewer edits at once (or merge neighbouring ones), in several calls.",
                self.steps, self.read
            )
        } else {
            format!(
                "The {} updates up to this one read {} bytes of file text, more than the {MAX_REREAD_BYTES} bytes (128 MiB) applypatch reads in one call: each update of a file reads the whole file again. Merge the updates of each file into one update, or split the patch.",
                self.steps, self.read
            )
        };
        Err(Error::new(ErrorKind::InputTooLarge, message))
    }
}

/// Refuses `text` (named `what` in the message) when it is over
/// [`MAX_TEXT_BYTES`] or [`MAX_LINES`].
pub fn check_text(what: &str, text: &str) -> Result<()> {
    // Line breaks are the `\n`s plus the `\r`s (memchr counts a byte with
    // SIMD; iterating over each break of a large file cost more than its
    // index): they are counted only above the limit.
    let bytes = text.as_bytes();
    check_size(what, text.len(), || memchr::memchr_iter(b'\n', bytes).count() + memchr::memchr_iter(b'\r', bytes).count())
}

/// [`check_text`] for a text known by its length in bytes and its number of
/// `\n` and `\r` bytes (`breaks`, asked only when the length could be over
/// [`MAX_LINES`]): a stream counts them as its text arrives.
pub fn check_size(what: &str, len: usize, breaks: impl FnOnce() -> usize) -> Result<()> {
    if len > MAX_TEXT_BYTES {
        return Err(Error::new(
            ErrorKind::InputTooLarge,
            format!("{what} is {len} bytes long; applypatch takes texts of at most {MAX_TEXT_BYTES} bytes (32 MiB). Split the work into smaller files or edits."),
        ));
    }
    if len > MAX_LINES {
        let lines = breaks();
        if lines > MAX_LINES {
            return Err(Error::new(
                ErrorKind::InputTooLarge,
                format!(
                    "{what} has {lines} line breaks; applypatch takes texts of at most {MAX_LINES} lines. Split the work into smaller files or edits."
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses any text of `texts` that is over the limits.
pub fn check_texts<S: AsRef<str>>(what: &str, texts: &[S]) -> Result<()> {
    for (i, t) in texts.iter().enumerate() {
        check_text(&format!("{what} {}", i + 1), t.as_ref())?;
    }
    Ok(())
}

/// The LCS work one call may still do, in word operations ([`MAX_WORK`] at
/// first). Shared by reference: the counter is a `Cell`.
#[derive(Debug)]
pub struct Budget {
    left: Cell<u64>,
    /// What the work is for, in the message ("the fuzzy search").
    what: &'static str,
}

impl Budget {
    /// A full budget for one call; `what` names the work in the message.
    pub fn new(what: &'static str) -> Self {
        Budget { left: Cell::new(MAX_WORK), what }
    }

    /// Takes `ops` word operations from the budget, or fails (before they are
    /// done) when the budget does not have them.
    pub fn spend(&self, ops: u64) -> Result<()> {
        let left = self.left.get();
        if ops > left {
            return Err(Error::new(
                ErrorKind::InputTooLarge,
                format!(
                    "{} needs more than {MAX_WORK} word operations of line comparison (lines x lines/64), the most applypatch does in one call. Use a shorter text, or a smaller part of the file.",
                    self.what
                ),
            ));
        }
        self.left.set(left - ops);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_over_the_limits_are_refused() {
        assert!(check_text("the input", "a\nb\n").is_ok());
        let big = "x".repeat(MAX_TEXT_BYTES + 1);
        let e = check_text("the input", &big).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InputTooLarge);
        assert_eq!(
            e.message,
            format!("the input is {} bytes long; applypatch takes texts of at most 33554432 bytes (32 MiB). Split the work into smaller files or edits.", MAX_TEXT_BYTES + 1)
        );
        let newlines = "\n".repeat(MAX_LINES + 1);
        let e = check_text("diff 2", &newlines).unwrap_err();
        assert_eq!(e.message, "diff 2 has 16777217 line breaks; applypatch takes texts of at most 16777216 lines. Split the work into smaller files or edits.");
        assert!(check_text("x", &"\n".repeat(MAX_LINES)).is_ok());
    }

    #[test]
    fn budget_refuses_before_spending() {
        let b = Budget::new("the similarity");
        assert!(b.spend(MAX_WORK - 1).is_ok());
        assert!(b.spend(1).is_ok());
        let e = b.spend(1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InputTooLarge);
        assert!(e.message.starts_with("the similarity needs more than 268435456 word operations"), "{}", e.message);
    }
}
