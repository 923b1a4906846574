//! A patch's file operations over a map of paths to contents: in order, each
//! seeing the ones before (add then update, update twice, delete then add),
//! and all or nothing (an error returns no files). The caller's files are
//! never changed; the result lists the final state of every path the patch
//! touched.
//!
//! Like the Codex CLI: Add replaces an existing file, Delete and Update of a
//! missing path fail, Move overwrites its destination. Unlike it, Move to the
//! same path keeps the file (Codex writes it, then deletes it).
//!
//! Over 600 lines on purpose: a patch and one Responses API operation share
//! the overlay and the step (`Overlay`, `Step`, `apply_step`); a fifth of the
//! file is its tests.

use std::collections::{BTreeMap, HashMap};

use crate::diff::{self, BodyEnd, Diff};
use crate::error::{Error, ErrorKind, Result};
use crate::mode::Mode;
use crate::patch::{self, Operation, OperationKind, Patch, Place, Slots, Touch};
use crate::repair::context::{Allow, Ctx, Repair, RepairKind, Repaired};
use crate::repair::envelope;
use crate::text::{self, Splice};

/// The final state of one path the patch touched.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileChange {
    /// The path, as written in the patch.
    pub path: String,
    /// The new contents, or `None` when the file was deleted (or moved away).
    pub contents: Option<String>,
}

/// The files an application works on, numbered as [`Patch::touches`]
/// numbers them (a path's slot): the caller's contents of each, looked up
/// once when first needed, and what the operations wrote so far. Slots
/// rather than a map by path: no hashing per lookup, so 300,000 operations
/// cost a lookup each.
struct Overlay<'f, B> {
    /// The caller's contents of a slot.
    base: B,
    rereads: crate::limits::Rereads,
    /// Per slot: not written yet (`None`), or its contents now (`Some(None)`: deleted).
    state: Vec<Option<Option<String>>>,
    /// Slots in the order first written: the order of the result.
    order: Vec<usize>,
    /// Per slot, when asked for (else empty): the splices that made its
    /// contents from the caller's, while one update placed them.
    placed: Vec<Option<Vec<Splice>>>,
    _files: std::marker::PhantomData<&'f ()>,
}

impl<'f, B: Fn(usize) -> Option<&'f str>> Overlay<'f, B> {
    fn new(slots: usize, base: B) -> Self {
        Overlay {
            base,
            rereads: Default::default(),
            state: vec![None; slots],
            order: Vec::new(),
            placed: Vec::new(),
            _files: std::marker::PhantomData,
        }
    }

    /// The same, keeping the splices of updates ([`Overlay::finish`]).
    fn placing(slots: usize, base: B) -> Self {
        Overlay { placed: vec![None; slots], ..Overlay::new(slots, base) }
    }

    /// Whether the splices of updates are kept.
    fn places(&self) -> bool {
        !self.placed.is_empty()
    }

    fn get(&self, slot: usize) -> Option<&str> {
        match self.state.get(slot) {
            Some(Some(written)) => written.as_deref(),
            _ => (self.base)(slot),
        }
    }

    fn set(&mut self, slot: usize, contents: Option<String>) {
        if let Some(placed) = self.placed.get_mut(slot) {
            *placed = None;
        }
        if let Some(state) = self.state.get_mut(slot) {
            if state.is_none() {
                self.order.push(slot);
            }
            *state = Some(contents);
        }
    }

    /// Writes an update's result over the caller's contents of `slot`, with
    /// the `splices` that made it (kept when the slot was not written
    /// before: then they are splices of the caller's contents).
    fn set_placed(&mut self, slot: usize, contents: String, splices: Vec<Splice>) {
        let fresh = matches!(self.state.get(slot), Some(None));
        self.set(slot, Some(contents));
        if let Some(placed) = self.placed.get_mut(slot).filter(|_| fresh) {
            *placed = Some(splices);
        }
    }

    /// The final state of each slot written, in the order first written,
    /// with the splices kept for each slot (when placing).
    fn finish(mut self) -> Vec<Written> {
        let (state, placed) = (&mut self.state, &mut self.placed);
        self.order
            .iter()
            .map(|&slot| Written {
                slot,
                contents: state.get_mut(slot).and_then(Option::take).flatten(),
                splices: placed.get_mut(slot).and_then(Option::take),
            })
            .collect()
    }
}

/// The final state of one path a patch wrote ([`Patch::apply_touched_placed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The path's position in [`Patch::touches`].
    pub slot: usize,
    /// Its new contents, or `None` when the file was deleted (or moved away).
    pub contents: Option<String>,
    /// When one update made the new contents from the file as given (not
    /// added, moved, or written by an earlier operation): the splices of the
    /// file as given that make them, where the update placed its sections
    /// (byte offsets, sorted, disjoint, whole lines as
    /// [`crate::Changes::splices`]; [`crate::minimal_splices`]
    /// trims them). `None` otherwise: compare the texts
    /// ([`crate::splices_between`]).
    pub splices: Option<Vec<Splice>>,
}

/// Applies a `*** Begin Patch` patch to files looked up with `get`, and
/// returns the final state of every path it touched. The same as
/// [`parse_patch`](crate::parse_patch) then [`Patch::apply`].
pub fn apply_patch<'f>(text: &str, mode: Mode, get: impl Fn(&str) -> Option<&'f str>) -> Result<Vec<FileChange>> {
    apply_patch_with(text, mode, &mut Ctx::default(), get)
}

/// [`apply_patch`] with the repairs `ctx` allows (Strict only: envelope,
/// section repairs, already applied); see [`Patch::apply_with`].
pub fn apply_patch_with<'f>(text: &str, mode: Mode, ctx: &mut Ctx, get: impl Fn(&str) -> Option<&'f str>) -> Result<Vec<FileChange>> {
    let patch = if mode == Mode::Strict { envelope::parse(text, ctx)? } else { patch::parse(text)? };
    patch.apply_with(mode, ctx, get)
}

/// What one operation found, for the whole-patch "already applied" rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// It changes something.
    Fresh,
    /// An update whose every section is already applied.
    Applied,
    /// An Add File whose contents equal the file already there.
    Same,
    /// A Delete File of a path that is not there.
    Gone,
}

