//! The binding of the three-way merge (js/merge.ts and the `base` option):
//! thin like the rest of src/wasm/, strings in, the engine's result out through serde.

use wasm_bindgen::prelude::*;

use super::{serialize, with_input};
use crate::merge::{merge3, merge_into, merge_into_splices, Merge3Options, Style};

/// The three texts, put one after another in the input buffer (`lens`
/// bytes each; like the apply functions' input, not through wasm-bindgen's
/// string glue, which copies one character at a time).
fn with_texts<T>(lens: [usize; 3], f: impl FnOnce(&str, &str, &str) -> Result<T, JsValue>) -> Result<T, JsValue> {
    let [a, b, c] = lens;
    with_input(a + b + c, |all| match (all.get(..a), all.get(a..a + b), all.get(a + b..)) {
        (Some(x), Some(y), Some(z)) => f(x, y, z),
        _ => Err(JsValue::from_str("applypatch: bad input lengths")),
    })
}

/// `{ text, conflicts }` of base, ours and theirs in the input buffer;
/// `style` is `merge`, `diff3` or `zdiff3` (checked by the wrapper), the
/// labels are ours, base, theirs.
#[cfg(feature = "wasm-core")]
#[wasm_bindgen(js_name = merge3)]
pub fn merge3_js(
    base_len: usize,
    ours_len: usize,
    theirs_len: usize,
    style: &str,
    ours_label: Option<String>,
    base_label: Option<String>,
    theirs_label: Option<String>,
) -> Result<JsValue, JsValue> {
    let options = Merge3Options { style: Style::from_name(style).unwrap_or_default(), labels: [ours_label, base_label, theirs_label] };
    with_texts([base_len, ours_len, theirs_len], |base, ours, theirs| serialize(&merge3(base, ours, theirs, &options)?))
}

/// The `base` option: base, the input and the patched base in the input
/// buffer; the patched base merged into the input. A conflict throws
/// `merge_conflict`.
#[wasm_bindgen(js_name = mergeInto)]
pub fn merge_into_js(base_len: usize, input_len: usize, patched_len: usize) -> Result<String, JsValue> {
    with_texts([base_len, input_len, patched_len], |base, input, patched| Ok(merge_into(base, input, patched)?))
}

/// The `base` option with `report`: `[merged text, [splices against the
/// input as `spliceTexts` gives them]]`, the splices from the merge's own
/// regions (a line diff only when the input is the base unchanged).
#[wasm_bindgen(js_name = mergeIntoSplices)]
pub fn merge_into_splices_js(base_len: usize, input_len: usize, patched_len: usize) -> Result<js_sys::Array, JsValue> {
    with_texts([base_len, input_len, patched_len], |base, input, patched| {
        let (text, splices) = merge_into_splices(base, input, patched)?;
        let splices = splices.unwrap_or_else(|| crate::splices_between(input, &text));
        let [offsets, texts] = super::positions::flat_splices(input, &splices);
        Ok(js_sys::Array::of2(&JsValue::from_str(&text), &js_sys::Array::of2(&offsets, &texts)))
    })
}
