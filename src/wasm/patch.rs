//! `*** Begin Patch` patches (js/patch.ts) and the Responses API operations (js/operation.ts).

use wasm_bindgen::prelude::*;

use super::diff::push_splices;
use super::positions::ranges;
use super::{allow, by_position, ctx, keep_repairs, leave, mode, serialize, split_inputs, to_js_error, with_input, Left, REPAIRS};
use crate::repair::Ctx;
use crate::{FileOperation, Mode};

/// The patch's operations: `{ environmentId?, operations: [{ kind, path, … }] }`.
#[wasm_bindgen(js_name = parsePatch)]
pub fn parse_patch(patch: &str, mode_code: u32) -> Result<JsValue, JsValue> {
    let mut ctx = ctx(mode_code);
    let p = crate::parse_patch_with(patch, &mut ctx).map_err(|e| to_js_error(&e))?;
    keep_repairs(ctx);
    serialize(&p)
}

/// A patch parsed once, for a caller that needs several answers about it
/// (the paths it touches, its summary, its changes): one parse per call of
/// the public API. The wrapper frees it when done.
#[wasm_bindgen]
pub struct PreparedPatch {
    patch: crate::Patch,
    /// Every path of the caller's file map, each followed by `\n`, when the
    /// wrapper gave them (`knownPaths`): for the near paths of a missing file.
    known: Option<String>,
}