impl Patch {
    /// Applies the patch to files looked up with `get`, and returns the final
    /// state of every path it touched, in the order first touched. All or
    /// nothing: an error returns no files.
    pub fn apply<'f>(&self, mode: Mode, get: impl Fn(&str) -> Option<&'f str>) -> Result<Vec<FileChange>> {
        self.apply_with(mode, &mut Ctx::default(), get)
    }

    /// [`Patch::apply`] with the repairs `ctx` allows (Strict only). In
    /// Strict mode a patch whose every operation is already applied (updates
    /// whose sections are all there, Add Files equal to the file, Deletes of
    /// paths already gone) is an `already_applied` error, or with the repair
    /// a reported no-op; a patch partly applied is an error naming the parts.
    pub fn apply_with<'f>(&self, mode: Mode, ctx: &mut Ctx, get: impl Fn(&str) -> Option<&'f str>) -> Result<Vec<FileChange>> {
        self.apply_among(mode, ctx, get, None)
    }

    /// [`Patch::apply_with`] knowing every path of the caller's files
    /// (`known`; [`apply_files`] gives its map's keys). An update or delete
    /// of a path with no file then lists the paths near it (a typo, another
    /// directory: see the crate's `near` rules), and in Strict mode a Delete
    /// of a path with no file counts as already applied (the file is
    /// already gone) only when no path is near it; when one is, the patch
    /// is refused (`file_not_found`), listing them. Without `known` such a
    /// Delete is an error unless the rest of the patch is already applied.
    pub fn apply_among<'f>(
        &self,
        mode: Mode,
        ctx: &mut Ctx,
        get: impl Fn(&str) -> Option<&'f str>,
        known: Option<&[&str]>,
    ) -> Result<Vec<FileChange>> {
        let (touches, slots) = self.slots();
        let base = |slot: usize| touches.get(slot).and_then(|t| get(&t.path));
        let changes = self.apply_slots(mode, ctx, slots, false, &base, known)?;
        Ok(changes
            .into_iter()
            .map(|w| FileChange { path: touches.get(w.slot).map(|t| t.path.clone()).unwrap_or_default(), contents: w.contents })
            .collect())
    }

    /// [`Patch::apply_with`] with the files given by position rather than
    /// looked up by path: `files[i]` is the contents of `touches()[i].path`
    /// (`None`: no such file; a path the patch does not read may be given as
    /// `None`). Returns the final state of every path the patch wrote, as its
    /// position in [`Patch::touches`], in the order first written. For a
    /// caller that numbers the files once, such as the npm binding.
    pub fn apply_touched(&self, mode: Mode, ctx: &mut Ctx, files: &[Option<&str>]) -> Result<Vec<(usize, Option<String>)>> {
        self.apply_touched_among(mode, ctx, files, None)
    }

    /// [`Patch::apply_touched`] knowing every path of the caller's files, as
    /// [`Patch::apply_among`].
    pub fn apply_touched_among(
        &self,
        mode: Mode,
        ctx: &mut Ctx,
        files: &[Option<&str>],
        known: Option<&[&str]>,
    ) -> Result<Vec<(usize, Option<String>)>> {
        let (_, slots) = self.slots();
        Ok(self
            .apply_slots(mode, ctx, slots, false, &|slot| files.get(slot).copied().flatten(), known)?
            .into_iter()
            .map(|w| (w.slot, w.contents))
            .collect())
    }

    /// [`Patch::apply_touched_among`] with, for each file one update changed,
    /// the splices that made its new contents, from where the update placed
    /// its sections ([`Written::splices`]): for an editor, without comparing
    /// the texts afterwards.
    pub fn apply_touched_placed(&self, mode: Mode, ctx: &mut Ctx, files: &[Option<&str>], known: Option<&[&str]>) -> Result<Vec<Written>> {
        let (_, slots) = self.slots();
        self.apply_slots(mode, ctx, slots, true, &|slot| files.get(slot).copied().flatten(), known)
    }

    /// The one body of every way to apply a patch: `base` is a trait object,
    /// not a type parameter, so that the operations' machinery (`Overlay`,
    /// `apply_step`) is compiled once, not once per caller's lookup (in the
    /// npm package's wasm each copy cost about 8 KiB).
    fn apply_slots<'f>(
        &self,
        mode: Mode,
        ctx: &mut Ctx,
        slots: &[(usize, Option<usize>)],
        place: bool,
        base: &dyn Fn(usize) -> Option<&'f str>,
        known: Option<&[&str]>,
    ) -> Result<Vec<Written>> {
        if self.operations().is_empty() {
            return Err(Error::new(ErrorKind::EmptyPatch, "No files were modified."));
        }
        // Every body is read before anything is applied, as Codex parses the
        // whole patch first.
        let bodies: Vec<Option<Diff>> = self
            .located()
            .enumerate()
            .map(|(k, (op, place))| read_body(self, op, place, mode).map_err(|e| locate(e, op, k, mode)))
            .collect::<Result<_>>()?;
        let size = slots.iter().map(|&(s, d)| s.max(d.unwrap_or(0)) + 1).max().unwrap_or(0);
        let mut files = if place { Overlay::placing(size, base) } else { Overlay::new(size, base) };
        let mut found = Vec::with_capacity(bodies.len());
        for (k, ((op, body), &(slot, dest))) in self.operations().iter().zip(&bodies).zip(slots).enumerate() {
            let step = match op {
                Operation::Add { path, contents, line } => Step::add(path, slot, contents, Some(*line)),
                Operation::Delete { path, line } => Step::delete(path, slot, Some(*line)),
                Operation::Update { path, move_to, line, .. } => {
                    Step::update(path, slot, move_to.as_deref().zip(dest), body.as_ref(), Some(*line))
                }
            };
            let before = ctx.repairs.len();
            let f = apply_step(&mut files, &step, mode, ctx, known).map_err(|e| locate(e, op, k, mode))?;
            for r in ctx.repairs.iter_mut().skip(before) {
                r.path = Some(op.path().to_string());
                r.operation = Some(k);
                r.message = r.message.replace("diff line", "patch line");
            }
            found.push(f);
        }
        if mode == Mode::Strict {
            whole_patch(self, &mut found, ctx, known)?;
        }
        Ok(files.finish())
    }

    /// What the Codex CLI prints when the patch applies: `A` lines for added
    /// files, then `M` for updated ones (a move prints its destination), then
    /// `D` for deleted ones, each group in patch order.
    pub fn summary(&self) -> Result<String> {
        if self.operations().is_empty() {
            return Err(Error::new(ErrorKind::EmptyPatch, "No files were modified."));
        }
        let mut out = String::from("Success. Updated the following files:\n");
        for (kind, letter) in [(OperationKind::Add, 'A'), (OperationKind::Update, 'M'), (OperationKind::Delete, 'D')] {
            for op in self.operations().iter().filter(|o| o.kind() == kind) {
                out.push_str(&format!("{letter} {}\n", op.destination()));
            }
        }
        Ok(out)
    }

    /// Every path the patch touches, in the order first touched (a move's
    /// destination after its source): what a caller must look up or resolve
    /// before [`Patch::apply`], without reading the patch again.
    pub fn touches(&self) -> Vec<Touch> {
        self.touched().to_vec()
    }

    /// [`Patch::touches`], borrowed: computed once per patch.
    pub fn touched(&self) -> &[Touch] {
        &self.slots().0
    }

    fn slots(&self) -> &Slots {
        self.slots.get_or_init(|| self.compute_slots())
    }

    /// [`Patch::touches`], and for each operation the position there of its
    /// path and of its move's destination (a move to another path).
    fn compute_slots(&self) -> Slots {
        let n = self.operations().len();
        let mut touches: Vec<Touch> = Vec::with_capacity(n);
        let mut slots = Vec::with_capacity(n);
        // Where each path is in `touches`: one lookup per path named, linear in the patch.
        let mut at: HashMap<&str, usize> = HashMap::with_capacity(n);
        fn touch<'p>(touches: &mut Vec<Touch>, at: &mut HashMap<&'p str, usize>, path: &'p str) -> usize {
            *at.entry(path).or_insert_with(|| {
                touches.push(Touch { path: path.to_string(), read: false, needs_text: false, moved_from: None });
                touches.len() - 1
            })
        }
        for op in self.operations() {
            let new = touches.len();
            let i = touch(&mut touches, &mut at, op.path());
            if let Some(t) = touches.get_mut(i) {
                t.read |= op.kind() != OperationKind::Add;
                // Only the first operation on a path sees the caller's file:
                // every operation writes the path, and the next sees that.
                t.needs_text |= op.kind() == OperationKind::Update && i == new;
            }
            let dest = match op {
                Operation::Update { move_to: Some(dest), path, .. } if dest != path => {
                    let d = touch(&mut touches, &mut at, dest);
                    if let Some(t) = touches.get_mut(d) {
                        t.moved_from = Some(path.to_string());
                    }
                    Some(d)
                }
                _ => None,
            };
            slots.push((i, dest));
        }
        (touches, slots)
    }
}

