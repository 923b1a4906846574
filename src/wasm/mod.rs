//! The wasm-bindgen binding (the `wasm` feature): thin on purpose, with no
//! mirror structs. Strings in; out go the engine's own types, serialized
//! with serde (errors, parsed patches and their touches, repairs, edit-block
//! failures and parsed blocks, parsed unified diffs, hunk placements and
//! modes), or flat arrays where a benchmark says a JS object costs more than
//! the work: the changes of a diff (left in wasm memory, `leave_changes`), the
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

// A module built with some of the features (scripts/build.mjs) leaves
// some shared helpers and imports unused (the modes and repairs of
// `wasm-core`, the merge3 types), which the full build (`wasm`) checks.
#![cfg_attr(not(all(feature = "wasm-core", feature = "wasm-blocks", feature = "wasm-unified")), allow(dead_code, unused_imports))]

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::repair::{Allow, Ctx, Repair};
use crate::{Error, FileChange, Mode};

// The npm package ships two wasm modules (scripts/build.mjs), built with
// these features: `wasm-core` (V4A diffs, Codex patches and their streams,
// repairs, the three-way merge) and `wasm-blocks` with `wasm-unified` (edit
// blocks, format detection, unified diffs and their stream). A page pays only
// for the modules its imports use.
#[cfg(feature = "wasm-blocks")]
mod blocks;
#[cfg(feature = "wasm-core")]
mod diff;
#[cfg(feature = "wasm-blocks")]
mod format;
mod merge;
#[cfg(feature = "wasm-core")]
mod patch;
mod positions;
#[cfg(feature = "wasm-core")]
mod stream;
#[cfg(feature = "wasm-unified")]
mod unified;

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
#[cfg(feature = "wasm-core")]
#[wasm_bindgen(js_name = takeRepairs)]
pub fn take_repairs() -> Result<JsValue, JsValue> {
    serialize(&REPAIRS.with(|r| std::mem::take(&mut *r.borrow_mut())))
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
    use std::sync::atomic::{AtomicUsize, Ordering};

    const PAGE: usize = 64 * 1024;

    pub struct InSteps;

    /// After an allocation: if it grew memory from `before` pages, make
    /// room for the next ones in one step (the check is inlined into every
    /// allocation; the growth, rare, is not).
    #[inline(always)]
    fn spare_room(before: usize) {
        let now = memory_size(0);
        if now > before {
            grow_spare(now);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_spare(now: usize) {
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

    /// Blocks of up to `CLASSES * STEP` bytes (alignment up to `STEP`) are
    /// kept when freed, on one list per size class (multiples of `STEP`),
    /// and handed out again before the system allocator is asked: a call
    /// allocates a few dozen small vectors and strings and frees them at its
    /// end, and the system allocator's `malloc` and `free` were a seventh of
    /// a small call. A block on a list holds the address of the next one.
    const STEP: usize = 16;
    const CLASSES: usize = 16;

    /// The head of each class's list (0: empty). Wasm here has one thread;
    /// the atomics are plain loads and stores.
    static FREE: [AtomicUsize; CLASSES] = [const { AtomicUsize::new(0) }; CLASSES];

    /// The size class of `layout` (its block is `(class + 1) * STEP` bytes),
    /// or `None` for a block the system allocator serves alone.
    #[inline(always)]
    fn class(layout: Layout) -> Option<usize> {
        let size = layout.size();
        (size > 0 && size <= CLASSES * STEP && layout.align() <= STEP).then(|| (size - 1) / STEP)
    }

    /// The layout the system allocator serves a block of `class` with.
    #[inline(always)]
    fn block(class: usize) -> Layout {
        // SAFETY: a non-zero size that is a multiple of its power-of-two alignment.
        unsafe { Layout::from_size_align_unchecked((class + 1) * STEP, STEP) }
    }

    // SAFETY: a block of a size class is allocated by the system allocator
    // with that class's layout and never given back to it; freed, it goes on
    // its class's list (its first word, which every block has, holding the
    // next one's address), and it is handed out again only for a layout of
    // the same class, which it is large and aligned enough for. Every other
    // block goes to the system allocator with the caller's arguments.
    unsafe impl GlobalAlloc for InSteps {
        #[inline(never)]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if let Some(c) = class(layout) {
                if let Some(head) = FREE.get(c) {
                    let ptr = head.load(Ordering::Relaxed) as *mut u8;
                    if !ptr.is_null() {
                        head.store(ptr.cast::<usize>().read(), Ordering::Relaxed);
                        return ptr;
                    }
                }
                let before = memory_size(0);
                let ptr = System.alloc(block(c));
                spare_room(before);
                return ptr;
            }
            let before = memory_size(0);
            let ptr = System.alloc(layout);
            spare_room(before);
            ptr
        }

        #[inline(never)]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            if class(layout).is_some() {
                let ptr = self.alloc(layout);
                if !ptr.is_null() {
                    ptr.write_bytes(0, layout.size());
                }
                return ptr;
            }
            let before = memory_size(0);
            let ptr = System.alloc_zeroed(layout);
            spare_room(before);
            ptr
        }

        #[inline(never)]
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            match class(layout).and_then(|c| FREE.get(c)) {
                Some(head) => {
                    ptr.cast::<usize>().write(head.load(Ordering::Relaxed));
                    head.store(ptr as usize, Ordering::Relaxed);
                }
                None => System.dealloc(ptr, layout),
            }
        }

        #[inline(never)]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: the caller's alignment, with a size it says fits.
            let new = Layout::from_size_align_unchecked(new_size, layout.align());
            match (class(layout), class(new)) {
                (None, None) => {
                    let before = memory_size(0);
                    let out = System.realloc(ptr, layout, new_size);
                    spare_room(before);
                    out
                }
                (Some(a), Some(b)) if a == b => ptr,
                _ => {
                    let out = self.alloc(new);
                    if !out.is_null() {
                        out.copy_from_nonoverlapping(ptr, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    out
                }
            }
        }
    }

    #[global_allocator]
    static ALLOCATOR: InSteps = InSteps;
}

