//! An anchor's reach: the input lines an `@@ anchor` speaks for, so that
//! stacked anchors narrow step by step (`@@ class B` then `@@     def f():`)
//! and a section right after an anchor is looked for there first.
//!
//! The rule (README "Anchors and their reach"):
//! - an anchor line that is a Markdown heading (`#` to `######` then a space
//!   or the end of the line, after at most three spaces) reaches down to the
//!   next heading of the same or a higher level (fewer `#`), not included;
//! - any other anchor line reaches down to the next non-blank line indented
//!   no deeper than it (leading spaces and tabs, each counting one), not
//!   included; a line that is only `{` does not end it (a brace on its own
//!   line opens the body it belongs to);
//! - otherwise to the end of the input.
//!
//! Lines are examined only as far as a question needs them, so asking about
//! a few candidate places near the anchor costs little on a long file.

use super::index::Index;

/// The reach of the anchor at input line `anchor` (0-based).
pub struct Reach<'a, 't> {
    idx: &'a Index<'t>,
    anchor: usize,
    scope: Scope,
    /// Lines `anchor + 1..scanned` are known to be inside.
    scanned: usize,
    /// The first line outside, once found.
    end: Option<usize>,
}

#[derive(Clone, Copy)]
enum Scope {
    Heading(usize),
    Indent(usize),
}

/// The level of a Markdown ATX heading line (`## Title` is 2).
fn heading(line: &str) -> Option<usize> {
    let rest = line.trim_start_matches(' ');
    if line.len() - rest.len() > 3 {
        return None;
    }
    let level = rest.bytes().take_while(|&b| b == b'#').count();
    let after = rest.get(level..)?;
    ((1..=6).contains(&level) && (after.is_empty() || after.starts_with(' ') || after.starts_with('\t'))).then_some(level)
}

/// Leading spaces and tabs, each counting one.
fn indent(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ' || b == b'\t').count()
}

impl<'a, 't> Reach<'a, 't> {
    pub fn new(idx: &'a Index<'t>, anchor: usize) -> Self {
        let line = idx.lines().get(anchor);
        let scope = match heading(line) {
            Some(level) => Scope::Heading(level),
            None => Scope::Indent(indent(line)),
        };
        Reach { idx, anchor, scope, scanned: anchor + 1, end: None }
    }

    /// The anchor's input line (0-based).
    pub fn anchor(&self) -> usize {
        self.anchor
    }

    fn ends_scope(&self, line: &str) -> bool {
        match self.scope {
            Scope::Heading(level) => heading(line).is_some_and(|l| l <= level),
            Scope::Indent(depth) => {
                let t = line.trim();
                !t.is_empty() && t != "{" && indent(line) <= depth
            }
        }
    }

    /// Whether input line `s` is inside the reach. Cheapest when asked in
    /// ascending order.
    pub fn contains(&mut self, s: usize) -> bool {
        if s <= self.anchor {
            return false;
        }
        let n = self.idx.lines().len();
        while self.end.is_none() && self.scanned <= s && self.scanned < n {
            if self.ends_scope(self.idx.lines().get(self.scanned)) {
                self.end = Some(self.scanned);
            } else {
                self.scanned += 1;
            }
        }
        match self.end {
            Some(e) => s < e,
            None => s < n,
        }
    }

    /// The first input line after the reach (0-based; the input's length when
    /// it runs to the end).
    pub fn end(&mut self) -> usize {
        let n = self.idx.lines().len();
        self.contains(n);
        self.end.unwrap_or(n)
    }

    /// The places of `candidates` (ascending) inside the reach, at most `cap`.
    pub fn within(&mut self, candidates: impl Iterator<Item = usize>, cap: usize) -> Vec<usize> {
        let anchor = self.anchor;
        candidates.skip_while(|&s| s <= anchor).take_while(|&s| self.contains(s)).take(cap).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Lines;

    fn end(text: &str, anchor: usize) -> usize {
        let lines = Lines::split(text);
        let idx = Index::new(&lines);
        Reach::new(&idx, anchor).end()
    }

    #[test]
    fn python_class_reaches_to_the_next_line_as_shallow() {
        let py = "class A:\n    def f(self):\n\n        pass\n    def g(self):\n        pass\nclass B:\n    pass\n";
        assert_eq!(end(py, 0), 6);
        assert_eq!(end(py, 1), 4);
        assert_eq!(end(py, 6), 8);
    }

    #[test]
    fn braces_end_at_the_closing_brace_and_allow_one_on_its_own_line() {
        let c = "void f()\n{\n  int x;\n}\nvoid g() {\n  x();\n}\n";
        assert_eq!(end(c, 0), 3);
        assert_eq!(end(c, 4), 6);
    }

    #[test]
    fn markdown_headings_reach_to_the_next_heading_of_their_level() {
        let md = "# Title\nintro\n## Install\nnpm i\n### Linux\napt\n## Usage\nrun\n# Next\n";
        assert_eq!(end(md, 0), 8);
        assert_eq!(end(md, 2), 6);
        assert_eq!(end(md, 4), 6);
        assert_eq!(heading("####### seven"), None);
        assert_eq!(heading("#include <x>"), None);
        assert_eq!(heading("    # code"), None);
        assert_eq!(heading("##"), Some(2));
    }

    #[test]
    fn within_keeps_only_the_places_inside() {
        let py = "def a():\n    return None\ndef b():\n    return None\n";
        let lines = Lines::split(py);
        let idx = Index::new(&lines);
        assert_eq!(Reach::new(&idx, 0).within([1, 3].into_iter(), 10), [1]);
        assert_eq!(Reach::new(&idx, 2).within([1, 3].into_iter(), 10), [3]);
    }
}
