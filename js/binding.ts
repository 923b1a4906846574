// The wasm engines as the wrapper sees them. The package ships two wasm
// modules (scripts/build.mjs, docs/size.md): `core` (V4A diffs, Codex
// patches and their streams, repairs, the three-way merge) and `extra` (edit
// blocks, unified diffs and their stream, format detection). Each is an
// {@link Engine}, made by its own module (dist/esm/engines/*.js,
// dist/cjs/engines/*.js, written by the build), which only the wrappers of
// its formats import: a bundle carries only the engines its imports use. An
// engine is compiled on the first call that needs it (js/load.ts), not at
// import.
//
// Every call into wasm goes through a guard. A trap (for example an
// allocation past wasm's 4 GB) leaves the instance in an unknown state: its
// stack pointer, allocator and buffers are wherever the trap left them. So on
// a trap the guard throws a PatchError `internal_error` and replaces the
// instance with a fresh one (js/load.ts instantiates the compiled module
// again): the next call works. And since wasm memory never shrinks, an
// instance whose memory grew past MEMORY_LIMIT during a call is replaced
// after it, so that memory goes back to the system. Each engine has its own
// instance: a trap in one leaves the other as it was.
import { invalidString, wellFormed } from './args.js';
import { PatchError } from './errors.js';
import type * as CoreGlue from './wasm-core.js';
import type * as ExtraGlue from './wasm-extra.js';

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
 * Each module's binding, typed from what wasm-bindgen emits: scripts/build.mjs
 * copies its declarations to js/wasm-core.d.ts and js/wasm-extra.d.ts before
 * compiling, so a Rust signature that changes breaks the build here.
 */
export type CoreBinding = typeof CoreGlue;
export type ExtraBinding = typeof ExtraGlue;

/** Either engine (for what both have: the merge, the splices). */
export type AnyEngine = Engine<CoreBinding> | Engine<ExtraBinding>;

/**
 * An object the engine hands out (a wasm-bindgen class): `free` frees it in
 * its instance; `__destroy_into_raw` forgets its pointer and takes it out of
 * the glue's FinalizationRegistry without a call into wasm (every class of
 * the glue has it: scripts/build.mjs checks).
 */
export interface Handed {
  free(): void;
  // Not in wasm-bindgen's declarations, which leave out its internals.
  __destroy_into_raw?(): number;
}

/** What every module's binding has: its memory and input buffer. */
export interface Binding {
  wasmMemory(): WebAssembly.Memory;
  reserveInput(len: number, keep: number): number;
  holdsReplacement(offset: number, len: number): boolean;
  encodeUtf16(from: number, units: number, offset: number): number;
}

/** A patch parsed once in wasm (free it when done). */
export type PreparedPatch = CoreGlue.PreparedPatch;

/** A unified diff parsed once in wasm (free it when done). */
export type PreparedUnified = ExtraGlue.PreparedUnified;

/** The edit blocks of a message parsed once in wasm (free them when done). */
export type PreparedBlocks = ExtraGlue.PreparedBlocks;

/** Wasm memory (bytes) above which an instance is replaced after a call. Ordinary calls stay far below. */
export const MEMORY_LIMIT = 256 * 1024 * 1024;

/**
 * Most UTF-16 code units {@link Engine.putInputs} copies into wasm memory for one
 * call (the files a patch reads, together): 64 Mi, at most 192 MiB of UTF-8.
 */
export const MAX_INPUT_UNITS = 64 * 1024 * 1024;

const encoder = new TextEncoder();

/**
 * Node's Buffer, where there is one with `ucs2Write` (Node, Bun, Deno 2): it copies
 * a string that V8 keeps in two bytes a character into memory as it is, at
 * 11 GB/s, where `encodeInto` encodes such a string at 1 GB/s (Node 20).
 * Read through globalThis, so that no bundler adds a Buffer to a page.
 */
interface NodeBufferClass {
  from(buffer: ArrayBuffer, offset: number, length: number): { ucs2Write(text: string, offset: number, length: number): number };
}
const nodeBuffer = (globalThis as unknown as { Buffer?: NodeBufferClass & { prototype?: { ucs2Write?: unknown } } }).Buffer;
const ucs2 = typeof nodeBuffer?.prototype?.ucs2Write === 'function' ? nodeBuffer : undefined;

