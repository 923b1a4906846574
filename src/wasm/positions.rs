//! The binding's positions for editors (the `wasm` feature): splices as
//! UTF-16 offsets (`flat_splices`), and the splices between a file and its
//! new contents where no placement gives them (`spliceTexts`), the
//! placed splices of a patch's updates trimmed when read (`trimSplices`),
//! and those of edit blocks split by their lines when read (`editSplices`). The
//! diffs' own splices and sections go with their changes (`leave_changes`
//! in the binding), a unified diff's with its report.

use js_sys::{Array, Uint32Array};
use wasm_bindgen::prelude::*;

use crate::stream::{Placed, Utf16Cursor};

/// The minimal splices between the input buffer's first `old_len` bytes and
/// the `new_len` bytes after them (put there by the wrapper), as
/// `[offsets, texts]` in the shape of `applyChanges`: `[start, end, textEnd, …]`
/// in UTF-16 code units of the old text, and the new texts joined.
#[wasm_bindgen(js_name = spliceTexts)]
pub fn splice_texts(old_len: usize, new_len: usize) -> Result<js_sys::Array, JsValue> {
    super::with_input(old_len + new_len, |all| {
        let (Some(old), Some(new)) = (all.get(..old_len), all.get(old_len..)) else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let [offsets, texts] = flat_splices(old, &crate::splices_between(old, new));
        Ok(js_sys::Array::of2(&offsets, &texts))
    })
}

/// The minimal splices of whole-line ones placed by the engine, given as
/// `runs`, `[start, end, newStart, newEnd, …]`: byte ranges of the input
/// buffer's first `old_len` bytes (the file as given) and of the `new_len`
/// bytes after them (its new contents), as `PreparedPatch::apply` lists
/// them. Answers `[offsets, texts]` as `spliceTexts`; compares no lines, only
/// trims each splice.
#[wasm_bindgen(js_name = trimSplices)]
pub fn trim_splices(old_len: usize, new_len: usize, runs: Vec<u32>) -> Result<js_sys::Array, JsValue> {
    placed_splices(old_len, new_len, &runs, crate::minimal_splices)
}

/// The minimal splices of edit blocks the engine placed, given as `runs`
/// as for `trimSplices` (each edit's splice, composed into splices of the
/// source): `edit_splices`, which compares only the lines each covers.
#[cfg(feature = "wasm-blocks")]
#[wasm_bindgen(js_name = editSplices)]
pub fn edit_splices(old_len: usize, new_len: usize, runs: Vec<u32>) -> Result<js_sys::Array, JsValue> {
    placed_splices(old_len, new_len, &runs, crate::edit_splices)
}

/// The splices `runs` name (byte ranges of the input buffer's first
/// `old_len` bytes and of the `new_len` after them), made minimal by `minimal`.
fn placed_splices(
    old_len: usize,
    new_len: usize,
    runs: &[u32],
    minimal: fn(&str, &[crate::Splice]) -> Vec<crate::Splice>,
) -> Result<js_sys::Array, JsValue> {
    super::with_input(old_len + new_len, |all| {
        let (Some(old), Some(new)) = (all.get(..old_len), all.get(old_len..)) else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let whole: Vec<crate::Splice> = runs
            .chunks_exact(4)
            .map(|r| {
                let [start, end, from, to] = [0, 1, 2, 3].map(|i| r.get(i).copied().unwrap_or(0) as usize);
                crate::Splice { start, end, text: new.get(from..to).unwrap_or("").to_string() }
            })
            .collect();
        let [offsets, texts] = flat_splices(old, &minimal(old, &whole));
        Ok(js_sys::Array::of2(&offsets, &texts))
    })
}

/// Whole-line splices as byte ranges, `[start, end, newStart, newEnd, …]`:
/// where each replaces in the old text, and where its text lands in the new.
pub(super) fn ranges(splices: &[crate::Splice]) -> impl Iterator<Item = u32> + '_ {
    let mut shift: isize = 0;
    splices.iter().flat_map(move |s| {
        let from = (s.start as isize + shift) as usize;
        shift += s.text.len() as isize - (s.end - s.start) as isize;
        [s.start as u32, s.end as u32, from as u32, (from + s.text.len()) as u32]
    })
}

/// Splices of `input` as they cross: `[offsets, texts]`, a `Uint32Array` of
/// `[start, end, textEnd, …]` in UTF-16 code units of `input`, and the new
/// texts joined.
pub(super) fn flat_splices(input: &str, splices: &[crate::Splice]) -> [JsValue; 2] {
    let mut offsets: Vec<usize> = splices.iter().flat_map(|s| [s.start, s.end]).collect();
    super::utf16_offsets(input, &mut offsets);
    let mut texts = String::new();
    let mut flat: Vec<u32> = Vec::with_capacity(splices.len() * 3);
    let mut text_end = 0;
    for (s, o) in splices.iter().zip(offsets.chunks(2)) {
        texts.push_str(&s.text);
        text_end += crate::utf16::len(s.text.as_bytes());
        flat.extend([o.first().copied().unwrap_or(0) as u32, o.get(1).copied().unwrap_or(0) as u32, text_end as u32]);
    }
    [js_sys::Uint32Array::from(flat.as_slice()).into(), JsValue::from_str(&texts)]
}

/// A placed section as `[index, diffLine, inputLine, offsets, texts]`:
/// `offsets` are `[start, end, textEnd, …]` in UTF-16 code units of `input`.
pub(super) fn section(p: &Placed, input: &str, utf16: &mut Utf16Cursor) -> Array {
    let mut flat: Vec<u32> = Vec::with_capacity(p.splices.len() * 3);
    let mut texts = String::new();
    let mut text_end = 0;
    for sp in &p.splices {
        let start = utf16.units(input, sp.start);
        let end = utf16.units(input, sp.end);
        texts.push_str(&sp.text);
        text_end += crate::utf16::len(sp.text.as_bytes());
        flat.extend([start as u32, end as u32, text_end as u32]);
    }
    Array::of5(
        &JsValue::from(p.index as u32),
        &JsValue::from(p.diff_line as u32),
        &JsValue::from(p.input_line as u32),
        &Uint32Array::from(flat.as_slice()),
        &JsValue::from_str(&texts),
    )
}
