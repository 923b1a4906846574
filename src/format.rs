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
    if has_block_marker(text) {
        return Format::Blocks;
    }
    Format::Diff
}

/// Whether the block parser reads `text` as edit blocks (edits or
/// problems): exactly when one of its lines is a marker (`marker_rule` below
/// checks it against the parser). Asked line by line, without the parser,
/// which a caller that only needs the verdict (the hint of a Strict error,
/// in the npm package's core engine) would otherwise carry.
fn has_block_marker(text: &str) -> bool {
    text.split('\n').any(blocks::is_marker_outside_block)
}

/// Where [`FormatLines`] is in the text's first non-blank lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum First {
    /// No non-blank line yet.
    #[default]
    Waiting,
    /// The first one was a heredoc line (`<<EOF`): the next line may begin a patch.
    Heredoc,
    /// The first one was `--- `: the next line says whether it starts a unified diff's file header.
    Minus,
    /// Read: not a patch.
    Read,
}

/// [`detect_format`] for a text still being written, fed its complete lines
/// as they arrive ([`FormatLines::push`]): it decides at the first line that
/// settles the format, by the same rules, skipping prose before the first
/// marker as the parsers do:
/// - [`Format::Patch`] when the first non-blank line is `*** Begin Patch`
///   (or a heredoc line then `*** Begin Patch`);
/// - [`Format::Unified`] at a unified diff's file header (a `diff --git`
///   line, or `--- ` then `+++ `) before any `*** Begin Patch` line;
/// - [`Format::Blocks`] at an edit-block marker (a start marker, or an end
///   marker outside a block: the block parser reads it as an edit or a
///   problem);
/// - [`Format::Diff`] when the first non-blank line is a V4A line (it starts
///   with `@@`, ` `, `+` or `-`) and neither of those came: a V4A diff's
///   first line. Prose first decides nothing: the text is then decided by a
///   later marker, or at its end by [`detect_format`].
///
/// The format it gives is [`detect_format`]'s for the lines pushed up to the
/// deciding one. Lines after it can change what [`detect_format`] says of
/// the whole text only in texts that mix formats (a V4A diff with a line
/// `------- SEARCH`, edit blocks quoting a unified diff's file header);
/// a stream keeps the format decided.
///
/// ```
/// use applypatch::{Format, FormatLines};
/// let mut f = FormatLines::default();
/// assert_eq!(f.push("Here is the fix:\n\n"), None);
/// assert_eq!(f.push("src/a.py\n<<<<<<< SEARCH\n"), Some(Format::Blocks));
/// let mut f = FormatLines::default();
/// assert_eq!(f.push("--- a/f\n"), None);
/// assert_eq!(f.push("+++ b/f\n"), Some(Format::Unified));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatLines {
    first: First,
    /// A `*** Begin Patch` line was read: no unified file header counts after it.
    begun: bool,
    /// The previous line starts with `--- `.
    minus: bool,
}

impl FormatLines {
    /// Reads complete lines (each ending with `\n`; a last piece without one
    /// is read as a line too, so push only complete lines until the text
    /// ends). Returns the format once decided, at the line that decides it.
    pub fn push(&mut self, lines: &str) -> Option<Format> {
        lines.split_inclusive('\n').find_map(|line| self.line(line))
    }

    fn line(&mut self, line: &str) -> Option<Format> {
        let t = line.trim();
        let begins = t == "*** Begin Patch";
        let mut diff = false;
        match self.first {
            First::Waiting if t.is_empty() => {}
            First::Waiting if begins => return Some(Format::Patch),
            First::Waiting if matches!(t, "<<EOF" | "<<'EOF'" | "<<\"EOF\"") => self.first = First::Heredoc,
            First::Waiting if line.starts_with("--- ") => self.first = First::Minus,
            First::Waiting => {
                self.first = First::Read;
                diff = t.starts_with("@@") || line.starts_with([' ', '+', '-']);
            }
            First::Heredoc if begins => return Some(Format::Patch),
            First::Heredoc => self.first = First::Read,
            First::Minus => {
                self.first = First::Read;
                diff = true;
            }
            First::Read => {}
        }
        // As has_file_header reads the lines.
        if !self.begun {
            if begins {
                self.begun = true;
            } else if line.starts_with("diff --git ") || (self.minus && crate::unified::is_file_header_pair(Some("--- "), Some(line))) {
                return Some(Format::Unified);
            }
        }
        self.minus = line.starts_with("--- ");
        if blocks::is_marker_outside_block(line.strip_suffix('\n').unwrap_or(line)) {
            return Some(Format::Blocks);
        }
        diff.then_some(Format::Diff)
    }
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

