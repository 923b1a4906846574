//! Search/replace edit blocks (js/blocks.ts).

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::{by_position, changes_to_js, serialize, to_js_error, with_input};
use serde::Serialize;

use crate::blocks::{self, Edit, Options, Outcome, Strategy};
use crate::repair::Repair;

// Search/replace edit blocks (js/blocks.ts). The source crosses like the diff
// input (putInput, then its length); the options as one array of numbers
// (`Options::FIELDS`); results come back as flat arrays with the replacement
// text and its range in UTF-16 code units, and the wrapper builds the new
// text from slices of the source.

/// An outcome for `source` as a flat array (building a JS object field by
/// field through serde costs ~10 µs a call, more than a small edit): `[strategy
/// (0 for none, else its position in `Strategy::ALL` plus 1), similarity,
/// start, end, matches, replacement, failure (the engine's `Failure`, or
/// undefined; on success `{ note, repairs }` when the outcome has them), runs
/// (the splice as `trimSplices` takes it: `[start, end, newStart, newEnd]`, byte
/// ranges of `source` and of the new text; empty on failure)]`, offsets in
/// UTF-16 code units of `source`.
fn to_js_outcome(source: &str, o: &Outcome) -> Result<JsValue, JsValue> {
    let (start, end) = match &o.splice {
        Some(s) => {
            let mut offsets = [s.start, s.end];
            super::utf16_offsets(source, &mut offsets);
            let [start, end] = offsets;
            (start as f64, end as f64)
        }
        None => (-1.0, -1.0),
    };
    let strategy = o.strategy.and_then(|s| Strategy::ALL.iter().position(|&t| t == s)).map_or(0, |i| i + 1);
    /// A success's note and repairs.
    #[derive(Serialize)]
    struct Placed<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'a String>,
        #[serde(skip_serializing_if = "<[Repair]>::is_empty")]
        repairs: &'a [Repair],
    }
    let failure = match (&o.failure, &o.note) {
        (None, None) if o.repairs.is_empty() => JsValue::UNDEFINED,
        (None, note) => serialize(&Placed { note: note.as_ref(), repairs: &o.repairs })?,
        (Some(f), _) => serialize(f)?,
    };
    let runs: Vec<u32> = super::positions::ranges(o.splice.as_slice()).collect();
    let out = Array::new_with_length(8);
    out.set(0, JsValue::from(strategy as u32));
    out.set(1, JsValue::from(o.similarity));
    out.set(2, JsValue::from(start));
    out.set(3, JsValue::from(end));
    out.set(4, JsValue::from(o.matches as f64));
    out.set(5, JsValue::from_str(o.splice.as_ref().map_or("", |s| s.text.as_str())));
    out.set(6, failure);
    out.set(7, js_sys::Uint32Array::from(runs.as_slice()).into());
    Ok(out.into())
}

/// An edit from the wrapper: `hints` are `[startLine, endLine, replaceAll]`,
/// 0 for none.
fn block_edit(search: String, replace: String, hints: &[f64]) -> Edit {
    let line = |i: usize| hints.get(i).copied().filter(|&n| n >= 1.0 && n.is_finite()).map(|n| n as usize);
    Edit { start_line: line(0), end_line: line(1), replace_all: hints.get(2).is_some_and(|&n| n != 0.0), ..Edit::new(search, replace) }
}

/// Applies one edit to a source: the source, the SEARCH and the REPLACE
/// text are put in the input buffer one after another (`input_len`,
/// `search_len`, `replace_len` bytes), as the diff of `applyChanges`.
#[wasm_bindgen(js_name = blocksApplyEdit)]
pub fn blocks_apply_edit(
    input_len: usize,
    search_len: usize,
    replace_len: usize,
    options: &[f64],
    hints: &[f64],
) -> Result<JsValue, JsValue> {
    let options = Options::from_numbers(options);
    let search_end = input_len + search_len;
    with_input(search_end + replace_len, |all| {
        let (Some(source), Some(search), Some(replace)) = (all.get(..input_len), all.get(input_len..search_end), all.get(search_end..))
        else {
            return Err(JsValue::from_str("applypatch: bad input lengths"));
        };
        let edit = block_edit(search.to_string(), replace.to_string(), hints);
        to_js_outcome(source, &blocks::find(source, &edit, &options).map_err(|e| to_js_error(&e))?)
    })
}

