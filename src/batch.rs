//! One diff or a batch of diffs over one input, in each mode. Strict plans
//! every diff against the original input and refuses overlapping edits;
//! Codex applies the diffs one after another, like consecutive `apply_patch`
//! calls. Both answer with [`Changes`]: splices of the input, never the text.

use crate::diff::{self, Diff};
use crate::error::{Conflict, Error, ErrorKind, Result};
use crate::matcher::index::Index;
use crate::matcher::DiffEdit;
use crate::mode::{Changes, Mode, Placed};
use crate::repair::context::{Allow, Ctx, Repaired};
use crate::text::{self, FinalNewline, Lines};

/// Whether errors name the diff's index in a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// One diff on its own: errors are the diff's.
    Single,
    /// A batch: errors say which diff failed (`Error::diff`).
    Batch,
}

impl Shape {
    fn tag(self, i: usize) -> impl Fn(Error) -> Error {
        move |e: Error| if self == Shape::Batch { e.in_batch(i) } else { e }
    }
}

/// Parses every diff of a batch by the mode's rules.
fn parse_all<S: AsRef<str>>(diffs: &[S], mode: Mode, shape: Shape) -> Result<Vec<Diff<'_>>> {
    diffs.iter().enumerate().map(|(i, d)| diff::parse(d.as_ref(), mode, 1).map_err(shape.tag(i))).collect()
}

/// Codex over one diff or a batch: each diff applies to the previous one's
/// output. The changes come back as one splice around what differs.
pub(crate) fn codex<S: AsRef<str>>(input: &str, diffs: &[S], shape: Shape) -> Result<Changes> {
    check_inputs(input, diffs, shape)?;
    let parsed = parse_all(diffs, Mode::Codex, shape)?;
    if let [only] = parsed.as_slice() {
        let lines = Lines::split(input);
        let idx = Index::for_searches(&lines, only.searches());
        let planned: Vec<(usize, DiffEdit)> = crate::matcher::codex::plan(&idx, only, None)?.into_iter().map(|e| (0, e)).collect();
        let sections = placed(&lines, &planned);
        let edits: Vec<_> = planned.into_iter().map(|(_, e)| e.edit).collect();
        return Ok(Changes::placed(text::splices(&lines, &edits, lines.first_ending(), FinalNewline::Always), sections));
    }
    let mut current = input.to_string();
    let mut rereads = crate::limits::Rereads::default();
    for (i, d) in parsed.iter().enumerate() {
        rereads.read(current.len()).map_err(shape.tag(i))?;
        current = apply_parsed(Mode::Codex, &current, d, None).map_err(shape.tag(i))?;
    }
    Ok(Changes::new(text::difference(input, &current).into_iter().collect()))
}

/// Strict over one diff or a batch.
pub(crate) fn strict<S: AsRef<str>>(input: &str, diffs: &[S], shape: Shape) -> Result<Changes> {
    strict_with(input, diffs, shape, &mut Ctx::default())
}

/// Strict over one diff or a batch (`batch`: errors and repairs name the
/// diff's index), with the repairs `ctx` allows.
pub(crate) fn strict_changes<S: AsRef<str>>(input: &str, diffs: &[S], batch: bool, ctx: &mut Ctx) -> Result<Changes> {
    strict_with(input, diffs, if batch { Shape::Batch } else { Shape::Single }, ctx)
}

impl Mode {
    /// Applies one update diff to `input`.
    pub fn apply(self, input: &str, diff: &str) -> Result<String> {
        Ok(self.changes(input, diff)?.apply(input))
    }

    /// Applies several diffs to one input. In Strict mode every diff targets
    /// the original input, and the batch fails as a whole when a diff fails or
    /// two diffs touch the same lines (or insert at the same place).
    pub fn apply_batch<S: AsRef<str>>(self, input: &str, diffs: &[S]) -> Result<String> {
        Ok(self.batch_changes(input, diffs)?.apply(input))
    }

