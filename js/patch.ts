// parse, applyFiles and summary: `*** Begin Patch` patches over several files.
import { checkOptions, checkString, checkText, describe, modeCode, STRICT } from './args.js';
import { type PatchTouch, type PreparedPatch, putInput, putInputs, wasm, withPrepared } from './binding.js';
import type { ApplyOptions } from './diff.js';
import { call } from './errors.js';
import type { operationKinds } from './generated.js';
import { engine, modeCodeOf, modeOfCode, type RepairOptions, repairBits } from './repair.js';

/** One file operation of a patch. */
export interface Operation {
  kind: (typeof operationKinds)[number];
  /** The path exactly as written in the patch. */
  path: string;
  /** Update: the `*** Move to:` destination. */
  moveTo?: string;
  /** Add: the new file's contents (every `+` line followed by `\n`). */
  contents?: string;
  /**
   * Update: its body (the lines after the header and `*** Move to:`, up to the
   * next file header), each line ending in `\n`. `apply(contents, diff, { mode })`
   * does what `applyFiles` does with this operation.
   */
  diff?: string;
  /** 1-based line of the operation's header in the patch. */
  line: number;
}

export interface Patch {
  /** The `*** Environment ID:` value, when the patch has one. */
  environmentId?: string;
  operations: Operation[];
}

/** A file map: a plain object or a Map from path to contents. */
export type Files = Record<string, string> | Map<string, string>;

/**
 * Reads a `*** Begin Patch` patch as the Codex CLI does (whitespace around
 * markers, a heredoc wrapper and CRLF line breaks are accepted) and returns its
 * operations. Throws a {@link PatchError} for a malformed envelope.
 */