/**
 * A character above U+00FF: the string is kept in two bytes a character.
 * V8 answers at once for a string of one byte a character, which cannot
 * hold one, and stops at the first one in the other.
 */
const TWO_BYTE = /[^\0-\xff]/;

/**
 * Strings at least this long that hold a character above U+00FF go to wasm
 * memory as UTF-16 and are encoded there (src/utf16.rs `encode_utf8`), in
 * Node; up to {@link WIDE_MAX} code units, since they take five bytes a
 * unit of the input buffer while they are encoded, not three.
 */
const WIDE_MIN = 256;
const WIDE_MAX = 8 * 1024 * 1024;
// As wasm-bindgen's glue decodes: a leading U+FEFF is text, not a mark to drop.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The calls that leave their answer in the engine's memory (src/wasm/mod.rs
 * `leave`) for the wrapper to read ({@link Engine.takeChanges}, js/patch.ts
 * `leftFiles`): the guard does not replace the instance after them (that
 * would drop the answer); {@link Engine.doneReading} does, once it is read.
 */
const LEAVES = new Set(['applyChanges', 'applyBatchChanges', 'applyOperationChanges']);

/** An object the engine handed out that outlives one call ({@link Engine.holdPrepared}). */
export interface Held<P> {
  /** The object, its methods called through the guard. */
  object: P;
  /** Whether it still lives: not released, and its instance was not replaced (after a trap). */
  alive(): boolean;
  /** Frees it (once; not into an instance that replaced its own). */
  release(): void;
}

/**
 * One wasm module of the package: compiled on its first use, its calls
 * guarded, its instance replaced after a trap or a call that left its
 * memory past {@link MEMORY_LIMIT}.
 */
export class Engine<B extends Binding> {
  /** The module's name ('core', 'extra'), for messages. */
  readonly name: string;
  #loader: ((engine: Engine<B>) => void) | undefined;
  #glue: B | undefined;
  #renewInstance: (() => void) | undefined;
  #current: B | undefined;
  #unavailable: PatchError | undefined;
  #memory: WebAssembly.Memory | undefined;
  #words: Uint32Array | undefined;
  /** Counts the instances: objects of an older one must not be freed into the new one. */
  #generation = 0;
  /**
   * Objects the engine handed out that are still in use ({@link withPrepared}).
   * While there is one, no call replaces the instance for its memory: the
   * object lives in it. (A trap replaces it anyway; the object is then lost.)
   */
  #live = new Set<Handed>();

  /**
   * `load` compiles the module on the first call that needs it and hands
   * it over with {@link setBinding}, or the reason it cannot with
   * {@link setUnavailable} (js/load.ts `compile`).
   */
  constructor(name: string, load: (engine: Engine<B>) => void) {
    this.name = name;
    this.#loader = load;
  }