/// The whole-patch rules for a patch some of whose operations are already
/// applied (Strict).
fn whole_patch(patch: &Patch, found: &mut [Found], ctx: &mut Ctx, known: Option<&[&str]>) -> Result<()> {
    // A Delete of a path with no file: refused when a path of the files is
    // near it (a typo, not a file already gone); with the files' paths
    // known and none near, already applied.
    if let Some(known) = known {
        for k in 0..found.len() {
            if found.get(k) != Some(&Found::Gone) {
                continue;
            }
            let op = patch.operations().get(k);
            let path = op.map_or("", |o| o.path());
            let near = crate::near::near_paths(path, known);
            if !near.is_empty() {
                let mut e = Error::new(ErrorKind::FileNotFound, misspelt_delete(path, &near, true));
                e.path = Some(path.to_string());
                e.operation = Some(k);
                e.diff_line = op.map(|o| o.line());
                return Err(e);
            }
            if let Some(f) = found.get_mut(k) {
                *f = Found::Applied;
            }
        }
    }
    let found: &[Found] = found;
    let name = |k: usize| {
        patch
            .operations()
            .get(k)
            .map_or(String::new(), |op| format!("operation {} ({} {}, patch line {})", k + 1, op.kind().as_str(), op.path(), op.line()))
    };
    let done: Vec<usize> = found.iter().enumerate().filter(|(_, f)| **f != Found::Fresh).map(|(k, _)| k).collect();
    let fresh: Vec<usize> = found.iter().enumerate().filter(|(_, f)| **f == Found::Fresh).map(|(k, _)| k).collect();
    let any = |want: Found| found.contains(&want);
    let (fresh_any, applied, same, gone) = (any(Found::Fresh), any(Found::Applied), any(Found::Same), any(Found::Gone));
    // Adds equal to the file are harmless beside real changes.
    if !applied && !gone && (fresh_any || !same) {
        return Ok(());
    }
    // A delete of a missing path is an error unless the rest of the patch is applied.
    let gone_error = if fresh_any { !applied } else { !applied && !same };
    if let Some(k) = found.iter().position(|f| *f == Found::Gone).filter(|_| gone_error) {
        let op = patch.operations().get(k);
        let path = op.map_or("", |o| o.path());
        let mut e = Error::new(ErrorKind::FileNotFound, missing_delete(path, true));
        e.path = Some(path.to_string());
        e.operation = Some(k);
        e.diff_line = op.map(|o| o.line());
        return Err(e);
    }
    // Line of the first operation found applied.
    let first = done.first().and_then(|&k| patch.operations().get(k)).map(|op| op.line());
    let listed: Vec<String> = done.iter().map(|&k| name(k)).collect();
    if fresh.is_empty() {
        if ctx.allows(RepairKind::AlreadyApplied) {
            ctx.repairs.retain(|r| r.kind != RepairKind::AlreadyApplied);
            ctx.push(Repair::new(
                RepairKind::AlreadyApplied,
                format!("the patch is already applied ({}): nothing was changed. Do not send it again.", listed.join("; ")),
                first,
                None,
            ));
            return Ok(());
        }
        let mut e = Error::new(
            ErrorKind::AlreadyApplied,
            format!(
                "The patch is already applied: {}. Every file already has its change (updates: their new lines are where they would go; added files: the same contents; deleted files: already gone). Nothing was changed, and nothing was applied a second time. Do not send this patch again; re-read the files if you want to change them further.",
                listed.join("; ")
            ),
        );
        e.diff_line = first;
        e.operation = done.first().copied();
        return Err(e);
    }
    let pending: Vec<String> = fresh.iter().map(|&k| name(k)).collect();
    let mut e = Error::new(
        ErrorKind::AlreadyApplied,
        format!(
            "Part of the patch is already applied: {} {} already done, but {} {} not. Nothing was changed. Re-read the files, then send a patch with only the changes they do not have yet.",
            listed.join("; "),
            if listed.len() == 1 { "is" } else { "are" },
            pending.join("; "),
            if pending.len() == 1 { "is" } else { "are" }
        ),
    );
    e.diff_line = first;
    e.operation = done.first().copied();
    Err(e)
}

/// One operation of the Responses API `apply_patch` tool: the `operation` of
/// an `apply_patch_call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileOperation<'a> {
    /// `create_file`.
    Create {
        /// The new file.
        path: &'a str,
        /// A create diff: every line `+` (see [`create_file`]).
        diff: &'a str,
    },
    /// `update_file`.
    Update {
        /// The file to update.
        path: &'a str,
        /// A V4A update diff.
        diff: &'a str,
        /// Where the updated file moves, if anywhere.
        move_to: Option<&'a str>,
    },
    /// `delete_file`.
    Delete {
        /// The file to delete.
        path: &'a str,
    },
}