/// Parses a patch once (`PatchError` fields when the envelope is malformed;
/// with the envelope repair allowed in `mode_code`, a wrapped patch is
/// unwrapped and the repair kept for `takeRepairs`).
///
/// The patch is the input buffer's first `patch_len` bytes (it crosses like
/// an input: wasm-bindgen's `&str` glue copies one character at a time). The
/// parsed patch owns its text, so the buffer is free again for the files.
#[wasm_bindgen(js_name = preparePatch)]
pub fn prepare_patch(patch_len: usize, mode_code: u32) -> Result<PreparedPatch, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(patch_len, |patch| {
        let parsed = if mode(mode_code) == Mode::Strict { crate::parse_patch_with(patch, &mut ctx) } else { crate::parse_patch(patch) };
        parsed.map(|patch| PreparedPatch { patch, known: None }).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}

#[wasm_bindgen]
impl PreparedPatch {
    /// `{ environmentId?, operations }`, as `parsePatch`.
    pub fn operations(&self) -> Result<JsValue, JsValue> {
        serialize(&self.patch)
    }

    /// `[{ path, read, needsText, movedFrom? }]`: every path the patch touches.
    pub fn touches(&self) -> Result<JsValue, JsValue> {
        serialize(self.touched())
    }

    /// Codex's success text.
    pub fn summary(&self) -> Result<String, JsValue> {
        self.patch.summary().map_err(|e| to_js_error(&e))
    }

    /// Every path the patch touches (as `touches`), each followed by `\n`
    /// (a path in a patch never holds a line break): one string rather than
    /// one value per path, for patches of 100,000 files.
    pub fn paths(&self) -> String {
        let mut out = String::new();
        for t in self.touched() {
            out.push_str(&t.path);
            out.push('\n');
        }
        out
    }

    /// For each path of `paths`: 1 if `apply` needs its contents (an update
    /// or delete names it; with `all`, an added file too), else 0.
    pub fn reads(&self, all: bool) -> Vec<u8> {
        self.touched().iter().map(|t| u8::from(t.read || all)).collect()
    }

    /// Every path of the caller's file map, each followed by `\n` (paths
    /// holding a line break left out). The wrapper gives them when a path
    /// the patch reads has no file: `apply` then lists the paths near it,
    /// and a Delete of it is already applied only when none is near.
    #[wasm_bindgen(js_name = knownPaths)]
    pub fn known_paths(&mut self, paths: String) {
        self.known = Some(paths);
    }

    /// Applies the patch to the files the wrapper put in the input buffer one
    /// after another (`lengths` has one entry per path of `paths`, its
    /// length in bytes, or `u32::MAX` for a path whose contents are not
    /// given), and leaves the final state of each path it touched in wasm
    /// memory for the wrapper to read (js/patch.ts `leftFiles`, before its
    /// next call into this instance); returns where: the words `[files, then
    /// for each: index, kind, textAt, textLen, n, offsets…]`, `index` its
    /// path's position in `paths`. `kind` 0: deleted (or moved away). 1: its
    /// contents are the `textLen` UTF-8 bytes at `textAt`. 2: the file as
    /// given with `n` splices, `offsets` `[start, end, textEnd, …]` as
    /// `applyChanges` gives them, the splices' texts joined at `textAt`: only
    /// the changed lines cross, not the whole new file, whose decoding took
    /// a fifth of an `applyFiles` call.
    ///
    /// With `placed`, the words go on with `m`, then `m` words: where the
    /// updates placed their changes, for each file of kind 2, `[index, n,
    /// start, end, newStart, newEnd, …]`, its `n` splices as byte ranges of
    /// the file as given and of its new contents (whole lines, numbers only:
    /// most callers never read them; `trimSplices` makes the minimal splices
    /// of one file when read). A file of kind 1 was written otherwise
    /// (added, moved onto, updated twice): `spliceTexts` compares its texts.
    #[wasm_bindgen(js_name = applyLeft)]
    pub fn apply_left(&self, lengths: Vec<u32>, mode_code: u32, placed: bool) -> Result<*const u32, JsValue> {
        let total: usize = lengths.iter().filter(|&&l| l != u32::MAX).map(|&l| l as usize).sum();
        // The envelope's repairs (from preparePatch) come first.
        let mut ctx = Ctx::new(allow(mode_code));
        ctx.repairs = REPAIRS.with(|r| std::mem::take(&mut *r.borrow_mut()));
        let result = with_input(total, |all| {
            // The files by position in `touches`, as the engine takes them: no lookup by path.
            let files = by_position(all, &lengths)?;
            let known: Option<Vec<&str>> = self.known.as_deref().map(|k| k.split_terminator('\n').collect());
            let written =
                self.patch.apply_touched_placed(mode(mode_code), &mut ctx, &files, known.as_deref()).map_err(|e| to_js_error(&e))?;
            Ok(leave(|left| leave_files(left, &files, written, placed)))
        });
        keep_repairs(ctx);
        result
    }
}

impl PreparedPatch {
    /// The paths the patch touches, computed once: `paths`, `reads` and `apply` number the paths by them.
    fn touched(&self) -> &[crate::Touch] {
        self.patch.touched()
    }
}

/// Writes what [`PreparedPatch::apply_left`] leaves: `written`, the final
/// state of each path, made from `files`, the files as given by position.
fn leave_files(left: &mut Left, files: &[Option<&str>], written: Vec<crate::Written>, placed: bool) {
    let Left { words, texts, files: kept } = left;
    words.push(written.len() as u32);
    // Where the texts of kind 2 start, in `texts`: made pointers once it stops growing.
    let mut in_texts: Vec<usize> = Vec::new();
    let mut runs: Vec<u32> = Vec::new();
    for w in &written {
        let given = files.get(w.slot).copied().flatten();
        match (&w.contents, &w.splices, given) {
            (None, _, _) => words.extend([w.slot as u32, 0, 0, 0, 0]),
            (Some(_), Some(splices), Some(input)) => {
                if placed {
                    runs.extend([w.slot as u32, splices.len() as u32]);
                    runs.extend(ranges(splices));
                }
                let mut offsets: Vec<usize> = splices.iter().flat_map(|s| [s.start, s.end]).collect();
                super::utf16_offsets(input, &mut offsets);
                let from = texts.len();
                in_texts.push(words.len() + 2);
                words.extend([w.slot as u32, 2, from as u32, 0, splices.len() as u32]);
                push_splices(words, texts, splices, &offsets);
                if let Some(len) = words.get_mut(in_texts.last().copied().unwrap_or(0) + 1) {
                    *len = (texts.len() - from) as u32;
                }
            }
            (Some(contents), _, _) => words.extend([w.slot as u32, 1, contents.as_ptr() as u32, contents.len() as u32, 0]),
        }
    }
    if placed {
        words.push(runs.len() as u32);
        words.extend(runs);
    }
    let base = texts.as_ptr() as u32;
    for i in in_texts {
        if let Some(at) = words.get_mut(i) {
            *at += base;
        }
    }
    // The contents of kind 1 stay where they are, kept until the next call that leaves something.
    *kept = written;
}

/// The contents of a Responses API create diff.
#[wasm_bindgen(js_name = createFile)]
pub fn create_file(diff: &str) -> Result<String, JsValue> {
    crate::create_file(diff).map_err(|e| to_js_error(&e))
}

/// Applies one Responses API operation (`kind` is its type, one of
/// `operationTypes` in js/generated.ts) to the files `paths`, put in the
/// input buffer as `split_inputs` reads them, and leaves the final state of
/// each path it wrote in wasm memory as `PreparedPatch::applyLeft` does
/// (index 0 the operation's path, 1 an update's `move_to`); returns where.
/// `known`: every path of the caller's files, each followed by `\n`, when
/// the wrapper gives them (the operation's path has no file): the error
/// lists the paths near it, and a delete of it is already applied only
/// when none is near.
#[wasm_bindgen(js_name = applyOperationChanges)]
#[allow(clippy::too_many_arguments)]
pub fn apply_operation_changes(
    paths: Vec<String>,
    lengths: Vec<u32>,
    kind: &str,
    path: &str,
    diff: &str,
    move_to: Option<String>,
    mode_code: u32,
    known: Option<String>,
) -> Result<*const u32, JsValue> {
    let op = FileOperation::from_type(kind, path, diff, move_to.as_deref())
        .ok_or_else(|| JsValue::from_str(&format!("applypatch: unknown operation type {kind}")))?;
    let total: usize = lengths.iter().map(|&l| l as usize).sum();
    let mut ctx = ctx(mode_code);
    let result = with_input(total, |all| {
        let files = split_inputs(all, &paths, &lengths)?;
        let known: Option<Vec<&str>> = known.as_deref().map(|k| k.split_terminator('\n').collect());
        let written = crate::apply_file_operation_placed(&op, mode(mode_code), &mut ctx, |p| files.get(p).copied(), known.as_deref())
            .map_err(|e| to_js_error(&e))?;
        // By slot: the path, and a move's destination.
        let given = [Some(path), move_to.as_deref()].map(|p| p.and_then(|p| files.get(p).copied()));
        Ok(leave(|left| leave_files(left, &given, written, false)))
    });
    keep_repairs(ctx);
    result
}

/// Codex's success text for a patch.
#[wasm_bindgen]
pub fn summary(patch: &str, mode_code: u32) -> Result<String, JsValue> {
    let mut ctx = ctx(mode_code);
    let text = crate::summary_with(patch, &mut ctx).map_err(|e| to_js_error(&e))?;
    keep_repairs(ctx);
    Ok(text)
}