    /// The changes [`Mode::apply`] would make, without building the text.
    pub fn changes(self, input: &str, diff: &str) -> Result<Changes> {
        match self {
            Mode::Strict => strict(input, &[diff], Shape::Single),
            Mode::Codex => codex(input, &[diff], Shape::Single),
        }
    }

    /// The changes [`Mode::apply_batch`] would make.
    pub fn batch_changes<S: AsRef<str>>(self, input: &str, diffs: &[S]) -> Result<Changes> {
        match self {
            Mode::Strict => strict(input, diffs, Shape::Batch),
            Mode::Codex => codex(input, diffs, Shape::Batch),
        }
    }

    /// [`Mode::changes`] with the repairs `ctx` allows, reported in `ctx`
    /// (Strict only: Codex takes no repair and leaves `ctx` as it is).
    pub fn changes_with(self, input: &str, diff: &str, ctx: &mut Ctx) -> Result<Changes> {
        match self {
            Mode::Strict => strict_changes(input, &[diff], false, ctx),
            Mode::Codex => codex(input, &[diff], Shape::Single),
        }
    }

    /// [`Mode::batch_changes`] with the repairs `ctx` allows (Strict only).
    pub fn batch_changes_with<S: AsRef<str>>(self, input: &str, diffs: &[S], ctx: &mut Ctx) -> Result<Changes> {
        match self {
            Mode::Strict => strict_changes(input, diffs, true, ctx),
            Mode::Codex => codex(input, diffs, Shape::Batch),
        }
    }
}

/// Applies an update diff in Strict mode with the repairs `allow` permits.
pub fn repaired_apply(input: &str, diff: &str, allow: Allow) -> Result<Repaired<String>> {
    let mut ctx = Ctx::new(allow);
    let changes = strict_changes(input, &[diff], false, &mut ctx)?;
    Ok(Repaired { value: changes.apply(input), repairs: ctx.repairs })
}

/// [`crate::apply_batch`] with the repairs `allow` permits.
pub fn repaired_apply_batch<S: AsRef<str>>(input: &str, diffs: &[S], allow: Allow) -> Result<Repaired<String>> {
    let mut ctx = Ctx::new(allow);
    let changes = strict_changes(input, diffs, true, &mut ctx)?;
    Ok(Repaired { value: changes.apply(input), repairs: ctx.repairs })
}

fn strict_with<S: AsRef<str>>(input: &str, diffs: &[S], shape: Shape, ctx: &mut Ctx) -> Result<Changes> {
    strict_diffs(input, diffs, shape, ctx).map_err(|e| other_format(e, diffs))
}

/// A Strict error about a diff that is another format (a unified diff, edit
/// blocks) says so first, and which function takes it: its lines were read as
/// V4A lines, so the error alone would send the model fixing the wrong thing.
/// (A `*** Begin Patch` patch is named by the parser's own `invalid_line`.)
fn other_format<S: AsRef<str>>(mut e: Error, diffs: &[S]) -> Error {
    if matches!(e.kind, ErrorKind::InputTooLarge | ErrorKind::InvalidString) {
        return e;
    }
    let Some(diff) = e.diff.map_or(diffs.first(), |i| diffs.get(i)) else {
        return e;
    };
    let note = match crate::format::detect_format(diff.as_ref()) {
        crate::format::Format::Unified => {
            "This is a unified diff (file headers '--- a/PATH' and '+++ b/PATH', hunks '@@ -l,s +l,s @@'), not a V4A diff: apply it with applyUnified(files, diff), which reads its paths and line numbers. Nothing was applied. Read as a V4A diff, it fails:"
        }
        crate::format::Format::Blocks => {
            "These are search/replace edit blocks ('<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE'), not a V4A diff: apply them with applyBlocks(files, text). Nothing was applied. Read as a V4A diff, they fail:"
        }
        _ => return e,
    };
    e.message = format!("{note}\n{}", e.message);
    e
}

