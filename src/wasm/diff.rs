//! V4A update diffs (js/diff.ts): one diff or a batch over one input, answered with the changes.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::{ctx, keep_repairs, mode, to_js_error, with_input};
use crate::Changes;

/// Changes as `[offsets, texts]`: every splice's new text joined into one
/// string, and a `Uint32Array` of `[start, end, textEnd, …]`, three per
/// splice: `start..end` is the range of `input` it replaces, in UTF-16 code
/// units, and its text is `texts` from the previous splice's `textEnd` (0 for
/// the first) to its own. Two crossings whatever the number of splices,
/// where one JS value per number and one string per splice cost more than a
/// small call's search.
///
/// With `report`, the splices are minimal ([`Changes::minimal`]) and a third
/// value follows: `sections`, a `Uint32Array` of `[diff, diffLine, inputLine,
/// from, to, …]`, five per placed run, `from..to` in UTF-16 code units of
/// `input` (converted in the same pass as the splices). Without it, the
/// engine's whole-line splices go back as they are (they make the same text):
/// trimming them and sending the sections cost a tenth of a small call that
/// does not read them.
pub(super) fn to_js_changes(input: &str, changes: Changes, report: bool) -> Array {
    let changes = if report { changes.minimal(input) } else { changes };
    let splices = changes.splices();
    let placed = if report { changes.sections() } else { &[] };
    let mut offsets: Vec<usize> =
        splices.iter().flat_map(|s| [s.start, s.end]).chain(placed.iter().flat_map(|p| [p.start, p.end])).collect();
    crate::utf16::offsets(input, &mut offsets);
    let (spliced, sectioned) = offsets.split_at(splices.len() * 2);
    let mut texts = String::with_capacity(splices.iter().map(|s| s.text.len()).sum());
    let mut flat: Vec<u32> = Vec::with_capacity(splices.len() * 3);
    let mut text_end = 0;
    for (s, o) in splices.iter().zip(spliced.chunks(2)) {
        texts.push_str(&s.text);
        text_end += crate::utf16::len(s.text.as_bytes());
        flat.extend([o.first().copied().unwrap_or(0) as u32, o.get(1).copied().unwrap_or(0) as u32, text_end as u32]);
    }
    let out = Array::of2(&js_sys::Uint32Array::from(flat.as_slice()), &JsValue::from_str(&texts));
    if report {
        let mut sections: Vec<u32> = Vec::with_capacity(placed.len() * 5);
        for (p, o) in placed.iter().zip(sectioned.chunks(2)) {
            let [from, to] = [o.first(), o.get(1)].map(|x| x.copied().unwrap_or(0) as u32);
            sections.extend([p.diff as u32, p.diff_line as u32, p.input_line as u32, from, to]);
        }
        out.push(&js_sys::Uint32Array::from(sections.as_slice()));
    }
    out
}

/// Applies a diff to an input, both put in the input buffer one after the
/// other (`input_len`, then `diff_len` bytes): the diff crosses like the
/// input, since wasm-bindgen's `&str` glue copies one character at a time.
#[wasm_bindgen(js_name = applyChanges)]
pub fn apply_changes(input_len: usize, diff_len: usize, mode_code: u32, report: bool) -> Result<Array, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(input_len + diff_len, |all| {
        let (Some(input), Some(diff)) = (all.get(..input_len), all.get(input_len..)) else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let changes = mode(mode_code).changes_with(input, diff, &mut ctx);
        changes.map(|c| to_js_changes(input, c, report)).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}

/// Applies a batch of diffs to the input buffer's first `input_len` bytes.
#[wasm_bindgen(js_name = applyBatchChanges)]
pub fn apply_batch_changes(input_len: usize, diffs: Vec<String>, mode_code: u32, report: bool) -> Result<Array, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(input_len, |input| {
        let changes = mode(mode_code).batch_changes_with(input, &diffs, &mut ctx);
        changes.map(|c| to_js_changes(input, c, report)).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}
