// The wasm module as the wrapper sees it. Each entry point (dist/index.cjs for
// Node, dist/browser.mjs for browsers) registers how to compile the one
// wasm-bindgen build (js/load.ts, setLoader()); the first call that needs the
// engine (wasm()) runs it, which hands the engine over with setBinding(), or,
// when the wasm cannot be compiled, the reason with setUnavailable(). The
// import itself compiles nothing: a page pays for the engine when it uses it.
//
// Every call into wasm goes through a guard. A trap (for example an
// allocation past wasm's 4 GB) leaves the instance in an unknown state: its
// stack pointer, allocator and buffers are wherever the trap left them. So on
// a trap the guard throws a PatchError `internal_error` and replaces the
// instance with a fresh one (js/load.ts instantiates the compiled module
// again): the next call works. And since wasm memory never shrinks, an
// instance whose memory grew past MEMORY_LIMIT during a call is replaced
// after it, so that memory goes back to the system.
import { invalidString, wellFormed } from './args.js';
import { PatchError } from './errors.js';
import type * as Glue from './wasm-glue.js';

/**
 * Changes as `[offsets, texts]`: `offsets` holds `[start, end, textEnd, …]`
 * (UTF-16 code units), three per change: input range `start..end` becomes
 * `texts` from the previous change's `textEnd` (0 for the first) to its own.
 */
export type FlatChanges = [Uint32Array, string];

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

/** A unified diff parsed once in wasm (free it when done). */
export type PreparedUnified = Glue.PreparedUnified;

/** The edit blocks of a message parsed once in wasm (free them when done). */
export type PreparedBlocks = Glue.PreparedBlocks;

/** Wasm memory (bytes) above which an instance is replaced after a call. Ordinary calls stay far below. */
export const MEMORY_LIMIT = 256 * 1024 * 1024;

let glue: Binding | undefined;
let loader: (() => void) | undefined;
let renewInstance: (() => void) | undefined;
let current: Binding | undefined;
let unavailable: PatchError | undefined;
let memory: WebAssembly.Memory | undefined;
const encoder = new TextEncoder();

/**
 * Hands the wrapper a ready instance. `renewInstance` (js/load.ts) replaces
 * the glue's instance with a fresh one of the same compiled module: the
 * guard uses it after a trap, and after a call that left memory past
 * MEMORY_LIMIT.
 */
export function setBinding(binding: Binding, renew?: () => void): void {
  loader = undefined;
  glue = binding;
  renewInstance = renew;
  memory = binding.wasmMemory();
  const guarded: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(binding)) {
    // Classes (PreparedPatch, PreparedUnified, PreparedBlocks) are handed out by guarded calls, not constructed here.
    if (typeof fn === 'function' && !/^[A-Z]/.test(name)) guarded[name] = guard(name, fn as (...args: unknown[]) => unknown);
    else guarded[name] = fn;
  }
  current = guarded as unknown as Binding;
}

/** Replaces the wasm instance with a fresh one (the old one and its memory are dropped). */
function renew(): boolean {
  if (renewInstance === undefined || glue === undefined) return false;
  generation++;
  live = 0;
  try {
    renewInstance();
  } catch {
    return false;
  }
  memory = glue.wasmMemory();
  return true;
}

/** Counts the instances: objects of an older one must not be freed into the new one. */
let generation = 0;

/**
 * Objects the engine handed out that are still in use ({@link withPrepared}).
 * While there is one, no call replaces the instance for its memory: the
 * object lives in it. (A trap replaces it anyway; the object is then lost.)
 */
let live = 0;

/**
 * Runs `use` on an object the engine hands out (`make`: PreparedPatch,
 * PreparedUnified, PreparedBlocks), its methods called through the same guard
 * as the module's functions, then frees it. After a trap the instance was
 * replaced and the object went with the old one: it is not freed into the new
 * one. Memory over {@link MEMORY_LIMIT} is given back once the object is
 * freed. @internal
 */
