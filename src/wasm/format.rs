//! Format detection (`detectFormat`, and `PreparedFormat` for a streamed
//! text): with the `wasm-blocks` feature (the npm package's extra engine),
//! since telling edit blocks from the other formats takes the blocks parser.

use wasm_bindgen::prelude::*;

use crate::FormatLines;

/// The format of a patch text, as `detectFormat` names it.
#[wasm_bindgen(js_name = detectFormat)]
pub fn detect_format(text: &str) -> String {
    crate::detect_format(text).as_str().to_string()
}

/// `detectFormat` for a text being streamed (`format: 'auto'`), fed its
/// complete lines as they arrive (`crate::format::FormatLines`).
#[wasm_bindgen]
pub struct PreparedFormat {
    inner: FormatLines,
}

/// A new reader of a streamed text's format.
#[wasm_bindgen(js_name = prepareFormat)]
pub fn prepare_format() -> PreparedFormat {
    PreparedFormat { inner: FormatLines::default() }
}

#[wasm_bindgen]
impl PreparedFormat {
    /// Reads the next complete lines: the format's name (`detectFormat`'s)
    /// once a line decides it, else `undefined`.
    pub fn push(&mut self, lines: &str) -> Option<String> {
        self.inner.push(lines).map(|f| f.as_str().to_string())
    }
}
