// Unified diffs: parseUnified, applyUnified, unifiedDiff, and the line diff
// (lineDiff) the playground and the CLI show. All of it is the engine's
// (src/unified/); this file checks arguments and shapes results.
import { checkOptions, checkString, describe } from './args.js';
import type { FlatChanges, PreparedUnified } from './binding.js';
import { extra } from './engines/extra.js';
import { call } from './errors.js';
import { lineOps, type unifiedLineKinds, unifiedModes, type unifiedStatuses } from './generated.js';
import { baseFiles, type FileMap, type Files, fileChanges, fileMap, knownText, mergeChanges, type PatchChange, putFiles } from './patch.js';

/** How `applyUnified` matches: `'strict'` (default) or `'git'` (what `git apply` writes). */
export type UnifiedMode = (typeof unifiedModes)[number];

export interface UnifiedLine {
  kind: (typeof unifiedLineKinds)[number];
  /** The line's text, without its line break (a `\r` of a CRLF line stays). */
  text: string;
  /** `\ No newline at end of file` follows the line. */
  noNewline?: true;
  /** 1-based line in the diff. */
  line: number;
}

export interface UnifiedHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The text after the second `@@` (git's function context), may be ''. */
  section: string;
  /** 1-based diff line of the `@@` header. */
  line: number;
  lines: UnifiedLine[];
}

export interface UnifiedFile {
  /** The path before (`a/` removed); null for a new file. */
  oldPath: string | null;
  /** The path after (`b/` removed); null for a deleted file. */
  newPath: string | null;
  status: (typeof unifiedStatuses)[number];
  /** Git modes as octal strings (`'100755'`), when the diff gives them. */
  oldMode?: string;
  newMode?: string;
  /** `similarity index` of a rename or copy, in percent. */
  similarity?: number;
  /** The `index` line's value. */
  index?: string;
  /** Whether the file had a `diff --git` header. */
  git: boolean;
  /** 1-based diff line where the file's header starts. */
  line: number;
  hunks: UnifiedHunk[];
}

export interface UnifiedOptions {
  /**
   * `'strict'` (default): each hunk matches exactly, at its stated line or at
   * exactly one other place, and its lines add up to its header's counts.
   * `'git'`: what `git apply` writes.
   */
  mode?: UnifiedMode;
  /**
   * The files the diff was written against, when the files changed since:
   * the diff is applied to `base` and each file it changed merged into the
   * current one (`merge3`); a file it updates, deletes or renames must be in
   * `base`. A conflict throws `PatchError` `merge_conflict` naming the file.
   * With `report`, `hunks` are where the hunks applied in `base`.
   */
  base?: Files;
}

export interface UnifiedReportOptions extends UnifiedOptions {
  /** Return `{ files, changes, modes, hunks }` instead of the file map alone. */
  report: true;
}

/** Where a hunk applied. */
export interface HunkPlacement {
  path: string;
  /** 1-based hunk number in its file. */
  hunk: number;
  /** 1-based line where the header says the hunk's old lines start. */
  statedLine: number;
  /** Where they were found. */
  line: number;
  /** `line - statedLine`. */
  offset: number;
}

export interface UnifiedReport<T extends Files> {
  files: T;
  /**
   * Every file that changed, in the order the diff first writes it, as
   * {@link applyPatch} lists them: a rename is its destination (with
   * `movedFrom`) and its source `deleted`.
   */
  changes: PatchChange[];
  /** Git modes (`'100755'`) the diff gives to files (new files, mode changes). */
  modes: Array<{ path: string; mode: string }>;
  hunks: HunkPlacement[];
}

/** The binding's code of `options.mode` (TypeError when it is not a unified mode). @internal */
export function unifiedModeCode(options: Record<string, unknown>): number {
  const mode = options.mode ?? 'strict';
  const code = unifiedModes.indexOf(mode as UnifiedMode);
  if (code < 0) {
    throw new TypeError(
      `applypatch: options.mode must be 'strict' or 'git', got ${typeof mode === 'string' ? `'${mode}'` : describe(mode)}`,
    );
  }
  return code;
}

/**
 * Reads a unified diff (plain or git-style; text before the first file is
 * skipped) and returns its files. Throws a {@link PatchError} for a binary
 * patch, a hunk before any file header, or a hunk whose lines run out before
 * its header's counts.
 */
export function parseUnified(diff: string): UnifiedFile[] {
  checkString('diff', diff);
  return call(() => extra.wasm().parseUnified(diff)) as UnifiedFile[];
}

/**
 * Applies a unified diff to a file map (a plain object or a Map) and returns
 * a new map of the same kind, all or nothing. With `{ report: true }`,
 * returns `{ files, changes, modes, hunks }`: the files that changed (with
 * renames), the modes the diff sets and where each hunk applied.
 */
export function applyUnified<T extends Files>(files: T, diff: string, options: UnifiedReportOptions): UnifiedReport<T>;
export function applyUnified<T extends Files>(files: T, diff: string, options?: UnifiedOptions): T;
export function applyUnified<T extends Files>(
  files: T,
  diff: string,
  options?: UnifiedOptions | UnifiedReportOptions,
): T | UnifiedReport<T> {
  const map = fileMap(files);
  checkString('diff', diff);
  const opts = checkOptions(options);
  const mode = unifiedModeCode(opts);
  const report = opts.report === true;
  if (opts.base !== undefined) {
    const merged = applyUnifiedOverBase(map, diff, opts);
    return report ? merged : merged.files;
  }
  const result = withUnified(diff, mode, (prepared) => applyPreparedUnified(map, prepared, report));
  return report ? result : result.files;
}

