/// <reference types="node" />
// Patches and Responses API operations on a directory: plan in memory, then
// commit all or nothing (./directory.ts).
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { checkOptions, checkString, modeCode } from '../args.js';
import type { PatchTouch } from '../binding.js';
import type { ApplyOptions, DistributiveOmit } from '../diff.js';
import { PatchError } from '../errors.js';
import { type ApplyPatchOperation, applyOperation, type CheckedOperation } from '../operation.js';
import { applyPatch, applyPrepared, type Files, fileMap, type Patch, partialMap, withPatch } from '../patch.js';
import { callMode, type Repair, type RepairOptions } from '../repair.js';
import { unifiedFileDiff as unifiedDiff } from '../unified.js';
import {
  binaryError,
  type Change,
  commit,
  type Fs,
  listFiles,
  openRoot,
  type Root,
  readTarget,
  resolveTarget,
  type Target,
} from './directory.js';

/** A path the patch touches; `needsText`: its contents are read (an update's source). */
export interface Touch {
  path: string;
  needsText: boolean;
  /** The patch deletes it (a delete, or the source of a move). */
  deletes?: boolean;
}

export interface Plan {
  targets: Target[];
  changes: Change[];
  /** Contents before and after, by path as written ('' for files not read as text). */
  before: Map<string, string>;
  /** Files that are not text, never read as such: only deleted or replaced whole. */
  unread: Set<string>;
  after: Map<string, string>;
  /** Moves: destination → source. */
  moves: Map<string, string>;
}

/**
 * Resolves and reads every touched path, runs `compute` on the file map, and
 * lists the changes to write. Writes nothing.
 */
export function plan(
  root: Root,
  touches: Touch[],
  moves: Map<string, string>,
  compute: (files: Map<string, string>) => Map<string, string>,
  fs: Fs,
): Plan {
  const byPath = new Map<string, Target>();
  const byReal = new Map<string, string>();
  const gone = new Set(touches.filter((t) => t.deletes).map((t) => nodePath.normalize(t.path)));
  for (const { path } of touches) {
    if (byPath.has(path)) continue;
    const t = resolveTarget(root, path, fs, gone);
    const other = byReal.get(t.real);
    if (other !== undefined) {
      throw new PatchError({
        code: 'invalid_path',
        message: `${other} and ${path} name the same file: write every path of a file the same way in one patch. Nothing was written.`,
        path,
      });
    }
    byReal.set(t.real, path);
    byPath.set(path, t);
    readTarget(t, fs);
  }
  const needsText = new Set(touches.filter((t) => t.needsText).map((t) => t.path));
  const before = new Map<string, string>();
  const unread = new Set<string>();
  for (const [path, t] of byPath) {
    if (t.kind !== 'file') continue;
    if (t.text !== undefined) before.set(path, t.text);
    else if (needsText.has(path)) throw binaryError(path);
    else {
      // The engine only needs to know it exists: every operation on it deletes or replaces it whole.
      before.set(path, '');
      unread.add(path);
    }
  }
  const after = compute(before);
  const changes: Change[] = [];
  for (const [path, t] of byPath) {
    const old = before.get(path);
    const now = after.get(path);
    // A file not read as text is touched only to be deleted or replaced: its new state is the patch's.
    if (now === old && !unread.has(path)) continue;
    const source = moves.get(path);
    const mode = (source !== undefined ? byPath.get(source)?.mode : undefined) ?? t.mode;
    changes.push({ target: t, contents: now ?? null, ...(mode !== undefined ? { mode } : {}) });
  }
  return { targets: [...byPath.values()], changes, before, unread, after, moves };
}

/** The final state of one file a patch changed. */
export interface DirectoryChange {
  /** The path as written in the patch. */
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** For the destination of a move: the path it was moved from (which is listed as deleted). */
  movedFrom?: string;
}

export interface DirectoryResult {
  /** False for a dry run: nothing was written. */
  applied: boolean;
  /** Every file that changed (a move is its destination added or modified and its source deleted). */
  changes: DirectoryChange[];
  /** A unified diff of every change (dry runs, or when asked with `diff: true`). */
  diff?: string;
  /** With the `repair` option: every repair made (also passed to `onRepair`). */
  repairs?: Repair[];
}