/// Applies edits (`[search, replace, search, replace, …]`, with `hints`
/// three per edit as for one) in order to the input buffer, stopping at the
/// first failure: one outcome per edit tried, each with offsets into the
/// text at its step, then the runs of all the edits that applied as splices
/// of the source (`compose_splices`: merged where they overlap or touch), as
/// `trimSplices` takes them.
#[wasm_bindgen(js_name = blocksApplyEdits)]
pub fn blocks_apply_edits(input_len: usize, edits: Vec<String>, options: &[f64], hints: &[f64]) -> Result<Array, JsValue> {
    let options = Options::from_numbers(options);
    let edits: Vec<Edit> = edits
        .chunks_exact(2)
        .enumerate()
        .filter_map(|(i, pair)| match pair {
            [search, replace] => Some(block_edit(search.clone(), replace.clone(), hints.get(i * 3..i * 3 + 3).unwrap_or(&[]))),
            _ => None,
        })
        .collect();
    with_input(input_len, |source| {
        let out = Array::new();
        let mut placed = Vec::new();
        blocks::find_each(source, &edits, &options, |text, outcome| -> Result<(), JsValue> {
            out.push(&to_js_outcome(text, &outcome)?);
            if let Some(s) = &outcome.splice {
                crate::compose_splices(source, &mut placed, s);
            }
            Ok(())
        })?;
        let runs: Vec<u32> = super::positions::ranges(&placed).collect();
        out.push(&js_sys::Uint32Array::from(runs.as_slice()).into());
        Ok(out)
    })
}

/// parseBlocks: apply-edit-block's plain list, or `{ edits, problems }`.
#[wasm_bindgen(js_name = blocksParse)]
pub fn blocks_parse(text: &str, detailed: bool) -> Result<JsValue, JsValue> {
    if detailed {
        serialize(&blocks::parse_blocks_detailed(text))
    } else {
        serialize(&blocks::parse_blocks(text))
    }
}

/// A piece of a streamed edit-blocks message (js/stream-blocks.ts), from a
/// line where no block is open: `[edits, endMarkerLines, open,
/// problemLines]`, the edits as `blocksParse` with `detailed` gives them,
/// the 1-based line of each one's end marker in the piece, whether a block
/// is still open at its end, and the 1-based lines of its problems (a
/// message with any applies nothing in `applyBlocks`).
#[wasm_bindgen(js_name = blocksStreamParse)]
pub fn blocks_stream_parse(text: &str) -> Result<Array, JsValue> {
    let parsed = blocks::parse_blocks_detailed(text);
    let ends: Vec<u32> = parsed.edits.iter().map(|e| u32::try_from(e.end_marker_line).unwrap_or(u32::MAX)).collect();
    let problems: Vec<u32> = parsed.problems.iter().map(|p| u32::try_from(p.line).unwrap_or(u32::MAX)).collect();
    let out = Array::of3(
        &serialize(&parsed.edits)?,
        &js_sys::Uint32Array::from(ends.as_slice()).into(),
        &JsValue::from_bool(parsed.open.is_some()),
    );
    out.push(&js_sys::Uint32Array::from(problems.as_slice()).into());
    Ok(out)
}

/// The edit blocks of a message parsed once, for a caller that reads the
/// files they name before applying them (the CLI): one parse per call. The
/// wrapper frees it when done.
#[wasm_bindgen]
pub struct PreparedBlocks {
    parsed: blocks::Parsed,
    /// The blocks with their file names read against a file map (`name`).
    named: Option<blocks::NamedBlocks>,
}

/// Parses the edit blocks of `message` once.
#[wasm_bindgen(js_name = prepareBlocks)]
pub fn prepare_blocks(message: &str) -> PreparedBlocks {
    PreparedBlocks { parsed: blocks::parse_blocks_detailed(message), named: None }
}

