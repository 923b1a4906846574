// apply and applyBatch: V4A update diffs on one text.
import { checkOptions, checkStrings, checkText, modeCode } from './args.js';
import type { FlatChanges } from './binding.js';
import { core } from './engines/core.js';
import { call } from './errors.js';
import { baseOption, mergeInto, mergeWithSplices } from './merge.js';
import { type PlacedSection, type Splice, sectionsOf, splicesOf } from './positions.js';
import { callMode, type Repair, type RepairOptions } from './repair.js';

/**
 * `mode: 'strict'` (default): anchors, context and removed lines match byte
 * for byte and exactly once; `repair` and `onRepair` forgive slips there.
 * `mode: 'codex'`: what the OpenAI Codex CLI's apply_patch does (first match,
 * whitespace and Unicode-punctuation fallbacks); it takes no `repair`, and
 * the compiler says so.
 */
export type ApplyOptions = StrictOptions | CodexOptions;

/** Strict mode, with the repairs it may make. */
export interface StrictOptions extends RepairOptions, BaseOption {
  mode?: 'strict';
}

/** `report: true`: `apply` and `applyBatch` return an {@link ApplyReport} instead of the text alone. */
export type ApplyReportOptions = ApplyOptions & {
  report: true;
};

/** What `apply` and `applyBatch` return with `report: true`. */
export interface ApplyReport {
  /** The new text. */
  text: string;
  /**
   * The changes that make `text` from the input: UTF-16 offsets into the
   * input as passed, sorted, not overlapping, minimal (no splice starts or
   * ends with characters that are the same before and after). Applied in
   * order they give `text`; an editor applies them as its own changes.
   */
  splices: Splice[];
  /**
   * Where each run of changed lines landed, in input order. Empty for a
   * Codex batch of several diffs (each applies to the previous one's output).
   */
  sections: PlacedSection[];
  /** The repairs made (with `repair`), as `onRepair` receives them. */
  repairs?: Repair[];
}

/** The engine's changes; with `report`, minimal and followed by the placed sections (src/wasm/diff.rs). */
type Crossing = FlatChanges | [Uint32Array, string, Uint32Array];

function answer(input: string, changes: Crossing, repairs: Repair[], report: boolean, batch: boolean): string | ApplyReport {
  const text = splice(input, changes);
  if (!report) return text;
  const out: ApplyReport = { text, splices: splicesOf(changes), sections: sectionsOf(changes[2] ?? new Uint32Array(), batch) };
  if (repairs.length > 0) out.repairs = repairs;
  return out;
}

function wantsReport(options: Record<string, unknown>): boolean {
  const r = options.report;
  if (r !== undefined && typeof r !== 'boolean') throw new TypeError(`applypatch: options.report must be a boolean, got ${typeof r}`);
  return r === true;
}

/** The `base` option: the text the diff was written against. */
export interface BaseOption {
  /**
   * The text the diff was written against, when the input changed since (the
   * user kept typing while the model wrote): the diff is applied to `base`,
   * and the result merged into the input (`merge3`). A conflict throws
   * `PatchError` `merge_conflict`.
   */
  base?: string;
}

/**
 * The answer for option `base`: `patched` (the diff applied to base) merged
 * into the input; with `report`, the merge's minimal splices against the
 * input. The sections are where the diff landed in `base`, not in the
 * input, so a merged report has none.
 */
function merged(input: string, base: string, patched: string, report: boolean): string | ApplyReport {
  if (!report) return mergeInto(core, base, input, patched);
  const { text, splices } = mergeWithSplices(core, base, input, patched);
  return { text, splices, sections: [] };
}

/** Codex mode: exactly what the Codex CLI does, so no repairs. */
export interface CodexOptions extends BaseOption {
  mode: 'codex';
  repair?: false;
  onRepair?: undefined;
}

/** `Omit` over each member of a union (the options are a union on `mode`). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Options without `onRepair` (the editors report repairs in their output). */
export type WithoutOnRepair<T> = T extends unknown ? Omit<T, 'onRepair'> : never;

/** Builds the new text from the input and the changed ranges only. */
export function splice(input: string, [offsets, texts]: Crossing): string {
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
export function apply(input: string, diff: string, options: ApplyReportOptions): ApplyReport;
export function apply(input: string, diff: string, options?: ApplyOptions): string;
export function apply(input: string, diff: string, options?: ApplyOptions | ApplyReportOptions): string | ApplyReport {
  checkText('input', input);
  checkText('diff', diff);
  const opts = checkOptions(options);
  const report = wantsReport(opts);
  const base = baseOption(opts);
  if (base !== undefined)
    return merged(input, base, apply(base, diff, { ...opts, base: undefined, report: undefined } as ApplyOptions), report);
  const e = callMode(opts, modeCode(opts));
  const len = core.putInput(input, 0, 'input');
  const diffLen = core.putInput(diff, len, 'diff');
  const left = call(() => core.wasm().applyChanges(len, diffLen, e.code, report));
  return answer(input, core.takeChanges(left, report), e.report(), report, false);
}

/**
 * Applies several V4A update diffs to one input. In Strict mode every diff
 * targets the original input, and the batch fails as a whole when any diff
 * fails or two diffs touch the same lines. In Codex mode the diffs apply one
 * after another, like consecutive apply_patch calls.
 */
export function applyBatch(input: string, diffs: readonly string[], options: ApplyReportOptions): ApplyReport;
export function applyBatch(input: string, diffs: readonly string[], options?: ApplyOptions): string;
export function applyBatch(input: string, diffs: readonly string[], options?: ApplyOptions | ApplyReportOptions): string | ApplyReport {
  checkText('input', input);
  const list = checkStrings('diffs', diffs);
  const opts = checkOptions(options);
  const report = wantsReport(opts);
  const base = baseOption(opts);
  if (base !== undefined)
    return merged(input, base, applyBatch(base, list, { ...opts, base: undefined, report: undefined } as ApplyOptions), report);
  const e = callMode(opts, modeCode(opts));
  const len = core.putInput(input, 0, 'input');
  const left = call(() => core.wasm().applyBatchChanges(len, list, e.code, report));
  return answer(input, core.takeChanges(left, report), e.report(), report, true);
}
