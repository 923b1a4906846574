//! Indentation: apply-edit-block's uniform shift (compatible), and the
//! relative re-indentation of the `relative_indent` option, which writes the
//! replacement in the file's own indentation (tabs stay tabs) and keeps the
//! replacement's nesting relative to the SEARCH text.
//!
//! Widths are measured in columns with tab stops every 4 columns. Only
//! spaces and tabs count as indentation.

use super::py_strip;

/// The leading spaces and tabs of a line.
pub(crate) fn leading_ws(line: &str) -> &str {
    let n = line.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
    line.get(..n).unwrap_or("")
}

/// Width of indentation in columns (tab stops every 4).
pub(crate) fn cols(ws: &str) -> usize {
    ws.bytes().fold(0, |c, b| if b == b'\t' { (c / 4 + 1) * 4 } else { c + 1 })
}

fn is_blank(line: &str) -> bool {
    py_strip(line).is_empty()
}

/// apply-edit-block's re-indentation: every non-blank line of `replace` gets
/// `delta` spaces more (`delta > 0`, spaces even in a tab-indented file) or up
/// to `-delta` leading spaces or tabs fewer.
pub(crate) fn shift(replace: &str, delta: i64) -> String {
    if delta == 0 {
        return replace.to_string();
    }
    let lines: Vec<String> = replace
        .split('\n')
        .map(|line| {
            if is_blank(line) {
                line.to_string()
            } else if delta > 0 {
                let mut s = " ".repeat(usize::try_from(delta).unwrap_or(0));
                s.push_str(line);
                s
            } else {
                let cut = usize::try_from(delta.unsigned_abs()).unwrap_or(usize::MAX).min(leading_ws(line).len());
                line.get(cut..).unwrap_or("").to_string()
            }
        })
        .collect();
    lines.join("\n")
}

/// How a text indents: with tabs, or with spaces `width` columns per level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    pub tabs: bool,
    /// Columns per level (4 for tabs).
    pub width: usize,
}

/// The indentation style of some lines: tabs when more non-blank lines start
/// with a tab than with a space; otherwise spaces, with the most common
/// increase of indentation between consecutive non-blank lines as the level
/// width (the smallest indentation when no line is deeper than the one
/// before). `None` when no line is indented.
pub(crate) fn detect<'a, I: IntoIterator<Item = &'a str>>(lines: I) -> Option<Style> {
    let (mut tab_led, mut space_led) = (0usize, 0usize);
    let mut increases = [0usize; 17];
    let mut smallest = usize::MAX;
    let mut prev: Option<usize> = None;
    for line in lines {
        if is_blank(line) {
            continue;
        }
        let ws = leading_ws(line);
        match ws.as_bytes().first() {
            Some(b'\t') => tab_led += 1,
            Some(_) => space_led += 1,
            None => {}
        }
        let c = cols(ws);
        if c > 0 {
            smallest = smallest.min(c);
        }
        if let Some(p) = prev {
            if let Some(slot) = c.checked_sub(p).filter(|&d| d > 0).and_then(|d| increases.get_mut(d)) {
                *slot += 1;
            }
        }
        prev = Some(c);
    }
    if tab_led == 0 && space_led == 0 {
        return None;
    }
    if tab_led > space_led {
        return Some(Style { tabs: true, width: 4 });
    }
    let mut width = 0;
    let mut best = 0;
    for (d, &count) in increases.iter().enumerate() {
        if count > best {
            best = count;
            width = d;
        }
    }
    if width == 0 {
        width = smallest.clamp(1, 16);
    }
    Some(Style { tabs: false, width })
}

/// How the file's indentation relates to the SEARCH text's at a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Some line is nested differently in the file than in the SEARCH text.
    Inconsistent,
    /// Every SEARCH line's indentation relative to the first, times
    /// `file / search`, is the file line's relative indentation.
    Scale { file: usize, search: usize },
    /// All lines are at the same depth on both sides: any scale fits.
    Free,
}

/// Checks that the file lines are nested like the SEARCH lines: `pairs` are
/// the (SEARCH, file) indentation widths of the non-blank lines, the first
/// pair being the base.
pub(crate) fn fit<I: IntoIterator<Item = (usize, usize)>>(pairs: I) -> Fit {
    let mut pairs = pairs.into_iter();
    let Some((bs, bf)) = pairs.next() else { return Fit::Free };
    let mut reference: Option<(i64, i64)> = None;
    let signed = |x: usize| i64::try_from(x).unwrap_or(i64::MAX);
    for (s, f) in pairs {
        let ds = signed(s).saturating_sub(signed(bs));
        let df = signed(f).saturating_sub(signed(bf));
        if ds == 0 && df == 0 {
            continue;
        }
        match reference {
            None => {
                if ds == 0 || df == 0 || (ds > 0) != (df > 0) {
                    return Fit::Inconsistent;
                }
                reference = Some((ds, df));
            }
            Some((rs, rf)) => {
                if ds.checked_mul(rf) != df.checked_mul(rs) || ds.checked_mul(rf).is_none() {
                    return Fit::Inconsistent;
                }
            }
        }
    }
    match reference {
        Some((rs, rf)) => Fit::Scale { file: rf.unsigned_abs() as usize, search: rs.unsigned_abs() as usize },
        None => Fit::Free,
    }
}