export type DirectoryOptions = DistributiveOmit<ApplyOptions, 'base'> & {
  /**
   * The files the patch was written against (paths relative to the root),
   * when the directory changed since: each file the patch changes is merged
   * into the file on disk (`applyPatch`'s `base`); a conflict throws
   * `merge_conflict` and writes nothing.
   */
  base?: Files;
  /** Compute and check everything, return the diff, write nothing. */
  dryRun?: boolean;
  /** Also return a unified diff of what changed. */
  diff?: boolean;
  /** @internal Replaces node:fs functions (tests inject failures). */
  fs?: Partial<Fs>;
  /** @internal Hooks of the tool handlers (./tools.ts): merge bases, the plan's texts. */
  hooks?: PlanHooks;
};

/** @internal How the tool handlers (./tools.ts) take part in a plan. */
export interface PlanHooks {
  /** Computes the new texts from the texts on disk; `apply` is the edit itself. */
  compute?: (files: Map<string, string>, apply: (files: Map<string, string>) => Map<string, string>) => Map<string, string>;
  /** Sees the plan before it is written (or not, for a dry run). */
  planned?: (p: Plan) => void;
}

/** `apply`, through the hooks' `compute` when there is one. @internal */
export function computeWith(
  hooks: PlanHooks | undefined,
  apply: (files: Map<string, string>) => Map<string, string>,
): (files: Map<string, string>) => Map<string, string> {
  const compute = hooks?.compute;
  return compute === undefined ? apply : (files) => compute(files, apply);
}

export function changesOf(p: Plan): DirectoryChange[] {
  return p.changes.map((c) => {
    const path = c.target.path;
    const status = c.contents === null ? 'deleted' : p.before.has(path) ? 'modified' : 'added';
    const from = c.contents === null ? undefined : p.moves.get(path);
    return from === undefined || from === path ? { path, status } : { path, status, movedFrom: from };
  });
}

/** A unified diff of a plan: moves as one file diff from the source to the destination. */
export function diffOf(p: Plan): string {
  let out = '';
  const movedFrom = new Set<string>();
  for (const c of p.changes) {
    if (c.contents !== null && p.moves.has(c.target.path)) movedFrom.add(p.moves.get(c.target.path)!);
  }
  for (const c of p.changes) {
    const path = c.target.path;
    if (c.contents === null && movedFrom.has(path)) continue;
    const source = p.moves.get(path);
    const fromPath = c.contents !== null && source !== undefined && movedFrom.has(source) ? source : path;
    const old = p.before.get(fromPath);
    if (p.unread.has(fromPath)) {
      out += `Binary file ${path} ${c.contents === null ? 'deleted' : 'replaced'}\n`;
      if (c.contents !== null) out += unifiedDiff(null, path, '', c.contents);
      continue;
    }
    out += unifiedDiff(old === undefined ? null : fromPath, c.contents === null ? null : path, old ?? '', c.contents ?? '');
  }
  return out;
}

/** The repair options to pass on: `repair` as given, and an `onRepair` that also collects into `into`. */
export function repairOptions(opts: RepairOptions, into: Repair[]): RepairOptions {
  if (opts.repair === undefined) return {};
  const onRepair = opts.onRepair;
  return {
    repair: opts.repair,
    onRepair: (r) => {
      into.push(r);
      if (typeof onRepair === 'function') onRepair(r);
    },
  };
}

/**
 * The files a plan read, as a partial map whose other paths the root lists
 * when a path the engine reads has no file (bounded: {@link listFiles}), for
 * the near paths and the Delete rule of a complete map. @internal
 */
export function listedMap(root: Root, files: Map<string, string>, fs: Fs): Map<string, string> {
  return partialMap(files, (missing) => listFiles(root, fs, missing));
}

function withFs(fs?: Partial<Fs>): Fs {
  return fs === undefined ? nodeFs : { ...nodeFs, ...fs };
}

export function checkRoot(root: unknown): string {
  if (typeof root !== 'string' || root === '') throw new TypeError('applypatch: root must be the path of a directory (a non-empty string)');
  return root;
}

