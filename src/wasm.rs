//! The wasm-bindgen binding (the `wasm` feature): thin on purpose, with no
//! mirror structs. Strings in; out go the engine's own types, serialized
//! with serde (errors, parsed patches and their touches, repairs, edit-block
//! failures and parsed blocks, parsed unified diffs, hunk placements and
//! modes), or flat arrays where a benchmark says a JS object costs more than
//! the work: the changes of a diff (`to_js_changes`, bench/strict.mjs), the
//! files a patch or diff changed (`changes_to_js`), edit-block outcomes
//! (`to_js_outcome`, bench/blocks.mjs: ~10 µs a call through serde), the
//! blocks of `applyBlocks` (`PreparedBlocks::apply`, npm run stress: ~1.3 µs
//! a block through serde) and the `lineDiff` steps (measured below). The TypeScript wrapper in `js/` turns
//! them into idiomatic results and `PatchError`s. Byte offsets become UTF-16
//! code units here and nowhere else. The numbers that cross (modes,
//! strategies, edit options, repair sets, line-diff steps) are positions in
//! tables generated from the engine into `js/generated.ts`.
//!
//! Argument types are checked by the wrapper before it calls in; this module
//! is not part of the public API.
//!
//! The input text (possibly megabytes) does not cross as a wasm-bindgen
//! `&str`: its glue copies a string one character at a time in JS, which cost
//! 4 ms of a 5 ms call at 2.4 MB. The wrapper instead encodes the input with
//! `TextEncoder.encodeInto` straight into a buffer reserved here
//! (`reserveInput`), and the apply functions read it from there.

use std::cell::RefCell;
use std::collections::HashMap;

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use yoke::Yoke;

use crate::blocks::{self, Edit, Options, Outcome, Strategy};
use crate::repair::{Allow, Ctx, Repair};
use crate::unified::{Unified, UnifiedMode};
use crate::{text, Changes, Error, FileChange, FileOperation, Mode};

fn serialize<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsValue::from_str(&format!("applypatch: {e}")))
}

/// The error as JS sees it (the fields of `PatchError`).
/// An engine error as the wrapper receives it (for `?` in the binding).
impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        to_js_error(&e)
    }
}

fn to_js_error(e: &Error) -> JsValue {
    serialize(e).unwrap_or_else(|_| JsValue::from_str(&e.message))
}

/// The mode at position `code` of `modes` in js/generated.ts.
/// The low bits of a mode code are the mode; above `Allow::CODE_SHIFT`, the allowed repairs.
fn mode(code: u32) -> Mode {
    Mode::ALL.get((code & ((1 << Allow::CODE_SHIFT) - 1)) as usize).copied().unwrap_or_default()
}

// ---- repairs ----
// A mode code carries the allowed repairs above its low bits (js/repair.ts):
// `mode | allow << Allow::CODE_SHIFT` (`repairShift` in js/generated.ts). A call that repaired something leaves its repairs
// here; the wrapper takes them with `takeRepairs` right after the call.

fn allow(code: u32) -> Allow {
    Allow::from_bits(code >> Allow::CODE_SHIFT)
}

thread_local! {
    static REPAIRS: RefCell<Vec<Repair>> = const { RefCell::new(Vec::new()) };
}

/// A context for one call; its repairs are kept by [`keep_repairs`].
fn ctx(code: u32) -> Ctx {
    REPAIRS.with(|r| r.borrow_mut().clear());
    Ctx::new(allow(code))
}

fn keep_repairs(ctx: Ctx) {
    REPAIRS.with(|r| *r.borrow_mut() = ctx.repairs);
}

/// The repairs of the last call (and forgets them): the engine's `Repair`s.
#[wasm_bindgen(js_name = takeRepairs)]
pub fn take_repairs() -> Result<JsValue, JsValue> {
    serialize(&REPAIRS.with(|r| std::mem::take(&mut *r.borrow_mut())))
}

