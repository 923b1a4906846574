// Argument checks: wrong types throw a TypeError before anything reaches wasm,
// and strings that are not well-formed UTF-16 are refused instead of being
// silently changed (wasm-bindgen would turn a lone surrogate into U+FFFD).
import { PatchError } from './errors.js';
import { maxTextBytes, modes } from './generated.js';

export type Mode = (typeof modes)[number];

/** Strict's position in `modes`: the binding's code for it. */
export const STRICT = modes.indexOf('strict');

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value}`;
}

export const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The engine's limit on one text, in UTF-8 bytes (`limits::MAX_TEXT_BYTES`,
 * README "Limits"). A string with more UTF-16 code units than this has more
 * bytes too, so it is refused here, before it is copied into wasm memory; the
 * engine checks the exact byte count of the others.
 */
export const MAX_TEXT_BYTES = maxTextBytes;

export function tooLarge(message: string): PatchError {
  return new PatchError({ code: 'input_too_large', message });
}

export function checkString(what: string | (() => string), value: unknown): string {
  if (typeof value === 'string' && value.length <= MAX_TEXT_BYTES && wellFormed(value)) return value;
  checkText(what, value);
  throw invalidString(typeof what === 'string' ? what : what(), value as string);
}

/**
 * {@link checkString} without the well-formedness check, for a text that goes
 * to wasm through `putInput` with its name: that check is made there, after
 * encoding, and only when the bytes hold a U+FFFD (EF BF BD), which is what
 * encodeInto writes for a lone surrogate. So argument type errors come first.
 */
export function checkText(what: string | (() => string), value: unknown): string {
  if (typeof value === 'string' && value.length <= MAX_TEXT_BYTES) return value;
  // Only a refused argument needs its name: a file map's loop passes a
  // function, not a string built for each of 100,000 files.
  const name = typeof what === 'string' ? what : what();
  if (typeof value !== 'string') {
    throw new TypeError(`applypatch: ${name} must be a string, got ${describe(value)}`);
  }
  throw tooLarge(
    `${name} is ${value.length} UTF-16 code units long, so over ${MAX_TEXT_BYTES} bytes; applypatch takes texts of at most ${MAX_TEXT_BYTES} bytes (32 MiB). Split the work into smaller files or edits.`,
  );
}

/** The error for a string with a lone surrogate. */
export function invalidString(name: string, value: string): PatchError {
  const at = value.search(loneSurrogate);
  return new PatchError({
    code: 'invalid_string',
    message: `${name} is not well-formed UTF-16: it has a lone surrogate (\\u${value.charCodeAt(at).toString(16).toUpperCase()}) at index ${at}. Such a string cannot be encoded as UTF-8 without changing it, so it is refused.`,
  });
}

/** Whether a string is well-formed UTF-16 (no lone surrogate). */
export const wellFormed = (value: string): boolean =>
  typeof value.isWellFormed === 'function' ? value.isWellFormed() : !loneSurrogate.test(value);

export function checkStrings(name: string, value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`applypatch: ${name} must be an array of strings, got ${describe(value)}`);
  }
  return value.map((v, i) => checkString(`${name}[${i}]`, v));
}

export function checkOptions(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`applypatch: options must be an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

/** The mode's number for the binding. */
export function modeCode(options: Record<string, unknown>): number {
  const mode = options.mode === undefined ? 'strict' : options.mode; // null is not a mode
  const code = typeof mode === 'string' ? (modes as readonly string[]).indexOf(mode) : -1;
  if (code < 0) {
    const allowed = modes.map((m) => `'${m}'`).join(' or ');
    throw new TypeError(`applypatch: options.mode must be ${allowed}, got ${typeof mode === 'string' ? `'${mode}'` : describe(mode)}`);
  }
  return code;
}