/**
 * Applies a `*** Begin Patch` patch to the files under `root`, all or
 * nothing: paths stay inside the root (absolute paths, `..` escapes and
 * symlinks leading outside are refused), the whole result is computed before
 * anything is written, files are replaced through temporary files renamed
 * into place, and a failed write undoes every change already made. Throws a
 * {@link PatchError} when the patch does not apply or cannot be written.
 */
export function applyPatchToDirectory(root: string, patch: string, options?: DirectoryOptions): DirectoryResult {
  return patchDirectory(root, patch, options).result;
}

/**
 * applyPatchToDirectory, and Codex's summary of the patch: the patch is
 * parsed once, and the engine says which paths it touches (an update reads
 * the file from disk unless the patch wrote it first), the moves and the
 * summary. @internal
 */
export function patchDirectory(root: string, patch: string, options?: DirectoryOptions): { result: DirectoryResult; summary: string } {
  checkRoot(root);
  checkString('patch', patch);
  const opts = checkOptions(options) as DirectoryOptions;
  const mode = modeCode(opts as Record<string, unknown>);
  const fs = withFs(opts.fs);
  const e = callMode(opts as Record<string, unknown>, mode);
  const out = withPatch(patch, e.code, (prepared) => {
    // The paths the patch deletes (a delete, or a move's source), from the one parse.
    const deleted = new Set<string>();
    for (const op of (prepared.operations() as Patch).operations) {
      if (op.kind === 'delete' || (op.moveTo !== undefined && op.moveTo !== op.path)) deleted.add(op.path);
    }
    const touches: Touch[] = [];
    const moves = new Map<string, string>();
    for (const t of prepared.touches() as PatchTouch[]) {
      touches.push({ path: t.path, needsText: t.needsText, deletes: deleted.has(t.path) });
      if (t.movedFrom !== undefined) moves.set(t.path, t.movedFrom);
    }
    const dryRun = opts.dryRun === true;
    const dir = openRoot(root, fs);
    let p: Plan;
    try {
      const base = opts.base;
      const run =
        base === undefined
          ? (files: Map<string, string>) => applyPrepared(fileMap(listedMap(dir, files, fs)), prepared, e.code)
          : (files: Map<string, string>) =>
              applyPatch(partialMap(files), patch, { mode: opts.mode, repair: opts.repair, base: partialMap(base) } as Parameters<
                typeof applyPatch
              >[2]).files;
      p = plan(dir, touches, moves, computeWith(opts.hooks, run), fs);
      opts.hooks?.planned?.(p);
      if (!dryRun) commit(dir, p.changes, fs);
    } finally {
      dir.close();
    }
    const result: DirectoryResult = { applied: !dryRun, changes: changesOf(p) };
    if (dryRun || opts.diff === true) result.diff = diffOf(p);
    return { result, summary: prepared.summary() };
  });
  const repairs = e.report();
  if (opts.repair !== undefined && opts.repair !== false) out.result.repairs = repairs;
  return out;
}

/** One Responses API operation on a directory (for the directory editor). */
export function applyOperationToDirectory(root: string, op: CheckedOperation, options: ApplyOptions, fs: Fs): Plan {
  const moved = op.moveTo !== undefined && op.moveTo !== op.path;
  const touches: Touch[] = [{ path: op.path, needsText: op.type === 'update_file', deletes: op.type === 'delete_file' || moved }];
  const moves = new Map<string, string>();
  if (op.moveTo !== undefined && op.moveTo !== op.path) {
    touches.push({ path: op.moveTo, needsText: false });
    moves.set(op.moveTo, op.path);
  }
  const operation: ApplyPatchOperation =
    op.type === 'update_file'
      ? { type: op.type, path: op.path, diff: op.diff, ...(op.moveTo !== undefined ? { moveTo: op.moveTo } : {}) }
      : op.type === 'create_file'
        ? { type: op.type, path: op.path, diff: op.diff }
        : { type: op.type, path: op.path };
  const dir = openRoot(root, fs);
  try {
    const p = plan(dir, touches, moves, (files) => applyOperation(listedMap(dir, files, fs), operation, options), fs);
    commit(dir, p.changes, fs);
    return p;
  } finally {
    dir.close();
  }
}

export { withFs };