/// Changes as `[offsets, texts]`: every splice's new text joined into one
/// string, and a `Uint32Array` of `[start, end, textEnd, …]`, three per
/// splice: `start..end` is the range of `input` it replaces, in UTF-16 code
/// units, and its text is `texts` from the previous splice's `textEnd` (0
/// for the first) to its own. Three crossings whatever the number of
/// splices, where one JS value per number and one string per splice cost
/// more than a small call's search.
fn to_js_changes(input: &str, changes: Changes) -> Array {
    let splices = changes.splices();
    let mut offsets: Vec<usize> = splices.iter().flat_map(|s| [s.start, s.end]).collect();
    text::utf16_offsets(input, &mut offsets);
    let mut texts = String::with_capacity(splices.iter().map(|s| s.text.len()).sum());
    let mut flat: Vec<u32> = Vec::with_capacity(splices.len() * 3);
    let mut text_end = 0;
    for (s, o) in splices.iter().zip(offsets.chunks(2)) {
        texts.push_str(&s.text);
        text_end += text::utf16_len(s.text.as_bytes());
        flat.extend([o.first().copied().unwrap_or(0) as u32, o.get(1).copied().unwrap_or(0) as u32, text_end as u32]);
    }
    Array::of2(&js_sys::Uint32Array::from(flat.as_slice()), &JsValue::from_str(&texts))
}

/// Wasm memory grows in large steps. The standard allocator asks for just
/// the pages it needs, and V8 runs a full garbage collection of the JS heap
/// on most `memory.grow`s: a call that allocated 50 MB in small steps (a
/// patch of 170,000 small updates) spent 3 s of its 4 s in those
/// collections. So when an allocation has just grown memory, this allocator
/// at once allocates and frees a block of half the memory's size: the
/// allocator keeps that block as free space for the next allocations, and
/// memory grows by about 1.5x per step instead of a page at a time.
#[cfg(target_arch = "wasm32")]
mod growth {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::arch::wasm32::memory_size;

    const PAGE: usize = 64 * 1024;

    pub struct InSteps;

    /// After an allocation that grew memory from `before` pages: make room
    /// for the next ones in one step.
    #[cold]
    #[inline(never)]
    fn spare_room(before: usize) {
        let now = memory_size(0);
        if now <= before {
            return;
        }
        if let Ok(spare) = Layout::from_size_align(now * PAGE / 2, 8) {
            // SAFETY: a block of non-zero size, freed with the layout it was allocated with.
            unsafe {
                let block = System.alloc(spare);
                if !block.is_null() {
                    System.dealloc(block, spare);
                }
            }
        }
    }

    // SAFETY: every call goes to the system allocator with the caller's arguments.
    unsafe impl GlobalAlloc for InSteps {
        #[inline(never)]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let before = memory_size(0);
            let ptr = System.alloc(layout);
            spare_room(before);
            ptr
        }

        #[inline(never)]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            let before = memory_size(0);
            let ptr = System.alloc_zeroed(layout);
            spare_room(before);
            ptr
        }

        #[inline(never)]
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            System.dealloc(ptr, layout)
        }

        #[inline(never)]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let before = memory_size(0);
            let out = System.realloc(ptr, layout, new_size);
            spare_room(before);
            out
        }
    }

    #[global_allocator]
    static ALLOCATOR: InSteps = InSteps;
}

