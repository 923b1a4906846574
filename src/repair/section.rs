//! Section repairs: a section whose context and removed lines are not in the
//! input byte for byte is looked for again with a slip forgiven, in order
//! from the smallest slip to the largest: trailing whitespace, then also
//! Unicode punctuation (Codex's table), then tabs against spaces (a tab as 4,
//! 8 or 2 spaces), then indentation, when every line of the section is
//! shifted by the same amount (a line that matches exactly is a shift of 0,
//! so one line indented differently among exact ones is another line, and
//! the error says so). The first level that matches at all
//! decides: one place is a repair, several are refused. Line-number prefixes
//! copied from a read tool are stripped when every old line carries one, and
//! the stripped lines are looked for the same way.
//!
//! Context lines keep the input's own text; removed lines are removed; added
//! lines are written as the model wrote them, except that when every matched
//! line is indented by the same amount more or less than the input (or with
//! spaces where the input has tabs), the added lines are shifted the same way.
//!
//! Over 600 lines on purpose: the slips are tried as one ordered ladder over the same section and
//! cursor; split up, the order that makes a repair unique would be scattered.

use std::borrow::Cow;

use crate::diff::{show, Anchor, Section};
use crate::matcher::index::Index;
use crate::matcher::{runs, DiffEdit};
use crate::text::same;

use super::context::{Ctx, Repair, RepairKind};
use crate::matcher::diagnose::list_lines as list;

/// What forgiving a section found.
pub enum Outcome<'d> {
    /// One place: the edits to make there, and the line after the match.
    Found { edits: Vec<DiffEdit<'d>>, end: usize },
    /// Several places once the slip is forgiven, or one whose indentation
    /// is not one shift: a sentence for the error, why it was not repaired.
    Ambiguous(String),
    /// Its new lines are already there, once the same slips are forgiven:
    /// the line where they start, and the line after them.
    Applied { at: usize, end: usize },
    /// Nothing matches even with the allowed repairs.
    None,
}

/// One comparison level: which slips are forgiven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Level {
    trailing: bool,
    unicode: bool,
    /// Leading tabs compared as this many spaces.
    tabs: Option<usize>,
    indent: bool,
}

impl Level {
    fn describe(self) -> &'static str {
        if self.indent {
            "ignoring indentation"
        } else if self.tabs.is_some() {
            "reading tabs in the indentation as spaces"
        } else if self.unicode {
            "ignoring Unicode punctuation look-alikes"
        } else {
            "ignoring trailing whitespace"
        }
    }
}

/// The levels the allowed repairs make, weakest first, each including the
/// ones before.
fn levels(ctx: &Ctx) -> Vec<Level> {
    let mut out = Vec::new();
    let mut lv = Level { trailing: false, unicode: false, tabs: None, indent: false };
    if ctx.allows(RepairKind::TrailingWs) {
        lv.trailing = true;
        out.push(lv);
    }
    if ctx.allows(RepairKind::Unicode) {
        lv.unicode = true;
        out.push(lv);
    }
    if ctx.allows(RepairKind::Tabs) {
        for k in [4, 8, 2] {
            out.push(Level { tabs: Some(k), ..lv });
        }
    }
    if ctx.allows(RepairKind::Indent) {
        lv.indent = true;
        lv.tabs = None;
        out.push(lv);
    }
    out
}

/// Codex's table of look-alike characters, compared as their ASCII twin.
pub fn ascii_twin(c: char) -> char {
    match c {
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' => '-',
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}' | '\u{2003}' | '\u{2004}' | '\u{2005}' | '\u{2006}' | '\u{2007}' | '\u{2008}' | '\u{2009}' | '\u{200A}'
        | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        c => c,
    }
}

fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// A line as a level compares it.
fn canon(s: &str, lv: Level) -> Cow<'_, str> {
    let mut t: Cow<str> = Cow::Borrowed(s);
    if lv.unicode && t.chars().any(|c| ascii_twin(c) != c) {
        t = Cow::Owned(t.chars().map(ascii_twin).collect());
    }
    if lv.trailing {
        t = match t {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim_end_matches(is_ws)),
            Cow::Owned(o) => Cow::Owned(o.trim_end_matches(is_ws).to_string()),
        };
    }
    if lv.indent {
        t = match t {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim_start_matches(is_ws)),
            Cow::Owned(o) => Cow::Owned(o.trim_start_matches(is_ws).to_string()),
        };
    } else if let Some(k) = lv.tabs {
        let lead = t.len() - t.trim_start_matches(is_ws).len();
        if t.get(..lead).is_some_and(|l| l.contains('\t')) {
            let mut o = String::with_capacity(t.len() + lead * k);
            for c in t.get(..lead).unwrap_or("").chars() {
                if c == '\t' {
                    o.extend(std::iter::repeat_n(' ', k));
                } else {
                    o.push(c);
                }
            }
            o.push_str(t.get(lead..).unwrap_or(""));
            t = Cow::Owned(o);
        }
    }
    t
}

/// Every start at or after `cursor` (only the end, for `eof`) where `old`
/// matches at level `lv`; at most `cap`. `plain`: at the indentation level,
/// only where the indentation differs by one shift for every line.
fn matches(idx: &Index, old: &[&str], cursor: usize, eof: bool, lv: Level, cap: usize, plain: bool) -> Vec<usize> {
    let lines = idx.lines();
    let n = lines.len();
    let Some(last) = n.checked_sub(old.len()) else { return Vec::new() };
    let pat: Vec<Cow<str>> = old.iter().map(|l| canon(l, lv)).collect();
    let first = if eof { last } else { cursor };
    let mut out = Vec::new();
    for s in first..=last {
        if s < cursor {
            continue;
        }
        let ok = pat.iter().enumerate().all(|(i, p)| canon(lines.get(s + i), lv) == *p)
            && (!lv.indent || !plain || indentation_slip_is_plain(old, (s..s + old.len()).map(|i| lines.get(i))));
        if ok {
            out.push(s);
            if out.len() >= cap {
                break;
            }
        }
    }
    out
}

/// At the indentation level, a match must differ in indentation the way a
/// model drifts: every non-blank line shifted by the same amount, a line
/// that matches exactly counting as a shift of 0. One line indented
/// differently among lines that match exactly (the closing brace of another
/// block, say) is a different line, not drift.
fn indentation_slip_is_plain<'a>(old: &[&str], file: impl Iterator<Item = &'a str>) -> bool {
    let width = |s: &str| leading(s).chars().map(|c| if c == '\t' { 4 } else { 1 }).sum::<usize>() as isize;
    let mut shift: Option<isize> = None;
    for (d, f) in old.iter().zip(file) {
        if d.trim().is_empty() || f.trim().is_empty() {
            continue;
        }
        let delta = width(f) - width(d);
        if *shift.get_or_insert(delta) != delta {
            return false;
        }
    }
    true
}

/// Whether `old` is in the input at or after `cursor` once every slip is
/// forgiven (whitespace around lines, however indented, Unicode
/// punctuation), somewhere other than over the lines `new` (where the new
/// lines were found: a change of whitespace alone, done, is the old lines
/// there with other whitespace): then its old lines are still there, and
/// the section is not "already applied".
pub(crate) fn loosely_present(idx: &Index, old: &[&str], cursor: usize, eof: bool, new: std::ops::Range<usize>) -> bool {
    let loosest = Level { trailing: true, unicode: true, tabs: None, indent: true };
    // Fewer than this many starts overlap `new`.
    let cap = old.len() + new.len() + 1;
    matches(idx, old, cursor, eof, loosest, cap, false).into_iter().any(|s| s + old.len() <= new.start || s >= new.end)
}

/// The smallest slip that makes `diff` equal to `file`.
fn classify(diff: &str, file: &str) -> Option<RepairKind> {
    let base = Level { trailing: false, unicode: false, tabs: None, indent: false };
    if diff == file {
        return None;
    }
    let tw = Level { trailing: true, ..base };
    if canon(diff, tw) == canon(file, tw) {
        return Some(RepairKind::TrailingWs);
    }
    let uni = Level { unicode: true, ..tw };
    if canon(diff, uni) == canon(file, uni) {
        return Some(RepairKind::Unicode);
    }
    if [4, 8, 2].iter().any(|&k| canon(diff, Level { tabs: Some(k), ..uni }) == canon(file, Level { tabs: Some(k), ..uni })) {
        return Some(RepairKind::Tabs);
    }
    Some(RepairKind::Indent)
}