impl<'a> FileOperation<'a> {
    /// The operation types of the Responses API, in the order of the variants.
    pub const TYPES: [&'static str; 3] = ["create_file", "update_file", "delete_file"];

    /// The operation of Responses API type `kind` (`"create_file"`,
    /// `"update_file"` or `"delete_file"`; `diff` and `move_to` are ignored
    /// where the type has none), or `None` for another type.
    pub fn from_type(kind: &str, path: &'a str, diff: &'a str, move_to: Option<&'a str>) -> Option<Self> {
        match kind {
            "create_file" => Some(FileOperation::Create { path, diff }),
            "update_file" => Some(FileOperation::Update { path, diff, move_to }),
            "delete_file" => Some(FileOperation::Delete { path }),
            _ => None,
        }
    }

    /// The Responses API's name of the operation: `create_file`, `update_file`, `delete_file`.
    pub fn type_name(&self) -> &'static str {
        match self {
            FileOperation::Create { .. } => "create_file",
            FileOperation::Update { .. } => "update_file",
            FileOperation::Delete { .. } => "delete_file",
        }
    }

    /// The path the operation names.
    pub fn path(&self) -> &str {
        match self {
            FileOperation::Create { path, .. } | FileOperation::Update { path, .. } | FileOperation::Delete { path } => path,
        }
    }
}

/// The contents of the file a create diff describes. The rule is the one of a
/// patch's `*** Add File:` body: every line is `+` and the text, and becomes
/// that text followed by `\n` (so the file always ends with a newline unless
/// it is empty). The diff may use LF or CRLF breaks; a final break ends its
/// last line. A line without `+` is an error, nothing is guessed.
///
/// The Agents SDK's `applyDiff('', diff, 'create')` differs: it leaves the
/// last line without a newline unless a bare `+` line ends the diff.
pub fn create_file(diff: &str) -> Result<String> {
    crate::limits::check_text("the diff", diff)?;
    let mut contents = String::with_capacity(diff.len());
    for (i, line) in diff::diff_lines(diff).enumerate() {
        if !patch::push_added_line(&mut contents, line) {
            let n = i + 1;
            let hint = if line.is_empty() {
                " An empty line of the file is a bare '+'."
            } else if line.starts_with("***") {
                " A create diff is only the file's lines: no '*** Add File:' header or '*** End Patch' marker."
            } else {
                ""
            };
            return Err(Error::new(
                ErrorKind::InvalidLine,
                format!(
                    "Create diff line {n} does not start with '+': {}. Every line of a create_file diff is '+' followed by the line's text.{hint}",
                    diff::show(line)
                ),
            )
            .at_diff_line(n));
        }
    }
    Ok(contents)
}

/// Applies one Responses API operation to files looked up with `get`, as the
/// matching operation of a patch would, and returns the final state of every
/// path it touched. Errors name the path; `diff_line` counts lines of the
/// operation's `diff`.
pub fn apply_file_operation<'f>(op: &FileOperation, mode: Mode, get: impl Fn(&str) -> Option<&'f str>) -> Result<Vec<FileChange>> {
    apply_file_operation_with(op, mode, &mut Ctx::default(), get)
}

/// [`apply_file_operation`] with the repairs `ctx` allows (Strict only). A
/// `create_file` equal to the file already there, or an update already
/// applied, is an `already_applied` error, or with the repair a reported no-op.
pub fn apply_file_operation_with<'f>(
    op: &FileOperation,
    mode: Mode,
    ctx: &mut Ctx,
    get: impl Fn(&str) -> Option<&'f str>,
) -> Result<Vec<FileChange>> {
    apply_file_operation_among(op, mode, ctx, get, None)
}

/// [`apply_file_operation_with`] knowing every path of the caller's files
/// (`known`), as [`Patch::apply_among`]: an update or delete of a path with
/// no file lists the paths near it, and in Strict mode a `delete_file` of a
/// path with no file is already applied (the file is already gone: an
/// `already_applied` error, or with the repair a reported no-op) only when
/// no path is near it; when one is, it is refused (`file_not_found`),
/// listing them. Without `known` such a delete is a `file_not_found` error.
pub fn apply_file_operation_among<'f>(
    op: &FileOperation,
    mode: Mode,
    ctx: &mut Ctx,
    get: impl Fn(&str) -> Option<&'f str>,
    known: Option<&[&str]>,
) -> Result<Vec<FileChange>> {
    let dest = match *op {
        FileOperation::Update { move_to, .. } => move_to,
        _ => None,
    };
    Ok(apply_file_operation_placed(op, mode, ctx, get, known)?
        .into_iter()
        .map(|w| FileChange { path: if w.slot == 0 { op.path() } else { dest.unwrap_or_default() }.to_string(), contents: w.contents })
        .collect())
}

