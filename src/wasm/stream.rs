//! The binding of `crate::stream` (the `wasm` feature): a `PreparedStream`
//! lives in the instance between pushes. The JS side (js/stream.ts) sends
//! only complete lines, so a piece never ends inside a character; events go
//! out as flat arrays, with byte offsets turned into UTF-16 code units here.

use js_sys::{Array, Uint32Array};
use wasm_bindgen::prelude::*;

use super::{mode, to_js_error};
use crate::stream::{DiffStream, Event, Utf16Cursor};

/// A V4A diff being streamed over one input.
#[wasm_bindgen]
pub struct PreparedStream {
    inner: Option<DiffStream>,
    utf16: Utf16Cursor,
}

/// A stream applying a diff to `input` (UTF-8: the wrapper encodes it with
/// `TextEncoder`, and a byte array crosses in one copy where wasm-bindgen
/// copies a string one character at a time); `mode_code` as the apply
/// functions take it (its low bits are the mode).
#[wasm_bindgen(js_name = prepareStream)]
pub fn prepare_stream(input: Vec<u8>, mode_code: u32) -> PreparedStream {
    // The wrapper sends well-formed text only; anything else is kept as it
    // reads, never trusted.
    let input = String::from_utf8(input).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    PreparedStream { inner: Some(DiffStream::new(input, mode(mode_code))), utf16: Utf16Cursor::default() }
}

#[wasm_bindgen]
impl PreparedStream {
    /// Reads the next complete lines. Returns the events: a placed section
    /// as `[index, diffLine, inputLine, offsets, texts]` (`offsets`:
    /// `[start, end, textEnd, …]` in UTF-16 code units, as the apply
    /// functions' changes), an error as the engine's error object.
    pub fn push(&mut self, lines: &str) -> Array {
        let out = Array::new();
        let Some(s) = self.inner.as_mut() else { return out };
        for event in s.push(lines) {
            match event {
                Event::Error(e) => {
                    out.push(&to_js_error(&e));
                }
                Event::Section(p) => {
                    let input = s.input();
                    let mut flat: Vec<u32> = Vec::with_capacity(p.splices.len() * 3);
                    let mut texts = String::new();
                    let mut text_end = 0;
                    for sp in &p.splices {
                        let start = self.utf16.units(input, sp.start);
                        let end = self.utf16.units(input, sp.end);
                        texts.push_str(&sp.text);
                        text_end += crate::utf16::len(sp.text.as_bytes());
                        flat.extend([start as u32, end as u32, text_end as u32]);
                    }
                    let item = Array::of5(
                        &JsValue::from(p.index as u32),
                        &JsValue::from(p.diff_line as u32),
                        &JsValue::from(p.input_line as u32),
                        &Uint32Array::from(flat.as_slice()),
                        &JsValue::from_str(&texts),
                    );
                    out.push(&item);
                }
            }
        }
        out
    }

    /// The input with every placed section applied.
    pub fn preview(&self) -> String {
        self.inner.as_ref().map(DiffStream::preview).unwrap_or_default()
    }

    /// Ends the stream with its last piece (`rest`, possibly an unfinished
    /// line): the new text, or the error, of the one-shot call.
    pub fn end(&mut self, rest: &str) -> Result<String, JsValue> {
        let mut s = self.inner.take().ok_or_else(|| JsValue::from_str("applypatch: the stream has ended"))?;
        s.push(rest);
        s.end().map_err(|e| to_js_error(&e))
    }
}
