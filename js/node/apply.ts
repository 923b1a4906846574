/// <reference types="node" />
// Patches and Responses API operations on a directory: plan in memory, then
// commit all or nothing (./directory.ts).
import * as nodeFs from 'node:fs';
import { checkOptions, checkString, type Mode, modeCode } from '../args.js';
import type { ApplyOptions } from '../diff.js';
import { PatchError } from '../errors.js';
import { type ApplyPatchOperation, applyOperation, type CheckedOperation } from '../operation.js';
import { applyFiles, parse } from '../patch.js';
import type { Repair, RepairOptions } from '../repair.js';
import { unifiedFileDiff as unifiedDiff } from '../unified.js';
import { binaryError, type Change, commit, type Fs, readTarget, realRoot, resolveTarget, type Target } from './directory.js';

/** Stands for a file that is not text and is only replaced or deleted: a NUL never comes from a file read as text. */
const NOT_TEXT = '\0applypatch: not text\0';

/** A path the patch touches; `needsText`: its contents are read (an update's source). */
export interface Touch {
  path: string;
  needsText: boolean;
}

export interface Plan {
  targets: Target[];
  changes: Change[];
  /** Contents before and after, by path as written (NOT_TEXT for files not read as text). */
  before: Map<string, string>;
  after: Map<string, string>;
  /** Moves: destination → source. */
  moves: Map<string, string>;
}

/**
 * Resolves and reads every touched path, runs `compute` on the file map, and
 * lists the changes to write. Writes nothing.
 */
export function plan(
  root: string,
  touches: Touch[],
  moves: Map<string, string>,
  compute: (files: Map<string, string>) => Map<string, string>,
  fs: Fs,
): Plan {
  const real = realRoot(root, fs);
  const byPath = new Map<string, Target>();
  const byReal = new Map<string, string>();
  for (const { path } of touches) {
    if (byPath.has(path)) continue;
    const t = resolveTarget(real, path, fs);
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
  for (const [path, t] of byPath) {
    if (t.kind !== 'file') continue;
    if (t.text !== undefined) before.set(path, t.text);
    else if (needsText.has(path)) throw binaryError(path);
    else before.set(path, NOT_TEXT);
  }
  const after = compute(before);
  const changes: Change[] = [];
  for (const [path, t] of byPath) {
    const old = before.get(path);
    const now = after.get(path);
    if (now === old) continue;
    if (now === NOT_TEXT) throw new Error(`applypatch: internal error: ${path} would be written without being read`);
    const source = moves.get(path);
    const mode = (source !== undefined ? byPath.get(source)?.mode : undefined) ?? t.mode;
    changes.push({ target: t, contents: now ?? null, ...(mode !== undefined ? { mode } : {}) });
  }
  return { targets: [...byPath.values()], changes, before, after, moves };
}

/** The final state of one file a patch changed. */
export interface DirectoryChange {
  /** The path as written in the patch. */
  path: string;
  status: 'added' | 'modified' | 'deleted';
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

export interface DirectoryOptions extends ApplyOptions {
  /** Compute and check everything, return the diff, write nothing. */
  dryRun?: boolean;
  /** Also return a unified diff of what changed. */
  diff?: boolean;
  /** @internal Replaces node:fs functions (tests inject failures). */
  fs?: Partial<Fs>;
}

export function changesOf(p: Plan): DirectoryChange[] {
  return p.changes.map((c) => ({
    path: c.target.path,
    status: c.contents === null ? 'deleted' : p.before.has(c.target.path) ? 'modified' : 'added',
  }));
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
    if (old === NOT_TEXT) {
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
  checkRoot(root);
  checkString('patch', patch);
  const opts = checkOptions(options) as DirectoryOptions;
  const mode: Mode = modeCode(opts as Record<string, unknown>) === 1 ? 'codex' : 'strict';
  const fs = withFs(opts.fs);
  const repairs: Repair[] = [];
  const repairing = repairOptions(opts, repairs);
  const touches: Touch[] = [];
  const moves = new Map<string, string>();
  const written = new Set<string>();
  for (const op of parse(patch, opts.repair !== undefined ? { repair: opts.repair } : undefined).operations) {
    // An update reads the file from disk unless the patch wrote it first.
    touches.push({ path: op.path, needsText: op.kind === 'update' && !written.has(op.path) });
    if (op.kind === 'add') written.add(op.path);
    if (op.kind === 'delete') written.delete(op.path);
    if (op.moveTo !== undefined && op.moveTo !== op.path) {
      touches.push({ path: op.moveTo, needsText: false });
      moves.set(op.moveTo, op.path);
      written.add(op.moveTo);
      written.delete(op.path);
    }
  }
  const p = plan(root, touches, moves, (files) => applyFiles(files, patch, { mode, ...repairing }), fs);
  const dryRun = opts.dryRun === true;
  if (!dryRun) commit(p.changes, fs);
  const result: DirectoryResult = { applied: !dryRun, changes: changesOf(p) };
  if (dryRun || opts.diff === true) result.diff = diffOf(p);
  if (opts.repair !== undefined && opts.repair !== false) result.repairs = repairs;
  return result;
}

/** One Responses API operation on a directory (for the directory editor). */
export function applyOperationToDirectory(root: string, op: CheckedOperation, options: ApplyOptions, fs: Fs): Plan {
  // A create reads the file too: the same contents are already applied (Strict).
  const touches: Touch[] = [{ path: op.path, needsText: op.type === 'update_file' }];
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
  const p = plan(root, touches, moves, (files) => applyOperation(files, operation, options), fs);
  commit(p.changes, fs);
  return p;
}

export { withFs };
