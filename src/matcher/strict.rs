//! Strict matching (the default mode): every anchor, context line and removed
//! line matches byte for byte and exactly once, in file order, or the diff
//! fails. Rules: README "Strict mode"; vectors: tests/fixtures/strict.json.

use super::diagnose;
use super::index::Index;
use super::reach::Reach;
use super::{runs, DiffEdit};
use crate::diff::{show, Anchor, Diff, LineKind, Section};
use crate::error::{Error, ErrorKind, Result};
use crate::repair::applied;
use crate::repair::context::Ctx;
use crate::repair::section as repair_section;
use crate::text::{Ending, Lines};

/// How many places an ambiguity error lists.
const LIST: usize = 10;

/// Strict inputs use one line-break style: the one new lines get.
pub fn newline(lines: &Lines) -> Result<Ending> {
    // Without a carriage return every break is LF (the split saw none),
    // with no look at every line.
    if !lines.has_cr() {
        return Ok(Ending::Lf);
    }
    let mut lf: Option<usize> = None;
    let mut crlf: Option<usize> = None;
    for (i, l) in lines.lines().iter().enumerate() {
        match l.ending {
            Ending::Cr => {
                return Err(Error::new(
                    ErrorKind::MixedNewlines,
                    format!("Input line {} ends with a bare carriage return (\\r). Strict mode only reads LF or CRLF line breaks; convert the input's line breaks, or use mode 'codex', which keeps each line's own ending.", i + 1),
                )
                .at_input_lines([i + 1]))
            }
            Ending::Lf => {
                lf.get_or_insert(i);
            }
            Ending::CrLf => {
                crlf.get_or_insert(i);
            }
            Ending::None => {}
        }
        if let (Some(a), Some(b)) = (lf, crlf) {
            let (first, second) = if a < b { ((a, "LF"), (b, "CRLF")) } else { ((b, "CRLF"), (a, "LF")) };
            return Err(Error::new(
                ErrorKind::MixedNewlines,
                format!(
                    "The input mixes line breaks: line {} ends with {} and line {} with {}. Strict mode cannot tell which one new lines should get; make the input's line breaks consistent, or use mode 'codex', which keeps each line's own ending.",
                    first.0 + 1, first.1, second.0 + 1, second.1
                ),
            )
            .at_input_lines([first.0 + 1, second.0 + 1]));
        }
    }
    Ok(if crlf.is_some() { Ending::CrLf } else { Ending::Lf })
}

/// Finds every section of `diff` in the input and returns its edits in
/// order, with the repairs `ctx` allows (`crate::repair`; none by default).
/// A section that is already applied is never applied again (`repair::applied`).
pub fn plan_with<'d>(idx: &Index, diff: &Diff<'d>, ctx: &mut Ctx) -> Result<Vec<DiffEdit<'d>>> {
    let mut plan = Plan::default();
    let mut edits = Vec::new();
    for section in &diff.sections {
        if let Some((_, found)) = plan.section(idx, section, ctx)? {
            edits.extend(found);
        }
    }
    let spans: Vec<(usize, usize)> = diff.sections.iter().map(Section::span).collect();
    if plan.finish(&spans, ctx)? {
        return Ok(Vec::new());
    }
    Ok(edits)
}

/// Strict's state between sections: the sections of a diff are found one
/// after another ([`Plan::section`]), then judged as a whole
/// ([`Plan::finish`]). `plan_with` runs it over a parsed diff, and
/// `crate::stream` over sections as they arrive.
#[derive(Debug, Default)]
pub struct Plan {
    /// Index of the next section.
    si: usize,
    /// First input line the next section may use.
    cursor: usize,
    done: applied::Sections,
}

