// Compiles an engine's WebAssembly on its first use (Engine.wasm() in
// js/binding.ts), synchronously, from bytes that travel inside the
// JavaScript (dist/wasm/core.mjs, extra.mjs: hex): no file to
// fetch, so every bundler keeps it without configuration, and no top-level
// await, so the API stays synchronous and require() works. Each engine's
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
 * Compiles `hex` and instantiates it with `glue`, and hands the result to
 * `engine`. A failure (a Content-Security-Policy without
 * 'wasm-unsafe-eval', a runtime without WebAssembly or SIMD) never escapes:
 * that call and every later one throw a PatchError `wasm_unavailable`
 * naming the cause and the fix.
 */
export function compile<B extends Binding>(engine: Engine<B>, glue: Glue, hex: string): void {
  try {
    const module = new WebAssembly.Module(fromHex(hex));
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

/** Native decoders where the platform has one: browsers since 2025, and Node, Deno and Bun (Buffer). */
interface HexDecoders {
  fromHex?: (hex: string) => Uint8Array<ArrayBuffer>;
}
interface NodeBuffer {
  from(text: string, encoding: 'hex'): Uint8Array<ArrayBuffer>;
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as unknown as HexDecoders).fromHex;
  if (typeof native === 'function') return native.call(Uint8Array, hex);
  const buffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
  if (typeof buffer?.from === 'function') return buffer.from(hex, 'hex');
  // Elsewhere, by hand: a cold loop, a few milliseconds.
  const bytes = new Uint8Array(hex.length >>> 1);
  for (let i = 0, j = 0; i < bytes.length; i++, j += 2) {
    // '0'-'9' are 0x30-0x39, 'a'-'f' 0x61-0x66: the low nibble, plus 9 for letters.
    const hi = hex.charCodeAt(j);
    const lo = hex.charCodeAt(j + 1);
    bytes[i] = (((hi & 0xf) + (hi >> 6) * 9) << 4) | ((lo & 0xf) + (lo >> 6) * 9);
  }
  return bytes;
}