    /// [`FormatLines`] over `text` cut into lines: the format and the line that decided it.
    fn decided(text: &str) -> Option<(Format, usize)> {
        let mut f = FormatLines::default();
        text.split_inclusive('\n').enumerate().find_map(|(i, line)| f.push(line).map(|format| (format, i + 1)))
    }

    #[test]
    fn lines_decide_as_detect_format_does_on_the_lines_so_far() {
        for (text, want) in [
            ("\n  *** Begin Patch \n*** End Patch\n", Some((Format::Patch, 2))),
            ("<<'EOF'\n*** Begin Patch\n", Some((Format::Patch, 2))),
            ("<<EOF\n\n*** Begin Patch\n", None),
            ("Fix:\n\ndiff --git a/f b/f\n", Some((Format::Unified, 3))),
            ("--- a/f\n+++ b/f\n@@ -1 +1 @@\n", Some((Format::Unified, 2))),
            ("--- a/f\n@@ -1 +1 @@\n", Some((Format::Diff, 2))),
            ("Fix:\n*** Begin Patch\n--- a\n+++ b\n", None),
            ("Here:\n\nsrc/a.py\n```\n<<<<<<< SEARCH\nx\n", Some((Format::Blocks, 5))),
            ("Here:\n>>>>>>> REPLACE\n", Some((Format::Blocks, 2))),
            ("------- SEARCH\na\n", Some((Format::Blocks, 1))),
            ("@@ def f():\n-a\n+b\n", Some((Format::Diff, 1))),
            (" context\n-a\n", Some((Format::Diff, 1))),
            ("Prose only.\n>>> x = 1\n====\n", None),
        ] {
            assert_eq!(decided(text), want, "{text:?}");
            if let Some((format, line)) = want {
                let upto: String = text.split_inclusive('\n').take(line).collect();
                assert_eq!(detect_format(&upto), format, "{text:?}");
            }
        }
    }
}

/// [`detect_format`] decides edit blocks by their marker lines
/// ([`has_block_marker`]); the block parser finds edits or problems in
/// exactly the same texts.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod marker_rule {
    use super::*;
    use proptest::prelude::*;

    const LINES: &[&str] = &[
        "<<<<<<< SEARCH",
        "<<< SEARCH",
        "<<<<<<<SEARCH",
        "<<<<<<< search",
        "<<<<<<< SEARCH extra",
        "  <<<<<<< SEARCH",
        "------- SEARCH",
        "--- SEARCH",
        "---SEARCH",
        "=======",
        "===",
        "======= x",
        "=======x",
        ">>>>>>> REPLACE",
        ">>>>>>>",
        ">>> REPLACE",
        "+++++++ REPLACE",
        "+++++++",
        ">>>>>>> REPLACE\r",
        "<<<<<<< SEARCH\r",
        ":start_line:3",
        "-------",
        "```",
        "```python",
        "~~~",
        "src/a.py",
        "a.txt:",
        "**src/b.rs**",
        "x = 1",
        "",
        "  ",
        "@@",
        "-a",
        "+b",
        " c",
        ">>> prompt",
        "<<",
        "<<<<<<< REPLACE",
        ">>>>>>> SEARCH",
        "<<<<<<< SEARCH <<<<<<< SEARCH",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20000, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn the_parser_finds_blocks_exactly_when_a_line_is_a_marker(picks in proptest::collection::vec(0..LINES.len(), 0..9), crlf in any::<bool>()) {
            let nl = if crlf { "\r\n" } else { "\n" };
            let text: String = picks.iter().map(|&i| LINES[i]).collect::<Vec<_>>().join(nl);
            let parsed = blocks::parse_blocks_detailed(&text);
            let by_parse = !parsed.edits.is_empty() || !parsed.problems.is_empty();
            prop_assert_eq!(by_parse, has_block_marker(&text), "{:?}", text);
        }
    }
}
