// The Responses API apply_patch operations (create_file, update_file,
// delete_file) over the same file maps as applyFiles, and create diffs.
import { checkOptions, checkString, describe, modeCode, STRICT } from './args.js';
import type { ApplyOptions } from './diff.js';
import { core } from './engines/core.js';
import { call, PatchError } from './errors.js';
import { operationTypes } from './generated.js';
import { type Files, fileMap, knownText, leftFiles, putFiles } from './patch.js';
import { callMode } from './repair.js';

/** `create_file`: `diff` is a create diff, every line `+` and the line's text. */
export interface CreateFileOperation {
  type: 'create_file';
  path: string;
  diff: string;
}

/**
 * `update_file`: `diff` is a V4A update diff. The Responses API names the
 * new path `move_to`; the Agents SDK names it `moveTo`. Either is accepted.
 */
export interface UpdateFileOperation {
  type: 'update_file';
  path: string;
  diff: string;
  move_to?: string | null;
  moveTo?: string | null;
}

/** `delete_file`. */
export interface DeleteFileOperation {
  type: 'delete_file';
  path: string;
}

/** An `operation` of a Responses API `apply_patch_call` (or of the Agents SDK's). */
export type ApplyPatchOperation = CreateFileOperation | UpdateFileOperation | DeleteFileOperation;

const TYPES: readonly string[] = operationTypes;

function invalid(message: string, path?: string): PatchError {
  return new PatchError({ code: 'invalid_operation', message, ...(path !== undefined ? { path } : {}) });
}

/** An operation checked field by field, with `moveTo` from either spelling. */
export interface CheckedOperation {
  type: ApplyPatchOperation['type'];
  path: string;
  diff: string;
  moveTo?: string;
}

/**
 * Checks an operation. Not an object: TypeError (a programming error). A bad
 * field: PatchError `invalid_operation` (the operation is data a model sent).
 */
export function checkOperation(operation: unknown, expected?: ApplyPatchOperation['type']): CheckedOperation {
  if (operation === null || typeof operation !== 'object' || Array.isArray(operation)) {
    throw new TypeError(`applypatch: operation must be an object ({ type, path, diff }), got ${describe(operation)}`);
  }
  const op = operation as Record<string, unknown>;
  const type = op.type;
  if (typeof type !== 'string' || !TYPES.includes(type)) {
    const got = typeof type === 'string' ? `'${type}'` : describe(type);
    throw invalid(`Unknown operation type ${got}: it must be 'create_file', 'update_file' or 'delete_file'.`);
  }
  if (expected !== undefined && type !== expected) {
    throw invalid(`A ${type} operation was given where a ${expected} operation was expected.`);
  }
  if (typeof op.path !== 'string' || op.path === '') {
    throw invalid(
      `The ${type} operation needs a path (a non-empty string), got ${typeof op.path === 'string' ? 'an empty string' : describe(op.path)}.`,
    );
  }
  const path = checkString('operation.path', op.path);
  let diff = '';
  if (type !== 'delete_file') {
    if (typeof op.diff !== 'string')
      throw invalid(`The ${type} operation on ${path} needs a diff (a string), got ${describe(op.diff)}.`, path);
    diff = checkString('operation.diff', op.diff);
  }
  const checked: CheckedOperation = { type: type as CheckedOperation['type'], path, diff };
  if (type === 'update_file') {
    const spellings = [op.move_to, op.moveTo].filter((v) => v !== undefined && v !== null);
    for (const value of spellings) {
      if (typeof value !== 'string' || value === '') {
        throw invalid(
          `The update of ${path} has a move_to that is ${typeof value === 'string' ? 'empty' : describe(value)}: give the new path, or leave move_to out.`,
          path,
        );
      }
    }
    if (spellings.length === 2 && spellings[0] !== spellings[1]) {
      throw invalid(
        `The update of ${path} has both move_to (${String(spellings[0])}) and moveTo (${String(spellings[1])}), and they differ.`,
        path,
      );
    }
    if (spellings.length > 0) checked.moveTo = checkString('operation.move_to', spellings[0]);
  }
  return checked;
}

/**
 * Applies one Responses API `apply_patch` operation to a file map and returns
 * a new map of the same kind (plain object or Map); the argument is never
 * changed. `create_file` writes the file of a create diff ({@link createFile};
 * an existing file is replaced, as a patch's Add File does), `update_file`
 * applies a V4A update diff (`move_to` or `moveTo` renames the file,
 * replacing the destination), `delete_file` removes the file. Throws a
 * {@link PatchError} when it does not apply (`file_not_found` for an update of
 * a missing path, listing the map's paths near it, or a delete of one that
 * has paths near it; `invalid_operation` for a malformed operation). In
 * Strict mode a delete of a path with no file and none near it is already
 * applied (`already_applied`; with the `repair` option a reported no-op).
 */
export function applyOperation<T extends Files>(files: T, operation: ApplyPatchOperation, options?: ApplyOptions): T {
  const map = fileMap(files);
  const op = checkOperation(operation);
  const opts = checkOptions(options);
  const e = callMode(opts, modeCode(opts));
  // A create reads the file too in Strict mode: one with the same contents is already applied.
  const put = putFiles(core, map, op.type === 'create_file' && modeCode(opts) !== 0 ? [] : [op.path]);
  // An update or delete of a path with no file: the engine lists the map's paths near it (Strict).
  const known = op.type !== 'create_file' && modeCode(opts) === STRICT && put.paths.length === 0 ? map.known([op.path]) : undefined;
  const left = call(() =>
    core
      .wasm()
      .applyOperationChanges(
        put.paths,
        put.lengths,
        op.type,
        op.path,
        op.diff,
        op.moveTo,
        e.code,
        known === undefined ? undefined : knownText(known),
      ),
  );
  const changes = leftFiles(map, [op.path, op.moveTo], left);
  e.report();
  return map.with(changes);
}

/**
 * The contents of the file a V4A create diff (the `diff` of a `create_file`
 * operation) describes: every line must start with `+`, and becomes the rest
 * of the line followed by `\n`, as a Codex patch's `*** Add File:` body. The
 * diff may use LF or CRLF breaks. A line without `+` throws a
 * {@link PatchError} (`invalid_line`, with `diffLine`).
 *
 * Unlike the Agents SDK's `applyDiff('', diff, 'create')`, the last line gets
 * its newline too: `'+a\n+b'` gives `'a\nb\n'` (the SDK: `'a\nb'`).
 */
export function createFile(diff: string): string {
  checkString('diff', diff);
  return call(() => core.wasm().createFile(diff));
}
