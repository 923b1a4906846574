// parse, applyFiles and summary: `*** Begin Patch` patches over several files.
import { checkOptions, checkString, checkText, describe, modeCode, STRICT } from './args.js';
import type { AnyEngine, FlatChanges, PatchTouch, PreparedPatch } from './binding.js';
import { type ApplyOptions, type DistributiveOmit, splice } from './diff.js';
import { core } from './engines/core.js';
import { call, PatchError } from './errors.js';
import type { operationKinds } from './generated.js';
import { mergeFile } from './merge.js';
import { addSplices, type Splice } from './positions.js';
import { callMode, modeCodeOf, modeOfCode, type RepairOptions, repairBits } from './repair.js';

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
  return call(() => core.wasm().parsePatch(patch, modeCodeOf(STRICT, bits))) as Patch;
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

/**
 * Every path of the caller's files, when a map holds only some of them: the
 * paths its functions are missing (`missing`) are given, so that a lister can
 * decline (undefined: the paths cannot all be listed). @internal
 */
export type ListPaths = (missing: readonly string[]) => readonly string[] | undefined;

/** Maps that hold only some of the caller's files (a directory's files the patch touches), with their lister if any. */
const partial = new WeakMap<object, ListPaths | undefined>();

/**
 * Marks a file map as holding only some of the files (a directory's, read for
 * one patch): a path missing from it may be a file elsewhere. Without `list`,
 * no near paths are listed and a Delete of a missing path is not taken as
 * done; with it, `list` is called only when a path the engine reads is
 * missing, and what it returns stands for every path (as a complete map's
 * keys do). @internal
 */
export function partialMap<T extends Files>(files: T, list?: ListPaths): T {
  partial.set(files, list);
  return files;
}

/** A checked file map: how to read it, and how to build a new one from changes. */
export interface FileMap<T extends Files> {
  /** Every path of the map. */
  paths: string[];
  /**
   * Every path of the caller's files, for the near paths of the `missing`
   * ones: the map's own (a complete map: not a {@link partialMap}), its
   * lister's, or undefined (unknown). Called only on a path the engine
   * reads that has no file.
   */
  known(missing: readonly string[]): readonly string[] | undefined;
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
  const complete = !partial.has(files);
  const known = (missing: readonly string[]): readonly string[] | undefined =>
    complete ? (paths as string[]) : partial.get(files)?.(missing);
  return { paths: paths as string[], known, get, with: withChanges };
}

/** Puts the contents of `paths` that the map has into `engine`'s input buffer. */
export function putFiles(engine: AnyEngine, map: FileMap<Files>, paths: readonly string[]): { paths: string[]; lengths: number[] } {
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
  return { paths: present, lengths: engine.putInputs(texts, (i) => `files[${JSON.stringify(present[i])}]`) };
}

/** The options of the file-map functions: `base` is a file map there. */
export type FilesOptions = DistributiveOmit<ApplyOptions, 'base'> & {
  /**
   * The files the patch was written against, when the files changed since:
   * the patch is applied to `base` and each file it changed merged into the
   * current one (`merge3`); a file it updates, deletes or moves must be in
   * `base`. A conflict throws `PatchError` `merge_conflict` naming the file.
   */
  base?: Files;
};

/**
 * Applies a patch to a map of files and returns a new map of the same kind
 * (plain object or Map); the argument is never changed. Operations apply in
 * order, each seeing the ones before. If any fails, it throws a
 * {@link PatchError} and nothing is returned: all or nothing.
 */
export function applyFiles<T extends Files>(files: T, patch: string, options?: FilesOptions): T {
  const map = fileMap(files);
  // Its lone surrogates are refused as it is put into wasm memory (withPatch).
  checkText('patch', patch);
  const opts = checkOptions(options);
  if (opts.base !== undefined) return applyPatch(files, patch, opts).files;
  const e = callMode(opts, modeCode(opts));
  const out = withPatch(patch, e.code, (prepared) => applyPrepared(map, prepared, e.code));
  e.report();
  return out;
}

/**
 * Parses a patch once and runs `use` on it (its operations, the paths it
 * touches, its summary, its changes), then frees it. @internal
 */
export function withPatch<R>(patch: string, code: number, use: (prepared: PreparedPatch) => R): R {
  const len = core.putInput(patch, 0, 'patch');
  return core.withPrepared('PreparedPatch', () => call(() => core.wasm().preparePatch(len, code)), use);
}

/** Applies a prepared patch to a file map; `mode` is the binding's mode code (with the allowed repairs). @internal */
export function applyPrepared<T extends Files>(map: FileMap<T>, prepared: PreparedPatch, mode: number): T {
  return map.with(preparedChanges(map, prepared, mode));
}

/** Paths for the engine's `knownPaths`: each followed by a line break (paths holding one left out). @internal */
export function knownText(paths: readonly string[]): string {
  return paths.filter((p) => !p.includes('\n')).join('\n');
}

