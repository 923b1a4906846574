// The wasm module as the wrapper sees it. Each entry point (dist/index.cjs for
// Node, dist/browser.mjs for browsers) compiles the one wasm-bindgen build
// (js/load.ts) and hands it over with setBinding() before anything else runs,
// or, when the wasm cannot be compiled, the reason with setUnavailable().
import { PatchError } from './errors.js';

import type * as Glue from './wasm-glue.js';

/** Changes as `[start, end, text, …]`, offsets in UTF-16 code units. */
export type FlatChanges = Array<number | string>;

/** A path a patch touches (the engine's `Touch`). */
export interface PatchTouch {
  path: string;
  /** An update or delete names it: the engine looks it up. */
  read: boolean;
  /** Its text before the patch is needed (an update of a file the patch did not write first). */
  needsText: boolean;
  /** A move's destination: the file moved here. */
  movedFrom?: string;
}

/**
 * The binding, typed from what wasm-bindgen emits: scripts/build.mjs copies
 * its declarations (dist/wasm-node/applypatch.d.ts) to js/wasm-glue.d.ts
 * before compiling, so a Rust signature that changes breaks the build here.
 */
export type Binding = typeof Glue;

/** A patch parsed once in wasm (free it when done). */
export type PreparedPatch = Glue.PreparedPatch;

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