#[wasm_bindgen]
impl PreparedBlocks {
    /// `{ edits, problems }`, as `blocksParse` with `detailed`.
    pub fn parsed(&self) -> Result<JsValue, JsValue> {
        serialize(&self.parsed)
    }

    /// Reads the blocks' file names against the file map's `paths` with the
    /// options' `file-name` repair (`blocks::name_blocks`): `paths` and
    /// `apply` then go by the names it maps.
    pub fn name(&mut self, paths: Vec<String>, options: &[f64]) {
        let known: Vec<&str> = paths.iter().map(String::as_str).collect();
        self.named = Some(blocks::name_blocks(&self.parsed, &Options::from_numbers(options), &known));
    }

    /// The files the blocks go to (`default_path` for a block that names
    /// none), each followed by `\n`: the files the wrapper puts in for `apply`.
    pub fn paths(&self, default_path: Option<String>) -> String {
        let mut out = String::new();
        let parsed = self.named.as_ref().map_or(&self.parsed, |n| n.parsed());
        for path in parsed.paths(default_path.as_deref()) {
            out.push_str(path);
            out.push('\n');
        }
        out
    }

    /// Applies the blocks to the files of `paths` (same `default_path`),
    /// whose contents the wrapper put in the input buffer one after
    /// another: `lengths` has one entry per path, its length in bytes, or
    /// `u32::MAX` for a file the map does not have. The engine's
    /// `BlocksResult`, flat (one object per block through serde cost about
    /// 1.3 µs a block: 0.23 s of a 10 MB message of 171,897 blocks): `[ok,
    /// changes, numbers, paths, full, problems]`, where
    /// `changes` is `[path, contents | null, …]`, `numbers` holds six per
    /// block (`line`, `endMarkerLine`, `ok` as 0 or 1, the strategy as in
    /// `blocksApplyEdit`, `similarity`, `matches`), `paths` each block's path
    /// followed by `\n`, and `full` the blocks with a failure, a note or repairs, as
    /// `[index, BlockResult, …]`.
    pub fn apply(&self, lengths: Vec<u32>, options: &[f64], default_path: Option<String>) -> Result<Array, JsValue> {
        let options = Options::from_numbers(options);
        let total: usize = lengths.iter().filter(|&&l| l != u32::MAX).map(|&l| l as usize).sum();
        with_input(total, |all| {
            let files = by_position(all, &lengths)?;
            let r = match &self.named {
                Some(named) => blocks::apply_named_blocks_to(named, &options, default_path.as_deref(), &files)?,
                None => blocks::apply_parsed_blocks_to(&self.parsed, &options, default_path.as_deref(), &files)?,
            };
            let mut numbers = Vec::with_capacity(r.results.len() * 6);
            let mut block_paths = String::new();
            let full = Array::new();
            for (i, b) in r.results.iter().enumerate() {
                let strategy = b.strategy.and_then(|s| Strategy::ALL.iter().position(|&t| t == s)).map_or(0, |i| i + 1);
                numbers.extend([
                    b.line as f64,
                    b.end_marker_line as f64,
                    f64::from(u8::from(b.ok)),
                    strategy as f64,
                    b.similarity,
                    b.matches as f64,
                ]);
                block_paths.push_str(&b.path);
                block_paths.push('\n');
                if b.failure.is_some() || b.note.is_some() || !b.repairs.is_empty() {
                    full.push(&JsValue::from(i as u32));
                    full.push(&serialize(b)?);
                }
            }
            let out = Array::new();
            out.push(&JsValue::from(r.ok));
            out.push(&changes_to_js(r.changes));
            out.push(&js_sys::Float64Array::from(numbers.as_slice()));
            out.push(&JsValue::from_str(&block_paths));
            out.push(&full);
            out.push(&serialize(&r.problems)?);
            Ok(out)
        })
    }
}

/// apply-edit-block's line similarity of two texts.
#[wasm_bindgen(js_name = blocksSimilarity)]
pub fn blocks_similarity(a: &str, b: &str) -> Result<f64, JsValue> {
    blocks::similarity(a, b).map_err(|e| to_js_error(&e))
}
