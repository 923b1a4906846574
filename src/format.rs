//! Which of the formats a text is, by the rules the parsers themselves use, so that a caller (the playground, a tool that takes any of them)
//! never guesses with a rule of its own.

use crate::blocks;

/// The format of an edit a model wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Format {
    /// A Codex `*** Begin Patch` patch (see [`parse_patch`](crate::parse_patch)).
    Patch,
    /// A V4A update diff of one file (see [`apply`](crate::apply)).
    Diff,
    /// Search/replace edit blocks (see [`blocks`]).
    Blocks,
    /// A unified diff, plain or git-style (see [`unified`](crate::unified)).
    Unified,
}

impl Format {
    /// Every format, in a fixed order.
    pub const ALL: &'static [Format] = &[Format::Patch, Format::Diff, Format::Blocks, Format::Unified];

    /// The format's name: `"patch"`, `"diff"`, `"blocks"` or `"unified"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Patch => "patch",
            Format::Diff => "diff",
            Format::Blocks => "blocks",
            Format::Unified => "unified",
        }
    }
}

/// The format of `text`:
/// - [`Format::Patch`] when it starts as the envelope parser accepts: its
///   first non-blank line is `*** Begin Patch` (whitespace around it
///   allowed), or a heredoc line (`<<EOF`, `<<'EOF'`, `<<"EOF"`) comes
///   first and `*** Begin Patch` right after;
/// - [`Format::Unified`] when the unified-diff parser finds a file diff in
///   it (a line starting `diff --git `, or a line starting `--- ` followed by
///   one starting `+++ `, as written: no leading whitespace) before any
///   `*** Begin Patch` line; text before it (a commit message) is allowed,
///   as the parser skips it. Hunks with no file header (`@@ -1,2 +1,2 @@`
///   alone) are not a unified diff the parser reads;
/// - [`Format::Blocks`] when the edit-block parser finds a block in it
///   (complete or not: `<<<<<<< SEARCH` or Cline's `------- SEARCH`);
/// - [`Format::Diff`] otherwise.
///
/// ```
/// use applypatch::{detect_format, Format};
/// assert_eq!(detect_format("<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF"), Format::Patch);
/// assert_eq!(detect_format("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n"), Format::Unified);
/// assert_eq!(detect_format("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE"), Format::Blocks);
/// assert_eq!(detect_format("@@\n-x\n+y"), Format::Diff);
/// ```
pub fn detect_format(text: &str) -> Format {
    let mut lines = text.trim().lines().map(str::trim);
    let first = lines.next().unwrap_or("");
    let begins = |line: Option<&str>| line == Some("*** Begin Patch");
    if begins(Some(first)) || (matches!(first, "<<EOF" | "<<'EOF'" | "<<\"EOF\"") && begins(lines.next())) {
        return Format::Patch;
    }
    if crate::unified::has_file_header(text) {
        return Format::Unified;
    }
    let parsed = blocks::parse_blocks_detailed(text);
    if !parsed.edits.is_empty() || !parsed.problems.is_empty() {
        return Format::Blocks;
    }
    Format::Diff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_diffs_are_what_the_unified_parser_reads() {
        for diff in [
            "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n",
            "--- a/f\t2024-01-01 00:00:00\n+++ b/f\t2024-01-01 00:00:01\n@@ -1 +1 @@\n-x\n+y\n",
            "--- f\r\n+++ f\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n",
            "From 123 Mon Sep 17 00:00:00 2001\nSubject: fix\n\n---\n f | 2 +-\n\ndiff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+x\n",
            "diff --git a/img b/img\nBinary files a/img and b/img differ\n",
        ] {
            assert_eq!(detect_format(diff), Format::Unified, "{diff:?}");
            assert!(crate::unified::parse(diff).is_ok() || diff.contains("Binary"), "{diff:?}");
        }
        // Not what the unified parser reads: indented headers, hunks with no
        // file header, a `---` line with no `+++` after it.
        assert_eq!(detect_format(" --- a/f\n +++ b/f\n@@ -1 +1 @@\n-x\n+y\n"), Format::Diff);
        assert_eq!(detect_format("@@ -1,2 +1,2 @@\n a\n-x\n+y\n"), Format::Diff);
        assert_eq!(detect_format("--- a/f\n@@ -1 +1 @@\n-x\n+y\n"), Format::Diff);
        // A patch that quotes a unified diff is a patch, wherever it starts.
        assert_eq!(detect_format("*** Begin Patch\n*** Add File: x.diff\n+--- a/f\n++++ b/f\n*** End Patch"), Format::Patch);
        assert_eq!(
            detect_format("Here it is:\n*** Begin Patch\n*** Update File: a.sql\n@@\n--- old\n+++ new\n*** End Patch"),
            Format::Diff
        );
    }

    #[test]
    fn the_envelope_rules_decide_a_patch() {
        for patch in [
            "*** Begin Patch\n*** End Patch",
            "\n\n  *** Begin Patch  \r\n*** Delete File: a\r\n*** End Patch\r\n",
            "<<EOF\n*** Begin Patch\n*** End Patch\nEOF",
            "<<\"EOF\"\n *** Begin Patch\n*** End Patch\nEOF",
        ] {
            assert_eq!(detect_format(patch), Format::Patch, "{patch:?}");
            assert!(crate::parse_patch(patch).is_ok(), "{patch:?}");
        }
        // What the envelope parser refuses is not a patch.
        assert_eq!(detect_format("<<PATCH\n*** Begin Patch\n*** End Patch\nPATCH"), Format::Diff);
        assert_eq!(detect_format("@@ *** Begin Patch\n-a\n+b"), Format::Diff);
    }

    #[test]
    fn blocks_are_what_the_block_parser_finds() {
        assert_eq!(detect_format("src/a.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```"), Format::Blocks);
        assert_eq!(detect_format("------- SEARCH\na\n=======\nb\n+++++++ REPLACE"), Format::Blocks);
        // An unclosed block is still blocks (the parser reports it).
        assert_eq!(detect_format("<<<<<<< SEARCH\na\n"), Format::Blocks);
        assert_eq!(detect_format(" context\n-old\n+new"), Format::Diff);
        assert_eq!(detect_format(""), Format::Diff);
    }
}
