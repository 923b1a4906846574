// merge3: the three-way merge (git merge-file -p), and the `base` option of
// the apply functions: the patch applied to the text it was written against,
// merged into the text as it is now.
import { checkOptions, checkString, describe } from './args.js';
import type { AnyEngine, FlatChanges } from './binding.js';
import { core } from './engines/core.js';
import { call, PatchError } from './errors.js';
import { type Splice, splicesOf } from './positions.js';

/** How conflicts are written: `merge` (default), `diff3` or `zdiff3`, as git's `merge.conflictStyle`. */
export type MergeStyle = 'merge' | 'diff3' | 'zdiff3';

export interface Merge3Options {
  /** How conflicts are written (default `'merge'`). */
  style?: MergeStyle;
  /**
   * The names after the markers, as `git merge-file -L`: ours (after
   * `<<<<<<<`), the base (after `|||||||`), theirs (after `>>>>>>>`).
   * Missing: the marker alone.
   */
  labels?: readonly [string?, string?, string?];
}

/** A conflict: each text's lines it covers, `[first, last]`, 1-based; an empty range is `[n + 1, n]`. */
export interface MergeConflict {
  /** The file, for file maps. */
  path?: string;
  ours: [number, number];
  base: [number, number];
  theirs: [number, number];
}

export interface Merge3Result {
  /** True when nothing conflicts. */
  ok: boolean;
  /** What `git merge-file -p` writes: the merge, with conflict markers where the sides conflict. */
  text: string;
  /** The conflicts, in order. */
  conflicts: MergeConflict[];
}

const styles: readonly string[] = ['merge', 'diff3', 'zdiff3'];

/**
 * Merges `ours` and `theirs`, two versions of `base`, line by line: the
 * result is what `git merge-file -p` (git's default diff) writes, byte for
 * byte, markers included. Conflicts do not throw: `ok` is false and
 * `conflicts` says where.
 */
export function merge3(base: string, ours: string, theirs: string, options?: Merge3Options): Merge3Result {
  checkString('base', base);
  checkString('ours', ours);
  checkString('theirs', theirs);
  const opts = checkOptions(options);
  const style = opts.style === undefined ? 'merge' : opts.style;
  if (typeof style !== 'string' || !styles.includes(style)) {
    const got = typeof style === 'string' ? JSON.stringify(style) : describe(style);
    throw new TypeError(`applypatch: options.style must be 'merge', 'diff3' or 'zdiff3', got ${got}`);
  }
  const labels = opts.labels === undefined ? [] : opts.labels;
  if (!Array.isArray(labels) || labels.length > 3 || labels.some((l) => l !== undefined && typeof l !== 'string')) {
    throw new TypeError(`applypatch: options.labels must be an array of up to 3 strings, got ${describe(labels)}`);
  }
  for (let i = 0; i < labels.length; i++) if (labels[i] !== undefined) checkString(`options.labels[${i}]`, labels[i]);
  const [b, o, t] = core.putInputs([base, ours, theirs]) as [number, number, number];
  const r = call(() => core.wasm().merge3(b, o, t, style, labels[0], labels[1], labels[2])) as Omit<Merge3Result, 'ok'>;
  return { ok: r.conflicts.length === 0, text: r.text, conflicts: r.conflicts };
}

/** The `base` option's text, checked (undefined: no `base`). */
export function baseOption(options: Record<string, unknown>): string | undefined {
  return options.base === undefined ? undefined : checkString('options.base', options.base);
}

/**
 * The `base` option: `patched` (the patch applied to `base`) merged into
 * `input`; a conflict throws `PatchError` `merge_conflict`. Every engine has
 * the merge: `engine` is the one of the format that patched.
 */
export function mergeInto(engine: AnyEngine, base: string, input: string, patched: string): string {
  const [b, i, p] = engine.putInputs([base, input, patched]) as [number, number, number];
  return call(() => engine.wasm().mergeInto(b, i, p));
}

/**
 * {@link mergeInto}, and the merged text's minimal splices against `input`,
 * taken from the merge itself (the regions where it took the patch's lines):
 * what `report: true` answers with `base`, without diffing the input and the
 * merged text again.
 */
export function mergeWithSplices(engine: AnyEngine, base: string, input: string, patched: string): { text: string; splices: Splice[] } {
  const [b, i, p] = engine.putInputs([base, input, patched]) as [number, number, number];
  const [text, flat] = call(() => engine.wasm().mergeIntoSplices(b, i, p)) as [string, FlatChanges];
  return { text, splices: splicesOf(flat) };
}

/**
 * Runs a merge of one file of a file map (`path`; undefined: a text): a
 * `merge_conflict` names the file (`path` on the error and on each
 * conflict, the message led by it).
 */
export function mergeNamed<T>(path: string | undefined, merge: () => T): T {
  try {
    return merge();
  } catch (e) {
    if (path !== undefined && e instanceof PatchError && e.code === 'merge_conflict') {
      throw new PatchError({
        ...e,
        code: e.code,
        message: `${path}: ${e.message}`,
        path,
        conflicts: e.conflicts?.map((c) => ({ path, ...c })),
      });
    }
    throw e;
  }
}

/** {@link mergeInto} for one file of a file map: a `merge_conflict` names the file. */
export function mergeFile(engine: AnyEngine, path: string, base: string, input: string, patched: string): string {
  return mergeNamed(path, () => mergeInto(engine, base, input, patched));
}
