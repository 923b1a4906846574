// The wasm module as the wrapper sees it. Each entry point (dist/index.cjs for
// Node, dist/browser.mjs for browsers) loads its own wasm-bindgen build, ready
// to call, and hands it over with setBinding() before anything else runs.

/** Changes as `[start, end, text, …]`, offsets in UTF-16 code units. */
export type FlatChanges = Array<number | string>;

export interface Binding {
  wasmMemory(): WebAssembly.Memory;
  reserveInput(len: number, keep: number): number;
  /** Reads the input from the buffer filled by {@link putInput}. */
  applyChanges(inputLen: number, diff: string, mode: number): FlatChanges;
  applyBatchChanges(inputLen: number, diffs: string[], mode: number): FlatChanges;
  errorCodes(): string[];
  /** Edit blocks (js/blocks.ts): the source is read from the input buffer. */
  blocksApplyEdit(inputLen: number, search: string, replace: string, anchorSlack: number, threshold: number, anchorThreshold: number, flags: number): unknown;
  blocksApplyEdits(inputLen: number, edits: string[], anchorSlack: number, threshold: number, anchorThreshold: number, flags: number): unknown[];
  blocksParse(text: string, detailed: boolean): unknown;
  blocksSimilarity(a: string, b: string): number;
}

let current: Binding | undefined;
let memory: WebAssembly.Memory | undefined;
const encoder = new TextEncoder();

export function setBinding(binding: Binding): void {
  current = binding;
  memory = binding.wasmMemory();
}

/**
 * Encodes `text` as UTF-8 into the binding's input buffer and returns its
 * length in bytes. One native encodeInto for ASCII text; text with other
 * characters needs up to 3 bytes per UTF-16 unit and grows the buffer once.
 */
export function putInput(text: string): number {
  const b = wasm();
  let cap = text.length;
  let ptr = b.reserveInput(cap, 0);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(memory!.buffer, ptr, cap));
  if (read < text.length) {
    cap = written + (text.length - read) * 3;
    ptr = b.reserveInput(cap, written);
    const rest = encoder.encodeInto(text.slice(read), new Uint8Array(memory!.buffer, ptr + written, cap - written));
    written += rest.written;
  }
  return written;
}

export function wasm(): Binding {
  if (current === undefined) {
    throw new Error('applypatch: the wasm module is not loaded; import the package through its entry point');
  }
  return current;
}