/**
 * The `base` option: the diff applied to the `base` map, each file it
 * changed there merged into the current map (as `applyPatch`'s `base`).
 */
function applyUnifiedOverBase<T extends Files>(map: FileMap<T>, diff: string, opts: Record<string, unknown>): UnifiedReport<T> {
  const base = baseFiles(opts);
  const onBase = applyUnified(base, diff, { mode: opts.mode as UnifiedMode | undefined, report: true });
  const flat = mergeChanges(extra, map, fileMap(base), fileMap(onBase.files), onBase.changes);
  const movedFrom = new Map(onBase.changes.flatMap((c) => (c.movedFrom === undefined ? [] : [[c.path, c.movedFrom] as const])));
  return { files: map.with(flat), changes: fileChanges(extra, map, flat, movedFrom), modes: onBase.modes, hunks: onBase.hunks };
}

/**
 * Applies a prepared unified diff to a file map: the new map and, with
 * `report`, the modes it sets and where each hunk went. @internal
 */
export function applyPreparedUnified<T extends Files>(map: FileMap<T>, prepared: PreparedUnified, report: boolean): UnifiedReport<T> {
  const named = prepared.paths();
  const put = putFiles(extra, map, named);
  // A path the diff names has no file: the engine lists the map's paths near a missing one.
  if (put.paths.length < new Set(named).size) {
    const given = new Set(put.paths);
    const known = map.known(named.filter((p) => !given.has(p)));
    if (known !== undefined) prepared.knownPaths(knownText(known));
  }
  const [flat, modes, hunks, spliced] = call(() => prepared.apply(put.paths, put.lengths, report));
  const files = map.with(flat);
  if (!report) return { files, changes: [], modes: [], hunks: [] };
  const movedFrom = new Map((prepared.renames() as Array<[string, string]>).map(([from, to]) => [to, from]));
  // [path, offsets, texts, …]: the splices of each file the hunks changed in place, where they were placed.
  const placed = new Map<string, FlatChanges>();
  for (let i = 0; i < spliced.length; i += 3) placed.set(spliced[i], [spliced[i + 1], spliced[i + 2]]);
  return { files, changes: fileChanges(extra, map, flat, movedFrom, placed), modes, hunks };
}

/**
 * Parses a unified diff once (for the mode at `mode` in `unifiedModes`) and
 * runs `use` on it (its files, the paths it names, its result), then frees
 * it. @internal
 */
export function withUnified<R>(diff: string, mode: number, use: (prepared: PreparedUnified) => R): R {
  return extra.withPrepared('PreparedUnified', () => call(() => extra.wasm().prepareUnified(diff, mode)), use);
}

export interface UnifiedDiffOptions {
  /** Unchanged lines around each change (default 3). */
  context?: number;
}

function entriesOf(name: string, files: Files): [string[], string[]] {
  fileMap(files); // type checks
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  return [entries.map(([p]) => p), entries.map(([p, t]) => checkString(() => `${name}[${JSON.stringify(p)}]`, t))];
}

/**
 * A unified diff from one file map to another, git-style (`diff --git`,
 * `new file mode` / `deleted file mode`), files in path order; '' when they
 * are equal. `applyUnified(before, unifiedDiff(before, after))` gives
 * `after`, and so does `git apply`.
 */
export function unifiedDiff(before: Files, after: Files, options?: UnifiedDiffOptions): string {
  const [oldPaths, oldTexts] = entriesOf('before', before);
  const [newPaths, newTexts] = entriesOf('after', after);
  const opts = checkOptions(options);
  const context = opts.context ?? 3;
  if (typeof context !== 'number' || !Number.isInteger(context) || context < 0 || context > 1_000_000) {
    const got = typeof context === 'number' ? String(context) : describe(context);
    throw new TypeError(`applypatch: options.context must be a whole number of lines from 0 to 1000000, got ${got}`);
  }
  return extra.wasm().unifiedDiffFiles(oldPaths, oldTexts, newPaths, newTexts, context, true);
}

/**
 * The unified diff of one file (no `diff --git` line: `---` / `+++` and the
 * hunks): `oldPath` null for an added file, `newPath` null for a deleted one.
 * For the CLI's --dry-run.
 */
export function unifiedFileDiff(oldPath: string | null, newPath: string | null, before: string, after: string): string {
  return extra.wasm().unifiedDiffFile(oldPath ?? undefined, newPath ?? undefined, before, after, 3, false);
}

export interface LineOp {
  op: (typeof lineOps)[number];
  /** 0-based line in `a` (for 'add': where the line goes in `a`). */
  a: number;
  /** 0-based line in `b` (for 'del': where the line was in `b`). */
  b: number;
}

/**
 * The line diff from lines `a` to lines `b` (Myers; past 2,000 differing
 * lines the middle is reported as removed then added). Used by the
 * playground's diff view.
 */
export function lineDiff(a: readonly string[], b: readonly string[]): LineOp[] {
  const flat = extra.wasm().lineDiff([...a], [...b]);
  const ops: LineOp[] = [];
  for (let i = 0; i < flat.length; i += 3) {
    ops.push({ op: lineOps[flat[i] as number] as LineOp['op'], a: flat[i + 1] as number, b: flat[i + 2] as number });
  }
  return ops;
}