/**
 * The paths of `known` near `path`, as the engine's messages list them
 * (`'a, b and c'`), or `''` when none is: for a wrapper's own message about
 * a path with no file. @internal
 */
export function nearPaths(path: string, known: readonly string[]): string {
  return call(() => core.wasm().nearPaths(path, knownText(known)));
}

/** Contents not given to the engine (`PreparedPatch.apply`, `PreparedBlocks.apply`). */
const ABSENT = 0xffffffff;

/**
 * Puts the contents of `paths` (those with `wanted[i]`, when given) that the
 * map has into the wasm input buffer, one after another. Returns each path's
 * length in bytes there, or {@link ABSENT}: the engine numbers the files by
 * position in `paths`, so no path crosses again. @internal
 */
export function putPaths(engine: AnyEngine, map: FileMap<Files>, paths: readonly string[], wanted?: ArrayLike<number>): Uint32Array {
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
  const put = engine.putInputs(texts, (k) => `files[${JSON.stringify(paths[given[k] as number])}]`);
  for (let k = 0; k < given.length; k++) lengths[given[k] as number] = put[k] as number;
  return lengths;
}

/**
 * The engine's changes `[path, contents | null, …]` of a prepared patch over
 * a file map. The paths cross once, as one string; the contents the engine
 * reads go into the input buffer, numbered by their path's position.
 */
function preparedChanges(
  map: FileMap<Files>,
  prepared: PreparedPatch,
  mode: number,
  placed?: Map<string, Uint32Array>,
): Array<string | null> {
  // Each path is followed by a line break (a patch's paths never hold one).
  const paths = prepared.paths().split('\n');
  paths.pop();
  // Only the files the patch reads cross into wasm; in Strict mode an added
  // file too (one with the same contents is already applied).
  const reads = prepared.reads(modeOfCode(mode) === STRICT);
  const lengths = putPaths(core, map, paths, reads);
  // A path the patch reads has no file: the engine lists the map's paths near it.
  const read = modeOfCode(mode) === STRICT ? prepared.reads(false) : reads;
  const missing = paths.filter((p, i) => read[i] && map.get(p) === undefined);
  const known = missing.length > 0 ? map.known(missing) : undefined;
  if (known !== undefined) prepared.knownPaths(knownText(known));
  const left = call(() => prepared.applyLeft(lengths, mode, placed !== undefined));
  return leftFiles(map, paths, left, placed);
}

/**
 * The final state of each path `PreparedPatch.applyLeft` left in the
 * engine's memory at `ptr` (src/wasm/patch.rs), as `[path, contents | null,
 * …]`: a file made from the one given by one update is that file with the
 * update's splices, so only its changed lines were decoded. With `placed`,
 * where those updates placed their changes, by path. Read right after the
 * call (also `applyOperationChanges`', whose paths are the operation's path
 * and its `moveTo`). @internal
 */
export function leftFiles(
  map: FileMap<Files>,
  paths: readonly (string | undefined)[],
  ptr: number,
  placed?: Map<string, Uint32Array>,
): Array<string | null> {
  const words = core.memoryWords();
  let at = ptr >>> 2;
  const flat: Array<string | null> = [];
  for (let n = words[at++] as number; n > 0; n--) {
    const path = paths[words[at] as number] as string;
    const kind = words[at + 1];
    const text = kind === 0 ? null : core.memoryText(words[at + 2] as number, words[at + 3] as number);
    const end = at + 5 + 3 * (words[at + 4] as number);
    flat.push(path, kind === 2 ? splice(map.get(path) as string, [words.subarray(at + 5, end), text as string]) : text);
    at = end;
  }
  if (placed !== undefined) {
    // Then [index, n, start, end, newStart, newEnd, …], where one update placed each file's changes (trimmed when read).
    const s = words.slice(at + 1, at + 1 + (words[at] as number));
    for (let i = 0; i < s.length; i += 2 + 4 * (s[i + 1] as number)) {
      placed.set(paths[s[i] as number] as string, s.subarray(i + 2, i + 2 + 4 * (s[i + 1] as number)));
    }
  }
  core.doneReading();
  return flat;
}

/**
 * The files that changed, from the engine's final state of each touched path
 * (`[path, contents | null, …]`) and the moves (destination → source). @internal
 */
