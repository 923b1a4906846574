//! The `line-numbers` repair of edit blocks: a SEARCH text copied from a
//! read tool with its line-number prefixes (Roo Code's `12 | code`,
//! `12:code`, `cat -n`'s `    12\tcode`, `12→code`).
//!
//! `2 | x` can be real text, so the prefixes go only when that is certain:
//! every SEARCH line carries one, of one style, with consecutive numbers, and
//! each line without its prefix is the file's line of that number. The
//! REPLACE text loses its prefixes too when every one of its lines has one.

use crate::repair::context::{Repair, RepairKind};
use crate::repair::section::{numbered_lines, without_number};

/// A SEARCH text whose prefixes are the lines' own numbers, without them.
pub(super) struct Numbered {
    /// The SEARCH text without its prefixes.
    pub search: String,
    /// The REPLACE text, without prefixes when each of its lines had one.
    pub replace: String,
    /// The first line's number.
    pub first: usize,
    /// How many SEARCH lines.
    pub lines: usize,
    /// Whether the REPLACE lines lost prefixes too.
    pub replace_too: bool,
    /// The first SEARCH line's prefix, as written (for messages).
    pub example: String,
}

/// The lines of a text, without the empty piece after a final newline.
fn lines_of(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// The edit's texts without their line-number prefixes, when the prefixes
/// are certainly the lines' own numbers in `source`.
pub(super) fn strip(source: &str, search: &str, replace: &str) -> Option<Numbered> {
    let wanted = lines_of(search);
    let (first, stripped) = numbered_lines(&wanted)?;
    let body = source.strip_prefix('\u{feff}').unwrap_or(source);
    let file = lines_of(body);
    let own = first >= 1 && stripped.iter().enumerate().all(|(i, l)| file.get(first - 1 + i) == Some(l));
    if !own {
        return None;
    }
    let newline = if search.ends_with('\n') { "\n" } else { "" };
    let example = wanted.first().and_then(|l| l.get(..l.len() - stripped.first().map_or(0, |s| s.len()))).unwrap_or("").to_string();
    let replace_lines = lines_of(replace);
    let plain: Option<Vec<&str>> =
        if replace_lines.is_empty() { None } else { replace_lines.iter().map(|l| without_number(l)).collect::<Option<Vec<&str>>>() };
    let replace_too = plain.is_some();
    let replace = match plain {
        Some(lines) => lines.join("\n") + if replace.ends_with('\n') { "\n" } else { "" },
        None => replace.to_string(),
    };
    Some(Numbered { search: stripped.join("\n") + newline, replace, first, lines: stripped.len(), replace_too, example })
}

impl Numbered {
    /// `lines 3 to 5`, or `line 3`.
    fn range(&self) -> String {
        if self.lines == 1 {
            format!("line {}", self.first)
        } else {
            format!("lines {} to {}", self.first, self.first + self.lines - 1)
        }
    }

    /// The repair made.
    pub fn repair(&self) -> Repair {
        let also = if self.replace_too { ", from the REPLACE lines too," } else { "" };
        Repair::new(
            RepairKind::LineNumbers,
            format!(
                "The SEARCH lines start with line numbers copied from a read tool ('{}'); without them they are {} of the file, so the numbers were removed{also} before matching. Write SEARCH and REPLACE lines without line numbers.",
                self.example.trim_end(),
                self.range()
            ),
            None,
            Some(self.first),
        )
    }

    /// What a not-found message adds when the repair is not allowed.
    pub fn hint(&self) -> String {
        format!(
            " Its lines start with line numbers copied from a read tool ('{}'); without them they are {} of the file: send the block again without the numbers (or allow the 'line-numbers' repair).",
            self.example.trim_end(),
            self.range()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::{apply_edit, Edit, Options, Strategy};
    use crate::repair::context::Allow;

    #[test]
    fn the_repair_is_opt_in_and_reported() {
        let file = "line 1\nline to delete\nline 3";
        let edit = Edit { start_line: Some(2), ..Edit::new("2 | line to delete", "") };
        let repair = Options { repair: Allow::only(&[RepairKind::LineNumbers]), ..Options::SAFE };
        let r = apply_edit(file, &edit, &repair).unwrap();
        assert_eq!((r.ok, r.text.as_str(), r.strategy), (true, "line 1\nline 3", Some(Strategy::Exact)));
        assert_eq!(r.repairs.iter().map(|x| (x.kind, x.input_line)).collect::<Vec<_>>(), [(RepairKind::LineNumbers, Some(2))]);
        let plain = apply_edit(file, &edit, &Options::SAFE).unwrap();
        assert!(!plain.ok && plain.repairs.is_empty());
        assert!(plain.failure.unwrap().message.ends_with("(or allow the 'line-numbers' repair)."));
        // Compatible explains nothing, and repairs all the same.
        assert!(apply_edit(file, &edit, &Options { repair: Allow::ALL, ..Options::COMPATIBLE }).unwrap().ok);
    }

    #[test]
    fn only_the_lines_own_numbers() {
        let file = "line 1\nline to delete\nline 3";
        let n = strip(file, "2 | line to delete", "").unwrap();
        assert_eq!((n.search.as_str(), n.replace.as_str(), n.first, n.replace_too), ("line to delete", "", 2, false));
        assert_eq!(n.example, "2 | ");
        // Numbers that are not the lines' own, or not on every line: no.
        assert!(strip(file, "3 | line to delete", "").is_none());
        assert!(strip(file, "2 | line to delete\nline 3", "").is_none());
        assert!(strip(file, "2 | line to delete\n4 | line 3", "").is_none());
        assert!(strip(file, "1476 | line 1", "").is_none());
        // CRLF files, a final newline, REPLACE prefixes.
        let n = strip("a\r\nb\r\nc\r\n", "2 | b\n3 | c\n", "2 | B\n3 | C\n").unwrap();
        assert_eq!((n.search.as_str(), n.replace.as_str(), n.replace_too), ("b\nc\n", "B\nC\n", true));
        assert_eq!(
            n.repair().line(),
            "repaired[line-numbers] (input line 2): The SEARCH lines start with line numbers copied from a read tool ('2 |'); without them they are lines 2 to 3 of the file, so the numbers were removed, from the REPLACE lines too, before matching. Write SEARCH and REPLACE lines without line numbers."
        );
        // A REPLACE line without a prefix keeps them all.
        let n = strip("a\nb\n", "1\ta\n2\tb", "1\tA\nB").unwrap();
        assert_eq!((n.search.as_str(), n.replace.as_str()), ("a\nb", "1\tA\nB"));
    }
}
