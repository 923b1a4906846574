//! V4A update diffs (js/diff.ts): one diff or a batch over one input, answered with the changes.

use wasm_bindgen::prelude::*;

use super::{ctx, keep_repairs, leave, mode, to_js_error, with_input, Left};
use crate::Changes;

/// Leaves the changes in wasm memory for the wrapper to read
/// (js/binding.ts `takeChanges`, before its next call into this instance)
/// and returns where: the words `[textsAt, textsLen, splices, sections,
/// offsets…, placed…]`. `offsets` are `[start, end, textEnd, …]`, three per
/// splice: `start..end` is the range of `input` it replaces, in UTF-16 code
/// units, and its text is the UTF-8 bytes at `textsAt` (`textsLen` of them,
/// every splice's text joined) from the previous splice's `textEnd` (0 for
/// the first) to its own, in UTF-16 code units.
///
/// With `report`, the splices are minimal ([`Changes::minimal`]) and
/// `placed` follows: `[diff, diffLine, inputLine, from, to, …]`, five per
/// placed run, `from..to` in UTF-16 code units of `input` (converted in the
/// same pass as the splices). Without it, the engine's whole-line splices go
/// as they are (they make the same text): trimming them and working out the
/// sections cost a tenth of a small call that does not read them.
pub(super) fn leave_changes(input: &str, changes: Changes, report: bool) -> *const u32 {
    let changes = if report { changes.minimal(input) } else { changes };
    let splices = changes.splices();
    let placed = if report { changes.sections() } else { &[] };
    let mut offsets: Vec<usize> =
        splices.iter().flat_map(|s| [s.start, s.end]).chain(placed.iter().flat_map(|p| [p.start, p.end])).collect();
    super::utf16_offsets(input, &mut offsets);
    let (spliced, sectioned) = offsets.split_at(splices.len() * 2);
    leave(|left| {
        let Left { words, texts, .. } = left;
        texts.reserve(splices.iter().map(|s| s.text.len()).sum());
        words.reserve(4 + splices.len() * 3 + placed.len() * 5);
        words.extend([0, 0, splices.len() as u32, placed.len() as u32]);
        push_splices(words, texts, splices, spliced);
        for (p, o) in placed.iter().zip(sectioned.chunks(2)) {
            let [from, to] = [o.first(), o.get(1)].map(|x| x.copied().unwrap_or(0) as u32);
            words.extend([p.diff as u32, p.diff_line as u32, p.input_line as u32, from, to]);
        }
        if let Some(head) = words.get_mut(..2) {
            head.copy_from_slice(&[texts.as_ptr() as u32, texts.len() as u32]);
        }
    })
}

/// Appends `splices` to what a call leaves: `[start, end, textEnd]` each
/// (`offsets` holds their `start, end` in UTF-16 code units), their texts
/// joined onto `texts`, `textEnd` counted from where they start there.
pub(super) fn push_splices(words: &mut Vec<u32>, texts: &mut String, splices: &[crate::Splice], offsets: &[usize]) {
    let mut text_end = 0;
    for (s, o) in splices.iter().zip(offsets.chunks(2)) {
        texts.push_str(&s.text);
        text_end += crate::utf16::len(s.text.as_bytes());
        words.extend([o.first().copied().unwrap_or(0) as u32, o.get(1).copied().unwrap_or(0) as u32, text_end as u32]);
    }
}

/// Applies a diff to an input, both put in the input buffer one after the
/// other (`input_len`, then `diff_len` bytes): the diff crosses like the
/// input, since wasm-bindgen's `&str` glue copies one character at a time.
#[wasm_bindgen(js_name = applyChanges)]
pub fn apply_changes(input_len: usize, diff_len: usize, mode_code: u32, report: bool) -> Result<*const u32, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(input_len + diff_len, |all| {
        let (Some(input), Some(diff)) = (all.get(..input_len), all.get(input_len..)) else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let changes = mode(mode_code).changes_with(input, diff, &mut ctx);
        changes.map(|c| leave_changes(input, c, report)).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}

/// Applies a batch of diffs to the input buffer's first `input_len` bytes.
#[wasm_bindgen(js_name = applyBatchChanges)]
pub fn apply_batch_changes(input_len: usize, diffs: Vec<String>, mode_code: u32, report: bool) -> Result<*const u32, JsValue> {
    let mut ctx = ctx(mode_code);
    let result = with_input(input_len, |input| {
        let changes = mode(mode_code).batch_changes_with(input, &diffs, &mut ctx);
        changes.map(|c| leave_changes(input, c, report)).map_err(|e| to_js_error(&e))
    });
    keep_repairs(ctx);
    result
}