fn leading(s: &str) -> &str {
    s.get(..s.len() - s.trim_start_matches(is_ws).len()).unwrap_or("")
}

/// How the added lines are shifted: when every non-blank matched line has
/// the same extra (or missing) leading text, or is written with spaces where
/// the input has tabs (or the reverse).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shift {
    None,
    Add(String),
    Remove(String),
    /// `k` spaces in the diff are one tab in the input.
    SpacesToTabs(usize),
    TabsToSpaces(usize),
}

fn shift(pairs: &[(&str, &str)], lv: Level) -> Shift {
    let pairs: Vec<(&str, &str)> =
        pairs.iter().filter(|(d, f)| !d.trim().is_empty() && !f.trim().is_empty()).map(|(d, f)| (leading(d), leading(f))).collect();
    if pairs.is_empty() || pairs.iter().all(|(d, f)| d == f) {
        return Shift::None;
    }
    if let Some(k) = lv.tabs {
        let tabs = |s: &str| s.chars().all(|c| c == '\t');
        let spaces = |s: &str| s.chars().all(|c| c == ' ');
        if pairs.iter().all(|(d, f)| spaces(d) && tabs(f) && d.len() == f.len() * k) {
            return Shift::SpacesToTabs(k);
        }
        if pairs.iter().all(|(d, f)| tabs(d) && spaces(f) && f.len() == d.len() * k) {
            return Shift::TabsToSpaces(k);
        }
        return Shift::None;
    }
    // One line is no evidence of a uniform shift (tabs for spaces is only the file's style).
    if !lv.indent || pairs.len() < 2 {
        return Shift::None;
    }
    let first = pairs.first().copied().unwrap_or(("", ""));
    if let Some(extra) = first.1.strip_suffix(first.0) {
        if !extra.is_empty() && pairs.iter().all(|(d, f)| f.strip_suffix(d) == Some(extra)) {
            return Shift::Add(extra.to_string());
        }
    }
    if let Some(extra) = first.0.strip_suffix(first.1) {
        if !extra.is_empty() && pairs.iter().all(|(d, f)| d.strip_suffix(f) == Some(extra)) {
            return Shift::Remove(extra.to_string());
        }
    }
    Shift::None
}

impl Shift {
    fn apply<'d>(&self, line: &'d str) -> Cow<'d, str> {
        if line.trim().is_empty() {
            return Cow::Borrowed(line);
        }
        match self {
            Shift::None => Cow::Borrowed(line),
            Shift::Add(p) => Cow::Owned(format!("{p}{line}")),
            Shift::Remove(p) => line.strip_prefix(p.as_str()).map_or(Cow::Borrowed(line), Cow::Borrowed),
            Shift::SpacesToTabs(k) => {
                let lead = line.len() - line.trim_start_matches(' ').len();
                let (tabs, rest) = (lead / k, lead % k);
                Cow::Owned(format!("{}{}{}", "\t".repeat(tabs), " ".repeat(rest), line.get(lead..).unwrap_or("")))
            }
            Shift::TabsToSpaces(k) => {
                let lead = line.len() - line.trim_start_matches('\t').len();
                Cow::Owned(format!("{}{}", " ".repeat(lead * k), line.get(lead..).unwrap_or("")))
            }
        }
    }

    fn describe(&self) -> Option<String> {
        let width = |p: &str| {
            let (t, s) = (p.matches('\t').count(), p.matches(' ').count());
            match (t, s) {
                (0, s) => format!("{s} space{}", if s == 1 { "" } else { "s" }),
                (t, 0) => format!("{t} tab{}", if t == 1 { "" } else { "s" }),
                _ => show(p),
            }
        };
        match self {
            Shift::None => None,
            Shift::Add(p) => Some(format!("every matched line is indented {} more in the input, so the added lines were indented {} more too", width(p), width(p))),
            Shift::Remove(p) => Some(format!("every matched line is indented {} less in the input, so the added lines were indented {} less too", width(p), width(p))),
            Shift::SpacesToTabs(k) => Some(format!("the input indents with tabs where the diff has {k} spaces, so the added lines' leading spaces were written as tabs ({k} spaces = 1 tab)")),
            Shift::TabsToSpaces(k) => Some(format!("the input indents with {k} spaces where the diff has tabs, so the added lines' leading tabs were written as {k} spaces each")),
        }
    }
}