impl Plan {
    /// Finds the next section of the diff: where its old lines start and
    /// its edits, or `None` when it is already applied.
    pub fn section<'d>(&mut self, idx: &Index, section: &Section<'d>, ctx: &mut Ctx) -> Result<Option<(usize, Vec<DiffEdit<'d>>)>> {
        let si = self.si;
        self.si += 1;
        let n = idx.lines().len();
        let done = &mut self.done;
        let cursor = &mut self.cursor;
        idx.check_work()?;
        let mut last_anchor: Option<usize> = None;
        for a in &section.anchors {
            if repair_section::skip_anchor(idx, a, ctx) {
                continue;
            }
            let at = match last_anchor {
                None => find_anchor(idx, a, *cursor)?,
                Some(prev) => find_stacked_anchor(idx, a, prev, *cursor)?,
            };
            *cursor = at + 1;
            last_anchor = Some(at);
        }
        let anchored = last_anchor.is_some();
        let mut old: Vec<&str> = Vec::with_capacity(section.lines.len());
        old.extend(section.old().map(|l| l.text));
        if old.is_empty() {
            let at = if section.eof.is_some() {
                n
            } else if anchored {
                *cursor
            } else if n == 0 {
                0
            } else {
                return Err(unanchored(si, section));
            };
            if let Some((at, end)) = applied::insertion(idx, section, at, section.eof.is_some()) {
                done.applied(at);
                *cursor = end;
                return Ok(None);
            }
            done.fresh();
            *cursor = at;
            return Ok(Some((at, runs(section, at))));
        }
        let start = if section.eof.is_some() {
            match n.checked_sub(old.len()) {
                Some(s) if s >= *cursor && idx.block_at(&old, s) => Some(s),
                _ => None,
            }
        } else {
            match locate(idx, &old, last_anchor, *cursor, usize::MAX) {
                Place::One(s) => Some(s),
                Place::None => None,
                Place::Many(places) => return Err(ambiguous(idx, si, section, &old, *cursor, places)),
            }
        };
        let Some(start) = start else {
            if let Some((at, end)) = applied::instead_of_missing(idx, section, *cursor) {
                done.applied(at);
                *cursor = end;
                return Ok(None);
            }
            return match repair_section::find(idx, si, section, *cursor, ctx) {
                repair_section::Outcome::Found { edits: repaired, end } => {
                    done.fresh();
                    let at = repaired.first().map_or(*cursor, |e| e.edit.start);
                    *cursor = end;
                    Ok(Some((at, repaired)))
                }
                repair_section::Outcome::Applied { at, end } => {
                    done.applied(at);
                    *cursor = end;
                    Ok(None)
                }
                repair_section::Outcome::Ambiguous(why) => {
                    let mut e = not_found(idx, si, section, &old, *cursor);
                    e.message.push_str(&format!("\nRepair:{why}"));
                    Err(e)
                }
                repair_section::Outcome::None => Err(not_found(idx, si, section, &old, *cursor)),
            };
        };
        if let Some((at, end)) = applied::before_match(idx, section, *cursor, start) {
            done.applied(at);
            *cursor = end;
            return Ok(None);
        }
        done.fresh();
        *cursor = start + old.len();
        Ok(Some((start, runs(section, start))))
    }

    /// The whole diff's verdict once every section is found (`spans`: each
    /// section's diff lines, first and last): `Ok(true)` when it is all
    /// already applied and the repair allows that (nothing to change).
    pub fn finish(&self, spans: &[(usize, usize)], ctx: &mut Ctx) -> Result<bool> {
        self.done.finish(spans, ctx)
    }
}

fn section_name(si: usize, section: &Section) -> String {
    let (a, b) = section.span();
    if a == b {
        format!("Section {} (diff line {a})", si + 1)
    } else {
        format!("Section {} (diff lines {a}-{b})", si + 1)
    }
}

fn after(cursor: usize) -> String {
    if cursor == 0 {
        String::new()
    } else {
        format!(" after input line {cursor}, where the previous section or anchor ends")
    }
}

fn find_anchor(idx: &Index, a: &Anchor, cursor: usize) -> Result<usize> {
    let all: Vec<usize> = idx.occurrences(a.text, 0).take(LIST + 1).collect();
    match all.as_slice() {
        [] => Err(anchor_not_found(idx, a)),
        [p] if *p < cursor => Err(anchor_out_of_order(a, *p, cursor)),
        [p] => Ok(*p),
        many => Err(ambiguous_anchor(idx, a, many, cursor)),
    }
}

/// An anchor found at several `places`, with the stacked anchors that would
/// name each of the first ones. Kept out of line (as the other errors and
/// the repairs are): V8 compiles a wasm function on its first call, and a
/// first call that finds its sections should not compile the paths that
/// explain a miss.
#[inline(never)]
fn ambiguous_anchor(idx: &Index, a: &Anchor, many: &[usize], cursor: usize) -> Error {
    let mut e = anchor_ambiguous(a, many, idx.count(a.text, usize::MAX), String::new());
    let hints: Vec<String> = many
        .iter()
        .take(3)
        .filter_map(|&p| {
            stacked_for(idx, a.text, p, cursor)
                .map(|(i, t)| format!("for line {}, '@@ {t}' (input line {}) then {}", p + 1, i + 1, anchor_name(a)))
        })
        .collect();
    if !hints.is_empty() {
        e.message.push_str(&format!(
            " To name one of them, stack an anchor on a unique line above it (the second anchor is looked for within the reach of the first): {}.",
            hints.join("; ")
        ));
    }
    e
}

