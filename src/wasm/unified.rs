//! Unified diffs (js/unified.ts): apply, parse and write them.

use std::sync::Arc;

use js_sys::Array;
use wasm_bindgen::prelude::*;
use yoke::Yoke;

use super::positions::section;
use super::{file_list, serialize, split_inputs, with_input};
use crate::stream::{UnifiedEvent, UnifiedStream, Utf16Cursor};
use crate::unified::{Unified, UnifiedMode};

/// The unified mode at position `code` of `unifiedModes` in js/generated.ts.
pub(super) fn unified_mode(code: u32) -> UnifiedMode {
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
    /// Every path of the caller's file map, each followed by `\n`, when the
    /// wrapper gave them (`knownPaths`): for the near paths of a missing file.
    known: Option<String>,
}

/// Parses a unified diff once (`PatchError` fields when it does not parse).
#[wasm_bindgen(js_name = prepareUnified)]
pub fn prepare_unified(diff: &str, mode_code: u32) -> Result<PreparedUnified, JsValue> {
    let mode = unified_mode(mode_code);
    let text: Box<str> = crate::unified::text_for(diff, mode).into();
    let diff = Yoke::try_attach_to_cart(text, |t: &str| crate::unified::parse(t))?;
    Ok(PreparedUnified { diff, mode, known: None })
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

    /// Every path of the caller's file map, each followed by `\n`: given
    /// when a path the diff names has no file, so `apply` lists the paths
    /// near a missing one.
    #[wasm_bindgen(js_name = knownPaths)]
    pub fn known_paths(&mut self, paths: String) {
        self.known = Some(paths);
    }

    /// Applies the diff to the files `paths`, put in the input buffer as
    /// `split_inputs` reads them. Returns `[changes]`, or with `report`
    /// `[changes, modes, placements, splices]`: changes as `[path, contents
    /// | null, …]` (flat, as every file change crosses), then the engine's
    /// `FileMode`s and `Placement`s, then `[path, offsets, texts, …]`: for
    /// each file the hunks changed in place, its minimal splices from where
    /// they were placed (`UnifiedChange::splices`), in the shape of
    /// `applyChanges` (UTF-16 offsets of the file as given).
    pub fn apply(&self, paths: Vec<String>, lengths: Vec<u32>, report: bool) -> Result<Array, JsValue> {
        let total: usize = lengths.iter().map(|&l| l as usize).sum();
        with_input(total, |all| {
            let files = split_inputs(all, &paths, &lengths)?;
            let known: Option<Vec<&str>> = self.known.as_deref().map(|k| k.split_terminator('\n').collect());
            let get = |p: &str| files.get(p).copied();
            let result = if report {
                crate::unified::apply_parsed_placed(self.diff.get(), self.mode, get, known.as_deref())?
            } else {
                crate::unified::apply_parsed_among(self.diff.get(), self.mode, get, known.as_deref())?
            };
            let changes = Array::new();
            for c in &result.changes {
                changes.push(&JsValue::from_str(&c.path));
                changes.push(&c.contents.as_deref().map_or(JsValue::NULL, JsValue::from_str));
            }
            let out = Array::of1(&changes);
            if report {
                out.push(&serialize(&result.modes())?);
                out.push(&serialize(&result.placements)?);
                let placed = Array::new();
                for c in &result.changes {
                    if let (Some(before), Some(s)) = (files.get(c.path.as_str()), &c.splices) {
                        let [offsets, texts] = super::positions::flat_splices(before, s);
                        placed.push(&JsValue::from_str(&c.path));
                        placed.push(&offsets);
                        placed.push(&texts);
                    }
                }
                out.push(&placed);
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

/// A unified diff being streamed over a file map.
#[wasm_bindgen]
pub struct PreparedUnifiedStream {
    inner: Option<UnifiedStream>,
    /// The text the last hunk's offsets were converted in, and where.
    utf16: Option<(Arc<str>, Utf16Cursor)>,
}

/// A stream applying a unified diff to the files `paths` (as
/// `preparePatchStream` takes them); `mode_code` the unified mode's position
/// in `unifiedModes`.
#[wasm_bindgen(js_name = prepareUnifiedStream)]
pub fn prepare_unified_stream(paths: Vec<String>, contents: Vec<u8>, lengths: Vec<u32>, mode_code: u32) -> PreparedUnifiedStream {
    let mode = unified_mode(mode_code);
    PreparedUnifiedStream { inner: Some(UnifiedStream::new(file_list(paths, &contents, lengths), mode)), utf16: None }
}

#[wasm_bindgen]
impl PreparedUnifiedStream {
    /// [`Self::push`] of the lines the wrapper put in the input buffer
    /// (its first `len` bytes, by `TextEncoder.encodeInto`: one native copy,
    /// where a string argument is copied a unit at a time).
    #[wasm_bindgen(js_name = pushInput)]
    pub fn push_input(&mut self, len: usize) -> Result<Array, JsValue> {
        with_input(len, |lines| Ok(self.push(lines)))
    }

    /// Reads the next complete lines. Returns the events: a file diff's
    /// header as `[status, path, line]`, a placed hunk as `[index, diffLine,
    /// inputLine, offsets, texts, path]` (as `PreparedPatchStream::push`;
    /// offsets into the file as the file diffs before left it, or in git
    /// mode as the hunks before left it), a failure as the number of diff
    /// lines through which the one-shot call gives it (the wrapper asks
    /// `applyUnified` for the error itself).
    pub fn push(&mut self, lines: &str) -> Array {
        let out = Array::new();
        let Some(s) = self.inner.as_mut() else { return out };
        for event in s.push(lines) {
            match event {
                UnifiedEvent::Error(_) => {
                    out.push(&JsValue::from(s.failed_through().unwrap_or(0) as u32));
                }
                UnifiedEvent::File { path, kind, line } => {
                    out.push(&Array::of3(&JsValue::from_str(kind.as_str()), &JsValue::from_str(&path), &JsValue::from(line as u32)));
                }
                UnifiedEvent::Hunk { path, placed, input } => {
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

    /// The files written so far with every placed hunk applied: `[path,
    /// contents or null, …]`.
    pub fn preview(&self) -> Array {
        let out = Array::new();
        for (path, contents) in self.inner.as_ref().map(UnifiedStream::preview).unwrap_or_default() {
            out.push(&JsValue::from_str(&path));
            out.push(&contents.map_or(JsValue::NULL, |c| JsValue::from_str(&c)));
        }
        out
    }
}