export function withPrepared<P extends { free(): void }, R>(kind: string, make: () => P, use: (prepared: P) => R): R {
  const prepared = make();
  const born = generation;
  live++;
  try {
    return use(guardObject(kind, prepared));
  } finally {
    if (generation === born) {
      live--;
      prepared.free();
      if (live === 0 && memory !== undefined && memory.buffer.byteLength > MEMORY_LIMIT) renew();
    }
  }
}

/**
 * An object the engine handed out (PreparedPatch, PreparedUnified, PreparedBlocks), with its methods called
 * through the same guard as the module's functions.
 */
function guardObject<T extends object>(kind: string, target: T): T {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t);
      return typeof value === 'function' ? guard(`${kind}.${String(prop)}`, value.bind(t)) : value;
    },
  });
}

function guard(name: string, fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return (...args) => {
    let result: unknown;
    try {
      result = fn(...args);
    } catch (e) {
      // The engine's own errors are plain values (an error object, a string):
      // it returned normally. An Error is a trap (RuntimeError), a stack
      // overflow (RangeError) or a JS exception that unwound through wasm.
      if (!(e instanceof Error)) throw e;
      const renewed = renew();
      throw new PatchError({
        code: 'internal_error',
        message:
          `The WebAssembly engine failed inside ${name} (${e.name}: ${e.message}), most likely by running out of wasm memory on a very large input. ` +
          `Nothing was applied. ${renewed ? 'The engine was restarted: later calls work.' : 'The engine could not be restarted.'} ` +
          'If the input was not unusually large, this is a bug in applypatch: please report it with the input.',
      });
    }
    // reserveInput is followed by the call that reads the input, and a
    // prepare call hands out an object that lives in the instance: never
    // drop the instance in between.
    if (
      name !== 'reserveInput' &&
      !name.startsWith('prepare') &&
      live === 0 &&
      memory !== undefined &&
      memory.buffer.byteLength > MEMORY_LIMIT
    ) {
      renew();
    }
    return result;
  };
}

let words: Uint32Array | undefined;

/**
 * The engine's memory as 32-bit words, for numbers a call left there
 * (made again when the memory grew or the instance was replaced). Read it
 * before the next call, which may move them.
 */
export function memoryWords(): Uint32Array {
  if (words === undefined || words.buffer !== memory!.buffer) words = new Uint32Array(memory!.buffer);
  return words;
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

/**
 * Puts one text in the input buffer at byte `offset` (after the texts put
 * before it, 0 for the first); returns its length in bytes. With a `name`
 * (a text checked by `checkText`, not `checkString`), a text with a lone
 * surrogate is refused here: see {@link refuseLoneSurrogate}.
 */
export function putInput(text: string, offset = 0, name?: string | (() => string)): number {
  const n = encodeAt(text, offset);
  if (name !== undefined && n !== text.length) refuseLoneSurrogate(name, text, offset, n);
  return n;
}

/** Copies UTF-8 bytes into the input buffer; returns their length. */
export function putInputBytes(bytes: Uint8Array): number {
  const ptr = wasm().reserveInput(bytes.length, 0);
  new Uint8Array(memory!.buffer, ptr, bytes.length).set(bytes);
  return bytes.length;
}

/**
 * encodeInto writes a lone surrogate as U+FFFD (EF BF BD): only text whose
 * `n` bytes at `offset` hold that sequence needs the full well-formedness
 * scan (a native byte search finds none in most text; ASCII text, whose byte
 * count equals its length, is never searched).
 */
function refuseLoneSurrogate(name: string | (() => string), text: string, offset: number, n: number): void {
  const bytes = new Uint8Array(memory!.buffer, wasm().reserveInput(offset + n, offset + n) + offset, n);
  for (let i = bytes.indexOf(0xef); i >= 0 && i + 2 < n; i = bytes.indexOf(0xef, i + 1)) {
    if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) {
      if (wellFormed(text)) return;
      throw invalidString(typeof name === 'string' ? name : name(), text);
    }
  }
}

/**
 * Most UTF-16 code units {@link putInputs} copies into wasm memory for one
 * call (the files a patch reads, together): 64 Mi, at most 192 MiB of UTF-8.
 */