fn strict_diffs<S: AsRef<str>>(input: &str, diffs: &[S], shape: Shape, ctx: &mut Ctx) -> Result<Changes> {
    check_inputs(input, diffs, shape)?;
    let parsed = parse_all(diffs, Mode::Strict, shape)?;
    let lines = Lines::split(input);
    let nl = crate::matcher::strict::newline(&lines)?;
    let idx = Index::for_searches(&lines, parsed.iter().map(Diff::searches).sum());
    let mut tagged: Vec<(usize, DiffEdit)> = Vec::new();
    for (i, d) in parsed.iter().enumerate() {
        let before = ctx.repairs.len();
        let edits = crate::matcher::strict::plan_with(&idx, d, ctx).map_err(shape.tag(i))?;
        for r in ctx.repairs.iter_mut().skip(before).filter(|_| shape == Shape::Batch) {
            r.diff = Some(i);
        }
        tagged.extend(edits.into_iter().map(|e| (i, e)));
    }
    if parsed.len() > 1 {
        // `tagged` is in diff order: ties of (start, end) stay in it.
        crate::order::sort_by_key(&mut tagged, |(_, e)| (e.edit.start, e.edit.end));
        check_overlaps(&tagged)?;
    }
    let sections = placed(&lines, &tagged);
    let edits: Vec<text::LineEdit> = tagged.into_iter().map(|(_, e)| e.edit).collect();
    Ok(Changes::placed(text::splices(&lines, &edits, nl, FinalNewline::Keep), sections))
}

/// Where each planned edit (with its diff's index) landed in the input.
fn placed(lines: &Lines, edits: &[(usize, DiffEdit)]) -> Vec<Placed> {
    edits
        .iter()
        .map(|(diff, e)| {
            let (start, end) = lines.byte_range(e.edit.start, e.edit.end);
            Placed { diff: *diff, diff_line: e.diff_line, input_line: e.edit.start + 1, start, end }
        })
        .collect()
}

/// Applies a parsed update body to `input` (`path` names the file in
/// messages). Used by the Codex batch and by the file operations of a patch.
pub(crate) fn apply_parsed(mode: Mode, input: &str, diff: &Diff, path: Option<&str>) -> Result<String> {
    apply_parsed_with(mode, input, diff, path, &mut Ctx::default())
}

/// [`apply_parsed`] with the repairs `ctx` allows (Strict only).
pub(crate) fn apply_parsed_with(mode: Mode, input: &str, diff: &Diff, path: Option<&str>, ctx: &mut Ctx) -> Result<String> {
    Ok(text::apply_splices(input, &splices_parsed_with(mode, input, diff, path, ctx)?))
}

/// The splices [`apply_parsed_with`] applies: whole lines, sorted and disjoint.
pub(crate) fn splices_parsed_with(mode: Mode, input: &str, diff: &Diff, path: Option<&str>, ctx: &mut Ctx) -> Result<Vec<text::Splice>> {
    crate::limits::check_text(path.unwrap_or("the input"), input)?;
    let lines = Lines::split(input);
    let idx = Index::for_searches(&lines, diff.searches());
    let splices = match mode {
        Mode::Strict => {
            let nl = crate::matcher::strict::newline(&lines)?;
            let edits: Vec<_> = crate::matcher::strict::plan_with(&idx, diff, ctx)?.into_iter().map(|e| e.edit).collect();
            text::splices(&lines, &edits, nl, FinalNewline::Keep)
        }
        Mode::Codex => {
            let edits: Vec<_> = crate::matcher::codex::plan(&idx, diff, path)?.into_iter().map(|e| e.edit).collect();
            text::splices(&lines, &edits, lines.first_ending(), FinalNewline::Always)
        }
    };
    Ok(splices)
}

