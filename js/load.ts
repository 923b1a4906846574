// Compiles an engine's WebAssembly on its first use (Engine.wasm() in
// js/binding.ts), synchronously, from bytes that travel inside the
// JavaScript (dist/wasm/core.mjs, extra.mjs: packed, see `unpack`): no file to
// fetch, so every bundler keeps it without configuration, and no top-level
// await, so the API stays synchronous and require() works. (require() in
// Node reads the .wasm from its file, dist/wasm/*.wasm, when it is there.) Each engine's
// module (dist/esm/engines/*.js, dist/cjs/engines/*.js, written by
// scripts/build.mjs) makes its Engine with `compile` as its loader: importing
// the package compiles nothing (start-up, issue 28).
import type { Binding, Engine } from './binding.js';
import { PatchError } from './errors.js';

/** wasm-bindgen's generated glue (`--target bundler`), made fresh for one engine by its module's `glue()`. */
export interface Glue extends Binding {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
  /** Added by scripts/build.mjs: forgets the cached views of the old instance's memory. */
  __wbg_reset_caches(): void;
}

/**
 * Compiles the engine `wasm` (packed in a string, or the .wasm itself, as Node reads it
 * from its file) and instantiates it with `glue`, and hands the result to
 * `engine`. A failure (a Content-Security-Policy without
 * 'wasm-unsafe-eval', a runtime without WebAssembly or SIMD) never escapes:
 * that call and every later one throw a PatchError `wasm_unavailable`
 * naming the cause and the fix.
 */
export function compile<B extends Binding>(engine: Engine<B>, glue: Glue, wasm: string | Uint8Array<ArrayBuffer>): void {
  try {
    const module = new WebAssembly.Module(typeof wasm === 'string' ? unpack(wasm) : wasm);
    const imports: WebAssembly.Imports = {};
    for (const { module: name } of WebAssembly.Module.imports(module)) {
      imports[name] = glue as unknown as WebAssembly.ModuleImports;
    }
    // A fresh instance of the compiled module: at the start, and whenever
    // the engine drops one (after a trap, or after a call that left its
    // memory very large). The glue's views of the old memory are forgotten.
    const instantiate = () => {
      const instance = new WebAssembly.Instance(module, imports);
      glue.__wbg_reset_caches();
      glue.__wbg_set_wasm(instance.exports);
      (instance.exports.__wbindgen_start as () => void)();
    };
    instantiate();
    engine.setBinding(glue as unknown as B, instantiate);
  } catch (cause) {
    engine.setUnavailable(unavailableError(cause));
  }
}

/** The error every call throws when the engine could not be compiled. */
export function unavailableError(cause: unknown): PatchError {
  const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  const csp = /Content.Security.Policy|unsafe-eval|CSP/i.test(reason);
  const fix = csp
    ? "The page's Content-Security-Policy forbids compiling WebAssembly: add 'wasm-unsafe-eval' to its script-src (for example script-src 'self' 'wasm-unsafe-eval'). It allows WebAssembly only, not eval."
    : typeof WebAssembly !== 'object'
      ? 'This JavaScript engine has no WebAssembly: run applypatch in Node >= 20.19, Deno, Bun or a browser from 2023 on (Chrome 91, Firefox 89, Safari 16.4).'
      : "If the page has a Content-Security-Policy, add 'wasm-unsafe-eval' to its script-src; otherwise this engine lacks a WebAssembly feature applypatch needs (SIMD: Chrome 91, Firefox 89, Safari 16.4, Node 20).";
  return new PatchError({
    code: 'wasm_unavailable',
    message: `applypatch could not compile its WebAssembly engine (${reason}). ${fix}`,
  });
}

/**
 * The decoder of `unpack`: js/unpack.wat, assembled (scripts/build.mjs
 * checks that it is that text's binary).
 */