/// How to re-indent a replacement in `relative_indent` mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Relative {
    /// Indentation of the SEARCH line the match is based on.
    pub search_base: String,
    /// Indentation of the file line it matched.
    pub file_base: String,
    /// File columns per `search` SEARCH columns.
    pub file: usize,
    pub search: usize,
    /// Write new indentation with tabs.
    pub tabs: bool,
}

impl Relative {
    /// The replacement with each non-blank line's indentation, relative to the
    /// SEARCH base, scaled and put on the file base in the file's style.
    /// Blank lines are kept as they are.
    pub(crate) fn apply(&self, replace: &str) -> String {
        let signed = |x: usize| i64::try_from(x).unwrap_or(i64::MAX);
        let sb = signed(cols(&self.search_base));
        let fb = signed(cols(&self.file_base));
        let (num, den) = (signed(self.file.max(1)), signed(self.search.max(1)));
        let lines: Vec<String> = replace
            .split('\n')
            .map(|line| {
                if is_blank(line) {
                    return line.to_string();
                }
                let ws = leading_ws(line);
                let rest = line.get(ws.len()..).unwrap_or("");
                let delta = signed(cols(ws)).saturating_sub(sb);
                let target = fb.saturating_add(delta.saturating_mul(num).div_euclid(den)).max(0);
                let mut out = self.indentation(fb, target);
                out.push_str(rest);
                out
            })
            .collect();
        lines.join("\n")
    }

    /// Indentation of `target` columns, built on the file base (`fb` columns).
    fn indentation(&self, fb: i64, target: i64) -> String {
        let fill = |out: &mut String, from: i64, to: i64| {
            let extra = usize::try_from(to - from).unwrap_or(0);
            if self.tabs {
                out.push_str(&"\t".repeat(extra / 4));
                out.push_str(&" ".repeat(extra % 4));
            } else {
                out.push_str(&" ".repeat(extra));
            }
        };
        if target >= fb {
            let mut out = self.file_base.clone();
            fill(&mut out, fb, target);
            return out;
        }
        // Deeper-left than the base: keep as much of the base as fits.
        let mut out = String::new();
        let mut at = 0i64;
        for c in self.file_base.chars() {
            let next = if c == '\t' { (at / 4 + 1) * 4 } else { at + 1 };
            if next > target {
                break;
            }
            out.push(c);
            at = next;
        }
        fill(&mut out, at, target);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_like_apply_edit_block() {
        assert_eq!(shift("a\n\n  b", 2), "  a\n\n    b");
        assert_eq!(shift("    a\n\tb\n \n", -2), "  a\nb\n \n");
        assert_eq!(shift("x", 0), "x");
    }

    #[test]
    fn detects_styles() {
        assert_eq!(detect(["if x:", "    y", "    if z:", "        w"]), Some(Style { tabs: false, width: 4 }));
        assert_eq!(detect(["a {", "  b {", "    c", "  }", "}"]), Some(Style { tabs: false, width: 2 }));
        assert_eq!(detect(["func f() {", "\tx", "\t\ty", "}"]), Some(Style { tabs: true, width: 4 }));
        assert_eq!(detect(["a", "b", ""]), None);
        assert_eq!(detect(["    a", "    b"]), Some(Style { tabs: false, width: 4 }));
        // The most common increase, not the smallest indentation (8 here).
        assert_eq!(
            detect(["class A:", "        def f():", "            x", "        def g():", "            y"]),
            Some(Style { tabs: false, width: 4 })
        );
    }

    #[test]
    fn fits() {
        assert_eq!(fit([(0, 8), (4, 12), (0, 8)]), Fit::Scale { file: 4, search: 4 });
        assert_eq!(fit([(0, 8), (2, 12), (4, 16)]), Fit::Scale { file: 4, search: 2 });
        assert_eq!(fit([(0, 0), (4, 4), (0, 4)]), Fit::Inconsistent);
        assert_eq!(fit([(4, 0), (0, 4)]), Fit::Inconsistent);
        assert_eq!(fit([(2, 6), (2, 6)]), Fit::Free);
    }

    #[test]
    fn relative_keeps_tabs_and_nesting() {
        let r = Relative { search_base: String::new(), file_base: "\t\t".into(), file: 4, search: 4, tabs: true };
        assert_eq!(r.apply("if x:\n    z()\n\nw"), "\t\tif x:\n\t\t\tz()\n\n\t\tw");
        let r = Relative { search_base: "  ".into(), file_base: "    ".into(), file: 4, search: 2, tabs: false };
        assert_eq!(r.apply("  a\n    b\nc"), "    a\n        b\nc");
        let r = Relative { search_base: "    ".into(), file_base: "\t\t".into(), file: 4, search: 4, tabs: true };
        // Less indented than the SEARCH base: cut the file base down.
        assert_eq!(r.apply("x\n  y"), "\tx\n\t  y");
    }
}
