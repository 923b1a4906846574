// apply and applyBatch: V4A update diffs on one text.
import { checkOptions, checkStrings, checkText, type Mode, modeCode } from './args.js';
import { type FlatChanges, putInput, wasm } from './binding.js';
import { call } from './errors.js';
import { engine, type RepairOptions } from './repair.js';

export interface ApplyOptions extends RepairOptions {
  /**
   * `'strict'` (default): anchors, context and removed lines match byte for
   * byte and exactly once. `'codex'`: what the OpenAI Codex CLI's apply_patch
   * does (first match, whitespace and Unicode-punctuation fallbacks).
   */
  mode?: Mode;
}

/** Builds the new text from the input and the changed ranges only. */
function splice(input: string, [offsets, texts]: FlatChanges): string {
  if (offsets.length === 0) return input;
  let out = '';
  let pos = 0;
  let text = 0;
  for (let i = 0; i < offsets.length; i += 3) {
    out += input.slice(pos, offsets[i]) + texts.slice(text, offsets[i + 2]);
    pos = offsets[i + 1];
    text = offsets[i + 2];
  }
  return out + input.slice(pos);
}

/**
 * Applies a V4A update diff (the `diff` of an `update_file` operation, or the
 * body of an `*** Update File:` hunk) to `input` and returns the new text.
 * Throws a {@link PatchError} when the diff does not apply; nothing is half-applied.
 */
export function apply(input: string, diff: string, options?: ApplyOptions): string {
  checkText('input', input);
  checkText('diff', diff);
  const opts = checkOptions(options);
  const e = engine(opts, modeCode(opts));
  const len = putInput(input, 0, 'input');
  const diffLen = putInput(diff, len, 'diff');
  const changes = call(() => wasm().applyChanges(len, diffLen, e.code)) as FlatChanges;
  e.report();
  return splice(input, changes);
}

/**
 * Applies several V4A update diffs to one input. In Strict mode every diff
 * targets the original input, and the batch fails as a whole when any diff
 * fails or two diffs touch the same lines. In Codex mode the diffs apply one
 * after another, like consecutive apply_patch calls.
 */
export function applyBatch(input: string, diffs: readonly string[], options?: ApplyOptions): string {
  checkText('input', input);
  const list = checkStrings('diffs', diffs);
  const opts = checkOptions(options);
  const e = engine(opts, modeCode(opts));
  const len = putInput(input, 0, 'input');
  const changes = call(() => wasm().applyBatchChanges(len, list, e.code)) as FlatChanges;
  e.report();
  return splice(input, changes);
}