/// A line-number prefix style copied from a read tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// `12 | code` (one space after the bar is part of the prefix)
    Bar,
    /// `12:code`
    Colon,
    /// `    12\tcode` (cat -n)
    Tab,
    /// `    12→code`
    Arrow,
}

/// The number and the rest of a line with a line-number prefix.
fn number_prefix(s: &str) -> Option<(Style, usize, &str)> {
    let t = s.trim_start_matches(' ');
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let num: usize = t.get(..digits)?.parse().ok()?;
    let after = t.get(digits..)?;
    if let Some(r) = after.strip_prefix('\t') {
        return Some((Style::Tab, num, r));
    }
    if let Some(r) = after.strip_prefix('→') {
        return Some((Style::Arrow, num, r));
    }
    if let Some(r) = after.strip_prefix(':') {
        return Some((Style::Colon, num, r));
    }
    let r = after.trim_start_matches(' ').strip_prefix('|')?;
    Some((Style::Bar, num, r.strip_prefix(' ').unwrap_or(r)))
}

/// The old lines without their prefixes, when every one has a prefix of one
/// style with consecutive numbers.
fn strip_numbers<'d>(old: &[&'d str]) -> Option<(Style, usize, Vec<&'d str>)> {
    let mut out = Vec::with_capacity(old.len());
    let mut first: Option<(Style, usize)> = None;
    for (i, l) in old.iter().enumerate() {
        let (style, num, rest) = number_prefix(l)?;
        match first {
            None => first = Some((style, num)),
            Some((s, n)) if s == style && n + i == num => {}
            _ => return None,
        }
        out.push(rest);
    }
    first.map(|(s, n)| (s, n, out))
}

/// Lines that all carry a line-number prefix of one style with consecutive
/// numbers: the first number and the lines without their prefixes (the edit
/// blocks' `line-numbers` repair reads SEARCH texts with it).
pub(crate) fn numbered_lines<'d>(lines: &[&'d str]) -> Option<(usize, Vec<&'d str>)> {
    strip_numbers(lines).map(|(_, first, rest)| (first, rest))
}

/// A line's text after its line-number prefix, if it has one.
pub(crate) fn without_number(line: &str) -> Option<&str> {
    number_prefix(line).map(|(_, _, rest)| rest)
}

/// Looks for a section that did not match byte for byte, with the slips
/// `ctx` allows forgiven. `eof`: the section must end the input.
#[inline(never)]
pub fn find<'d>(idx: &Index, si: usize, section: &Section<'d>, cursor: usize, ctx: &mut Ctx) -> Outcome<'d> {
    let old: Vec<&'d str> = section.old().map(|l| l.text).collect();
    let eof = section.eof.is_some();
    // The old lines to look for, and the line-number style stripped from them.
    let mut tries: Vec<(Vec<&'d str>, Option<Style>)> = Vec::new();
    if !levels(ctx).is_empty() {
        tries.push((old.clone(), None));
    }
    if ctx.allows(RepairKind::LineNumbers) {
        if let Some((style, _, stripped)) = strip_numbers(&old) {
            tries.push((stripped, Some(style)));
        }
    }
    // A place where the lines match but for an indentation that is not one
    // shift: said in the error, never repaired.
    let mut uneven: Option<usize> = None;
    for (pattern, numbers) in tries {
        let mut lvs = levels(ctx);
        if numbers.is_some() {
            lvs.insert(0, Level { trailing: false, unicode: false, tabs: None, indent: false });
        }
        for lv in lvs {
            let found = matches(idx, &pattern, cursor, eof, lv, 11, true);
            match found.as_slice() {
                [] => {
                    if lv.indent && uneven.is_none() {
                        uneven = matches(idx, &pattern, cursor, eof, lv, 1, false).first().copied();
                    }
                    continue;
                }
                [o] => return found_at(idx, si, section, &pattern, numbers, *o, lv, ctx),
                many => {
                    let shown: Vec<usize> = many.iter().take(10).map(|s| s + 1).collect();
                    let how = if numbers.is_some() {
                        format!("without its line-number prefixes and {}", lv.describe())
                    } else {
                        lv.describe().to_string()
                    };
                    return Outcome::Ambiguous(format!(
                        " {how}, it matches {} places (input lines {}{}), so it was not repaired: a repair never chooses between places.",
                        if many.len() > 10 { "more than 10".to_string() } else { many.len().to_string() },
                        list(&shown),
                        if many.len() > 10 { ", …" } else { "" }
                    ));
                }
            }
        }
    }
    // Sent again after a repaired success: the new lines, with the same slips
    // (but not any indentation: a change of indentation alone would look
    // applied before it is).
    if let Some(new) = new_side(section) {
        for lv in levels(ctx).into_iter().filter(|lv| !lv.indent) {
            match matches(idx, &new, cursor, eof, lv, 2, true).as_slice() {
                [] => continue,
                [n] if plausible(idx, section, cursor, *n) => return Outcome::Applied { at: *n, end: n + new.len() },
                [_] => break,
                _ => break,
            }
        }
    }
    match uneven {
        Some(at) => Outcome::Ambiguous(format!(
            " ignoring indentation, it matches at input line {}, but its lines are not all shifted by the same amount there (a line that matches exactly is a shift of 0), so it was not repaired: one line indented differently among lines that match is another line, not drift.",
            at + 1
        )),
        None => Outcome::None,
    }
}