  /**
   * Hands the engine a ready instance. `renew` (js/load.ts) replaces the
   * glue's instance with a fresh one of the same compiled module: the
   * guard uses it after a trap, and after a call that left memory past
   * MEMORY_LIMIT.
   */
  setBinding(binding: B, renew?: () => void): void {
    this.#loader = undefined;
    this.#glue = binding;
    this.#renewInstance = renew;
    this.#memory = binding.wasmMemory();
    const guarded: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(binding)) {
      // Classes (PreparedPatch, PreparedUnified, PreparedBlocks, the streams) are handed out by guarded calls, not constructed here.
      if (typeof fn === 'function' && !/^[A-Z]/.test(name)) guarded[name] = this.#guard(name, fn as (...args: unknown[]) => unknown);
      else guarded[name] = fn;
    }
    this.#current = guarded as unknown as B;
  }

  /** Records why the wasm could not be compiled: every call then throws this error. */
  setUnavailable(error: PatchError): void {
    this.#loader = undefined;
    this.#unavailable = error;
  }

  /**
   * The engine's binding, compiled and instantiated on the first call
   * (synchronously: the API needs no init()). Every wrapper reaches its
   * binding through this accessor.
   */
  wasm(): B {
    const current = this.#current;
    if (current !== undefined) return current;
    if (this.#loader !== undefined) {
      const load = this.#loader;
      this.#loader = undefined;
      load(this);
    }
    if (this.#current === undefined) {
      throw (
        this.#unavailable ??
        new PatchError({
          code: 'wasm_unavailable',
          message: `applypatch: the WebAssembly engine (${this.name}) could not be loaded.`,
        })
      );
    }
    return this.#current;
  }

  /** Replaces the wasm instance with a fresh one (the old one and its memory are dropped). */
  #renew(): boolean {
    if (this.#renewInstance === undefined || this.#glue === undefined) return false;
    this.#generation++;
    // The objects of the old instance are let go without a call into wasm.
    // Left registered, the glue's FinalizationRegistry would free their
    // pointers into the new instance once they are collected: a trap there,
    // or a corrupted heap.
    for (const object of this.#live) object.__destroy_into_raw?.();
    this.#live.clear();
    try {
      this.#renewInstance();
    } catch {
      return false;
    }
    this.#memory = this.#glue.wasmMemory();
    return true;
  }

  /** After a call: an instance whose memory grew past the limit is replaced, unless an object still lives in it. */
  #giveBackMemory(): void {
    if (this.#memory!.buffer.byteLength > MEMORY_LIMIT && this.#live.size === 0) this.#renew();
  }

  /**
   * Runs `use` on an object the engine hands out (`make`: PreparedPatch,
   * PreparedUnified, PreparedBlocks), its methods called through the same guard
   * as the module's functions, then frees it. After a trap the instance was
   * replaced and the object went with the old one: it is not freed into the new
   * one. Memory over {@link MEMORY_LIMIT} is given back once the object is
   * freed. @internal
   */
  withPrepared<P extends Handed, R>(kind: string, make: () => P, use: (prepared: P) => R): R {
    const prepared = make();
    const born = this.#generation;
    this.#live.add(prepared);
    try {
      return use(this.#guardObject(kind, prepared));
    } finally {
      if (this.#generation === born) {
        this.#live.delete(prepared);
        prepared.free();
        this.#giveBackMemory();
      }
    }
  }

  /**
   * Holds an object the engine handed out across calls (a stream): like
   * {@link withPrepared}, but freed by `release` (its owner calls it at the
   * end, or a FinalizationRegistry when the owner is dropped), so a dropped
   * object stops holding the instance once it is collected. A trap still
   * replaces the instance at once; the object is then lost. @internal
   */
  holdPrepared<P extends Handed>(kind: string, prepared: P): Held<P> {
    const born = this.#generation;
    let released = false;
    this.#live.add(prepared);
    // Its methods guarded once each, not at every call (a stream calls push once per section).
    const methods = new Map<PropertyKey, unknown>();
    const object = new Proxy(prepared, {
      get: (t, prop) => {
        let method = methods.get(prop);
        if (method === undefined) {
          const value = Reflect.get(t, prop, t);
          if (typeof value !== 'function') return value;
          method = this.#guard(`${kind}.${String(prop)}`, value.bind(t));
          methods.set(prop, method);
        }
        return method;
      },
    });
    return {
      object,
      alive: () => !released && this.#generation === born,
      release: () => {
        if (released) return;
        released = true;
        if (this.#generation !== born) return;
        this.#live.delete(prepared);
        prepared.free();
        this.#giveBackMemory();
      },
    };
  }

  /**
   * An object the engine handed out (PreparedPatch, PreparedUnified, PreparedBlocks), with its methods called
   * through the same guard as the module's functions.
   */
  #guardObject<T extends object>(kind: string, target: T): T {
    return new Proxy(target, {
      get: (t, prop) => {
        const value = Reflect.get(t, prop, t);
        return typeof value === 'function' ? this.#guard(`${kind}.${String(prop)}`, value.bind(t)) : value;
      },
    });
  }

  #guard(name: string, fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    const mayRenew =
      name !== 'reserveInput' && name !== 'holdsReplacement' && name !== 'encodeUtf16' && !name.startsWith('prepare') && !LEAVES.has(name);
    return (...args) => {
      let result: unknown;
      try {
        result = fn(...args);
      } catch (e) {
        // The engine's own errors are plain values (an error object, a string):
        // it returned normally. An Error is a trap (RuntimeError), a stack
        // overflow (RangeError) or a JS exception that unwound through wasm.
        if (!(e instanceof Error)) throw e;
        const renewed = this.#renew();
        throw new PatchError({
          code: 'internal_error',
          message:
            `The WebAssembly engine failed inside ${name} (${e.name}: ${e.message}), most likely by running out of wasm memory on a very large input. ` +
            `Nothing was applied. ${renewed ? 'The engine was restarted: later calls work.' : 'The engine could not be restarted.'} ` +
            'If the input was not unusually large, this is a bug in applypatch: please report it with the input.',
        });
      }
      // reserveInput, holdsReplacement and encodeUtf16 are followed by the call that reads the input, and a
      // prepare call hands out an object that lives in the instance: never
      // drop the instance in between.
      if (mayRenew && this.#memory!.buffer.byteLength > MEMORY_LIMIT && this.#live.size === 0) this.#renew();
      return result;
    };
  }

  /**
   * The changes a call left in the engine's memory at `ptr` (src/wasm/diff.rs
   * `leave_changes`), copied out: `[offsets, texts]`, and with `placed` the
   * placed sections too. Read right after that call, before any other call
   * into the instance; then the instance is replaced if the call left its
   * memory past {@link MEMORY_LIMIT}, as the guard does after other calls.
   */
  takeChanges(ptr: number, placed: true): [Uint32Array, string, Uint32Array];
  takeChanges(ptr: number, placed: boolean): FlatChanges | [Uint32Array, string, Uint32Array];
  takeChanges(ptr: number, placed: boolean): FlatChanges | [Uint32Array, string, Uint32Array] {
    const words = this.memoryWords();
    const at = ptr >>> 2;
    const textsAt = words[at]!;
    const textsLen = words[at + 1]!;
    const offsetsEnd = at + 4 + 3 * words[at + 2]!;
    const offsets = words.slice(at + 4, offsetsEnd);
    const texts = this.memoryText(textsAt, textsLen);
    const out: FlatChanges | [Uint32Array, string, Uint32Array] = placed
      ? [offsets, texts, words.slice(offsetsEnd, offsetsEnd + 5 * words[at + 3]!)]
      : [offsets, texts];
    this.doneReading();
    return out;
  }

  /**
   * After reading what a call of {@link LEAVES} left: the instance is
   * replaced if the call left its memory past {@link MEMORY_LIMIT}, as the
   * guard does after other calls (not while an object lives in it).
   */
  doneReading(): void {
    this.#giveBackMemory();
  }

  /** The `len` bytes of UTF-8 at `ptr` in the engine's memory, as a string. */
  memoryText(ptr: number, len: number): string {
    return len === 0 ? '' : decoder.decode(new Uint8Array(this.#memory!.buffer, ptr, len));
  }

  /** `len` bytes of the engine's memory at `ptr` (a view of its buffer now: a grown memory detaches it). */
  memoryBytes(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.#memory!.buffer, ptr, len);
  }

  /**
   * The engine's memory as 32-bit words, for numbers a call left there
   * (made again when the memory grew or the instance was replaced). Read it
   * before the next call, which may move them.
   */
  memoryWords(): Uint32Array {
    const buffer = this.#memory!.buffer;
    if (this.#words === undefined || this.#words.buffer !== buffer) this.#words = new Uint32Array(buffer);
    return this.#words;
  }

  /**
   * Encodes `text` as UTF-8 into the binding's input buffer at byte `offset`
   * and returns its length in bytes. One native encodeInto for ASCII text;
   * other text needs up to 3 bytes per UTF-16 unit and grows the buffer once.
   */
  #encodeAt(text: string, offset: number): number {
    const b = this.wasm();
    let ptr = b.reserveInput(offset + text.length, offset);
    // reserveInput may have grown the memory: its buffer is read after it.
    let { read, written } = encoder.encodeInto(text, new Uint8Array(this.#memory!.buffer, ptr + offset, text.length));
    if (read < text.length) {
      const cap = offset + written + (text.length - read) * 3;
      ptr = b.reserveInput(cap, offset + written);
      const view = new Uint8Array(this.#memory!.buffer, ptr + offset + written, cap - offset - written);
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
  putInput(text: string, offset = 0, name?: string | (() => string)): number {
    const wide = this.#putWide(text, offset);
    if (wide >= 0) {
      if (name !== undefined && wide >= 2 ** 31) throw invalidString(typeof name === 'string' ? name : name(), text);
      return wide % 2 ** 31;
    }
    const n = this.#encodeAt(text, offset);
    if (name !== undefined && n !== text.length) this.#refuseLoneSurrogate(name, text, offset, n);
    return n;
  }

  /**
   * Puts a text V8 keeps in two bytes a character (one that holds a
   * character above U+00FF) at byte `offset` through Node's `ucs2Write` and
   * the engine's `encodeUtf16`: the UTF-16 is copied past where the UTF-8
   * goes, and the engine encodes it into place. Returns the engine's answer
   * (the bytes written, plus 2^31 when a surrogate was lone), or -1 where
   * this does not apply (no Node Buffer, a short or one-byte text, a huge
   * one): then the text is for `encodeInto`.
   */
  #putWide(text: string, offset: number): number {
    const n = text.length;
    if (ucs2 === undefined || n < WIDE_MIN || n > WIDE_MAX || !TWO_BYTE.test(text)) return -1;
    const b = this.wasm();
    // Where the UTF-16 goes: past three bytes a unit, on an even byte (ucs2Write copies aligned units).
    const from = (offset + 3 * n + 7) & ~7;
    const ptr = b.reserveInput(from + 2 * n, offset);
    ucs2.from(this.#memory!.buffer, ptr + from, 2 * n).ucs2Write(text, 0, 2 * n);
    const answer = b.encodeUtf16(from, n, offset) >>> 0;
    return answer === 0xffffffff ? -1 : answer;
  }

  /**
   * encodeInto writes a lone surrogate as U+FFFD (EF BF BD): only text whose
   * `n` bytes at `offset` hold that sequence needs the full well-formedness
   * scan. The engine searches the bytes (`holdsReplacement`, SIMD `memchr` of
   * the lead byte: a byte loop in JS cost a tenth of a call on non-ASCII
   * files); ASCII text, whose byte count equals its length, is never searched.
   */
  #refuseLoneSurrogate(name: string | (() => string), text: string, offset: number, n: number): void {
    if (!this.wasm().holdsReplacement(offset, n) || wellFormed(text)) return;
    throw invalidString(typeof name === 'string' ? name : name(), text);
  }

  /**
   * Puts texts one after another in the input buffer; returns their byte
   * lengths. The buffer is reserved once for all of them when they are ASCII
   * (one byte per UTF-16 unit): one call into wasm, not one per text. With
   * `name` (texts checked by `checkText`), a text with a lone surrogate is
   * refused as in {@link putInput}.
   */
  putInputs(texts: readonly string[], name?: (i: number) => string): number[] {
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
      const wide = this.#putWide(t, offset);
      if (wide >= 0) {
        // Put through the engine, which may have moved the buffer.
        view = undefined;
        const i = lengths.length;
        if (name !== undefined && wide >= 2 ** 31) throw invalidString(name(i), t);
        const n = wide % 2 ** 31;
        lengths.push(n);
        offset += n;
        rest -= t.length;
        continue;
      }
      if (view === undefined || offset + t.length > view.length) {
        const ptr = this.wasm().reserveInput(offset + rest, offset);
        view = new Uint8Array(this.#memory!.buffer, ptr, offset + rest);
      }
      const { read, written } = encoder.encodeInto(t, view.subarray(offset, offset + t.length));
      // Not ASCII: #encodeAt grows the buffer (and may move it).
      const n = read < t.length ? this.#encodeAt(t, offset) : written;
      if (read < t.length) {
        view = undefined;
        const i = lengths.length;
        if (name !== undefined) this.#refuseLoneSurrogate(() => name(i), t, offset, n);
      }
      lengths.push(n);
      offset += n;
      rest -= t.length;
    }
    return lengths;
  }
}