export const DECODER =
  '0061736d0100000001080160037f7f7f017f030201000503010001071302066d656d6f72790200066465636f646500000a4a014801037f02400340200020014f0d0120002d0000210320032d00800321042002200541077420036a2d00003a000020022004456a210220042105200041016a21000c000b000b20020b';

/** The decoder, compiled for the first engine and kept for the other (a fresh instance each). */
let decoderModule: WebAssembly.Module | undefined;

/** Hex digits of the tables at the start of a packed engine (512 bytes). */
const TABLES = 1024;

/**
 * An engine's .wasm from the string it travels in (scripts/build.mjs
 * `packWasm`): 512 bytes of tables as hex, then one code per byte, a printable
 * ASCII character for its 87 most frequent bytes and two for the others.
 * That gzips to within 1% of the .wasm itself, where hex was 12% larger, and
 * is half as long to parse. The codes are decoded by a small wasm module
 * (js/unpack.wat): a JavaScript loop runs cold and took 5 to 10 ms.
 */
export function unpack(packed: string): Uint8Array<ArrayBuffer> {
  const codes = packed.length - TABLES;
  decoderModule ??= new WebAssembly.Module(fromHex(DECODER));
  const decoder = new WebAssembly.Instance(decoderModule).exports as {
    memory: WebAssembly.Memory;
    decode(from: number, to: number, out: number): number;
  };
  // The tables at 0, the codes at 512 (one byte each: they are ASCII), the
  // bytes after them.
  const from = TABLES / 2;
  const out = from + codes;
  const { memory } = decoder;
  const short = out + codes - memory.buffer.byteLength;
  if (short > 0) memory.grow(Math.ceil(short / 65536));
  const view = new Uint8Array(memory.buffer);
  if (codes <= 0) throw new Error('the packed engine is not printable ASCII');
  view.set(fromHex(packed.slice(0, TABLES)), 0);
  // Each character one byte: all of them read, into as many bytes.
  const { read, written } = new TextEncoder().encodeInto(packed.slice(TABLES), view.subarray(from, from + codes));
  if (read !== codes || written !== codes) throw new Error('the packed engine is not printable ASCII');
  // In chunks: V8 runs the decoder's first calls in its baseline tier and
  // the later ones optimized, once that is compiled (the core engine in
  // Chromium: 1.9 ms against 3.0 in one call). A chunk never ends on a
  // prefix, so each starts at a code.
  let end = out;
  for (let i = from, last = from + codes; i < last; ) {
    let j = Math.min(i + CHUNK, last);
    while (j < last && view[384 + (view[j - 1] ?? 0)] !== 0) j++;
    end = decoder.decode(i, j, end);
    i = j;
  }
  return view.subarray(out, end);
}

/** Characters the decoder takes per call (`unpack`). */
const CHUNK = 32768;

/** Native decoders where the platform has one: browsers since 2025, and Node, Deno and Bun (Buffer). */
interface HexDecoders {
  fromHex?: (hex: string) => Uint8Array<ArrayBuffer>;
}
interface NodeBuffer {
  from(text: string, encoding: 'hex'): Uint8Array<ArrayBuffer>;
}

/** The decoder's bytes and the tables (1.3 KB of hex in all). */
function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as unknown as HexDecoders).fromHex;
  if (typeof native === 'function') return native.call(Uint8Array, hex);
  const buffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
  if (typeof buffer?.from === 'function') return buffer.from(hex, 'hex');
  const bytes = new Uint8Array(hex.length >>> 1);
  for (let i = 0, j = 0; i < bytes.length; i++, j += 2) {
    // '0'-'9' are 0x30-0x39, 'a'-'f' 0x61-0x66: the low nibble, plus 9 for letters.
    const hi = hex.charCodeAt(j);
    const lo = hex.charCodeAt(j + 1);
    bytes[i] = (((hi & 0xf) + (hi >> 6) * 9) << 4) | ((lo & 0xf) + (lo >> 6) * 9);
  }
  return bytes;
}