#[allow(clippy::too_many_arguments)]
fn found_at<'d>(
    idx: &Index,
    si: usize,
    section: &Section<'d>,
    pattern: &[&'d str],
    numbers: Option<Style>,
    o: usize,
    lv: Level,
    ctx: &mut Ctx,
) -> Outcome<'d> {
    let lines = idx.lines();
    let old_lines: Vec<(usize, &str)> = section.old().map(|l| l.line).zip(pattern.iter().copied()).collect();
    let pairs: Vec<(&str, &str)> = old_lines.iter().enumerate().map(|(i, &(_, d))| (d, lines.get(o + i))).collect();
    // Added lines: strip their line numbers too when every one has them.
    let added: Vec<&str> = section.lines.iter().filter(|l| l.kind == crate::diff::LineKind::Add).map(|l| l.text).collect();
    let strip_added = match numbers {
        Some(style) => {
            let with = added.iter().filter(|l| number_prefix(l).is_some_and(|(s, _, _)| s == style)).count();
            if with != 0 && with != added.len() {
                return Outcome::None;
            }
            with != 0
        }
        None => false,
    };
    let sh = shift(&pairs, lv);
    let mut edits = runs(section, o);
    for e in &mut edits {
        for l in &mut e.edit.new {
            let text: &'d str = match l {
                Cow::Borrowed(b) => b,
                Cow::Owned(_) => continue,
            };
            let text = if strip_added { number_prefix(text).map_or(text, |(_, _, r)| r) } else { text };
            *l = sh.apply(text);
        }
    }
    let (a, b) = section.span();
    let name = if a == b { format!("Section {} (diff line {a})", si + 1) } else { format!("Section {} (diff lines {a}-{b})", si + 1) };
    if let (Some(style), Some(&(first_line, _))) = (numbers, old_lines.first()) {
        let example = match style {
            Style::Bar => "'12 | '",
            Style::Colon => "'12:'",
            Style::Tab => "'12<tab>'",
            Style::Arrow => "'12→'",
        };
        let also = if strip_added { " (and from its added lines)" } else { "" };
        ctx.push(Repair::new(
            RepairKind::LineNumbers,
            format!("{name}: its context and removed lines start with line numbers copied from the file view ({example}); they were removed{also} before matching. Write diff lines without line numbers."),
            Some(first_line),
            Some(o + 1),
        ));
    }
    for kind in [RepairKind::TrailingWs, RepairKind::Unicode, RepairKind::Tabs, RepairKind::Indent] {
        let hits: Vec<(usize, usize)> = pairs
            .iter()
            .zip(&old_lines)
            .enumerate()
            .filter(|(_, ((d, f), _))| classify(d, f) == Some(kind))
            .map(|(i, (_, &(dl, _)))| (dl, o + i + 1))
            .collect();
        let Some(&(first_diff, first_input)) = hits.first() else { continue };
        let what = match kind {
            RepairKind::TrailingWs => "trailing whitespace",
            RepairKind::Unicode => "Unicode punctuation (dashes, quotes or spaces written as their ASCII look-alikes, or the reverse)",
            RepairKind::Tabs => "tabs against spaces in the indentation",
            _ => "indentation",
        };
        let count = if hits.len() == 1 {
            "1 context or removed line differs".to_string()
        } else {
            format!("{} context or removed lines differ", hits.len())
        };
        let diff_lines: Vec<usize> = hits.iter().map(|h| h.0).collect();
        let input_lines: Vec<usize> = hits.iter().map(|h| h.1).collect();
        let mut message = format!(
            "{name}: {count} from the input only in {what} (diff line{} {}, input line{} {}); it matched once, at input line {}, and the input's own text was kept.",
            if hits.len() == 1 { "" } else { "s" },
            list(&diff_lines),
            if hits.len() == 1 { "" } else { "s" },
            list(&input_lines),
            o + 1
        );
        if matches!(kind, RepairKind::Tabs | RepairKind::Indent) {
            if let Some(s) = sh.describe() {
                message.push_str(&format!(" Also, {s}."));
            }
        }
        ctx.push(Repair::new(kind, message, Some(first_diff), Some(first_input)));
    }
    Outcome::Found { edits, end: o + pattern.len() }
}