export function parse(patch: string, options?: Pick<RepairOptions, 'repair'>): Patch {
  checkString('patch', patch);
  const bits = repairBits(checkOptions(options), STRICT);
  return call(() => wasm().parsePatch(patch, modeCodeOf(STRICT, bits))) as Patch;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function define(target: Record<string, string>, key: string, value: string): void {
  // defineProperty, not assignment, for a path named "__proto__" (a file too);
  // plain assignment for the others keeps large maps fast.
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** A checked file map: how to read it, and how to build a new one from changes. */
export interface FileMap<T extends Files> {
  /** Every path of the map. */
  paths: string[];
  get(path: string): string | undefined;
  /** A new map of the same kind: the old one with `[path, contents | null, …]` applied. */
  with(changes: Array<string | null>): T;
}

/** Checks a file map argument (TypeError when it is not one). */
export function fileMap<T extends Files>(files: T): FileMap<T> {
  const isMap = files instanceof Map;
  if (!isMap && !isPlainObject(files)) {
    throw new TypeError(`applypatch: files must be a plain object or a Map from path to contents, got ${describe(files)}`);
  }
  // Paths and contents read once, in the map's order. Keys and values rather
  // than Object.entries: no pair array per file (4x faster at 170,000 files).
  const paths: unknown[] = [];
  const values: unknown[] = [];
  if (isMap) {
    for (const [path, contents] of files as Map<unknown, unknown>) {
      paths.push(path);
      values.push(contents);
    }
  } else {
    for (const path of Object.keys(files)) {
      paths.push(path);
      values.push((files as Record<string, unknown>)[path]);
    }
  }
  for (let i = 0; i < paths.length; i++) {
    const [path, contents] = [paths[i], values[i]];
    if (typeof path !== 'string' || typeof contents !== 'string') {
      throw new TypeError(`applypatch: files must map string paths to string contents; ${String(path)} maps to ${describe(contents)}`);
    }
  }
  const get = (path: string): string | undefined =>
    isMap ? (files as Map<string, string>).get(path) : Object.hasOwn(files, path) ? (files as Record<string, string>)[path] : undefined;
  const withChanges = (changes: Array<string | null>): T => {
    if (isMap) {
      // A Map subclass comes back as that class (as a plain object keeps its prototype).
      const out = Object.setPrototypeOf(new Map(files as Map<string, string>), Object.getPrototypeOf(files)) as Map<string, string>;
      for (let i = 0; i < changes.length; i += 2) {
        const [path, contents] = [changes[i] as string, changes[i + 1]];
        if (contents === null) out.delete(path);
        else out.set(path, contents as string);
      }
      return out as T;
    }
    const out: Record<string, string> = Object.create(Object.getPrototypeOf(files));
    for (let i = 0; i < paths.length; i++) define(out, paths[i] as string, values[i] as string);
    for (let i = 0; i < changes.length; i += 2) {
      const [path, contents] = [changes[i] as string, changes[i + 1]];
      if (contents === null) delete out[path];
      else define(out, path, contents as string);
    }
    return out as T;
  };
  return { paths: paths as string[], get, with: withChanges };
}

/** Puts the contents of `paths` that the map has into the wasm input buffer. */
export function putFiles(map: FileMap<Files>, paths: readonly string[]): { paths: string[]; lengths: number[] } {
  const present: string[] = [];
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const path of paths) {
    const contents = map.get(path);
    if (contents !== undefined && !seen.has(path)) {
      seen.add(path);
      present.push(path);
      texts.push(checkText(() => `files[${JSON.stringify(path)}]`, contents));
    }
  }
  return { paths: present, lengths: putInputs(texts, (i) => `files[${JSON.stringify(present[i])}]`) };
}

/**
 * Applies a patch to a map of files and returns a new map of the same kind
 * (plain object or Map); the argument is never changed. Operations apply in
 * order, each seeing the ones before. If any fails, it throws a
 * {@link PatchError} and nothing is returned: all or nothing.
 */
export function applyFiles<T extends Files>(files: T, patch: string, options?: ApplyOptions): T {
  const map = fileMap(files);
  checkString('patch', patch);
  const opts = checkOptions(options);
  const e = engine(opts, modeCode(opts));
  const out = withPatch(patch, e.code, (prepared) => applyPrepared(map, prepared, e.code));
  e.report();
  return out;
}

/**
 * Parses a patch once and runs `use` on it (its operations, the paths it
 * touches, its summary, its changes), then frees it. @internal
 */
export function withPatch<R>(patch: string, code: number, use: (prepared: PreparedPatch) => R): R {
  const len = putInput(patch);
  return withPrepared('PreparedPatch', () => call(() => wasm().preparePatch(len, code)), use);
}

/** Applies a prepared patch to a file map; `mode` is the binding's mode code (with the allowed repairs). @internal */
export function applyPrepared<T extends Files>(map: FileMap<T>, prepared: PreparedPatch, mode: number): T {
  return map.with(preparedChanges(map, prepared, mode));
}

/** Contents not given to the engine (`PreparedPatch.apply`, `PreparedBlocks.apply`). */
const ABSENT = 0xffffffff;

/**
 * Puts the contents of `paths` (those with `wanted[i]`, when given) that the
 * map has into the wasm input buffer, one after another. Returns each path's
 * length in bytes there, or {@link ABSENT}: the engine numbers the files by
 * position in `paths`, so no path crosses again. @internal
 */
export function putPaths(map: FileMap<Files>, paths: readonly string[], wanted?: ArrayLike<number>): Uint32Array {
  const lengths = new Uint32Array(paths.length).fill(ABSENT);
  const given: number[] = [];
  const texts: string[] = [];
  for (let i = 0; i < paths.length; i++) {
    const contents = wanted === undefined || wanted[i] ? map.get(paths[i] as string) : undefined;
    if (contents !== undefined) {
      given.push(i);
      texts.push(checkText(() => `files[${JSON.stringify(paths[i])}]`, contents));
    }
  }
  const put = putInputs(texts, (k) => `files[${JSON.stringify(paths[given[k] as number])}]`);
  for (let k = 0; k < given.length; k++) lengths[given[k] as number] = put[k] as number;
  return lengths;
}

/**
 * The engine's changes `[path, contents | null, …]` of a prepared patch over
 * a file map. The paths cross once, as one string; the contents the engine
 * reads go into the input buffer, numbered by their path's position.
 */
function preparedChanges(map: FileMap<Files>, prepared: PreparedPatch, mode: number): Array<string | null> {
  // Each path is followed by a line break (a patch's paths never hold one).
  const paths = prepared.paths().split('\n');
  paths.pop();
  // Only the files the patch reads cross into wasm; in Strict mode an added
  // file too (one with the same contents is already applied).
  const lengths = putPaths(map, paths, prepared.reads(modeOfCode(mode) === STRICT));
  const flat = call(() => prepared.apply(lengths, mode)) as Array<number | string | null>;
  for (let i = 0; i < flat.length; i += 2) flat[i] = paths[flat[i] as number] as string;
  return flat as Array<string | null>;
}

/**
 * The files that changed, from the engine's final state of each touched path
 * (`[path, contents | null, …]`) and the moves (destination → source). @internal
 */
export function fileChanges(map: FileMap<Files>, flat: Array<string | null>, movedFrom: ReadonlyMap<string, string>): PatchChange[] {
  const changes: PatchChange[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const [path, contents] = [flat[i] as string, flat[i + 1] ?? null];
    const before = map.get(path);
    if (contents === before || (contents === null && before === undefined)) continue;
    const status = contents === null ? 'deleted' : before === undefined ? 'added' : 'modified';
    const from = movedFrom.get(path);
    changes.push({ path, status, ...(from !== undefined && contents !== null ? { movedFrom: from } : {}) });
  }
  return changes;
}

/** One file a patch changed. */
export interface PatchChange {
  /** The path as written in the patch. */
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** When an update moved a file here: the file it moved (which is then `deleted`, unless written again). */
  movedFrom?: string;
}

export interface PatchResult<T extends Files> {
  /** The new file map, of the same kind as the argument. */
  files: T;
  /** Every file that changed, in the order the patch first writes them (a move: its destination, then its source). */
  changes: PatchChange[];
  /** Codex's success text, as {@link summary} gives it. */
  summary: string;
}

/**
 * {@link applyFiles}, and what a caller shows about it, from one parse of
 * the patch: the new file map, each file that changed (added, modified or
 * deleted, and where a moved file came from) and Codex's summary. All or
 * nothing: a failure throws a {@link PatchError}.
 */
export function applyPatch<T extends Files>(files: T, patch: string, options?: ApplyOptions): PatchResult<T> {
  const map = fileMap(files);
  checkString('patch', patch);
  const opts = checkOptions(options);
  const e = engine(opts, modeCode(opts));
  const result = withPatch(patch, e.code, (prepared) => {
    const flat = preparedChanges(map, prepared, e.code);
    const touches = prepared.touches() as PatchTouch[];
    const movedFrom = new Map(touches.flatMap((t) => (t.movedFrom === undefined ? [] : [[t.path, t.movedFrom] as const])));
    return { files: map.with(flat), changes: fileChanges(map, flat, movedFrom), summary: prepared.summary() };
  });
  e.report();
  return result;
}

/**
 * What the Codex CLI prints when the patch applies:
 * `Success. Updated the following files:` then `A path` lines (added files),
 * `M path` (updated; a move shows its destination), `D path` (deleted), each
 * ending with a newline. Throws a {@link PatchError} if the patch does not parse.
 */
export function summary(patch: string, options?: Pick<RepairOptions, 'repair'>): string {
  checkString('patch', patch);
  const bits = repairBits(checkOptions(options), STRICT);
  return call(() => wasm().summary(patch, modeCodeOf(STRICT, bits)));
}
