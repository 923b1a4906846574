//! The binding of `crate::stream` (the `wasm` feature): a `PreparedStream`
//! lives in the instance between pushes. The JS side (js/stream.ts) sends
//! only complete lines, so a piece never ends inside a character; events go
//! out as flat arrays, with byte offsets turned into UTF-16 code units here.

use std::sync::Arc;

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::diff::leave_changes;
use super::positions::section;
use super::{file_list, mode, to_js_error, with_input};
use crate::stream::{DiffStream, Event, PatchEvent, PatchStream, Utf16Cursor};
use crate::Error;

/// A V4A diff being streamed over one input.
#[wasm_bindgen]
pub struct PreparedStream {
    inner: Option<DiffStream>,
    /// Turns the input's byte offsets into UTF-16 units; none for an ASCII
    /// input, whose offsets are its units.
    utf16: Option<Utf16Cursor>,
    /// The failure the last push reported, until the wrapper takes it.
    error: Option<Error>,
    /// The last push's events, as numbers ([`PreparedStream::push_input`]).
    events: Vec<u32>,
    /// The texts of the last push's splices, one after another.
    texts: String,
    /// The last push's events, drained (kept for its capacity).
    queue: Vec<Event>,
    /// The wrapper's stage ([`PreparedStream::stage`]).
    stage: Vec<u8>,
}

/// A stream applying a diff to the input buffer's first `input_len` bytes
/// (put there as for the apply functions, with `TextEncoder.encodeInto`),
/// `input_units` UTF-16 code units long in JS (as many as its bytes: ASCII);
/// `mode_code` as the apply functions take it (its low bits are the mode).
#[wasm_bindgen(js_name = prepareStream)]
pub fn prepare_stream(input_len: usize, input_units: usize, mode_code: u32) -> Result<PreparedStream, JsValue> {
    let input = with_input(input_len, |input| Ok(input.to_string()))?;
    Ok(PreparedStream {
        inner: Some(DiffStream::new(input, mode(mode_code))),
        utf16: (input_units != input_len).then(Utf16Cursor::default),
        error: None,
        events: Vec::new(),
        texts: String::new(),
        queue: Vec::new(),
        stage: Vec::new(),
    })
}

#[wasm_bindgen]
impl PreparedStream {
    /// Reads the complete lines the wrapper put in the input buffer (its
    /// first `len` bytes, by `TextEncoder.encodeInto`: one native copy,
    /// where a string argument is copied a unit at a time). Returns where
    /// its events are in wasm memory (a byte address), 0 when there is
    /// none: they stay there until the next push, and the wrapper reads
    /// them there (nothing is allocated on the JS side for a push without
    /// events, nor copied for one with, and no second call asks where they
    /// are). They are `[sections,
    /// failed, bytes]`, then per placed section `[index, diffLine,
    /// inputLine, n]` and its `n` splices `[start, end, textEnd]` (UTF-16
    /// code units, as the apply functions' changes; `textEnd` counts UTF-16
    /// code units into the texts), then the texts one after another as
    /// `bytes` bytes of UTF-8, four to a number (one native decode in the
    /// wrapper, sliced by `textEnd`). `failed` is 1 when the engine's error
    /// came: [`Self::take_error`].
    #[wasm_bindgen(js_name = pushInput)]
    pub fn push_input(&mut self, len: usize) -> Result<*const u32, JsValue> {
        with_input(len, |lines| {
            self.push(lines);
            Ok(())
        })?;
        Ok(if self.events.is_empty() { std::ptr::null() } else { self.events.as_ptr() })
    }

    /// Makes the stage `len` bytes long and returns where it is in wasm
    /// memory. The wrapper copies the short ASCII pieces pushed into it, a
    /// unit a byte, and sends the complete lines at its start with
    /// [`Self::push_staged`]: they are never copied again on the JS side.
    /// (It stays where it is: its view is made again only when the memory
    /// grows.)
    pub fn stage(&mut self, len: usize) -> *mut u8 {
        self.stage.resize(len, 0);
        self.stage.as_mut_ptr()
    }

    /// [`Self::push_input`] of the stage's first `complete` bytes (complete
    /// ASCII lines) of the `staged` written; the rest moves to the stage's
    /// start.
    #[wasm_bindgen(js_name = pushStaged)]
    pub fn push_staged(&mut self, complete: usize, staged: usize) -> Result<*const u32, JsValue> {
        let mut stage = std::mem::take(&mut self.stage);
        let lines = if complete <= staged && staged <= stage.len() { stage.get(..complete) } else { None };
        let result = match lines.map(super::utf8) {
            None => Err(JsValue::from_str("applypatch: stage overrun")),
            Some(Err(e)) => Err(JsValue::from_str(&format!("applypatch: stage is not UTF-8: {e}"))),
            Some(Ok((lines, _))) => {
                self.push(lines);
                stage.copy_within(complete..staged, 0);
                Ok(if self.events.is_empty() { std::ptr::null() } else { self.events.as_ptr() })
            }
        };
        self.stage = stage;
        result
    }

    /// The error the last push reported (`failed`), once.
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> JsValue {
        self.error.take().map_or(JsValue::UNDEFINED, |e| to_js_error(&e))
    }

    /// Ends the stream with its last piece (`rest`, possibly an unfinished
    /// line): the changes of the one-shot call, as `applyChanges` gives
    /// them, or its error.
    pub fn end(&mut self, rest: &str) -> Result<*const u32, JsValue> {
        let mut s = self.inner.take().ok_or_else(|| JsValue::from_str("applypatch: the stream has ended"))?;
        s.push(rest);
        let (changes, input) = s.end_changes().map_err(|e| to_js_error(&e))?;
        // Only the text is built from them (js/stream.ts): whole-line splices, as `apply` without `report`.
        Ok(leave_changes(&input, changes, false))
    }