/// [`apply_file_operation_among`] with, for a file one update changed, the
/// splices that made its new contents ([`Written::splices`]). Slot 0 is the
/// operation's path, slot 1 an update's `move_to` (when it is another path).
pub fn apply_file_operation_placed<'f>(
    op: &FileOperation,
    mode: Mode,
    ctx: &mut Ctx,
    get: impl Fn(&str) -> Option<&'f str>,
    known: Option<&[&str]>,
) -> Result<Vec<Written>> {
    let path = op.path();
    if let FileOperation::Create { diff, .. } | FileOperation::Update { diff, .. } = op {
        crate::limits::check_text("the diff", diff)?;
    }
    let located = |mut e: Error| {
        if mode == Mode::Strict && e.path.is_none() && !matches!(e.kind, ErrorKind::FileNotFound) {
            e.message = format!("{path}: {}", e.message);
        }
        e.path = Some(path.to_string());
        e
    };
    if path.is_empty() {
        return Err(Error::new(ErrorKind::InvalidOperation, "The operation's path is empty: name the file, relative to the project root."));
    }
    let contents;
    let parsed;
    let step = match *op {
        FileOperation::Create { diff, .. } => {
            contents = create_file(diff).map_err(located)?;
            Step::add(path, 0, &contents, None)
        }
        FileOperation::Update { diff, move_to, .. } => {
            if move_to == Some("") {
                return Err(located(Error::new(
                    ErrorKind::InvalidOperation,
                    "The update's move_to is empty: give the new path, or leave move_to out.",
                )));
            }
            parsed = diff::parse(diff, mode, 1).map_err(located)?;
            Step::update(path, 0, move_to.filter(|&dest| dest != path).map(|dest| (dest, 1)), Some(&parsed), None)
        }
        FileOperation::Delete { .. } => Step::delete(path, 0, None),
    };
    // Slot 0 is the path, slot 1 a move's destination.
    let dest = step.move_to.map(|(dest, _)| dest);
    let base: &dyn Fn(usize) -> Option<&'f str> = &|slot| if slot == 0 { get(path) } else { dest.and_then(&get) };
    let mut files = Overlay::placing(2, base);
    let found = apply_step(&mut files, &step, mode, ctx, known).map_err(located)?;
    for r in &mut ctx.repairs {
        r.path = Some(path.to_string());
    }
    if mode == Mode::Strict && found != Found::Fresh {
        if found == Found::Gone {
            // Without the files' paths, a missing file may be a typo: an error.
            let Some(known) = known else { return Err(located(Error::new(ErrorKind::FileNotFound, missing_delete(path, false)))) };
            let near = crate::near::near_paths(path, known);
            if !near.is_empty() {
                return Err(located(Error::new(ErrorKind::FileNotFound, misspelt_delete(path, &near, false))));
            }
        }
        let what = match found {
            Found::Same => "the file already has exactly these contents",
            Found::Gone => "the file is already gone, and no path of the files is near this one",
            _ => "its new lines are already where they would go",
        };
        if ctx.allows(RepairKind::AlreadyApplied) {
            // An update's own note names its sections; a create or delete gets one.
            if found == Found::Same || found == Found::Gone {
                ctx.push(Repair {
                    path: Some(path.to_string()),
                    ..Repair::new(
                        RepairKind::AlreadyApplied,
                        format!("the {} of {path} is already applied ({what}): nothing was changed. Do not send it again.", op.type_name()),
                        None,
                        None,
                    )
                });
            }
        } else {
            // The diff's own note names its sections and input lines.
            let note = ctx.repairs.iter().rev().find(|r| r.kind == RepairKind::AlreadyApplied);
            let detail = note
                .and_then(|r| {
                    r.message.strip_prefix("the diff is already applied (")?.strip_suffix("): nothing was changed. Do not send it again.")
                })
                .map(|places| format!(" ({places})"))
                .unwrap_or_default();
            let mut e = Error::new(
                ErrorKind::AlreadyApplied,
                format!(
                    "This {} is already applied: {what}{detail}. Nothing was changed, and nothing was applied a second time. Do not send it again{}.",
                    op.type_name(),
                    if found == Found::Gone { "" } else { "; re-read the file if you want to change it further" }
                ),
            );
            e.diff_line = note.and_then(|r| r.diff_line);
            e.input_lines = note.and_then(|r| r.input_line).into_iter().collect();
            return Err(located(e));
        }
    }
    Ok(files.finish())
}

/// Applies a patch to a map of files and returns the new map.
pub fn apply_files(files: &BTreeMap<String, String>, text: &str, mode: Mode) -> Result<BTreeMap<String, String>> {
    let mut ctx = Ctx::default();
    let patch = if mode == Mode::Strict { envelope::parse(text, &mut ctx)? } else { patch::parse(text)? };
    let known: Vec<&str> = files.keys().map(String::as_str).collect();
    let changes = patch.apply_among(mode, &mut ctx, |p| files.get(p).map(String::as_str), Some(&known))?;
    let mut out = files.clone();
    for c in changes {
        match c.contents {
            Some(contents) => out.insert(c.path, contents),
            None => out.remove(&c.path),
        };
    }
    Ok(out)
}

/// [`apply_files`] in Strict mode with the repairs `allow` permits.
pub fn repaired_apply_files(files: &BTreeMap<String, String>, patch: &str, allow: Allow) -> Result<Repaired<BTreeMap<String, String>>> {
    let mut ctx = Ctx::new(allow);
    let known: Vec<&str> = files.keys().map(String::as_str).collect();
    let parsed = envelope::parse(patch, &mut ctx)?;
    let changes = parsed.apply_among(Mode::Strict, &mut ctx, |p| files.get(p).map(String::as_str), Some(&known))?;
    let mut out = files.clone();
    for c in changes {
        match c.contents {
            Some(contents) => out.insert(c.path, contents),
            None => out.remove(&c.path),
        };
    }
    Ok(Repaired { value: out, repairs: ctx.repairs })
}

/// What the Codex CLI prints when the patch applies (see [`Patch::summary`]).
pub fn summary(text: &str) -> Result<String> {
    summary_with(text, &mut Ctx::default())
}

/// [`summary`] of a patch whose envelope may be repaired (`ctx`).
pub fn summary_with(text: &str, ctx: &mut Ctx) -> Result<String> {
    envelope::parse(text, ctx)?.summary()
}

/// Reads an update's body by the mode's rules, numbering lines as the
/// mode's messages do.
fn read_body<'p>(patch: &Patch, op: &'p Operation, place: &Place, mode: Mode) -> Result<Option<Diff<'p>>> {
    let Operation::Update { diff: body, path, .. } = op else { return Ok(None) };
    match mode {
        Mode::Strict => {
            let first = patch.real_line(place.body_codex_line);
            diff::parse(body, Mode::Strict, first).map(Some)
        }
        Mode::Codex => {
            let end = BodyEnd {
                first_line: place.body_codex_line,
                header_line: place.codex_line,
                path,
                next_line: place.next_codex_line,
                next: place.next.as_deref(),
            };
            diff::parse_codex(body, &end).map(Some).map_err(|mut e| {
                e.diff_line = e.diff_line.map(|l| patch.real_line(l));
                e
            })
        }
    }
}

/// One file operation, from a patch or from a Responses API operation.
struct Step<'a> {
    kind: OperationKind,
    path: &'a str,
    /// The path's slot in the [`Overlay`].
    slot: usize,
    /// A move to another path: the destination and its slot.
    move_to: Option<(&'a str, usize)>,
    /// Add: the new file's contents.
    contents: Option<&'a str>,
    /// Update: the parsed body (none for a patch's empty body).
    body: Option<&'a Diff<'a>>,
    /// The header's line in the patch, when there is a patch.
    line: Option<usize>,
}

impl<'a> Step<'a> {
    fn add(path: &'a str, slot: usize, contents: &'a str, line: Option<usize>) -> Self {
        Step { kind: OperationKind::Add, path, slot, move_to: None, contents: Some(contents), body: None, line }
    }

    fn delete(path: &'a str, slot: usize, line: Option<usize>) -> Self {
        Step { kind: OperationKind::Delete, path, slot, move_to: None, contents: None, body: None, line }
    }

    fn update(path: &'a str, slot: usize, move_to: Option<(&'a str, usize)>, body: Option<&'a Diff<'a>>, line: Option<usize>) -> Self {
        Step { kind: OperationKind::Update, path, slot, move_to, contents: None, body, line }
    }
}