/// A line to stack above an ambiguous anchor so that it names the one at
/// `p`: the nearest line above `p` (not above `floor`, at most 200 lines
/// up) that is unique in the input and within whose reach the anchor's
/// text occurs once, at `p`. `@@ <line>` then `@@ <anchor>` finds `p`.
fn stacked_for<'t>(idx: &Index<'t>, text: &str, p: usize, floor: usize) -> Option<(usize, &'t str)> {
    let lines = idx.lines();
    (floor.max(p.saturating_sub(200))..p)
        .rev()
        .map(|i| (i, lines.get(i)))
        .filter(|(_, t)| t.trim().len() >= 3 && idx.count(t, 2) == 1)
        .find(|&(i, _)| Reach::new(idx, i).within(idx.occurrences(text, i + 1), 2) == [p])
}

/// An anchor right after another (`@@ class B` then `@@     def f():`): it
/// is looked for within the reach of the one before it first (see
/// `reach.rs`), and must be unique there; when it is not there at all, it
/// must be unique in the rest of the input.
#[inline(never)]
fn find_stacked_anchor(idx: &Index, a: &Anchor, prev: usize, cursor: usize) -> Result<usize> {
    let mut reach = Reach::new(idx, prev);
    let inside = reach.within(idx.occurrences(a.text, cursor), usize::MAX);
    match inside.as_slice() {
        [p] => return Ok(*p),
        [] => {}
        many => {
            let scope = format!(
                " within the reach of the anchor above it (input line {}, whose reach is input lines {}-{})",
                prev + 1,
                prev + 2,
                reach.end()
            );
            let shown: Vec<usize> = many.iter().copied().take(LIST).collect();
            return Err(anchor_ambiguous(a, &shown, many.len(), scope));
        }
    }
    let rest: Vec<usize> = idx.occurrences(a.text, cursor).take(LIST + 1).collect();
    match rest.as_slice() {
        [p] => Ok(*p),
        [] => match idx.occurrences(a.text, 0).next() {
            Some(p) => Err(anchor_out_of_order(a, p, cursor)),
            None => Err(anchor_not_found(idx, a)),
        },
        many => {
            let total = idx.occurrences(a.text, cursor).count();
            Err(anchor_ambiguous(a, many, total, after(cursor)))
        }
    }
}

#[inline(never)]
fn anchor_not_found(idx: &Index, a: &Anchor) -> Error {
    let hint = diagnose::anchor_hint(idx, a.text);
    let mut msg = format!(
        "The anchor {} (diff line {}) equals no line of the input. An anchor is a whole line of the input, byte for byte, indentation included",
        anchor_name(a),
        a.line
    );
    match &hint {
        Some((_, h)) => msg.push_str(&format!("; {h}.")),
        None => msg.push_str(". Re-read the file and copy the line exactly, or anchor on another line."),
    }
    let lines = hint.map(|(i, _)| i + 1);
    Error::new(ErrorKind::AnchorNotFound, msg).at_diff_line(a.line).at_input_lines(lines)
}

#[inline(never)]
fn anchor_out_of_order(a: &Anchor, p: usize, cursor: usize) -> Error {
    Error::new(
        ErrorKind::OutOfOrder,
        format!(
            "The anchor {} (diff line {}) is input line {}, which is not after input line {cursor}, where the previous section or anchor ends. Sections, and the anchors within a section, must follow the order of the file.",
            anchor_name(a), a.line, p + 1
        ),
    )
    .at_diff_line(a.line)
    .at_input_lines([p + 1])
}

/// `places` (0-based, ascending) are where the anchor was found, `total`
/// how many there are in all; `scope` says where they were looked for.
#[inline(never)]
fn anchor_ambiguous(a: &Anchor, places: &[usize], total: usize, scope: String) -> Error {
    let shown: Vec<usize> = places.iter().take(LIST).map(|p| p + 1).collect();
    let more = if total > shown.len() { format!(" (and {} more)", total - shown.len()) } else { String::new() };
    Error::new(
        ErrorKind::AnchorAmbiguous,
        format!(
            "The anchor {} (diff line {}) equals {total} lines of the input{scope}: lines {}{more}. An anchor must name exactly one line: anchor on a line that occurs once, such as the signature of the enclosing function or class (an anchor written right after another is looked for within that one's reach first), or use context lines instead.",
            anchor_name(a), a.line, diagnose::list_lines(&shown)
        ),
    )
    .at_diff_line(a.line)
    .at_input_lines(shown)
}

