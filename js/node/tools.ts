/// <reference types="node" />
// The tools of `applypatch mcp` (../mcp/definitions.ts) on a directory: what
// the MCP server runs, and what `createToolHandlers` gives any framework.
// Every edit goes through the directory helpers (./apply.ts, ./unified-dir.ts,
// ./directory.ts): confined to the root, all or nothing, atomic writes.
//
// Merge bases: the handlers keep the text of each file as they last read or
// wrote it (bounded by a total size, oldest dropped first). When a file's text
// on disk differs from the kept one, another program changed it since: the
// one decision of what to write then is `reconcile`.
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { checkOptions } from '../args.js';
import { applyEdits, type EditBlock } from '../blocks.js';
import { core } from '../engines/core.js';
import { type ErrorCode, PatchError } from '../errors.js';
import type { ToolName } from '../mcp/definitions.js';
import { mergeInto } from '../merge.js';
import { deletedChanged, nearPaths } from '../patch.js';
import { unifiedFileDiff } from '../unified.js';
import { checkRoot, type DirectoryResult, type Plan, type PlanHooks, patchDirectory, withFs } from './apply.js';
import { binaryError, commit, type Fs, leftChanges, listFiles, openRoot, type Root, readTarget, resolveTarget } from './directory.js';
import { applyUnifiedToDirectory } from './unified-dir.js';

export interface ToolHandlersOptions {
  /** The directory the tools work in; nothing outside it is read or written. */
  root: string;
  /** Only `read_file` and dry runs: an edit without `dryRun: true` is refused (`read_only`). */
  readOnly?: boolean;
  /** The total size (UTF-16 code units) of the texts kept as merge bases; the oldest go first (default 8,000,000). */
  mergeBaseLimit?: number;
  /** @internal Replaces node:fs functions (tests inject failures). */
  fs?: Partial<Fs>;
}

/** A change in a tool's result. */
export interface ToolChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** For a move: the path it came from (listed as deleted too). */
  movedFrom?: string;
  /** The file had changed on disk since these handlers last read or wrote it. */
  changedOnDisk?: boolean;
}

/** What a tool returns: an MCP `CallToolResult` (a text for the model, and `structuredContent`). */
export type ToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  /**
   * Editing tools: `{ applied, changes, diff? }`; `read_file`: `{ path, content }`;
   * failures (`isError: true`): `{ code, message, path?, hunk?, line?, edit?, candidates?, … }`.
   */
  structuredContent: Record<string, unknown>;
  isError?: boolean;
};

export type ToolHandlers = { [name in ToolName]: (input: unknown) => Promise<ToolResult> };

/** The default total size of the kept merge bases. */
const MERGE_BASE_LIMIT = 8_000_000;

/** Texts as last read or written, by path; bounded by their total length, the least recently used dropped first. */
export class KeptTexts {
  private readonly texts = new Map<string, string>();
  private total = 0;
  constructor(readonly limit: number) {}
  get(path: string): string | undefined {
    return this.texts.get(nodePath.normalize(path));
  }
  set(path: string, text: string): void {
    const key = nodePath.normalize(path);
    this.delete(key);
    if (text.length > this.limit) return;
    this.texts.set(key, text);
    this.total += text.length;
    for (const [oldest, t] of this.texts) {
      if (this.total <= this.limit) break;
      this.texts.delete(oldest);
      this.total -= t.length;
    }
  }
  delete(path: string): void {
    const key = nodePath.normalize(path);
    const old = this.texts.get(key);
    if (old === undefined) return;
    this.texts.delete(key);
    this.total -= old.length;
  }
  /** How many texts, and their total length. */
  get size(): { files: number; length: number } {
    return { files: this.texts.size, length: this.total };
  }
}

/** The edit on both texts of a file changed on disk: each computed only when asked for. */
export interface Edited {
  /** The edit applied to the text this server kept (what the model saw). */
  fromKept: () => string | undefined;
  /** The edit applied to the text on disk now. */
  fromDisk: () => string | undefined;
}

