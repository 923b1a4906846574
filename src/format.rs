//! Which of the three formats a text is, by the rules the parsers themselves
//! use, so that a caller (the playground, a tool that takes any of them)
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
}

impl Format {
    /// Every format, in a fixed order.
    pub const ALL: &'static [Format] = &[Format::Patch, Format::Diff, Format::Blocks];

    /// The format's name: `"patch"`, `"diff"` or `"blocks"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Patch => "patch",
            Format::Diff => "diff",
            Format::Blocks => "blocks",
        }
    }
}

/// The format of `text`:
/// - [`Format::Patch`] when it starts as the envelope parser accepts: its
///   first non-blank line is `*** Begin Patch` (whitespace around it
///   allowed), or a heredoc line (`<<EOF`, `<<'EOF'`, `<<"EOF"`) comes
///   first and `*** Begin Patch` right after;
/// - [`Format::Blocks`] when the edit-block parser finds a block in it
///   (complete or not: `<<<<<<< SEARCH` or Cline's `------- SEARCH`);
/// - [`Format::Diff`] otherwise.
///
/// ```
/// use applypatch::{detect_format, Format};
/// assert_eq!(detect_format("<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF"), Format::Patch);
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