/// Where a section's context and removed lines are.
enum Place {
    One(usize),
    None,
    Many(Ambiguity),
}

struct Ambiguity {
    /// The matches (0-based, ascending, at most the cap asked for).
    all: Vec<usize>,
    /// When they are the matches within an anchor's reach: the anchor's line
    /// and the first line after its reach (0-based).
    reach: Option<(usize, usize)>,
}

/// Finds a section's old lines at or after `cursor`. Right after an anchor,
/// only the matches starting within the anchor's reach count, when there are
/// any; otherwise every match in the rest of the input does. At most `cap`
/// places are collected for an ambiguity.
fn locate(idx: &Index, old: &[&str], anchor: Option<usize>, cursor: usize, cap: usize) -> Place {
    if let Some(p) = anchor {
        let mut reach = Reach::new(idx, p);
        let inside = reach.within(idx.find_block(old, cursor), cap.max(2));
        match inside.as_slice() {
            [] => {}
            [s] => return Place::One(*s),
            _ => return Place::Many(Ambiguity { all: inside, reach: Some((reach.anchor(), reach.end())) }),
        }
    }
    let mut found = idx.find_block(old, cursor);
    match (found.next(), found.next()) {
        (Some(s), None) => Place::One(s),
        (None, _) => Place::None,
        (Some(_), Some(_)) => Place::Many(Ambiguity { all: idx.find_block(old, cursor).take(cap.max(2)).collect(), reach: None }),
    }
}

/// An anchor to suggest for the match at `s`: the nearest line above it
/// (not above `floor`, at most 50 lines up) that is unique in the input and
/// with which the section is found at `s` and nowhere else, so that adding
/// `@@ <line>` makes the diff apply exactly there.
fn anchor_for<'t>(idx: &Index<'t>, old: &[&str], s: usize, floor: usize) -> Option<(usize, &'t str)> {
    let lines = idx.lines();
    (floor.max(s.saturating_sub(50))..s)
        .rev()
        .map(|i| (i, lines.get(i)))
        .filter(|(_, t)| t.trim().len() >= 3 && idx.count(t, 2) == 1)
        .find(|&(i, _)| matches!(locate(idx, old, Some(i), i + 1, 2), Place::One(x) if x == s))
}

fn anchor_name(a: &Anchor) -> String {
    show(&format!("@@ {}", a.text))
}

#[inline(never)]
fn unanchored(si: usize, section: &Section) -> Error {
    Error::new(
        ErrorKind::UnanchoredInsertion,
        format!(
            "{} only adds lines and has no context line, anchor or '*** End of File' to say where they go. Add the input line just above the insertion as a context line (a space, then the line), or an '@@ <line>' anchor naming it; or end the section with '*** End of File' to append at the end.",
            section_name(si, section)
        ),
    )
    .at_diff_line(section.first_line())
}

fn old_diff_lines(section: &Section) -> Vec<usize> {
    section.old().map(|l| l.line).collect()
}