/// Refuses an input or a diff over the limits (see [`crate::limits`]).
fn check_inputs<S: AsRef<str>>(input: &str, diffs: &[S], shape: Shape) -> Result<()> {
    crate::limits::check_text("the input", input)?;
    match shape {
        Shape::Batch => crate::limits::check_texts("diff", diffs),
        Shape::Single => diffs.iter().try_for_each(|d| crate::limits::check_text("the diff", d.as_ref())),
    }
}

/// Two edits of different diffs conflict when they change a common line, or
/// one inserts where the other starts, ends or inserts: their order would be
/// a guess. `edits` is sorted by start.
fn check_overlaps(edits: &[(usize, DiffEdit)]) -> Result<()> {
    let mut active: Vec<&(usize, DiffEdit)> = Vec::new();
    for cur in edits {
        let (ci, ce) = (cur.0, &cur.1.edit);
        active.retain(|(_, e)| e.edit.end >= ce.start);
        for prev in &active {
            let (pi, pe) = (prev.0, &prev.1.edit);
            if pi == ci {
                continue;
            }
            let touching = ce.start == pe.end && (ce.start == ce.end || pe.start == pe.end);
            if ce.start < pe.end || touching {
                // The earlier diff first (`pi == ci` was skipped above).
                let (first, second) = match pi.cmp(&ci) {
                    std::cmp::Ordering::Less => (*prev, cur),
                    _ => (cur, *prev),
                };
                return Err(overlap(first, second));
            }
        }
        active.push(cur);
    }
    Ok(())
}

/// The error for two conflicting edits (`first` from the earlier diff).
fn overlap(first: &(usize, DiffEdit), second: &(usize, DiffEdit)) -> Error {
    let what = |e: &text::LineEdit| {
        if e.start == e.end {
            format!("inserts before input line {}", e.start + 1)
        } else if e.end - e.start == 1 {
            format!("changes input line {}", e.start + 1)
        } else {
            format!("changes input lines {}-{}", e.start + 1, e.end)
        }
    };
    let message = format!(
        "diff {} (diff line {}) {} and diff {} (diff line {}) {}. Every diff of a batch applies to the original input, so two diffs may not change the same lines or insert at the same place: merge them into one diff.",
        first.0 + 1,
        first.1.diff_line,
        what(&first.1.edit),
        second.0 + 1,
        second.1.diff_line,
        what(&second.1.edit)
    );
    let mut err = Error::new(ErrorKind::Overlap, message)
        .at_diff_line(second.1.diff_line)
        .at_input_lines([first.1.edit.start + 1, second.1.edit.start + 1]);
    err.diff = Some(second.0);
    err.conflict = Some(Conflict { diff: first.0, diff_line: Some(first.1.diff_line) });
    err
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::context::Allow;

    #[test]
    fn changes_with_are_the_changes_of_each_mode() {
        let input = "a\nb\nc\n";
        let diff = "@@ a\n-b\n+B\n c";
        for mode in [Mode::Strict, Mode::Codex] {
            let mut ctx = Ctx::new(Allow::default());
            let changes = mode.changes_with(input, diff, &mut ctx).unwrap();
            assert_eq!(changes.apply(input), "a\nB\nc\n", "{mode:?}");
            assert_eq!(changes, mode.changes(input, diff).unwrap(), "{mode:?}");
        }
    }

    #[test]
    fn a_codex_batch_applies_each_diff_to_the_previous_output() {
        // The second diff reads a line the first one wrote.
        let out = Mode::Codex.apply_batch("a\nb\n", &["@@\n-a\n+x\n b", "@@\n-x\n+y\n b"]).unwrap();
        assert_eq!(out, "y\nb\n");
    }

    #[test]
    fn strict_batch_edits_that_only_touch_are_not_a_conflict() {
        // One diff replaces line 2, the other line 3: adjacent, no common line.
        let input = "a\nb\nc\nd\n";
        let out = Mode::Strict.apply_batch(input, &["@@ a\n-b\n+B", "@@ b\n-c\n+C\n d"]).unwrap();
        assert_eq!(out, "a\nB\nC\nd\n");
    }
}