/// A unified-diff hunk header written as an anchor: `-12,7 +12,8 @@` and
/// anything after it.
fn is_unified_header(text: &str) -> bool {
    let range = |s: &str, sign: char| -> Option<usize> {
        let s = s.strip_prefix(sign)?;
        let n = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit() || c == ',').len();
        (n > 0 && s.starts_with(|c: char| c.is_ascii_digit())).then_some(n + 1)
    };
    let Some(a) = range(text, '-') else { return false };
    let Some(rest) = text.get(a..).and_then(|r| r.strip_prefix(' ')) else { return false };
    let Some(b) = range(rest, '+') else { return false };
    rest.get(b..).is_some_and(|r| r == " @@" || r.starts_with(" @@ ") || r == "@@")
}

/// Whether an anchor is a unified hunk header to read as a bare `@@` (when
/// the repair is allowed and no input line is that text); reports it.
pub fn skip_anchor(idx: &Index, a: &Anchor, ctx: &mut Ctx) -> bool {
    if !ctx.allows(RepairKind::HunkHeader) || !is_unified_header(a.text) || idx.count(a.text, 1) > 0 {
        return false;
    }
    ctx.push(Repair::new(
        RepairKind::HunkHeader,
        format!(
            "{} is a unified-diff hunk header; it was read as a bare '@@' (its line numbers place nothing: the section's lines do). A V4A section starts with '@@' alone or '@@ <a line of the file>'.",
            show(&format!("@@ {}", a.text))
        ),
        Some(a.line),
        None,
    ));
    true
}

// Whether a section is already applied at a place (used here and by
// `applied.rs`, which stands above this file).

/// Whether a section can be "already applied" at all: it changes something,
/// and leaves some lines to look for.
pub(crate) fn new_side<'d>(section: &Section<'d>) -> Option<Vec<&'d str>> {
    // Sized for the whole section: a filtered collect starts at 4 and grows.
    let mut new: Vec<&str> = Vec::with_capacity(section.lines.len());
    new.extend(section.new_side().map(|l| l.text));
    let mut old = section.old().map(|l| l.text);
    let unchanged = new.iter().all(|n| old.next().is_some_and(|o| same(o, n))) && old.next().is_none();
    if new.is_empty() || !section.has_changes() || unchanged {
        return None;
    }
    Some(new)
}