/**
 * The one decision for a file whose text on disk (`disk`) differs from the
 * text this server last read or wrote (`kept`): what to write (undefined:
 * delete it). The edit was written against `kept`, so it is applied there
 * and merged into the disk text with the three-way merge (`merge3`, as
 * `git merge-file`): a clean merge is written (the file reported
 * `changedOnDisk`), a conflict is refused with `merge_conflict` naming the
 * file, and so is deleting a file that changed.
 */
export function reconcile(path: string, kept: string, disk: string, edited: Edited): string | undefined {
  const theirs = edited.fromKept();
  if (theirs === undefined) throw deletedChanged(path);
  try {
    return mergeInto(core, kept, disk, theirs);
  } catch (e) {
    if (e instanceof PatchError && e.code === 'merge_conflict') {
      throw new PatchError({
        ...e,
        code: e.code,
        message: `${path}: the file changed on disk since this server last read it, and the change overlaps the edit. ${e.message}`,
        path,
        conflicts: e.conflicts?.map((c) => ({ path, ...c })),
      });
    }
    throw e;
  }
}

/**
 * The compute hook of a plan: the edit on the texts on disk, with
 * {@link reconcile} deciding each file whose disk text is not the kept one
 * (their paths go in `changedOnDisk`).
 */
export function withBases(kept: KeptTexts, changedOnDisk: Set<string>): NonNullable<PlanHooks['compute']> {
  return (files, apply) => {
    const stale: Array<[string, string, string]> = [];
    for (const [path, disk] of files) {
      const text = kept.get(path);
      if (text !== undefined && text !== disk) stale.push([path, text, disk]);
    }
    if (stale.length === 0) return apply(files);
    let onDisk: Map<string, string> | undefined;
    let onKept: Map<string, string> | undefined;
    const fromDisk = (): Map<string, string> => {
      onDisk ??= apply(files);
      return onDisk;
    };
    const fromKept = (): Map<string, string> => {
      onKept ??= apply(new Map([...files].map(([p, t]) => [p, kept.get(p) ?? t])));
      return onKept;
    };
    // The edit was written against the kept texts: every file but the stale
    // ones is the same on disk, and the stale ones are merged below. An edit
    // that does not apply to what the server last read, but does to the file
    // as it is now, was written against the new text (the model saw it some
    // other way): it is applied there, and the file reported changedOnDisk.
    let base: Map<string, string>;
    try {
      base = fromKept();
    } catch (e) {
      if (!(e instanceof PatchError)) throw e;
      base = fromDisk();
      for (const [path] of stale) changedOnDisk.add(path);
      return base;
    }
    const out = new Map(base);
    for (const [path, text, disk] of stale) {
      changedOnDisk.add(path);
      const now = reconcile(path, text, disk, { fromKept: () => fromKept().get(path), fromDisk: () => fromDisk().get(path) });
      if (now === undefined) out.delete(path);
      else out.set(path, now);
    }
    return out;
  };
}

/** A failure that is not a PatchError: bad arguments, a read-only server. */
class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Extra fields of edit_file's failures (the edit, the places matched). */
const extras = new WeakMap<PatchError, Record<string, unknown>>();

