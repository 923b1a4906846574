// parse, applyFiles and summary: `*** Begin Patch` patches over several files.
import { checkOptions, checkString, describe, modeCode } from './args.js';
import { putInputs, wasm } from './binding.js';
import type { ApplyOptions } from './diff.js';
import { call } from './errors.js';
import { engine, type RepairOptions, repairBits } from './repair.js';

/** One file operation of a patch. */
export interface Operation {
  kind: 'add' | 'delete' | 'update';
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
  const bits = repairBits(checkOptions(options), 0);
  return call(() => wasm().parsePatch(patch, bits << 8)) as Patch;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function define(target: Record<string, string>, key: string, value: string): void {
  // defineProperty, not assignment: a path named "__proto__" is a file too.
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A checked file map: how to read it, and how to build a new one from changes. */
export interface FileMap<T extends Files> {
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
  const entries: Array<[unknown, unknown]> = isMap ? [...(files as Map<unknown, unknown>)] : Object.entries(files);
  for (const [path, contents] of entries) {
    if (typeof path !== 'string' || typeof contents !== 'string') {
      throw new TypeError(`applypatch: files must map string paths to string contents; ${String(path)} maps to ${describe(contents)}`);
    }
  }
  const get = (path: string): string | undefined =>
    isMap ? (files as Map<string, string>).get(path) : Object.hasOwn(files, path) ? (files as Record<string, string>)[path] : undefined;
  const withChanges = (changes: Array<string | null>): T => {
    if (isMap) {
      const out = new Map(files as Map<string, string>);
      for (let i = 0; i < changes.length; i += 2) {
        const [path, contents] = [changes[i] as string, changes[i + 1]];
        if (contents === null) out.delete(path);
        else out.set(path, contents as string);
      }
      return out as T;
    }
    const out: Record<string, string> = Object.create(Object.getPrototypeOf(files));
    for (const [path, contents] of entries) define(out, path as string, contents as string);
    for (let i = 0; i < changes.length; i += 2) {
      const [path, contents] = [changes[i] as string, changes[i + 1]];
      if (contents === null) delete out[path];
      else define(out, path, contents as string);
    }
    return out as T;
  };
  return { get, with: withChanges };
}

/** Puts the contents of `paths` that the map has into the wasm input buffer. */
export function putFiles(map: FileMap<Files>, paths: readonly string[]): { paths: string[]; lengths: number[] } {
  const present: string[] = [];
  const texts: string[] = [];
  for (const path of paths) {
    const contents = map.get(path);
    if (contents !== undefined && !present.includes(path)) {
      present.push(path);
      texts.push(checkString(`files[${JSON.stringify(path)}]`, contents));
    }
  }
  return { paths: present, lengths: putInputs(texts) };
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
  // Only the files the patch names cross into wasm (an added file too: in
  // Strict mode one with the same contents is already applied).
  const read = call(() => wasm().parsePatch(patch, e.code) as Patch).operations.map((op) => op.path);
  const put = putFiles(map, read);
  const changes = call(() => wasm().applyFilesChanges(put.paths, put.lengths, patch, e.code));
  e.report();
  return map.with(changes);
}

/**
 * What the Codex CLI prints when the patch applies:
 * `Success. Updated the following files:` then `A path` lines (added files),
 * `M path` (updated; a move shows its destination), `D path` (deleted), each
 * ending with a newline. Throws a {@link PatchError} if the patch does not parse.
 */
export function summary(patch: string, options?: Pick<RepairOptions, 'repair'>): string {
  checkString('patch', patch);
  const bits = repairBits(checkOptions(options), 0);
  return call(() => wasm().summary(patch, bits << 8));
}