/// What a call leaves in wasm memory for the wrapper, which reads it right
/// after the call, before its next one into this instance: `words` (where
/// [`leave`] points it), texts that `words` point into, and files whose
/// contents they point into. Nothing crosses as a JS value: an array and a
/// typed array made by the glue took a third of a small `apply`.
#[derive(Default)]
struct Left {
    words: Vec<u32>,
    texts: String,
    files: Vec<crate::Written>,
}

thread_local! {
    /// What the last call that left something left; kept until the next one.
    static LEFT: RefCell<Left> = const { RefCell::new(Left { words: Vec::new(), texts: String::new(), files: Vec::new() }) };
}

/// Room (in words, and in bytes of text) kept between calls: a call that
/// left more gives the rest back to the allocator first.
const KEEP: usize = 1 << 16;

/// Empties what the last call left, lets `fill` write this call's, and
/// returns where its words start (the first word `fill` wrote).
fn leave(fill: impl FnOnce(&mut Left)) -> *const u32 {
    // Out of the cell while it is filled: a trap leaves no borrow behind.
    let mut left = LEFT.with(|cell| cell.take());
    left.words.clear();
    left.words.shrink_to(KEEP);
    left.texts.clear();
    left.texts.shrink_to(KEEP);
    left.files = Vec::new();
    fill(&mut left);
    let at = left.words.as_ptr();
    LEFT.with(|cell| cell.replace(left));
    at
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

/// Whether the `len` bytes at `offset` of the input buffer hold U+FFFD, as
/// [`crate::utf16::holds_replacement`]: the wrapper's test of whether a
/// non-ASCII string it encoded there needs its full well-formedness check.
/// Bytes out of the buffer's range answer true (the full check decides).
#[wasm_bindgen(js_name = holdsReplacement)]
pub fn holds_replacement(offset: usize, len: usize) -> bool {
    INPUT.with(|cell| {
        let Ok(buf) = cell.try_borrow() else { return true };
        offset.checked_add(len).and_then(|end| buf.get(offset..end)).is_none_or(crate::utf16::holds_replacement)
    })
}

/// Encodes the `units` UTF-16LE code units the wrapper put at byte `from`
/// of the input buffer as UTF-8 at byte `offset`
/// ([`crate::utf16::encode_utf8`]); `from` must leave three bytes a unit
/// after `offset`. Returns the bytes written, plus 2^31 when a surrogate
/// was lone; `u32::MAX` when the ranges do not fit the buffer (the wrapper
/// then encodes the string itself).
#[wasm_bindgen(js_name = encodeUtf16)]
pub fn encode_utf16(from: usize, units: usize, offset: usize) -> u32 {
    INPUT.with(|cell| {
        let Ok(mut buf) = cell.try_borrow_mut() else { return u32::MAX };
        let fits = units.checked_mul(3).and_then(|n| n.checked_add(offset)).is_some_and(|end| end <= from && units <= 1 << 29);
        let at = from.min(buf.len());
        let (head, tail) = buf.split_at_mut(at);
        match (fits, head.get_mut(offset..), tail.get(..units.saturating_mul(2))) {
            (true, Some(out), Some(src)) => {
                let (written, lone) = crate::utf16::encode_utf8(src, out);
                written as u32 | if lone { 1 << 31 } else { 0 }
            }
            _ => u32::MAX,
        }
    })
}

/// The input as text. Checking that ASCII text is UTF-8 takes one pass of
/// [`crate::utf16::is_ascii`]; `str::from_utf8` reads four bytes at a time in
/// wasm32, a tenth of an exact edit-block match in a small file. Also says
/// whether the text is all ASCII.
fn utf8(bytes: &[u8]) -> Result<(&str, bool), std::str::Utf8Error> {
    if crate::utf16::is_ascii(bytes) {
        // SAFETY: every byte is below 0x80 (checked just above), and ASCII is UTF-8.
        return Ok((unsafe { std::str::from_utf8_unchecked(bytes) }, true));
    }
    std::str::from_utf8(bytes).map(|text| (text, false))
}

thread_local! {
    /// While [`with_input`] runs its call: where the input it hands over
    /// lies in memory (its address and length) when every byte of it is
    /// ASCII, else nothing.
    static ASCII_INPUT: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// [`crate::utf16::offsets`], which checks that the text is ASCII before
/// counting anything: a text within an input that [`with_input`] found to
/// be ASCII has UTF-16 offsets equal to its byte offsets, and is not read
/// again (at 100,000 lines, 4% of a call).
fn utf16_offsets(text: &str, offsets: &mut [usize]) {
    let (at, len) = ASCII_INPUT.with(Cell::get);
    let start = text.as_ptr() as usize;
    if len > 0 && start >= at && start + text.len() <= at + len {
        return;
    }
    crate::utf16::offsets(text, offsets);
}

/// Runs `f` on the first `len` bytes of the input buffer, as UTF-8.
///
/// The buffer is taken out of its cell for the call and put back after, so
/// no `RefCell` borrow is held while the engine runs: a trap inside it skips
/// every drop, and a borrow held across it would make every later call
/// panic. (The wrapper replaces the instance after a trap anyway; this keeps
/// the instance usable if it ever is not.)
fn with_input<T>(len: usize, f: impl FnOnce(&str) -> Result<T, JsValue>) -> Result<T, JsValue> {
    let buf = INPUT.with(|cell| cell.take());
    let result = match buf.get(..len) {
        None => Err(JsValue::from_str("applypatch: input buffer overrun")),
        Some(bytes) => match utf8(bytes) {
            Ok((input, ascii)) => {
                // (The buffer lives until after `f`: nothing else can lie where it does.)
                ASCII_INPUT.with(|c| c.set(if ascii { (input.as_ptr() as usize, input.len()) } else { (0, 0) }));
                let answer = f(input);
                ASCII_INPUT.with(|c| c.set((0, 0)));
                answer
            }
            Err(e) => Err(JsValue::from_str(&format!("applypatch: input is not UTF-8: {e}"))),
        },
    };
    INPUT.with(|cell| cell.replace(buf));
    result
}

/// The files `paths` (their contents, UTF-8, one after another in
/// `contents`, `lengths` bytes each).
fn file_list(paths: Vec<String>, contents: &[u8], lengths: Vec<u32>) -> Vec<(String, String)> {
    let mut files = Vec::with_capacity(paths.len());
    let mut at = 0usize;
    for (path, len) in paths.into_iter().zip(lengths) {
        let end = at.saturating_add(len as usize).min(contents.len());
        let bytes = contents.get(at..end).unwrap_or(&[]);
        files.push((path, String::from_utf8_lossy(bytes).into_owned()));
        at = end;
    }
    files
}

/// Every error code, in order.
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> Vec<String> {
    crate::ErrorKind::ALL.iter().map(|k| k.code().to_string()).collect()
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

/// The paths of `known` (each followed by `\n`) near `path`, as the
/// engine's messages list them ("a, b and c"), or "" when none is near: for
/// a wrapper's own message about a path with no file.
#[cfg(feature = "wasm-core")]
#[wasm_bindgen(js_name = nearPaths)]
pub fn near_paths(path: &str, known: &str) -> String {
    let known: Vec<&str> = known.split_terminator('\n').collect();
    crate::near::list(&crate::near::near_paths(path, &known))
}

/// The Codex tool's description.
#[cfg(feature = "wasm-core")]
#[wasm_bindgen(js_name = codexDescription)]
pub fn codex_description() -> String {
    crate::tool::DESCRIPTION.to_string()
}

/// The Codex tool's grammar, with or without the Environment ID line.
#[cfg(feature = "wasm-core")]
#[wasm_bindgen(js_name = codexGrammar)]
pub fn codex_grammar(environment_id: bool) -> String {
    crate::tool::grammar(environment_id).to_string()
}