/// Whether new lines found at `n`, with the old lines not matching, really
/// are the change done: the old lines are not there even with whitespace
/// and punctuation forgiven, and the lines the section removes before (or
/// after) its new lines are not still right there (a removal whose context
/// lost a line is not a removal done).
pub(crate) fn plausible(idx: &Index, section: &Section, cursor: usize, n: usize) -> bool {
    let old: Vec<&str> = section.old().map(|l| l.text).collect();
    let lines = idx.lines();
    let new_len = section.new_side().count();
    if loosely_present(idx, &old, cursor, section.eof.is_some(), n..n + new_len) {
        return false;
    }
    // All but one of four or more old lines, in place somewhere else: the
    // old text is still there with one line misremembered, and the new lines
    // found are a coincidence. Not where the new lines are: an insertion
    // whose added lines end like the context after it (a function ending in
    // `}` and a blank line, before another one) leaves its old lines there,
    // shifted, all but one. Nor for a section that only adds lines: its new
    // lines found hold every one of its context lines exactly, in order,
    // with the added ones among them, so they are no coincidence (a file of
    // repeated blocks has its context, all but one line, all over it).
    let removes = section.lines.iter().any(|l| l.kind == crate::diff::LineKind::Remove);
    let whole = |c: &crate::matcher::diagnose::Candidate| c.start + old.len() <= lines.len();
    let elsewhere = |c: &crate::matcher::diagnose::Candidate| c.start + old.len() <= n || c.start >= n + new_len;
    if removes
        && old.len() >= 4
        && crate::matcher::diagnose::nearest(idx, &old, cursor)
            .is_some_and(|c| c.start != n && whole(&c) && elsewhere(&c) && c.equal + 1 >= old.len())
    {
        return false;
    }
    let is_removed = |l: &&crate::diff::DiffLine| l.kind == crate::diff::LineKind::Remove;
    let leading: Vec<&str> = section.lines.iter().take_while(is_removed).map(|l| l.text).collect();
    let trailing: Vec<&str> = section.lines.iter().rev().take_while(is_removed).map(|l| l.text).collect();
    let still_there = |run: &[&str], range: std::ops::Range<usize>| {
        run.iter().filter(|t| !t.trim().is_empty()).any(|t| range.clone().any(|i| i < lines.len() && alike(lines.get(i), t)))
    };
    let before = n.saturating_sub(leading.len() + 2)..n;
    let after = n + new_len..n + new_len + trailing.len() + 2;
    !still_there(&leading, before) && !still_there(&trailing, after)
}

/// Whether an input line is the removed line, or a copy of it the model
/// misremembered a little: equal but for whitespace around it, or sharing
/// a start and an end that make up 70% of the longer line.
fn alike(line: &str, removed: &str) -> bool {
    let (a, b) = (line.trim().as_bytes(), removed.trim().as_bytes());
    if a == b {
        return true;
    }
    let longest = a.len().max(b.len());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let rest = a.len().min(b.len()) - prefix;
    let suffix = a.iter().rev().zip(b.iter().rev()).take(rest).take_while(|(x, y)| x == y).count();
    longest > 0 && (prefix + suffix) * 10 >= longest * 7
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_headers() {
        for h in ["-12,7 +12,8 @@", "-1 +1 @@", "-3,0 +4,2 @@ def f():"] {
            assert!(is_unified_header(h), "{h}");
        }
        for h in ["def f():", "-12,7 +12,8", "- 1 +1 @@", "-a +b @@"] {
            assert!(!is_unified_header(h), "{h}");
        }
    }

    #[test]
    fn number_prefixes() {
        assert_eq!(number_prefix("12 | x = 1"), Some((Style::Bar, 12, "x = 1")));
        assert_eq!(number_prefix("12:    x"), Some((Style::Colon, 12, "    x")));
        assert_eq!(number_prefix("    12\tx"), Some((Style::Tab, 12, "x")));
        assert_eq!(number_prefix("  7→  y"), Some((Style::Arrow, 7, "  y")));
        assert_eq!(number_prefix("x = 12"), None);
        assert!(strip_numbers(&["3 | a", "4 | b"]).is_some());
        assert!(strip_numbers(&["3 | a", "5 | b"]).is_none());
        assert!(strip_numbers(&["3 | a", "b"]).is_none());
    }

    #[test]
    fn classify_takes_the_smallest_slip() {
        assert_eq!(classify("a  ", "a"), Some(RepairKind::TrailingWs));
        assert_eq!(classify("\"a\" - b", "\u{201C}a\u{201D} \u{2013} b"), Some(RepairKind::Unicode));
        assert_eq!(classify("    a", "\ta"), Some(RepairKind::Tabs));
        assert_eq!(classify("  a", "    a"), Some(RepairKind::Indent));
        assert_eq!(classify("a", "a"), None);
    }
}