thread_local! {
    /// The input buffer the wrapper writes into. It only grows.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The wasm memory, so the wrapper can write into the input buffer.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Makes the input buffer at least `len` bytes long, keeping its first
/// `keep` bytes, and returns where it starts in wasm memory.
///
/// The buffer is taken out of its cell while it grows (an allocation that
/// fails is a trap), so a trap never leaves the cell borrowed.
#[wasm_bindgen(js_name = reserveInput)]
pub fn reserve_input(len: usize, keep: usize) -> *mut u8 {
    INPUT.with(|cell| {
        let mut buf = cell.take();
        if buf.len() < len {
            let mut grown = vec![0u8; len.max(buf.len() * 2)];
            let keep = keep.min(buf.len());
            if let (Some(to), Some(from)) = (grown.get_mut(..keep), buf.get(..keep)) {
                to.copy_from_slice(from);
            }
            buf = grown;
        }
        let ptr = buf.as_mut_ptr();
        cell.replace(buf);
        ptr
    })
}

/// The input as text. Checking that ASCII text is UTF-8 takes one pass of
/// [`text::is_ascii`]; `str::from_utf8` reads four bytes at a time in
/// wasm32, a tenth of an exact edit-block match in a small file.
fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    if text::is_ascii(bytes) {
        // SAFETY: every byte is below 0x80 (checked just above), and ASCII is UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes)
}

/// Runs `f` on the first `len` bytes of the input buffer, as UTF-8.
///
/// The buffer is taken out of its cell for the call and put back after, so
/// no `RefCell` borrow is held while the engine runs: a trap inside it skips
/// every drop, and a borrow held across it would make every later call
/// panic. (The wrapper replaces the instance after a trap anyway; this keeps
/// the instance usable if it ever is not.)
pub(crate) fn with_input<T>(len: usize, f: impl FnOnce(&str) -> Result<T, JsValue>) -> Result<T, JsValue> {
    let buf = INPUT.with(|cell| cell.take());
    let result = match buf.get(..len) {
        None => Err(JsValue::from_str("applypatch: input buffer overrun")),
        Some(bytes) => match utf8(bytes) {
            Ok(input) => f(input),
            Err(e) => Err(JsValue::from_str(&format!("applypatch: input is not UTF-8: {e}"))),
        },
    };
    INPUT.with(|cell| cell.replace(buf));
    result
}

/// Applies a diff to an input, both put in the input buffer one after the
/// other (`input_len`, then `diff_len` bytes): the diff crosses like the
/// input, since wasm-bindgen's `&str` glue copies one character at a time.
#[wasm_bindgen(js_name = applyChanges)]
pub fn apply_changes(input_len: usize, diff_len: usize, mode_code: u32) -> Result<Array, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(input_len + diff_len, |all| {
        let (Some(input), Some(diff)) = (all.get(..input_len), all.get(input_len..)) else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let changes = match mode(mode_code) {
            Mode::Strict => crate::strict_changes(input, &[diff], false, &mut ctx),
            m => m.changes(input, diff),
        };
        changes.map(|c| to_js_changes(input, c)).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}

/// Applies a batch of diffs to the input buffer's first `input_len` bytes.
#[wasm_bindgen(js_name = applyBatchChanges)]
pub fn apply_batch_changes(input_len: usize, diffs: Vec<String>, mode_code: u32) -> Result<Array, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(input_len, |input| {
        let changes = match mode(mode_code) {
            Mode::Strict => crate::strict_changes(input, &diffs, true, &mut ctx),
            m => m.batch_changes(input, &diffs),
        };
        changes.map(|c| to_js_changes(input, c)).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}

/// Every error code, in order.
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> Vec<String> {
    crate::ErrorKind::ALL.iter().map(|k| k.code().to_string()).collect()
}

// ---- patches (the `*** Begin Patch` format) ----

/// The patch's operations: `{ environmentId?, operations: [{ kind, path, … }] }`.
#[wasm_bindgen(js_name = parsePatch)]
pub fn parse_patch(patch: &str, mode_code: u32) -> Result<JsValue, JsValue> {
    let mut ctx = ctx(mode_code);
    let p = crate::repair::envelope::parse(patch, &mut ctx).map_err(|e| to_js_error(&e))?;
    keep_repairs(ctx);
    serialize(&p)
}

/// A patch parsed once, for a caller that needs several answers about it
/// (the paths it touches, its summary, its changes): one parse per call of
/// the public API. The wrapper frees it when done.
#[wasm_bindgen]
pub struct PreparedPatch {
    patch: crate::Patch,
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
        let parsed =
            if mode(mode_code) == Mode::Strict { crate::repair::envelope::parse(patch, &mut ctx) } else { crate::parse_patch(patch) };
        parsed.map(|patch| PreparedPatch { patch }).map_err(|e| to_js_error(&e))
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

    /// Applies the patch to the files the wrapper put in the input buffer one
    /// after another: `lengths` has one entry per path of `paths`, its
    /// length in bytes, or `u32::MAX` for a path whose contents are not
    /// given. Returns `[index, contents | null, …]`: each path the patch
    /// touched, as its position in `paths`, and its final contents.
    pub fn apply(&self, lengths: Vec<u32>, mode_code: u32) -> Result<Array, JsValue> {
        let total: usize = lengths.iter().filter(|&&l| l != u32::MAX).map(|&l| l as usize).sum();
        // The envelope's repairs (from preparePatch) come first.
        let mut ctx = Ctx::new(allow(mode_code));
        ctx.repairs = REPAIRS.with(|r| std::mem::take(&mut *r.borrow_mut()));
        let result = with_input(total, |all| {
            // The files by position in `touches`, as the engine takes them: no lookup by path.
            let contents = by_position(all, &lengths)?;
            let changes = self.patch.apply_touched(mode(mode_code), &mut ctx, &contents).map_err(|e| to_js_error(&e))?;
            let out = Array::new();
            for (i, contents) in changes {
                out.push(&JsValue::from(i as u32));
                out.push(&contents.map_or(JsValue::NULL, |t| JsValue::from_str(&t)));
            }
            Ok(out)
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

/// Files numbered by position, whose contents the wrapper put one after
/// another in the input buffer (js/patch.ts `putPaths`): `lengths` in bytes,
/// `u32::MAX` for a file not given.
fn by_position<'a>(all: &'a str, lengths: &[u32]) -> Result<Vec<Option<&'a str>>, JsValue> {
    let mut files = Vec::with_capacity(lengths.len());
    let mut pos = 0;
    for &len in lengths {
        if len == u32::MAX {
            files.push(None);
            continue;
        }
        let end = pos + len as usize;
        files.push(Some(all.get(pos..end).ok_or_else(|| JsValue::from_str("applypatch: bad file lengths"))?));
        pos = end;
    }
    Ok(files)
}

/// The files `paths`, whose contents the wrapper put one after another in
/// the input buffer (`lengths` in bytes; js/patch.ts `putFiles`).
fn split_inputs<'a>(all: &'a str, paths: &'a [String], lengths: &[u32]) -> Result<HashMap<&'a str, &'a str>, JsValue> {
    let mut files = HashMap::new();
    let mut pos = 0;
    for (path, len) in paths.iter().zip(lengths) {
        let end = pos + *len as usize;
        let contents = all.get(pos..end).ok_or_else(|| JsValue::from_str("applypatch: bad file lengths"))?;
        files.insert(path.as_str(), contents);
        pos = end;
    }
    Ok(files)
}

/// The final state of each touched path, as `[path, contents | null, …]`.
fn changes_to_js(changes: Vec<FileChange>) -> Array {
    let out = Array::new();
    for c in changes {
        out.push(&JsValue::from_str(&c.path));
        out.push(&c.contents.map_or(JsValue::NULL, |t| JsValue::from_str(&t)));
    }
    out
}

/// The contents of a Responses API create diff.
#[wasm_bindgen(js_name = createFile)]
pub fn create_file(diff: &str) -> Result<String, JsValue> {
    crate::create_file(diff).map_err(|e| to_js_error(&e))
}

/// Applies one Responses API operation (`kind` is its type, one of
/// `operationTypes` in js/generated.ts) to the files `paths`, put in the
/// input buffer as `split_inputs` reads them. Returns `[path, contents | null, …]`.
#[wasm_bindgen(js_name = applyOperationChanges)]
pub fn apply_operation_changes(
    paths: Vec<String>,
    lengths: Vec<u32>,
    kind: &str,
    path: &str,
    diff: &str,
    move_to: Option<String>,
    mode_code: u32,
) -> Result<Array, JsValue> {
    let op = FileOperation::from_type(kind, path, diff, move_to.as_deref())
        .ok_or_else(|| JsValue::from_str(&format!("applypatch: unknown operation type {kind}")))?;
    let total: usize = lengths.iter().map(|&l| l as usize).sum();
    let mut ctx = ctx(mode_code);
    let result = with_input(total, |all| {
        let files = split_inputs(all, &paths, &lengths)?;
        let changes = crate::files::apply_file_operation_with(&op, mode(mode_code), &mut ctx, |p| files.get(p).copied())
            .map_err(|e| to_js_error(&e))?;
        Ok(changes_to_js(changes))
    });
    keep_repairs(ctx);
    result
}

/// Codex's success text for a patch.
#[wasm_bindgen]
pub fn summary(patch: &str, mode_code: u32) -> Result<String, JsValue> {
    let mut ctx = ctx(mode_code);
    let text = crate::files::summary_with(patch, &mut ctx).map_err(|e| to_js_error(&e))?;
    keep_repairs(ctx);
    Ok(text)
}

/// The Codex tool's description.
#[wasm_bindgen(js_name = codexDescription)]
pub fn codex_description() -> String {
    crate::tool::DESCRIPTION.to_string()
}

/// The Codex tool's grammar, with or without the Environment ID line.
#[wasm_bindgen(js_name = codexGrammar)]
pub fn codex_grammar(environment_id: bool) -> String {
    crate::tool::grammar(environment_id).to_string()
}

// ---- edit blocks ----
// Search/replace edit blocks (js/blocks.ts). The source crosses like the diff
// input (putInput, then its length); the options as one array of numbers
// (`Options::FIELDS`); results come back as flat arrays with the replacement
// text and its range in UTF-16 code units, and the wrapper builds the new
// text from slices of the source.

/// An outcome for `source` as a flat array (building a JS object field by
/// field through serde costs ~10 µs a call, more than a small edit): `[strategy
/// (0 for none, else its position in `Strategy::ALL` plus 1), similarity,
/// start, end, matches, replacement, failure (the engine's `Failure`, or
/// undefined; on success `{ note }` when the outcome has one)]`, offsets in
/// UTF-16 code units of `source`.
fn to_js_outcome(source: &str, o: &Outcome) -> Result<JsValue, JsValue> {
    let (start, end) = match &o.splice {
        Some(s) => {
            let mut offsets = [s.start, s.end];
            text::utf16_offsets(source, &mut offsets);
            let [start, end] = offsets;
            (start as f64, end as f64)
        }
        None => (-1.0, -1.0),
    };
    let strategy = o.strategy.and_then(|s| Strategy::ALL.iter().position(|&t| t == s)).map_or(0, |i| i + 1);
    let failure = match (&o.failure, &o.note) {
        (None, None) => JsValue::UNDEFINED,
        (None, Some(note)) => serialize(&std::collections::BTreeMap::from([("note", note)]))?,
        (Some(f), _) => serialize(f)?,
    };
    let out = Array::new_with_length(7);
    out.set(0, JsValue::from(strategy as u32));
    out.set(1, JsValue::from(o.similarity));
    out.set(2, JsValue::from(start));
    out.set(3, JsValue::from(end));
    out.set(4, JsValue::from(o.matches as f64));
    out.set(5, JsValue::from_str(o.splice.as_ref().map_or("", |s| s.text.as_str())));
    out.set(6, failure);
    Ok(out.into())
}

/// An edit from the wrapper: `hints` are `[startLine, endLine, replaceAll]`,
/// 0 for none.
fn block_edit(search: String, replace: String, hints: &[f64]) -> Edit {
    let line = |i: usize| hints.get(i).copied().filter(|&n| n >= 1.0 && n.is_finite()).map(|n| n as usize);
    Edit { start_line: line(0), end_line: line(1), replace_all: hints.get(2).is_some_and(|&n| n != 0.0), ..Edit::new(search, replace) }
}

/// Applies one edit to a source: the source, the SEARCH and the REPLACE
/// text are put in the input buffer one after another (`input_len`,
/// `search_len`, `replace_len` bytes), as the diff of `applyChanges`.
#[wasm_bindgen(js_name = blocksApplyEdit)]
pub fn blocks_apply_edit(
    input_len: usize,
    search_len: usize,
    replace_len: usize,
    options: &[f64],
    hints: &[f64],
) -> Result<JsValue, JsValue> {
    let options = Options::from_numbers(options);
    let search_end = input_len + search_len;
    with_input(search_end + replace_len, |all| {
        let (Some(source), Some(search), Some(replace)) = (all.get(..input_len), all.get(input_len..search_end), all.get(search_end..))
        else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let edit = block_edit(search.to_string(), replace.to_string(), hints);
        to_js_outcome(source, &blocks::find(source, &edit, &options).map_err(|e| to_js_error(&e))?)
    })
}

/// Applies edits (`[search, replace, search, replace, …]`, with `hints`
/// three per edit as for one) in order to the input buffer, stopping at the
/// first failure: one outcome per edit tried, each with offsets into the
/// text at its step.
#[wasm_bindgen(js_name = blocksApplyEdits)]
pub fn blocks_apply_edits(input_len: usize, edits: Vec<String>, options: &[f64], hints: &[f64]) -> Result<Array, JsValue> {
    let options = Options::from_numbers(options);
    let edits: Vec<Edit> = edits
        .chunks_exact(2)
        .enumerate()
        .filter_map(|(i, pair)| match pair {
            [search, replace] => Some(block_edit(search.clone(), replace.clone(), hints.get(i * 3..i * 3 + 3).unwrap_or(&[]))),
            _ => None,
        })
        .collect();
    with_input(input_len, |source| {
        let out = Array::new();
        blocks::find_each(source, &edits, &options, |text, outcome| -> Result<(), JsValue> {
            out.push(&to_js_outcome(text, &outcome)?);
            Ok(())
        })?;
        Ok(out)
    })
}

/// parseBlocks: apply-edit-block's plain list, or `{ edits, problems }`.
#[wasm_bindgen(js_name = blocksParse)]
pub fn blocks_parse(text: &str, detailed: bool) -> Result<JsValue, JsValue> {
    if detailed {
        serialize(&blocks::parse_blocks_detailed(text))
    } else {
        serialize(&blocks::parse_blocks(text))
    }
}

/// The edit blocks of a message parsed once, for a caller that reads the
/// files they name before applying them (the CLI): one parse per call. The
/// wrapper frees it when done.
#[wasm_bindgen]
pub struct PreparedBlocks {
    parsed: blocks::Parsed,
}

/// Parses the edit blocks of `message` once.
#[wasm_bindgen(js_name = prepareBlocks)]
pub fn prepare_blocks(message: &str) -> PreparedBlocks {
    PreparedBlocks { parsed: blocks::parse_blocks_detailed(message) }
}

#[wasm_bindgen]
impl PreparedBlocks {
    /// `{ edits, problems }`, as `blocksParse` with `detailed`.
    pub fn parsed(&self) -> Result<JsValue, JsValue> {
        serialize(&self.parsed)
    }

    /// The files the blocks go to (`default_path` for a block that names
    /// none), each followed by `\n`: the files the wrapper puts in for `apply`.
    pub fn paths(&self, default_path: Option<String>) -> String {
        let mut out = String::new();
        for path in self.parsed.paths(default_path.as_deref()) {
            out.push_str(path);
            out.push('\n');
        }
        out
    }

    /// Applies the blocks to the files of `paths` (same `default_path`),
    /// whose contents the wrapper put in the input buffer one after
    /// another: `lengths` has one entry per path, its length in bytes, or
    /// `u32::MAX` for a file the map does not have. The engine's
    /// `BlocksResult`, flat (one object per block through serde cost about
    /// 1.3 µs a block: 0.23 s of a 10 MB message of 171,897 blocks): `[ok,
    /// changes, numbers, paths, full, problems]`, where
    /// `changes` is `[path, contents | null, …]`, `numbers` holds six per
    /// block (`line`, `endMarkerLine`, `ok` as 0 or 1, the strategy as in
    /// `blocksApplyEdit`, `similarity`, `matches`), `paths` each block's path
    /// followed by `\n`, and `full` the blocks with a failure or a note, as
    /// `[index, BlockResult, …]`.
    pub fn apply(&self, lengths: Vec<u32>, options: &[f64], default_path: Option<String>) -> Result<Array, JsValue> {
        let options = Options::from_numbers(options);
        let total: usize = lengths.iter().filter(|&&l| l != u32::MAX).map(|&l| l as usize).sum();
        with_input(total, |all| {
            let files = by_position(all, &lengths)?;
            let r = blocks::apply_parsed_blocks_to(&self.parsed, &options, default_path.as_deref(), &files)?;
            let mut numbers = Vec::with_capacity(r.results.len() * 6);
            let mut block_paths = String::new();
            let full = Array::new();
            for (i, b) in r.results.iter().enumerate() {
                let strategy = b.strategy.and_then(|s| Strategy::ALL.iter().position(|&t| t == s)).map_or(0, |i| i + 1);
                numbers.extend([
                    b.line as f64,
                    b.end_marker_line as f64,
                    f64::from(u8::from(b.ok)),
                    strategy as f64,
                    b.similarity,
                    b.matches as f64,
                ]);
                block_paths.push_str(&b.path);
                block_paths.push('\n');
                if b.failure.is_some() || b.note.is_some() {
                    full.push(&JsValue::from(i as u32));
                    full.push(&serialize(b)?);
                }
            }
            let out = Array::new();
            out.push(&JsValue::from(r.ok));
            out.push(&changes_to_js(r.changes));
            out.push(&js_sys::Float64Array::from(numbers.as_slice()));
            out.push(&JsValue::from_str(&block_paths));
            out.push(&full);
            out.push(&serialize(&r.problems)?);
            Ok(out)
        })
    }
}

/// The format of a text: `"patch"`, `"diff"` or `"blocks"`.
#[wasm_bindgen(js_name = detectFormat)]
pub fn detect_format(text: &str) -> String {
    crate::detect_format(text).as_str().to_string()
}

/// apply-edit-block's line similarity of two texts.
#[wasm_bindgen(js_name = blocksSimilarity)]
pub fn blocks_similarity(a: &str, b: &str) -> Result<f64, JsValue> {
    blocks::similarity(a, b).map_err(|e| to_js_error(&e))
}

// ---- unified diffs (js/unified.ts) ----

/// The unified mode at position `code` of `unifiedModes` in js/generated.ts.
fn unified_mode(code: u32) -> UnifiedMode {
    UnifiedMode::ALL.get(code as usize).copied().unwrap_or_default()
}

/// The structure of a unified diff: the engine's `FilePatch`es.
#[wasm_bindgen(js_name = parseUnified)]
pub fn parse_unified(diff: &str) -> Result<JsValue, JsValue> {
    serialize(&crate::unified::parse(diff)?.files)
}

/// A unified diff parsed once (for `mode`), kept with its text, for a
/// caller that needs several answers about it (the paths it names, its
/// files, the result of applying it): one parse per call of the public API.
/// The wrapper frees it when done.
#[wasm_bindgen]
pub struct PreparedUnified {
    diff: Yoke<Unified<'static>, Box<str>>,
    mode: UnifiedMode,
}

/// Parses a unified diff once (`PatchError` fields when it does not parse).
#[wasm_bindgen(js_name = prepareUnified)]
pub fn prepare_unified(diff: &str, mode_code: u32) -> Result<PreparedUnified, JsValue> {
    let mode = unified_mode(mode_code);
    let text: Box<str> = crate::unified::text_for(diff, mode).into();
    let diff = Yoke::try_attach_to_cart(text, |t: &str| crate::unified::parse(t))?;
    Ok(PreparedUnified { diff, mode })
}

#[wasm_bindgen]
impl PreparedUnified {
    /// The files of the diff, as `parseUnified`.
    pub fn files(&self) -> Result<JsValue, JsValue> {
        serialize(&self.diff.get().files)
    }

    /// The renames: `[[from, to], …]`.
    pub fn renames(&self) -> Result<JsValue, JsValue> {
        serialize(&self.diff.get().renames())
    }

    /// Every path the diff names: the files the wrapper must put in.
    pub fn paths(&self) -> Vec<String> {
        self.diff.get().paths().into_iter().map(str::to_string).collect()
    }

    /// Applies the diff to the files `paths`, put in the input buffer as
    /// `split_inputs` reads them. Returns `[changes]`, or with `report`
    /// `[changes, modes, placements]`: changes as `[path, contents | null,
    /// …]` (flat, as every file change crosses), then the engine's
    /// `FileMode`s and `Placement`s.
    pub fn apply(&self, paths: Vec<String>, lengths: Vec<u32>, report: bool) -> Result<Array, JsValue> {
        let total: usize = lengths.iter().map(|&l| l as usize).sum();
        with_input(total, |all| {
            let files = split_inputs(all, &paths, &lengths)?;
            let result = crate::unified::apply_parsed(self.diff.get(), self.mode, |p| files.get(p).copied())?;
            let changes = Array::new();
            for c in &result.changes {
                changes.push(&JsValue::from_str(&c.path));
                changes.push(&c.contents.as_deref().map_or(JsValue::NULL, JsValue::from_str));
            }
            let out = Array::of1(&changes);
            if report {
                out.push(&serialize(&result.modes())?);
                out.push(&serialize(&result.placements)?);
            }
            Ok(out)
        })
    }
}

/// A unified diff between two file maps (paths and contents, in order).
#[wasm_bindgen(js_name = unifiedDiffFiles)]
pub fn unified_diff_files(
    old_paths: Vec<String>,
    old_texts: Vec<String>,
    new_paths: Vec<String>,
    new_texts: Vec<String>,
    context: u32,
    git: bool,
) -> String {
    let pair = |p: &[String], t: &[String]| -> Vec<(String, String)> { p.iter().cloned().zip(t.iter().cloned()).collect() };
    let (a, b) = (pair(&old_paths, &old_texts), pair(&new_paths, &new_texts));
    let a: Vec<(&str, &str)> = a.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let b: Vec<(&str, &str)> = b.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    crate::unified::write::diff_files(&a, &b, &crate::unified::write::Options { context: context as usize, git })
}

/// A unified diff of one file (`None` paths for an added or deleted file).
#[wasm_bindgen(js_name = unifiedDiffFile)]
pub fn unified_diff_file(old_path: Option<String>, new_path: Option<String>, before: &str, after: &str, context: u32, git: bool) -> String {
    crate::unified::write::file_diff(
        old_path.as_deref(),
        new_path.as_deref(),
        before,
        after,
        &crate::unified::write::Options { context: context as usize, git },
    )
}

/// The line diff of two lists of lines: `[op, a, b, …]`, `op` the step's
/// position in `lineOps` of js/generated.ts, `a` and `b` 0-based lines.
/// Flat, not the engine's `LineOp`s through serde: measured 1.7× faster at
/// 100 and 10,000 lines and 2.9× at 100,000 (80 against 237 ms), a diff the
/// playground shows as you type.
#[wasm_bindgen(js_name = lineDiff)]
pub fn line_diff(a: Vec<String>, b: Vec<String>) -> Vec<u32> {
    use crate::unified::write::{line_ops, Op};
    let mut out = Vec::new();
    for o in line_ops(&a, &b) {
        out.push(Op::ALL.iter().position(|&k| k == o.op).unwrap_or(0) as u32);
        out.push(o.a as u32);
        out.push(o.b as u32);
    }
    out
}