/// Applies one operation; says what it found (a Delete of a missing path is
/// reported, not an error, in Strict mode: the caller decides).
fn apply_step<'f, B: Fn(usize) -> Option<&'f str>>(
    files: &mut Overlay<'f, B>,
    op: &Step,
    mode: Mode,
    ctx: &mut Ctx,
    known: Option<&[&str]>,
) -> Result<Found> {
    let (path, slot) = (op.path, op.slot);
    let at_line = |mut e: Error| {
        e.diff_line = op.line;
        e
    };
    match op.kind {
        OperationKind::Add => {
            let contents = op.contents.unwrap_or_default();
            let same = files.get(slot) == Some(contents);
            files.set(slot, Some(contents.to_string()));
            if same && mode == Mode::Strict {
                return Ok(Found::Same);
            }
        }
        OperationKind::Delete => {
            if files.get(slot).is_none() {
                if mode == Mode::Strict {
                    return Ok(Found::Gone);
                }
                return Err(at_line(Error::new(ErrorKind::FileNotFound, format!("Failed to delete file {path}"))));
            }
            files.set(slot, None);
        }
        OperationKind::Update => {
            let Some(current) = files.get(slot) else {
                if mode == Mode::Strict && moved_already(files, op, ctx).map_err(at_line)? {
                    return Ok(Found::Applied);
                }
                let message = match mode {
                    // Codex's own words (the parity corpus pins them).
                    Mode::Codex => format!("Failed to read file to update {path}: No such file or directory (os error 2)"),
                    Mode::Strict => {
                        missing_update(path, op.line.is_some(), &known.map(|k| crate::near::near_paths(path, k)).unwrap_or_default())
                    }
                };
                return Err(at_line(Error::new(ErrorKind::FileNotFound, message)));
            };
            // Already-applied updates are noted here and judged with the
            // whole patch, so the diff's own verdict is a note, not an error.
            let mut sub = Ctx::new(Allow::from_bits(ctx.allow.bits() | Allow::only(&[RepairKind::AlreadyApplied]).bits()));
            let (new, splices) = match op.body {
                Some(diff) => {
                    // Each update re-reads its file: bounded over the whole patch (limits::Rereads).
                    files.rereads.read(current.len()).map_err(at_line)?;
                    let current = files.get(slot).unwrap_or_default();
                    let splices = crate::batch::splices_parsed_with(mode, current, diff, Some(path), &mut sub)?;
                    let new = text::apply_splices(current, &splices);
                    (new, files.places().then_some(splices))
                }
                None => (current.to_string(), Some(Vec::new())),
            };
            let applied = sub.repairs.iter().any(|r| r.kind == RepairKind::AlreadyApplied);
            ctx.repairs.extend(sub.repairs);
            match (op.move_to, splices) {
                (Some((_, dest)), _) => {
                    files.set(dest, Some(new));
                    files.set(slot, None);
                }
                (None, Some(splices)) => files.set_placed(slot, new, splices),
                (None, None) => files.set(slot, Some(new)),
            }
            if applied {
                return Ok(Found::Applied);
            }
        }
    }
    Ok(Found::Fresh)
}

/// A move sent again (Strict): its source is gone, and its destination
/// already has what the update would write there (its every section is
/// already applied). The destination is left as it is.
fn moved_already<'f, B: Fn(usize) -> Option<&'f str>>(files: &mut Overlay<'f, B>, op: &Step, ctx: &mut Ctx) -> Result<bool> {
    let Some((_, dest)) = op.move_to else { return Ok(false) };
    let Some(there) = files.get(dest) else { return Ok(false) };
    let Some(diff) = op.body else { return Ok(false) };
    files.rereads.read(there.len())?;
    let there = files.get(dest).unwrap_or_default();
    let mut sub = Ctx::new(Allow::from_bits(ctx.allow.bits() | Allow::only(&[RepairKind::AlreadyApplied]).bits()));
    let applied = match crate::batch::apply_parsed_with(Mode::Strict, there, diff, Some(op.path), &mut sub) {
        Ok(out) => out == there && sub.repairs.iter().any(|r| r.kind == RepairKind::AlreadyApplied),
        Err(_) => false,
    };
    if applied {
        ctx.repairs.extend(sub.repairs);
    }
    Ok(applied)
}

/// Strict's message for an update of a path that has no file: what failed,
/// that nothing was applied, and how to create the file instead (in a patch,
/// or as a Responses API operation).
fn missing_update(path: &str, in_patch: bool, near: &[&str]) -> String {
    let create = if in_patch {
        format!("write '*** Add File: {path}' instead, with every line of the new file starting with '+'")
    } else {
        "send a create_file operation instead, its diff every line of the new file starting with '+'".to_string()
    };
    let near = if near.is_empty() { String::new() } else { format!(" The files have similar paths: {}.", crate::near::list(near)) };
    format!(
        "{path}: there is no file at this path to update. Nothing was applied.{near} Check the path (it is used exactly as written, relative to the project root); to create the file, {create}."
    )
}

/// Strict's message for a delete of a path that has no file while paths of
/// the files are near it: refused rather than taken as already deleted.
fn misspelt_delete(path: &str, near: &[&str], in_patch: bool) -> String {
    let leave = if in_patch { format!(", or leave out '*** Delete File: {path}' if that file is already gone") } else { String::new() };
    format!(
        "{path}: there is no file at this path to delete, and it was not taken as already deleted: the files have similar paths ({}), so the path may be misspelt. Nothing was applied. Write the exact path of the file to delete{leave}.",
        crate::near::list(near)
    )
}

/// Strict's message for a delete of a path that has no file.
fn missing_delete(path: &str, in_patch: bool) -> String {
    let next = if in_patch {
        format!("Check the path, or leave out '*** Delete File: {path}' and send the rest again.")
    } else {
        "Check the path; if the file is already gone, there is nothing left to do.".to_string()
    };
    format!(
        "{path}: there is no file at this path to delete (it may be deleted already, or the path misspelt). Nothing was applied. {next}"
    )
}

