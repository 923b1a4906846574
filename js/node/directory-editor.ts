/// <reference types="node" />
// The Agents SDK editor over a directory.
import * as nodeFs from 'node:fs';
import { checkOptions, type Mode, modeCode } from '../args.js';
import type { ApplyOptions } from '../diff.js';
import { type ApplyPatchResult, describeSuccess, type Editor, run, withRepairs } from '../memory-editor.js';
import { type CheckedOperation, checkOperation } from '../operation.js';
import { type Repair, type RepairOptions, repairBits } from '../repair.js';
import { applyOperationToDirectory, checkRoot, repairOptions, withFs } from './apply.js';
import { type Fs, leftChanges } from './directory.js';

export type EditorOptions = {
  /** The directory the model's paths are relative to; nothing outside it is read or written. */
  root: string;
  /** @internal Replaces node:fs functions (tests inject failures). */
  fs?: Partial<Fs>;
} & (
  | {
      /** `'strict'` (default) or `'codex'`, as for `apply`. */
      mode?: 'strict';
      /** Strict only: the repairs to allow, as for `apply`; each one made is named in the output. */
      repair?: RepairOptions['repair'];
    }
  | { mode: 'codex'; repair?: false }
);

/**
 * An Agents SDK editor (for `applyPatchTool({ editor })`) over the files
 * under `root`. Each operation is checked and computed in memory, then
 * written all or nothing (temporary files renamed into place; a failed write
 * undoes what was done). Paths are relative to the root: absolute paths,
 * `..` escapes and symlinks leading outside are refused, and so are files
 * that are not UTF-8 text. File modes are kept. Results carry the text for
 * the model: what changed, or `status: 'failed'` with the error, where it is,
 * and that nothing was written.
 */
export function createEditor(options: EditorOptions): Editor {
  const opts = checkOptions(options) as unknown as EditorOptions;
  const root = checkRoot(opts.root);
  const code = modeCode(opts as unknown as Record<string, unknown>);
  const mode: Mode = code === 1 ? 'codex' : 'strict';
  repairBits(opts as unknown as Record<string, unknown>, code);
  if (!nodeFs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`applypatch: root ${root} is not a directory`);
  }
  const fs = withFs(opts.fs);
  const apply = (operation: unknown, expected: CheckedOperation['type']): Promise<ApplyPatchResult> =>
    run(
      operation,
      () => {
        const op = checkOperation(operation, expected);
        const repairs: Repair[] = [];
        const plan = applyOperationToDirectory(root, op, { mode, ...repairOptions(opts, repairs) } as ApplyOptions, fs);
        return withRepairs(
          describeSuccess(op, (p) => plan.before.has(p), plan.after.get(op.path)),
          op,
          repairs,
        );
      },
      leftChanges,
    );
  return {
    createFile: (operation) => apply(operation, 'create_file'),
    updateFile: (operation) => apply(operation, 'update_file'),
    deleteFile: (operation) => apply(operation, 'delete_file'),
  };
}
