// PatchError and the closed set of error codes (generated from the engine).
import { engineErrorCodes } from './generated.js';
import type { MergeConflict } from './merge.js';

/**
 * Every `code` a {@link PatchError} can have. Codes are stable: a code never
 * changes meaning, and new ones are only added.
 */
export const errorCodes = Object.freeze(engineErrorCodes);

export type ErrorCode = (typeof errorCodes)[number];

/** The place in the input closest to what the patch expected. */
export interface Nearest {
  /** 1-based input line where the closest candidate starts. */
  line: number;
  /** The input's lines there, joined with `\n`. */
  text: string;
  /** Share of the expected lines that are equal there, 0..1. */
  similarity: number;
}

/** The other diff of an `overlap` in a batch. */
export interface Conflict {
  /** 0-based index of the other diff in the batch. */
  diff: number;
  /** 1-based line in that diff. */
  diffLine?: number;
}

export interface PatchErrorFields {
  code: ErrorCode;
  message: string;
  diffLine?: number;
  inputLines?: number[];
  path?: string;
  operation?: number;
  diff?: number;
  nearest?: Nearest;
  conflict?: Conflict;
  conflicts?: MergeConflict[];
}

/** The fields every {@link PatchError} has, whatever its code. */
interface PatchErrorBase extends Error {
  /** What kind of failure this is; one of {@link errorCodes}. */
  readonly code: ErrorCode;
  /** 1-based line in the diff or patch. */
  readonly diffLine?: number;
  /** 1-based lines of the input (for an ambiguous match, where each match starts). */
  readonly inputLines?: number[];
  /** The file, for patches over several files. */
  readonly path?: string;
  /** 0-based index of the operation in the patch. */
  readonly operation?: number;
  /** 0-based index of the diff in a batch. */
  readonly diff?: number;
  /** Where the input came closest, when a match was not found (`context_not_found` only). */
  readonly nearest?: Nearest;
  /** For an `overlap`: the other diff. */
  readonly conflict?: Conflict;
  /** For a `merge_conflict` (the `base` option): each conflict. */
  readonly conflicts?: MergeConflict[];
}

/** A `context_not_found` error: it may say where the input came closest. */
export interface ContextNotFoundError extends PatchErrorBase {
  readonly code: 'context_not_found';
  readonly conflict?: undefined;
}

/** An `overlap` of two diffs of a batch: both are named. */
export interface OverlapError extends PatchErrorBase {
  readonly code: 'overlap';
  /** 0-based index of the second of the two diffs. */
  readonly diff: number;
  /** Its first changed line. */
  readonly diffLine: number;
  /** Where each of the two changes starts in the input. */
  readonly inputLines: number[];
  readonly conflict: Conflict;
  readonly nearest?: undefined;
}

/** Every other code: no closest place, no conflicting diff. */
export interface OtherPatchError extends PatchErrorBase {
  readonly code: Exclude<ErrorCode, 'context_not_found' | 'overlap'>;
  readonly nearest?: undefined;
  readonly conflict?: undefined;
}

/**
 * A patch that could not be applied. Nothing was applied: a call that throws
 * returns no partial result. Line numbers are 1-based; indexes are 0-based.
 *
 * As a type, a union discriminated by `code`: after `e.code === 'overlap'`,
 * `e.conflict` is there; only `context_not_found` has `nearest`.
 */
export type PatchError = ContextNotFoundError | OverlapError | OtherPatchError;

/** The PatchError class: `new PatchError(fields)`, `e instanceof PatchError`. */
export interface PatchErrorConstructor {
  new (fields: PatchErrorFields): PatchError;
  readonly prototype: PatchError;
}

export const PatchError: PatchErrorConstructor = class PatchError extends Error {
  readonly code: ErrorCode;

  constructor(fields: PatchErrorFields) {
    super(fields.message);
    this.name = 'PatchError';
    this.code = fields.code;
    for (const key of ['diffLine', 'inputLines', 'path', 'operation', 'diff', 'nearest', 'conflict', 'conflicts'] as const) {
      if (fields[key] !== undefined) {
        Object.defineProperty(this, key, { value: fields[key], enumerable: true });
      }
    }
  }
} as unknown as PatchErrorConstructor;

/** Runs a wasm call, turning the plain error objects it throws into PatchErrors. */
export function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e !== null && typeof e === 'object' && typeof (e as PatchErrorFields).code === 'string' && !(e instanceof Error)) {
      throw new PatchError(e as PatchErrorFields);
    }
    throw e;
  }
}
