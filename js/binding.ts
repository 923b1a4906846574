// The wasm module as the wrapper sees it. Each entry point (dist/index.cjs for
// Node, dist/browser.mjs for browsers) compiles the one wasm-bindgen build
// (js/load.ts) and hands it over with setBinding() before anything else runs,
// or, when the wasm cannot be compiled, the reason with setUnavailable().
import { PatchError } from './errors.js';

/** Changes as `[start, end, text, …]`, offsets in UTF-16 code units. */
export type FlatChanges = Array<number | string>;

export interface Binding {
  wasmMemory(): WebAssembly.Memory;
  reserveInput(len: number, keep: number): number;
  /** Reads the input from the buffer filled by {@link putInput}. */
  applyChanges(inputLen: number, diff: string, mode: number): FlatChanges;
  applyBatchChanges(inputLen: number, diffs: string[], mode: number): FlatChanges;
  errorCodes(): string[];
  /** The repairs of the last call (js/repair.ts). */
  takeRepairs(): unknown[];
  repairKinds(): string[];
  parsePatch(patch: string, mode: number): unknown;
  /** Files put with {@link putInputs}; returns `[path, contents | null, …]`. */
  applyFilesChanges(paths: string[], lengths: Uint32Array | number[], patch: string, mode: number): Array<string | null>;
  summary(patch: string, mode: number): string;
  createFile(diff: string): string;
  /** One Responses API operation (`kind` 0 create, 1 update, 2 delete) over files put with {@link putInputs}. */
  applyOperationChanges(
    paths: string[],
    lengths: Uint32Array | number[],
    kind: number,
    path: string,
    diff: string,
    moveTo: string | undefined,
    mode: number,
  ): Array<string | null>;
  codexDescription(): string;
  codexGrammar(environmentId: boolean): string;
  /** Edit blocks (js/blocks.ts): the source is read from the input buffer. */
  blocksApplyEdit(
    inputLen: number,
    search: string,
    replace: string,
    anchorSlack: number,
    threshold: number,
    anchorThreshold: number,
    flags: number,
    hints: Float64Array,
  ): unknown;
  blocksApplyEdits(
    inputLen: number,
    edits: string[],
    anchorSlack: number,
    threshold: number,
    anchorThreshold: number,
    flags: number,
    hints: Float64Array,
  ): unknown[];
  blocksParse(text: string, detailed: boolean): unknown;
  blocksSimilarity(a: string, b: string): number;
  /** Unified diffs (js/unified.ts). */
  parseUnified(diff: string): unknown;
  unifiedPaths(diff: string): string[];
  applyUnifiedChanges(
    paths: string[],
    lengths: Uint32Array | number[],
    diff: string,
    mode: number,
    report: boolean,
  ): [
    Array<string | null>,
    Array<{ path: string; mode: string }>?,
    Array<{ path: string; hunk: number; statedLine: number; line: number; offset: number }>?,
  ];
  unifiedDiffFiles(oldPaths: string[], oldTexts: string[], newPaths: string[], newTexts: string[], context: number, git: boolean): string;
  unifiedDiffFile(
    oldPath: string | undefined,
    newPath: string | undefined,
    before: string,
    after: string,
    context: number,
    git: boolean,
  ): string;
  lineDiff(a: string[], b: string[]): Uint32Array | number[];
}

let current: Binding | undefined;
let unavailable: PatchError | undefined;
let memory: WebAssembly.Memory | undefined;
const encoder = new TextEncoder();

export function setBinding(binding: Binding): void {
  current = binding;
  memory = binding.wasmMemory();
}

/**
 * Encodes `text` as UTF-8 into the binding's input buffer at byte `offset`
 * and returns its length in bytes. One native encodeInto for ASCII text;
 * other text needs up to 3 bytes per UTF-16 unit and grows the buffer once.
 */
function encodeAt(text: string, offset: number): number {
  const b = wasm();
  let ptr = b.reserveInput(offset + text.length, offset);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(memory!.buffer, ptr + offset, text.length));
  if (read < text.length) {
    const cap = offset + written + (text.length - read) * 3;
    ptr = b.reserveInput(cap, offset + written);
    const view = new Uint8Array(memory!.buffer, ptr + offset + written, cap - offset - written);
    written += encoder.encodeInto(text.slice(read), view).written;
  }
  return written;
}

/** Puts one text in the input buffer; returns its length in bytes. */
export function putInput(text: string): number {
  return encodeAt(text, 0);
}

/** Puts texts one after another in the input buffer; returns their byte lengths. */
export function putInputs(texts: readonly string[]): number[] {
  const lengths: number[] = [];
  let offset = 0;
  for (const t of texts) {
    const n = encodeAt(t, offset);
    lengths.push(n);
    offset += n;
  }
  return lengths;
}

/** Records why the wasm could not be compiled: every call then throws this error. */
export function setUnavailable(error: PatchError): void {
  unavailable = error;
}

export function wasm(): Binding {
  if (current === undefined) {
    throw (
      unavailable ??
      new PatchError({
        code: 'wasm_unavailable',
        message:
          "applypatch: the WebAssembly engine was never loaded: this module was imported on its own instead of through the package's entry point. Import 'applypatch' (or 'applypatch/node'), not a file inside dist/.",
      })
    );
  }
  return current;
}
