// An editor for the OpenAI Agents SDK's apply_patch tool (`applyPatchTool({
// editor })`) over a file map, and the texts every editor gives the model.
import { checkOptions, type Mode, modeCode } from './args.js';
import type { ApplyOptions, WithoutOnRepair } from './diff.js';
import { PatchError } from './errors.js';
import {
  applyOperation,
  type CheckedOperation,
  type CreateFileOperation,
  checkOperation,
  type DeleteFileOperation,
  type UpdateFileOperation,
} from './operation.js';
import { type Files, fileMap } from './patch.js';
import { type Repair, type RepairOptions, repairBits, repairLine } from './repair.js';

/** What an editor returns to the Agents SDK; `output` is sent to the model. */
export interface ApplyPatchResult {
  status: 'completed' | 'failed';
  output: string;
}

/**
 * The Agents SDK's `Editor` interface (`@openai/agents-core`), which
 * `applyPatchTool({ editor })` takes. The SDK's runner calls one method per
 * `apply_patch_call` and passes `{ runContext }` as the second argument (unused here).
 */
export interface Editor {
  createFile(operation: CreateFileOperation, context?: unknown): Promise<ApplyPatchResult>;
  updateFile(operation: UpdateFileOperation, context?: unknown): Promise<ApplyPatchResult>;
  deleteFile(operation: DeleteFileOperation, context?: unknown): Promise<ApplyPatchResult>;
}

/** An {@link Editor} over a file map; `files` is the current map. */
export interface MemoryEditor<T extends Files = Files> extends Editor {
  readonly files: T;
}

/** Counts a diff's lines the way the model wrote them: `+` added, `-` removed. */
function countLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  const body = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (body === '') return { added, removed };
  for (const line of body.split('\n')) {
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * The model's text for an operation that applied. `existed(path)` says
 * whether a path was a file before the operation.
 */
export function describeSuccess(op: CheckedOperation, existed: (path: string) => boolean, contents?: string): string {
  switch (op.type) {
    case 'create_file': {
      const lines = contents === undefined || contents === '' ? 0 : contents.split('\n').length - (contents.endsWith('\n') ? 1 : 0);
      return `Created ${op.path} (${plural(lines, 'line')})${existed(op.path) ? ', replacing the file that was there' : ''}.`;
    }
    case 'update_file': {
      const { added, removed } = countLines(op.diff);
      const what = added + removed === 0 ? 'no lines changed' : `${plural(removed, 'line')} removed, ${added} added`;
      if (op.moveTo !== undefined && op.moveTo !== op.path) {
        const replaced = existed(op.moveTo) ? `, replacing the file that was at ${op.moveTo}` : '';
        return `Updated ${op.path} and moved it to ${op.moveTo}${replaced}: ${what}.`;
      }
      return `Updated ${op.path}: ${what}.`;
    }
    case 'delete_file':
      return `Deleted ${op.path}.`;
  }
}

/**
 * The model's text for an operation that applied with repairs: one line
 * each, after the text of the change; an operation that was already applied
 * says that nothing changed instead.
 */
export function withRepairs(text: string, op: CheckedOperation, repairs: readonly Repair[]): string {
  if (repairs.length === 0) return text;
  const lines = repairs.map((r) => repairLine(r));
  const head = repairs.some((r) => r.kind === 'already-applied')
    ? `Nothing changed: this ${op.type} of ${op.path} is already applied.`
    : text;
  return [head, ...lines].join('\n');
}

/**
 * The model's text for an operation that failed: what failed and where, that
 * nothing was written (unless `written` says a failed undo left changes),
 * then the error's own message.
 */
export function describeFailure(operation: unknown, error: PatchError, written = false): string {
  const op = operation !== null && typeof operation === 'object' ? (operation as Record<string, unknown>) : {};
  const type = typeof op.type === 'string' ? op.type : 'apply_patch';
  const path = typeof op.path === 'string' && op.path !== '' ? ` ${op.path}` : '';
  const where = [error.code, error.diffLine !== undefined ? `diff line ${error.diffLine}` : undefined].filter(Boolean).join(', ');
  const advice =
    error.code === 'write_failed' || error.code === 'read_failed'
      ? 'The operation itself may be right: the file system failed (see below).'
      : error.code === 'already_applied'
        ? 'The change is already there: do not send it again.'
        : 'Fix the operation and send it again.';
  const outcome = written ? 'Some changes could not be undone: see below.' : `Nothing was written: every file is as it was. ${advice}`;
  return `${type}${path} failed (${where}). ${outcome}\n${error.message}`;
}

/**
 * Runs an editor method: a {@link PatchError} becomes a `failed` result with
 * the text for the model; other errors (bugs, wrong types) propagate, and
 * the SDK's runner reports them as failed too.
 */
export async function run(operation: unknown, fn: () => string, written?: (e: PatchError) => boolean): Promise<ApplyPatchResult> {
  try {
    return { status: 'completed', output: fn() };
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return { status: 'failed', output: describeFailure(operation, e, written?.(e) ?? false) };
  }
}

/**
 * An Agents SDK editor over a file map (a plain object or a Map from path to
 * contents), for `applyPatchTool({ editor })`. Each operation applies with
 * {@link applyOperation}; `editor.files` is the current map (a new map after
 * each change; the argument is copied and never changed). Results carry the
 * text for the model: what changed, or `status: 'failed'` with the error and
 * its location, and nothing changed.
 */
export function createMemoryEditor<T extends Files>(files: T, options?: WithoutOnRepair<ApplyOptions>): MemoryEditor<T> {
  let current = fileMap(files).with([]);
  const opts = checkOptions(options);
  const code = modeCode(opts);
  const mode: Mode = code === 1 ? 'codex' : 'strict';
  repairBits(opts, code);
  const apply = (operation: unknown, expected: CheckedOperation['type']): Promise<ApplyPatchResult> =>
    run(operation, () => {
      const op = checkOperation(operation, expected);
      const before = fileMap(current);
      const repairs: Repair[] = [];
      const repairing =
        opts.repair === undefined ? {} : { repair: opts.repair as RepairOptions['repair'], onRepair: (r: Repair) => repairs.push(r) };
      const next = applyOperation(current, operation as CreateFileOperation, { mode, ...repairing } as ApplyOptions);
      current = next;
      return withRepairs(
        describeSuccess(op, (p) => before.get(p) !== undefined, fileMap(next).get(op.path)),
        op,
        repairs,
      );
    });
  return {
    get files() {
      return current;
    },
    createFile: (operation) => apply(operation, 'create_file'),
    updateFile: (operation) => apply(operation, 'update_file'),
    deleteFile: (operation) => apply(operation, 'delete_file'),
  };
}