/// Adds the operation's place to an error. Codex mode keeps Codex's wording
/// (it already names the path where Codex does); Strict messages, written
/// for one diff, get the path in front, and count lines of the patch.
fn locate(mut e: Error, op: &Operation, index: usize, mode: Mode) -> Error {
    if mode == Mode::Strict && e.path.is_none() && !matches!(e.kind, ErrorKind::FileNotFound) {
        e.message = format!("{}: {}", op.path(), e.message.replace("Diff line", "Patch line").replace("diff line", "patch line"));
    }
    e.path = Some(op.path().to_string());
    e.operation = Some(index);
    if e.diff_line.is_none() {
        e.diff_line = Some(op.line());
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
    }

    #[test]
    fn operations_see_the_ones_before() {
        let patch = "*** Begin Patch\n*** Add File: n.txt\n+a\n*** Update File: n.txt\n@@\n-a\n+b\n*** Delete File: old\n*** Add File: old\n+new\n*** End Patch";
        for mode in [Mode::Strict, Mode::Codex] {
            let out = apply_files(&files(&[("old", "x\n")]), patch, mode).unwrap();
            assert_eq!(out, files(&[("n.txt", "b\n"), ("old", "new\n")]));
        }
    }

    #[test]
    fn all_or_nothing_with_the_failing_operation_located() {
        let patch = "*** Begin Patch\n*** Add File: a\n+1\n*** Update File: missing\n@@\n-x\n+y\n*** End Patch";
        let e = apply_files(&files(&[]), patch, Mode::Strict).unwrap_err();
        assert_eq!((e.kind, e.operation, e.path.as_deref(), e.diff_line), (ErrorKind::FileNotFound, Some(1), Some("missing"), Some(4)));
    }

    #[test]
    fn moves() {
        let patch = "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-1\n+2\n*** End Patch";
        assert_eq!(apply_files(&files(&[("a", "1\n"), ("b", "old\n")]), patch, Mode::Codex).unwrap(), files(&[("b", "2\n")]));
        let same = "*** Begin Patch\n*** Update File: a\n*** Move to: a\n@@\n-1\n+2\n*** End Patch";
        assert_eq!(apply_files(&files(&[("a", "1\n")]), same, Mode::Codex).unwrap(), files(&[("a", "2\n")]));
    }

    #[test]
    fn create_diffs_follow_the_add_file_rule() {
        assert_eq!(create_file("+a\n+b").unwrap(), "a\nb\n");
        assert_eq!(create_file("+a\n+b\n").unwrap(), "a\nb\n");
        assert_eq!(create_file("+a\r\n+\r\n+b\r\n").unwrap(), "a\n\nb\n");
        assert_eq!(create_file("+a\n+\n").unwrap(), "a\n\n");
        assert_eq!(create_file("").unwrap(), "");
        assert_eq!(create_file("+").unwrap(), "\n");
        assert_eq!(create_file("+x\ry").unwrap(), "x\ry\n");
        // The same text as an *** Add File: body gives the same contents.
        for diff in ["+a\n+b", "+a\r\n+\r\n+b\r\n", "+  indented\n+\ttab\n+"] {
            let patch = format!("*** Begin Patch\n*** Add File: f\n{}\n*** End Patch", diff.trim_end_matches('\n'));
            let via_patch = apply_files(&files(&[]), &patch, Mode::Strict).unwrap();
            assert_eq!(via_patch.get("f"), Some(&create_file(diff).unwrap()), "{diff:?}");
        }
    }

    #[test]
    fn create_diff_lines_without_plus_are_errors() {
        for (diff, line) in [("+a\nb", 2), ("+a\n\n", 2), ("a", 1), ("+a\n*** End Patch", 2), ("+a\n\n+b", 2)] {
            let e = create_file(diff).unwrap_err();
            assert_eq!((e.kind, e.diff_line), (ErrorKind::InvalidLine, Some(line)), "{diff:?}");
            assert!(e.message.starts_with(&format!("Create diff line {line} does not start with '+'")), "{}", e.message);
        }
        assert!(create_file("+a\n\n").unwrap_err().message.contains("bare '+'"));
        assert!(create_file("*** Add File: x\n+a").unwrap_err().message.contains("no '*** Add File:' header"));
    }

    #[test]
    fn responses_api_operations() {
        let base = files(&[("a.txt", "one\ntwo\n"), ("b.txt", "bee\n")]);
        let run = |op: FileOperation, mode| apply_file_operation(&op, mode, |p| base.get(p).map(String::as_str));
        let create = run(FileOperation::Create { path: "n/new.txt", diff: "+hi\n+there" }, Mode::Strict).unwrap();
        assert_eq!(create, [FileChange { path: "n/new.txt".into(), contents: Some("hi\nthere\n".into()) }]);
        let update = run(FileOperation::Update { path: "a.txt", diff: "@@\n one\n-two\n+2", move_to: None }, Mode::Strict).unwrap();
        assert_eq!(update, [FileChange { path: "a.txt".into(), contents: Some("one\n2\n".into()) }]);
        let moved = run(FileOperation::Update { path: "a.txt", diff: "@@\n-one\n+1", move_to: Some("b.txt") }, Mode::Codex).unwrap();
        assert_eq!(
            moved,
            [FileChange { path: "b.txt".into(), contents: Some("1\ntwo\n".into()) }, FileChange { path: "a.txt".into(), contents: None }]
        );
        let deleted = run(FileOperation::Delete { path: "b.txt" }, Mode::Strict).unwrap();
        assert_eq!(deleted, [FileChange { path: "b.txt".into(), contents: None }]);

        let e = run(FileOperation::Update { path: "a.txt", diff: "@@\n-three\n+3", move_to: None }, Mode::Strict).unwrap_err();
        assert_eq!((e.kind, e.path.as_deref(), e.diff_line), (ErrorKind::ContextNotFound, Some("a.txt"), Some(2)));
        assert!(e.message.starts_with("a.txt: "), "{}", e.message);
        let e = run(FileOperation::Delete { path: "gone" }, Mode::Strict).unwrap_err();
        assert_eq!((e.kind, e.path.as_deref(), e.diff_line), (ErrorKind::FileNotFound, Some("gone"), None));
        let e = run(FileOperation::Update { path: "gone", diff: "@@\n-x\n+y", move_to: None }, Mode::Codex).unwrap_err();
        assert_eq!(e.kind, ErrorKind::FileNotFound);
        let e = run(FileOperation::Create { path: "c", diff: "+a\nb" }, Mode::Strict).unwrap_err();
        assert_eq!((e.kind, e.path.as_deref(), e.diff_line), (ErrorKind::InvalidLine, Some("c"), Some(2)));
        assert!(e.message.starts_with("c: Create diff line 2"), "{}", e.message);
        let e = run(FileOperation::Update { path: "a.txt", diff: "@@\n-one\n+1", move_to: Some("") }, Mode::Strict).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidOperation);
        let e = run(FileOperation::Delete { path: "" }, Mode::Strict).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidOperation);
    }

    #[test]
    fn one_parse_answers_touches_summary_and_changes() {
        let text = "*** Begin Patch\n*** Add File: n\n+x\n*** Update File: n\n@@\n-x\n+y\n*** Update File: a\n*** Move to: b\n@@\n-1\n+2\n*** Delete File: d\n*** End Patch";
        let patch = patch::parse(text).unwrap();
        let touch = |path: &str, read, needs_text, moved_from: Option<&str>| Touch {
            path: path.into(),
            read,
            needs_text,
            moved_from: moved_from.map(Into::into),
        };
        assert_eq!(
            patch.touches(),
            [
                touch("n", true, false, None),
                touch("a", true, true, None),
                touch("b", false, false, Some("a")),
                touch("d", true, false, None)
            ]
        );
        assert_eq!(patch.summary().unwrap(), summary(text).unwrap());
        let base = files(&[("a", "1\n"), ("d", "gone\n")]);
        let changes = patch.apply(Mode::Strict, |p| base.get(p).map(String::as_str)).unwrap();
        assert_eq!(changes, apply_patch(text, Mode::Strict, |p| base.get(p).map(String::as_str)).unwrap());
        // Written in order: n, then the move's destination b before its source a, then d.
        let written: Vec<_> = changes.iter().map(|c| (c.path.as_str(), c.contents.as_deref())).collect();
        assert_eq!(written, [("n", Some("y\n")), ("b", Some("2\n")), ("a", None), ("d", None)]);
        // An update after a delete (or a move away) sees no file: it does not
        // need the caller's text, and fails.
        let later = patch::parse("*** Begin Patch\n*** Delete File: x\n*** Update File: x\n@@\n-1\n+2\n*** End Patch").unwrap();
        assert_eq!(later.touches(), [touch("x", true, false, None)]);
        let err = later.apply(Mode::Codex, |p| (p == "x").then_some("1\n")).unwrap_err();
        assert_eq!(err.message, "Failed to read file to update x: No such file or directory (os error 2)");
        // The touches computed once are not part of the patch's value.
        assert_eq!(patch, patch::parse(text).unwrap());
        assert_ne!(patch, later);
        // The same files by position in touches: the same changes, as positions.
        assert_eq!(patch.touched(), patch.touches().as_slice());
        let by_position = patch.apply_touched(Mode::Strict, &mut Ctx::default(), &[None, Some("1\n"), None, Some("gone\n")]).unwrap();
        assert_eq!(by_position, [(0, Some("y\n".into())), (2, Some("2\n".into())), (1, None), (3, None)]);
        // A file missing at its position is missing: the delete of d fails in Codex mode.
        let err = patch.apply_touched(Mode::Codex, &mut Ctx::default(), &[None, Some("1\n")]).unwrap_err();
        assert_eq!((err.kind, err.message.as_str(), err.operation), (ErrorKind::FileNotFound, "Failed to delete file d", Some(3)));
    }

    #[test]
    fn a_responses_api_move_writes_its_destination_then_its_source() {
        let base = files(&[("a", "1\n"), ("b", "old\n")]);
        let op = FileOperation::Update { path: "a", diff: "@@\n-1\n+2\n", move_to: Some("b") };
        let changes = apply_file_operation(&op, Mode::Strict, |p| base.get(p).map(String::as_str)).unwrap();
        assert_eq!(
            changes,
            [FileChange { path: "b".into(), contents: Some("2\n".into()) }, FileChange { path: "a".into(), contents: None }]
        );
        // A move to the path itself is an update in place.
        let op = FileOperation::Update { path: "a", diff: "@@\n-1\n+2\n", move_to: Some("a") };
        let changes = apply_file_operation(&op, Mode::Strict, |p| base.get(p).map(String::as_str)).unwrap();
        assert_eq!(changes, [FileChange { path: "a".into(), contents: Some("2\n".into()) }]);
    }

    #[test]
    fn a_responses_api_update_in_place_keeps_its_splices_and_a_move_does_not() {
        let base = files(&[("a", "x\n1\ny\n"), ("b", "old\n")]);
        let get = |p: &str| base.get(p).map(String::as_str);
        let op = FileOperation::Update { path: "a", diff: "@@\n x\n-1\n+2\n+3\n", move_to: None };
        let written = apply_file_operation_placed(&op, Mode::Strict, &mut Ctx::default(), get, None).unwrap();
        let [Written { slot: 0, contents: Some(contents), splices: Some(splices) }] = written.as_slice() else {
            panic!("one file written in place: {written:?}")
        };
        assert_eq!(contents, "x\n2\n3\ny\n");
        assert_eq!(splices, &[Splice { start: 2, end: 4, text: "2\n3\n".into() }]);
        assert_eq!(&crate::text::apply_splices("x\n1\ny\n", splices), contents);
        // Moved, the destination is written from the source: no splices of a file as given.
        let op = FileOperation::Update { path: "a", diff: "@@\n-1\n+2\n", move_to: Some("b") };
        let written = apply_file_operation_placed(&op, Mode::Strict, &mut Ctx::default(), get, None).unwrap();
        let got: Vec<_> = written.iter().map(|w| (w.slot, w.contents.as_deref(), w.splices.is_some())).collect();
        assert_eq!(got, [(1, Some("x\n2\ny\n"), false), (0, None, false)]);
    }

    #[test]
    fn every_responses_api_type_names_its_operation() {
        for t in FileOperation::TYPES {
            assert_eq!(FileOperation::from_type(t, "p", "+x", None).map(|op| op.type_name()), Some(t));
        }
        assert_eq!(FileOperation::from_type("apply_patch", "p", "+x", None), None);
    }

    #[test]
    fn an_operation_already_applied_is_a_reported_no_op_with_the_repair() {
        // What applyOperation's onRepair receives for a create_file equal to the file.
        let base = files(&[("a", "x\n")]);
        let mut ctx = Ctx::new(Allow::only(&[RepairKind::AlreadyApplied]));
        let op = FileOperation::Create { path: "a", diff: "+x" };
        let changes = apply_file_operation_with(&op, Mode::Strict, &mut ctx, |p| base.get(p).map(String::as_str)).unwrap();
        assert_eq!(changes, [FileChange { path: "a".into(), contents: Some("x\n".into()) }]);
        let reported: Vec<_> = ctx.repairs.iter().map(|r| (r.kind, r.path.as_deref(), r.message.as_str())).collect();
        assert_eq!(
            reported,
            [(
                RepairKind::AlreadyApplied,
                Some("a"),
                "the create_file of a is already applied (the file already has exactly these contents): nothing was changed. Do not send it again."
            )]
        );
    }

    #[test]
    fn a_move_to_the_same_path_is_no_move() {
        let patch = patch::parse("*** Begin Patch\n*** Update File: s\n*** Move to: s\n@@\n-1\n+2\n*** End Patch").unwrap();
        let touches = patch.touches();
        assert_eq!(touches, [Touch { path: "s".into(), read: true, needs_text: true, moved_from: None }]);
    }

    #[test]
    fn summary_groups_by_kind() {
        let patch =
            "*** Begin Patch\n*** Delete File: d\n*** Update File: u\n*** Move to: v\n@@\n-1\n+2\n*** Add File: a\n+x\n*** End Patch";
        assert_eq!(summary(patch).unwrap(), "Success. Updated the following files:\nA a\nM v\nD d\n");
        assert_eq!(summary("*** Begin Patch\n*** End Patch").unwrap_err().kind, ErrorKind::EmptyPatch);
    }
}
