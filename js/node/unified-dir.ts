/// <reference types="node" />
// Unified diffs on a directory: the same plan-then-commit as patches
// (./apply.ts, ./directory.ts), with the modes the diff sets applied.
import { checkOptions, checkString } from '../args.js';
import type { PreparedUnified } from '../binding.js';
import { PatchError } from '../errors.js';
import { fileMap, partialMap } from '../patch.js';
import { applyPreparedUnified, type UnifiedFile, type UnifiedMode, unifiedModeCode, withUnified } from '../unified.js';
import { changesOf, computeWith, type DirectoryResult, diffOf, type PlanHooks, plan, type Touch, withFs } from './apply.js';
import { commit, type Fs, listFiles, openRoot, type Root } from './directory.js';

export interface UnifiedDirectoryOptions {
  /** `'strict'` (default) or `'git'` (what `git apply` writes). */
  mode?: UnifiedMode;
  /** Compute and check everything, return the diff, write nothing. */
  dryRun?: boolean;
  /** Also return a unified diff of what changed. */
  diff?: boolean;
  /** @internal Replaces node:fs functions (tests inject failures). */
  fs?: Partial<Fs>;
  /** @internal Hooks of the tool handlers (./tools.ts). */
  hooks?: PlanHooks;
}

/** The permission bits git gives a file of this git mode: 0777 or 0666, less the umask. */
function permissions(gitMode: string): number {
  const umask = process.umask();
  return (Number.parseInt(gitMode, 8) & 0o111 ? 0o777 : 0o666) & ~umask;
}

/** The paths a unified diff touches on a directory, and its renames (destination → source). */
function touchesOf(files: UnifiedFile[]): { touches: Touch[]; moves: Map<string, string> } {
  const touches: Touch[] = [];
  const moves = new Map<string, string>();
  for (const f of files) {
    if (f.newMode === '120000' || f.oldMode === '120000') {
      throw new PatchError({
        code: 'invalid_path',
        message: `${f.newPath ?? f.oldPath}: the diff (line ${f.line}) changes a symbolic link (mode 120000). Symbolic links are not created or changed through a diff here; nothing was written.`,
        path: (f.newPath ?? f.oldPath) as string,
        diffLine: f.line,
      });
    }
    const gone = f.newPath === null || (f.status === 'renamed' && f.newPath !== f.oldPath);
    if (f.oldPath !== null) touches.push({ path: f.oldPath, needsText: true, deletes: gone });
    if (f.newPath !== null && f.newPath !== f.oldPath) touches.push({ path: f.newPath, needsText: false });
    if (f.status === 'renamed' && f.oldPath !== null && f.newPath !== null) moves.set(f.newPath, f.oldPath);
  }
  return { touches, moves };
}

/**
 * Applies a unified diff (`git diff` output, or a plain `diff -u`) to the
 * files under `root`, all or nothing, with the guarantees of
 * `applyPatchToDirectory`: paths stay inside the root, the whole result is
 * computed first, files are replaced through temporary files, a failed write
 * undoes everything. New files, deletes, renames, copies and mode changes
 * (`new mode 100755`: the executable bits) are applied.
 */
export function applyUnifiedToDirectory(root: string, diff: string, options?: UnifiedDirectoryOptions): DirectoryResult {
  if (typeof root !== 'string' || root === '') throw new TypeError('applypatch: root must be the path of a directory (a non-empty string)');
  checkString('diff', diff);
  const opts = checkOptions(options) as UnifiedDirectoryOptions;
  const mode = unifiedModeCode(opts as Record<string, unknown>);
  const fs = withFs(opts.fs);
  // One parse: the files the diff names, then the result over them.
  return withUnified(diff, mode, (prepared) => {
    const { touches, moves } = touchesOf(prepared.files() as UnifiedFile[]);
    const dir = openRoot(root, fs);
    try {
      return applyPlanned(dir, touches, moves, prepared);
    } finally {
      dir.close();
    }
  });

  function applyPlanned(dir: Root, touches: Touch[], moves: Map<string, string>, prepared: PreparedUnified): DirectoryResult {
    let modes: Array<{ path: string; mode: string }> = [];
    const p = plan(
      dir,
      touches,
      moves,
      computeWith(opts.hooks, (files) => {
        // The root is listed only when a file the diff changes (a source) is missing: an added file needs no near paths.
        const sources = new Set(touches.filter((t) => t.needsText).map((t) => t.path));
        const listed = partialMap(files, (missing) => {
          const read = missing.filter((p) => sources.has(p));
          return read.length > 0 ? listFiles(dir, fs, read) : undefined;
        });
        const report = applyPreparedUnified(fileMap(listed), prepared, true);
        modes = report.modes;
        return report.files;
      }),
      fs,
    );
    for (const { path, mode: gitMode } of modes) {
      const bits = permissions(gitMode);
      const change = p.changes.find((c) => c.target.path === path);
      if (change !== undefined) {
        if (change.contents !== null) change.mode = bits;
        continue;
      }
      const target = p.targets.find((t) => t.path === path);
      const text = p.before.get(path);
      if (target !== undefined && text !== undefined && (target.mode ?? 0) !== bits) {
        p.changes.push({ target, contents: text, mode: bits });
      }
    }
    // In the order the diff names the files.
    p.changes.sort((a, b) => p.targets.indexOf(a.target) - p.targets.indexOf(b.target));
    const dryRun = opts.dryRun === true;
    opts.hooks?.planned?.(p);
    if (!dryRun) commit(dir, p.changes, fs);
    const result: DirectoryResult = { applied: !dryRun, changes: changesOf(p) };
    if (dryRun || opts.diff === true) result.diff = diffOf(p);
    return result;
  }
}