    /// The input with every placed section applied.
    pub fn preview(&self) -> String {
        self.inner.as_ref().map(DiffStream::preview).unwrap_or_default()
    }
}

impl PreparedStream {
    /// Reads the next complete lines; their events, as [`Self::push_input`]
    /// gives them, are left in `events` (its buffers, the numbers and the
    /// texts, are kept from one push to the next).
    fn push(&mut self, lines: &str) {
        self.events.clear();
        self.texts.clear();
        let Some(s) = self.inner.as_mut() else { return };
        let mut events = std::mem::take(&mut self.queue);
        s.push_into(lines, &mut events);
        if !events.is_empty() {
            self.write(events.drain(..));
        }
        self.queue = events;
    }

    /// Writes a push's events as [`Self::push_input`] gives them.
    fn write(&mut self, events: impl Iterator<Item = Event>) {
        let Some(s) = self.inner.as_ref() else { return };
        let out = &mut self.events;
        out.extend([0, 0, 0]);
        let mut text_end = 0;
        let mut sections = 0u32;
        let mut failed = 0u32;
        for event in events {
            match event {
                Event::Error(e) => {
                    self.error = Some(e);
                    failed = 1;
                }
                Event::Section(p) => {
                    sections += 1;
                    let input = s.input();
                    out.extend([p.index as u32, p.diff_line as u32, p.input_line as u32, p.splices.len() as u32]);
                    for sp in &p.splices {
                        let (start, end) = match self.utf16.as_mut() {
                            None => (sp.start, sp.end),
                            Some(cursor) => (cursor.units(input, sp.start), cursor.units(input, sp.end)),
                        };
                        self.texts.push_str(&sp.text);
                        text_end += crate::utf16::len(sp.text.as_bytes());
                        out.extend([start as u32, end as u32, text_end as u32]);
                    }
                }
            }
        }
        let bytes = self.texts.as_bytes();
        if let Some(head) = out.get_mut(..3) {
            head.copy_from_slice(&[sections, failed, bytes.len() as u32]);
        }
        out.extend(bytes.chunks(4).map(|c| {
            let mut word = [0u8; 4];
            for (w, b) in word.iter_mut().zip(c) {
                *w = *b;
            }
            u32::from_le_bytes(word)
        }));
    }
}

/// A `*** Begin Patch` patch being streamed over a file map.
#[wasm_bindgen]
pub struct PreparedPatchStream {
    inner: Option<PatchStream>,
    /// The text the last section's offsets were converted in, and where.
    utf16: Option<(Arc<str>, Utf16Cursor)>,
}

/// A stream applying a patch to the files `paths` (their contents, UTF-8,
/// one after another in `contents`, `lengths` bytes each).
#[wasm_bindgen(js_name = preparePatchStream)]
pub fn prepare_patch_stream(paths: Vec<String>, contents: Vec<u8>, lengths: Vec<u32>, mode_code: u32) -> PreparedPatchStream {
    PreparedPatchStream { inner: Some(PatchStream::new(file_list(paths, &contents, lengths), mode(mode_code))), utf16: None }
}

#[wasm_bindgen]
impl PreparedPatchStream {
    /// [`Self::push`] of the lines the wrapper put in the input buffer
    /// (its first `len` bytes, by `TextEncoder.encodeInto`: one native copy,
    /// where a string argument is copied a unit at a time).
    #[wasm_bindgen(js_name = pushInput)]
    pub fn push_input(&mut self, len: usize) -> Result<Array, JsValue> {
        with_input(len, |lines| Ok(self.push(lines)))
    }

    /// Reads the next complete lines. Returns the events: an operation as
    /// `[kind, path, line]`, a placed section as `[index, diffLine,
    /// inputLine, offsets, texts, path]` (as `PreparedStream::push`; offsets
    /// into the file as the operations before left it), an error as the
    /// engine's error object.
    pub fn push(&mut self, lines: &str) -> Array {
        let out = Array::new();
        let Some(s) = self.inner.as_mut() else { return out };
        for event in s.push(lines) {
            match event {
                PatchEvent::Error(e) => {
                    out.push(&to_js_error(&e));
                }
                PatchEvent::Operation { path, kind, line } => {
                    out.push(&Array::of3(&JsValue::from_str(kind.as_str()), &JsValue::from_str(&path), &JsValue::from(line as u32)));
                }
                PatchEvent::Section { path, placed, input } => {
                    // One cursor per update: its sections come in order.
                    if !self.utf16.as_ref().is_some_and(|(text, _)| Arc::ptr_eq(text, &input)) {
                        self.utf16 = Some((Arc::clone(&input), Utf16Cursor::default()));
                    }
                    let Some((_, cursor)) = self.utf16.as_mut() else { continue };
                    let item = section(&placed, &input, cursor);
                    item.push(&JsValue::from_str(&path));
                    out.push(&item);
                }
            }
        }
        out
    }

    /// The files touched so far with every placed section applied: `[path,
    /// contents or null, …]`.
    pub fn preview(&self) -> Array {
        let out = Array::new();
        for (path, contents) in self.inner.as_ref().map(PatchStream::preview).unwrap_or_default() {
            out.push(&JsValue::from_str(&path));
            out.push(&contents.map_or(JsValue::NULL, |c| JsValue::from_str(&c)));
        }
        out
    }
}