#[inline(never)]
fn not_found(idx: &Index, si: usize, section: &Section, old: &[&str], cursor: usize) -> Error {
    let name = section_name(si, section);
    let first = section.old().next().map_or(section.first_line(), |l| l.line);
    let n = idx.lines().len();

    if section.eof.is_some() {
        if let Some(s) = idx.find_block(old, cursor).next() {
            return Error::new(
                ErrorKind::ContextNotFound,
                format!(
                    "{name} ends with '*** End of File', so its context and removed lines must be the last lines of the input, but they are at input line {} and the input has {n} lines. Remove '*** End of File', or use the input's last lines as context.",
                    s + 1
                ),
            )
            .at_diff_line(first)
            .at_input_lines([s + 1]);
        }
    }
    if cursor > 0 {
        if let Some(s) = idx.find_block(old, 0).find(|&s| s < cursor) {
            return Error::new(
                ErrorKind::OutOfOrder,
                format!(
                    "{name} matches input line {}, which is not after input line {cursor}, where the previous section or anchor ends. Sections must follow the order of the file: move this section up, or check that the anchors above it name the right lines.",
                    s + 1
                ),
            )
            .at_diff_line(first)
            .at_input_lines([s + 1]);
        }
    }
    let new: Vec<&str> = section.new_side().map(|l| l.text).collect();
    if section.has_changes() && !new.is_empty() {
        let mut applied = idx.find_block(&new, cursor);
        if let (Some(s), None) = (applied.next(), applied.next()) {
            return Error::new(
                ErrorKind::ContextNotFound,
                format!(
                    "{name}: its context and removed lines are not in the input{}. Its context and added lines are, at input line {}, but its old lines are not gone (they are still in the input, perhaps with other whitespace or one line changed, or its removed lines are still next to the added ones), so it was not taken as already applied either. Re-read the file, then send a diff of what it does not have yet.",
                    after(cursor),
                    s + 1
                ),
            )
            .at_diff_line(first)
            .at_input_lines([s + 1]);
        }
    }
    let mut msg = format!("{name}: its context and removed lines were not found in the input{}.", after(cursor));
    let closest = diagnose::closest(idx, old, &old_diff_lines(section), cursor);
    match &closest {
        Some(c) => {
            msg.push_str(&format!(" {}", c.text));
            if let Some(hint) = trailing_blank_hint(idx, section, old, cursor) {
                msg.push_str(&hint);
            }
            msg.push_str("\nStrict mode compares lines byte for byte. Copy the lines exactly as the input has them (re-read the file if it may have changed).");
        }
        None => msg.push_str(" No line of it is there, even ignoring whitespace: re-read the file and copy the lines exactly."),
    }
    Error::new(ErrorKind::ContextNotFound, msg)
        .at_diff_line(closest.as_ref().map_or(first, |c| c.diff_line))
        .at_input_lines(closest.as_ref().map(|c| c.input_line))
        .with_nearest(closest.map(|c| c.nearest))
}

/// A blank line left between a section and what follows it (often before the
/// next file of a patch) reads as an empty context line. When the section
/// would match exactly once without it, say so.
fn trailing_blank_hint(idx: &Index, section: &Section, old: &[&str], cursor: usize) -> Option<String> {
    let last = section.lines.last().filter(|l| l.kind == LineKind::Context && l.text.is_empty())?;
    let rest = old.get(..old.len().checked_sub(1)?).filter(|r| !r.is_empty())?;
    let mut found = idx.find_block(rest, cursor);
    let (Some(s), None) = (found.next(), found.next()) else { return None };
    Some(format!(
        "\nIts last line (diff line {}) is an empty context line; without it the section matches once, at input line {}. If that blank line only separates this diff from what follows it, remove it.",
        last.line,
        s + 1
    ))
}

#[inline(never)]
fn ambiguous(idx: &Index, si: usize, section: &Section, old: &[&str], cursor: usize, places: Ambiguity) -> Error {
    let all = places.all;
    let shown: Vec<usize> = all.iter().take(LIST).map(|s| s + 1).collect();
    let more = if all.len() > shown.len() { format!(" (and {} more)", all.len() - shown.len()) } else { String::new() };
    let scope = match places.reach {
        Some((p, end)) => format!(" within the reach of the anchor at input line {} (input lines {}-{end})", p + 1, p + 2),
        None => after(cursor),
    };
    let mut msg = format!(
        "{}: its context and removed lines match the input in {} places{scope}: at input lines {}{more}. Strict mode applies a section only where it matches exactly once.",
        section_name(si, section),
        all.len(),
        diagnose::list_lines(&shown)
    );
    let hints: Vec<String> = all
        .iter()
        .take(3)
        .filter_map(|&s| {
            anchor_for(idx, old, s, cursor).map(|(i, t)| format!("'@@ {t}' (input line {}) for the match at line {}", i + 1, s + 1))
        })
        .collect();
    if hints.is_empty() {
        msg.push_str(
            " Add context lines that differ between these places, or an '@@ <line>' anchor naming a unique line above the change.",
        );
    } else {
        msg.push_str(&format!(
            " Add context lines that differ between these places, or an anchor naming a unique line above the change, for example {}.",
            hints.join(", or ")
        ));
    }
    let first = section.old().next().map_or(section.first_line(), |l| l.line);
    Error::new(ErrorKind::ContextAmbiguous, msg).at_diff_line(first).at_input_lines(shown)
}