function failure(e: unknown): ToolResult {
  let fields: Record<string, unknown>;
  if (e instanceof PatchError) {
    fields = { code: e.code, message: e.message };
    if (e.path !== undefined) fields.path = e.path;
    if (e.operation !== undefined) fields.hunk = e.operation + 1;
    if (e.diffLine !== undefined) fields.line = e.diffLine;
    if (e.inputLines !== undefined) fields.inputLines = e.inputLines;
    if (e.nearest !== undefined) fields.nearest = e.nearest;
    Object.assign(fields, extras.get(e));
    if (leftChanges(e)) fields.leftChanges = true;
  } else if (e instanceof ToolFailure) {
    fields = { code: e.code, message: e.message, ...e.fields };
  } else if (e instanceof TypeError && e.message.startsWith('applypatch: ')) {
    // The library's own argument checks.
    fields = { code: 'invalid_arguments', message: `${e.message.slice('applypatch: '.length)}. Nothing was written.` };
  } else {
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    fields = {
      code: 'internal_error',
      message: `Internal error: ${detail}. Files may or may not have been changed: read them again.`,
    };
  }
  return { content: [{ type: 'text', text: `error[${fields.code}]: ${fields.message}` }], structuredContent: fields, isError: true };
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** The input object, its fields checked against the tool's input schema. */
function args(tool: ToolName, input: unknown, shape: Record<string, 'string' | 'boolean' | 'edits'>, required: string[]) {
  const bad = (message: string): ToolFailure =>
    new ToolFailure('invalid_arguments', `${tool}: ${message}. Nothing was written; call it again with arguments that fit its schema.`);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw bad(`the arguments must be an object, got ${kind(input)}`);
  const o = input as Record<string, unknown>;
  for (const name of required) if (o[name] === undefined) throw bad(`'${name}' is missing`);
  for (const [name, type] of Object.entries(shape)) {
    const v = o[name];
    if (v === undefined) continue;
    if (type === 'edits') {
      if (!Array.isArray(v) || v.length === 0) throw bad(`'edits' must be a non-empty array of { oldText, newText }, got ${kind(v)}`);
      v.forEach((e, i) => {
        if (e === null || typeof e !== 'object' || Array.isArray(e)) throw bad(`edits[${i}] must be an object { oldText, newText }`);
        const { oldText, newText, replaceAll } = e as Record<string, unknown>;
        if (typeof oldText !== 'string') throw bad(`edits[${i}].oldText must be a string, got ${kind(oldText)}`);
        if (typeof newText !== 'string') throw bad(`edits[${i}].newText must be a string, got ${kind(newText)}`);
        if (replaceAll !== undefined && typeof replaceAll !== 'boolean')
          throw bad(`edits[${i}].replaceAll must be a boolean, got ${kind(replaceAll)}`);
      });
    } else if (typeof v !== type) throw bad(`'${name}' must be a ${type}, got ${kind(v)}`);
  }
  for (const name of Object.keys(o)) if (!(name in shape)) throw bad(`unknown argument '${name}'`);
  return o;
}

/** Codex's letters for a change. */
const LETTER = { added: 'A', modified: 'M', deleted: 'D' } as const;

/**
 * The tools of `applypatch mcp` on the directory `root`: `{ apply_patch,
 * edit_file, apply_unified_diff, read_file }`, each `(input) =>
 * Promise<ToolResult>` (see `toolDefinitions` for the schemas). Results are
 * never rejected: a failure is a result with `isError: true`, the message
 * for the model, and `{ code, … }`. Calls run one at a time, in order.
 */
export function createToolHandlers(options: ToolHandlersOptions): ToolHandlers {
  const opts = checkOptions(options) as unknown as ToolHandlersOptions;
  const root = checkRoot(opts.root);
  if (!nodeFs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`applypatch: root ${root} is not a directory`);
  }
  const readOnly = opts.readOnly ?? false;
  if (typeof readOnly !== 'boolean') throw new TypeError(`applypatch: options.readOnly must be a boolean, got ${kind(readOnly)}`);
  const limit = opts.mergeBaseLimit ?? MERGE_BASE_LIMIT;
  if (typeof limit !== 'number' || !(limit >= 0)) {
    throw new TypeError('applypatch: options.mergeBaseLimit must be a number of characters (0 or more)');
  }
  const fs = withFs(opts.fs);
  const kept = new KeptTexts(limit);
  const roots = [nodePath.resolve(root), nodeFs.realpathSync(root)];

  /** A model used to absolute paths (the reference filesystem server's) may give one inside the root. */
  const relative = (path: string): string => {
    if (!nodePath.isAbsolute(path)) return path;
    for (const base of roots) {
      const rel = nodePath.relative(base, path);
      if (rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel)) return rel;
    }
    return path; // refused by resolveTarget, with the reason
  };

  /** For a path with no file: the root's files near it, as the engine's messages list them (bounded: listFiles). */
  const similar = (dir: Root, path: string): string => {
    const near = nearPaths(path, listFiles(dir, fs, [path]) ?? []);
    return near === '' ? '' : ` The files have similar paths: ${near}.`;
  };

  const refuseWrites = (tool: ToolName, dryRun: boolean): void => {
    if (readOnly && !dryRun) {
      throw new ToolFailure(
        'read_only',
        `This server is read-only: ${tool} only checks edits here. Nothing was written; call it with dryRun: true to see the diff it would make.`,
      );
    }
  };

  /** Keeps what a written plan left as the merge bases of its files. */
  const remember = (p: Plan): void => {
    for (const path of p.before.keys()) if (!p.after.has(path)) kept.delete(path);
    for (const [path, text] of p.after) if (!p.unread.has(path) || p.changes.some((c) => c.target.path === path)) kept.set(path, text);
  };

  /** apply_patch and apply_unified_diff: the directory helper, with the merge bases. */
  const onDirectory = (tool: ToolName, dryRun: boolean, run: (hooks: PlanHooks) => { result: DirectoryResult; summary: string }) => {
    refuseWrites(tool, dryRun);
    const changedOnDisk = new Set<string>();
    let planned: Plan | undefined;
    const { result, summary } = run({
      compute: withBases(kept, changedOnDisk),
      planned: (p) => {
        planned = p;
      },
    });
    if (!dryRun && planned !== undefined) remember(planned);
    const movedFrom = new Map<string, string>();
    for (const [to, from] of planned?.moves ?? []) {
      if (result.changes.some((c) => c.path === from && c.status === 'deleted')) movedFrom.set(to, from);
    }
    const changes: ToolChange[] = result.changes.map((c) => ({
      path: c.path,
      status: c.status,
      ...(c.status !== 'deleted' && movedFrom.has(c.path) ? { movedFrom: movedFrom.get(c.path) } : {}),
      ...(changedOnDisk.has(c.path) ? { changedOnDisk: true } : {}),
    }));
    return edited(dryRun, changes, result.diff ?? '', summary);
  };

  const edited = (dryRun: boolean, changes: ToolChange[], diff: string, summary: string, showDiff = false): ToolResult => {
    let text = dryRun ? `Dry run: nothing was written. This is the diff it would make:\n${diff}` : summary;
    if (showDiff && !dryRun) text += diff;
    const stale = changes.filter((c) => c.changedOnDisk).map((c) => c.path);
    if (stale.length > 0) {
      text += `\nNote: ${stale.join(', ')} had changed on disk since this server last read or wrote ${stale.length === 1 ? 'it' : 'them'}; the edit was merged into the current contents (a three-way merge: the other change is kept).`;
    }
    return {
      content: [{ type: 'text', text }],
      structuredContent: { applied: !dryRun, changes, ...(dryRun || showDiff ? { diff } : {}) },
    };
  };

  const tools: { [name in ToolName]: (input: unknown) => ToolResult } = {
    apply_patch(input) {
      const { patch, dryRun = false } = args('apply_patch', input, { patch: 'string', dryRun: 'boolean' }, ['patch']) as {
        patch: string;
        dryRun?: boolean;
      };
      return onDirectory('apply_patch', dryRun, (hooks) => patchDirectory(root, patch, { dryRun, fs, hooks }));
    },

    apply_unified_diff(input) {
      const { diff, dryRun = false } = args('apply_unified_diff', input, { diff: 'string', dryRun: 'boolean' }, ['diff']) as {
        diff: string;
        dryRun?: boolean;
      };
      return onDirectory('apply_unified_diff', dryRun, (hooks) => {
        const result = applyUnifiedToDirectory(root, diff, { dryRun, fs, hooks });
        return {
          result,
          summary: `Success. Updated the following files:\n${result.changes.map((c) => `${LETTER[c.status]} ${c.path}\n`).join('')}`,
        };
      });
    },

    edit_file(input) {
      const o = args('edit_file', input, { path: 'string', edits: 'edits', dryRun: 'boolean' }, ['path', 'edits']) as {
        path: string;
        edits: Array<{ oldText: string; newText: string; replaceAll?: boolean }>;
        dryRun?: boolean;
      };
      const dryRun = o.dryRun ?? false;
      refuseWrites('edit_file', dryRun);
      const path = relative(o.path);
      const edits: EditBlock[] = o.edits.map((e) => ({
        search: e.oldText,
        replace: e.newText,
        ...(e.replaceAll !== undefined ? { replaceAll: e.replaceAll } : {}),
      }));
      const dir = openRoot(root, fs);
      try {
        const t = resolveTarget(dir, path, fs);
        readTarget(t, fs);
        if (t.kind !== 'file') {
          throw new PatchError({
            code: 'file_not_found',
            message: `${path} does not exist.${similar(dir, path)} edit_file changes an existing file: to create one, use apply_patch with *** Add File: ${path}. Nothing was written.`,
            path,
          });
        }
        if (t.text === undefined) throw binaryError(path);
        const disk = t.text;
        const changedOnDisk = new Set<string>();
        const after = withBases(kept, changedOnDisk)(new Map([[path, disk]]), (files) => {
          const text = files.get(path) ?? disk;
          return new Map([[path, editText(path, text, edits)]]);
        });
        const text = after.get(path) ?? disk;
        if (!dryRun && text !== disk) {
          commit(dir, [{ target: t, contents: text, ...(t.mode !== undefined ? { mode: t.mode } : {}) }], fs);
        }
        if (!dryRun) kept.set(path, text);
        const changes: ToolChange[] =
          text === disk ? [] : [{ path, status: 'modified', ...(changedOnDisk.has(path) ? { changedOnDisk: true } : {}) }];
        const diff = unifiedFileDiff(path, path, disk, text);
        const n = edits.length;
        const summary =
          text === disk ? `${path} already had this text: nothing changed.\n` : `Edited ${path} (${n} edit${n === 1 ? '' : 's'}):\n`;
        return edited(dryRun, changes, diff, summary, true);
      } finally {
        dir.close();
      }
    },

    read_file(input) {
      const o = args('read_file', input, { path: 'string' }, ['path']) as { path: string };
      const path = relative(o.path);
      const dir = openRoot(root, fs);
      try {
        const t = resolveTarget(dir, path, fs);
        readTarget(t, fs);
        if (t.kind !== 'file') {
          throw new PatchError({
            code: 'file_not_found',
            message: `${path} does not exist (paths are relative to the root).${similar(dir, path)}`,
            path,
          });
        }
        if (t.text === undefined) throw binaryError(path);
        kept.set(path, t.text);
        return { content: [{ type: 'text', text: t.text }], structuredContent: { path, content: t.text } };
      } finally {
        dir.close();
      }
    },
  };

  const handlers = {} as ToolHandlers;
  for (const [name, tool] of Object.entries(tools) as Array<[ToolName, (input: unknown) => ToolResult]>) {
    handlers[name] = async (input) => {
      try {
        return tool(input);
      } catch (e) {
        return failure(e);
      }
    };
  }
  return handlers;
}

