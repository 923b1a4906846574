//! The binding of the three-way merge (js/merge.ts and the `base` option):
//! thin like src/wasm.rs, strings in, the engine's result out through serde.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::merge::{merge3, merge_into, Merge3Options, Style};

fn serialize<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsValue::from_str(&format!("applypatch: {e}")))
}

/// `{ text, conflicts }`; `style` is `merge`, `diff3` or `zdiff3` (checked
/// by the wrapper), the labels are ours, base, theirs.
#[wasm_bindgen(js_name = merge3)]
pub fn merge3_js(
    base: &str,
    ours: &str,
    theirs: &str,
    style: &str,
    ours_label: Option<String>,
    base_label: Option<String>,
    theirs_label: Option<String>,
) -> Result<JsValue, JsValue> {
    let options = Merge3Options { style: Style::from_name(style).unwrap_or_default(), labels: [ours_label, base_label, theirs_label] };
    serialize(&merge3(base, ours, theirs, &options)?)
}

/// The `base` option: `patched` (the patch applied to `base`) merged into
/// `input`; a conflict throws `merge_conflict`.
#[wasm_bindgen(js_name = mergeInto)]
pub fn merge_into_js(base: &str, input: &str, patched: &str) -> Result<String, JsValue> {
    Ok(merge_into(base, input, patched)?)
}