export function fileChanges(
  engine: AnyEngine,
  map: FileMap<Files>,
  flat: Array<string | null>,
  movedFrom: ReadonlyMap<string, string>,
  placed?: ReadonlyMap<string, FlatChanges | Uint32Array>,
): PatchChange[] {
  const changes: PatchChange[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const [path, contents] = [flat[i] as string, flat[i + 1] ?? null];
    const before = map.get(path);
    if (contents === before || (contents === null && before === undefined)) continue;
    const status = contents === null ? 'deleted' : before === undefined ? 'added' : 'modified';
    const from = movedFrom.get(path);
    const change: PatchChange = { path, status, ...(from !== undefined && contents !== null ? { movedFrom: from } : {}) };
    changes.push(status === 'modified' ? addSplices(engine, change, before as string, contents as string, placed?.get(path)) : change);
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
  /**
   * `modified` only: the changes from the file as given to its new contents,
   * as minimal splices (UTF-16 offsets), for an editor. Computed by the
   * engine on first read; not enumerable.
   */
  readonly splices?: Splice[];
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
export function applyPatch<T extends Files>(files: T, patch: string, options?: FilesOptions): PatchResult<T> {
  const map = fileMap(files);
  checkText('patch', patch);
  const opts = checkOptions(options);
  if (opts.base !== undefined) return applyPatchOverBase(map, patch, opts);
  const e = callMode(opts, modeCode(opts));
  const result = withPatch(patch, e.code, (prepared) => {
    const placed = new Map<string, Uint32Array>();
    const flat = preparedChanges(map, prepared, e.code, placed);
    const touches = prepared.touches() as PatchTouch[];
    const movedFrom = new Map(touches.flatMap((t) => (t.movedFrom === undefined ? [] : [[t.path, t.movedFrom] as const])));
    return { files: map.with(flat), changes: fileChanges(core, map, flat, movedFrom, placed), summary: prepared.summary() };
  });
  e.report();
  return result;
}

/**
 * The `base` option of the file-map functions: the patch applied to the
 * `base` map (a file it updates, deletes or moves must be there), then each
 * file it changed merged into the current map: an updated file is merged
 * (`merge_conflict` names the file), an added one written, a deleted one
 * removed. Files the patch does not touch are never merged.
 */
function applyPatchOverBase<T extends Files>(map: FileMap<T>, patch: string, opts: Record<string, unknown>): PatchResult<T> {
  const base = baseFiles(opts);
  const onBase = applyPatch(base, patch, { ...opts, base: undefined });
  const flat = mergeChanges(core, map, fileMap(base), fileMap(onBase.files), onBase.changes);
  const movedFrom = new Map(onBase.changes.flatMap((c) => (c.movedFrom === undefined ? [] : [[c.path, c.movedFrom] as const])));
  return { files: map.with(flat), changes: fileChanges(core, map, flat, movedFrom), summary: onBase.summary };
}

/** The `base` option of a file-map function: a file map (TypeError otherwise). @internal */
export function baseFiles(options: Record<string, unknown>): Files {
  const base = options.base;
  if (!(base instanceof Map) && !isPlainObject(base)) {
    throw new TypeError(
      `applypatch: options.base must be a file map here (a plain object or a Map from path to contents, the files as the patch's author read them), got ${describe(base)}`,
    );
  }
  return base as Files;
}

/** A file a patch changed in the `base` map (`PatchChange` without its splices). @internal */
export interface BaseChange {
  path: string;
  status: PatchChange['status'];
  movedFrom?: string;
}

/**
 * The `base` option over a file map: each file a patch changed in `base`
 * (`patched`: the base map with the patch applied; `changes`: what changed
 * there) merged into the current map, as `[path, contents | null, …]`. An
 * updated file, or a moved one, is merged from its base and current
 * contents (`merge_conflict` names the file); an added one is written; a
 * deleted one removed, unless it changed since the base (then deleting it
 * would lose the change: `merge_conflict`). Files the patch does not touch
 * are never merged. @internal
 */
export function mergeChanges(
  engine: AnyEngine,
  map: FileMap<Files>,
  baseMap: FileMap<Files>,
  patched: FileMap<Files>,
  changes: readonly BaseChange[],
): Array<string | null> {
  const flat: Array<string | null> = [];
  // A moved file's source is deleted; its changes since the base go with it to the destination.
  const moved = new Set(changes.flatMap((c) => (c.movedFrom === undefined ? [] : [c.movedFrom])));
  for (const { path, status, movedFrom } of changes) {
    if (status === 'deleted') {
      const now = map.get(path);
      if (!moved.has(path) && now !== undefined && now !== baseMap.get(path)) throw deletedChanged(path);
      flat.push(path, null);
      continue;
    }
    const from = movedFrom ?? path;
    const before = baseMap.get(from);
    const after = patched.get(path) as string;
    if (before === undefined) {
      flat.push(path, after);
      continue;
    }
    const now = map.get(from);
    if (now === undefined) {
      throw new PatchError({
        code: 'file_not_found',
        path: from,
        message: `${from}: the patch updates this file, which the base has and the files do not. Nothing was applied. Give the file's current contents.`,
      });
    }
    flat.push(path, mergeFile(engine, path, before, now, after));
  }
  return flat;
}

/**
 * A patch that deletes a file changed since the text it was written against:
 * deleting it would lose the change, so it is a conflict.
 */
export function deletedChanged(path: string): PatchError {
  return new PatchError({
    code: 'merge_conflict',
    path,
    message: `${path}: the patch deletes this file, but the file changed since the text the patch was written against. Nothing was applied. Read the file again, and delete it only if its new contents should go too.`,
    conflicts: [],
  });
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
  return call(() => core.wasm().summary(patch, modeCodeOf(STRICT, bits)));
}