export const MAX_INPUT_UNITS = 64 * 1024 * 1024;

/**
 * Puts texts one after another in the input buffer; returns their byte
 * lengths. The buffer is reserved once for all of them when they are ASCII
 * (one byte per UTF-16 unit): one call into wasm, not one per text. With
 * `name` (texts checked by `checkText`), a text with a lone surrogate is
 * refused as in {@link putInput}.
 */
export function putInputs(texts: readonly string[], name?: (i: number) => string): number[] {
  let rest = texts.reduce((n, t) => n + t.length, 0);
  if (rest > MAX_INPUT_UNITS) {
    throw new PatchError({
      code: 'input_too_large',
      message: `The ${texts.length} files this call reads are ${rest} UTF-16 code units long together; applypatch reads at most ${MAX_INPUT_UNITS} in one call. Split the patch into smaller patches.`,
    });
  }
  const lengths: number[] = [];
  let offset = 0;
  let view: Uint8Array | undefined;
  for (const t of texts) {
    if (view === undefined || offset + t.length > view.length) {
      const ptr = wasm().reserveInput(offset + rest, offset);
      view = new Uint8Array(memory!.buffer, ptr, offset + rest);
    }
    const { read, written } = encoder.encodeInto(t, view.subarray(offset, offset + t.length));
    // Not ASCII: encodeAt grows the buffer (and may move it).
    const n = read < t.length ? encodeAt(t, offset) : written;
    if (read < t.length) {
      view = undefined;
      const i = lengths.length;
      if (name !== undefined) refuseLoneSurrogate(() => name(i), t, offset, n);
    }
    lengths.push(n);
    offset += n;
    rest -= t.length;
  }
  return lengths;
}

/** Records why the wasm could not be compiled: every call then throws this error. */
export function setUnavailable(error: PatchError): void {
  loader = undefined;
  unavailable = error;
}

/**
 * Registers how to compile the engine (js/load.ts): {@link wasm} runs it once,
 * on the first call that needs the engine, not at import.
 */
export function setLoader(load: () => void): void {
  loader = load;
}

/**
 * The engine, compiled and instantiated on the first call (synchronously:
 * the API needs no init()). Every wrapper reaches its binding through this
 * accessor.
 */
export function wasm(): Binding {
  if (current === undefined && loader !== undefined) {
    const load = loader;
    loader = undefined;
    load();
  }
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

/** An object the engine handed out that outlives one call ({@link holdPrepared}). */
export interface Held<P> {
  /** The object, its methods called through the guard. */
  object: P;
  /** Whether it still lives: not released, and its instance was not replaced (after a trap). */
  alive(): boolean;
  /** Frees it (once; not into an instance that replaced its own). */
  release(): void;
}

/**
 * Holds an object the engine handed out across calls (a stream): like
 * {@link withPrepared}, but freed by `release` (its owner calls it at the
 * end, or a FinalizationRegistry when the owner is dropped), so a dropped
 * object stops holding the instance once it is collected. A trap still
 * replaces the instance at once; the object is then lost. @internal
 */
export function holdPrepared<P extends { free(): void }>(kind: string, prepared: P): Held<P> {
  const born = generation;
  let released = false;
  live++;
  // Its methods guarded once each, not at every call (a stream calls push once per section).
  const methods = new Map<PropertyKey, unknown>();
  const object = new Proxy(prepared, {
    get(t, prop) {
      let method = methods.get(prop);
      if (method === undefined) {
        const value = Reflect.get(t, prop, t);
        if (typeof value !== 'function') return value;
        method = guard(`${kind}.${String(prop)}`, value.bind(t));
        methods.set(prop, method);
      }
      return method;
    },
  });
  return {
    object,
    alive: () => !released && generation === born,
    release() {
      if (released) return;
      released = true;
      if (generation !== born) return;
      live--;
      prepared.free();
      if (live === 0 && memory !== undefined && memory.buffer.byteLength > MEMORY_LIMIT) renew();
    },
  };
}