/** The edits on `text` with the safe preset, or a PatchError for the one that did not apply. */
function editText(path: string, text: string, edits: EditBlock[]): string {
  const r = applyEdits(text, edits, { preset: 'safe' });
  if (r.ok) return r.text;
  const i = r.results.length - 1;
  const failed = r.results[i];
  const code: ErrorCode =
    failed?.reason === 'ambiguous' ? 'context_ambiguous' : failed?.reason === 'not-found' ? 'context_not_found' : 'invalid_operation';
  const n = edits.length;
  // The engine's message, in this tool's words (oldText and newText, not SEARCH and REPLACE).
  const said = (failed?.message ?? 'Edit not applied: its SEARCH text is not in the file. Nothing was changed.')
    .replace(/^Edit not applied: /, '')
    .replace(/\bSEARCH( text)?\b/g, 'oldText')
    .replace(/\bREPLACE( text)?\b/g, 'newText');
  const every = code === 'context_ambiguous' ? ' To change every place, set replaceAll: true on this edit.' : '';
  const others = i > 0 ? ` Edit${i === 1 ? ' 1' : `s 1-${i}`} matched, but nothing was written: the edits apply all or none.` : '';
  const e = new PatchError({ code, message: `${path}, edit ${i + 1}${n > 1 ? ` of ${n}` : ''}: ${said}${every}${others}`, path });
  extras.set(e, {
    edit: i + 1,
    ...(failed !== undefined && !failed.ok && failed.candidates !== undefined ? { candidates: failed.candidates } : {}),
  });
  throw e;
}
