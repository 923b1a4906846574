// One editor document and an agent's edit in any of the four formats: the
// engine's splices of that document, for the editor adapters
// (js/codemirror/, js/monaco/). Not exported from the main entry.
//
// A patch, a unified diff or an edit-blocks message may name several files:
// only this document's part is applied (cut out of the text line for line,
// so the engine's messages and line numbers stay the message's own), and the
// parts for other files are handed back untouched.
import { checkOptions, checkString, describe } from './args.js';
import { applyEdits, type EditFailed, type EditResult, type ParsedEditBlock, type Preset, parseBlocks } from './blocks.js';
import { type ApplyReportOptions, apply } from './diff.js';
import { core } from './engines/core.js';
import { PatchError } from './errors.js';
import { detectFormat, type Format } from './format.js';
import { baseOption, mergeNamed, mergeWithSplices } from './merge.js';
import { applyPatch, type FilesOptions, type Operation, parse } from './patch.js';
import type { PlacedSection, Splice } from './positions.js';
import type { Repair, RepairKind } from './repair.js';
import { applyUnified, parseUnified, type UnifiedFile } from './unified.js';

/** Options of the editor adapters. */
export interface DocumentPatchOptions {
  /** The edit's format; `'auto'` (default) detects it ({@link detectFormat}). */
  format?: 'auto' | Format;
  /** This document's path in a patch, unified diff or edit-blocks message (default: the one file it names). */
  path?: string;
  /** `'strict'` (default) or `'codex'` (`'git'` for a unified diff). */
  mode?: 'strict' | 'codex' | 'git';
  /** Edit blocks: `'safe'` (default) or `'compatible'`. */
  preset?: Preset;
  /** Strict: forgive reported, unique-only slips (see `repair` of `apply`). */
  repair?: boolean | readonly RepairKind[];
  /**
   * The document's text when the model read it, if the user typed since:
   * the patch applies to `base`, and the result is merged into the document
   * as it is now (`merge3`), so the changes are only the patch's and the
   * user's typing (and cursor) stay. Where the user changed the same lines,
   * `PatchError` `merge_conflict` (its `inputLines`: the document's lines)
   * and nothing changes.
   */
  base?: string;
}

/** What an adapter applied to its document. */
export interface DocumentPatchReport {
  /** The format applied. */
  format: Format;
  /** The document's new text (with the document's own line breaks). */
  text: string;
  /** The changes, as UTF-16 offsets into the document's text before (see `apply`'s `report`). */
  splices: Splice[];
  /** Where each run of changed lines landed (a V4A diff only, without `base`; otherwise empty). */
  sections: PlacedSection[];
  /** The repairs made, with `repair`. */
  repairs?: Repair[];
  /** The path applied (a patch, unified diff or blocks message). */
  path?: string;
  /** Patch operations for other files, not applied (parse's shape). */
  otherOperations?: Operation[];
  /** Unified-diff files for other paths, not applied (parseUnified's shape). */
  otherFiles?: UnifiedFile[];
  /** Edit blocks for other files, not applied. */
  otherBlocks?: ParsedEditBlock[];
}

function refuse(message: string, extra: Partial<ConstructorParameters<typeof PatchError>[0]> = {}): PatchError {
  return new PatchError({ code: 'invalid_operation', message, ...extra });
}

function option<T extends string>(opts: Record<string, unknown>, key: string, allowed: readonly T[]): T | undefined {
  const v = opts[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new TypeError(
      `applypatch: options.${key} must be ${allowed.map((a) => `'${a}'`).join(', ')}, got ${typeof v === 'string' ? `'${v}'` : describe(v)}`,
    );
  }
  return v as T;
}

/** The one path a message names, or the caller's. */
function pick(paths: readonly string[], given: string | undefined, what: string): string {
  if (given !== undefined) return given;
  const unique = [...new Set(paths)];
  if (unique.length === 1) return unique[0] as string;
  throw new TypeError(
    `applypatch: this ${what} names ${unique.length === 0 ? 'no file' : `${unique.length} files (${unique.join(', ')})`}; pass options.path, the path of the editor's document`,
  );
}

const header = /^\s*\*\*\* (Add|Delete|Update) File: /;
const end = /^\s*\*\*\* End Patch\s*$/;

/**
 * This document's operations of a patch, cut out so that each line keeps its
 * number: blank lines (allowed before `*** Begin Patch`), then `*** Begin
 * Patch` on the line before the first of them, then them. Their lines must be
 * together (one run of operations); otherwise `undefined`.
 */
function patchPart(patch: string, ops: readonly Operation[], path: string): string | undefined {
  const all = patch.split('\n');
  const starts: number[] = [];
  let stop = all.length;
  for (let i = 0; i < all.length; i++) {
    if (header.test(all[i] as string)) starts.push(i);
    else if (end.test(all[i] as string)) stop = i;
  }
  if (starts.length !== ops.length) return undefined;
  const mine = ops.flatMap((op, k) => (op.path === path ? [k] : []));
  const first = mine[0] as number;
  const last = mine[mine.length - 1] as number;
  if (mine.length === 0 || last - first + 1 !== mine.length) return undefined;
  const from = starts[first] as number;
  const to = last + 1 < starts.length ? (starts[last + 1] as number) : stop;
  return `${'\n'.repeat(Math.max(0, from - 1))}*** Begin Patch\n${all.slice(from, to).join('\n')}\n*** End Patch\n`;
}

/** Applies `patch` (any of the four formats) to the document `doc`; throws a PatchError and changes nothing on failure. */
export function patchDocument(doc: string, patch: string, options?: DocumentPatchOptions): DocumentPatchReport {
  checkString('document', doc);
  checkString('patch', patch);
  const opts = checkOptions(options);
  const base = baseOption(opts);
  if (base !== undefined) {
    // The patch on the text the model read, then its result merged into the document.
    const r = patchDocument(base, patch, { ...opts, base: undefined } as DocumentPatchOptions);
    const { text, splices } = mergeNamed(r.path, () => mergeWithSplices(core, base, doc, r.text));
    return { ...r, text, splices, sections: [] };
  }
  const given = opts.path;
  if (given !== undefined && typeof given !== 'string')
    throw new TypeError(`applypatch: options.path must be a string, got ${describe(given)}`);
  const chosen = option(opts, 'format', ['auto', 'diff', 'patch', 'blocks', 'unified'] as const) ?? 'auto';
  const format: Format = chosen === 'auto' ? detectFormat(patch) : chosen;
  const mode = option(opts, 'mode', ['strict', 'codex', 'git'] as const);
  const repairs: Repair[] = [];
  const common = { repair: opts.repair as DocumentPatchOptions['repair'], onRepair: (r: Repair) => repairs.push(r) };
  const withRepairs = <T extends object>(r: T): T & { repairs?: Repair[] } => (repairs.length > 0 ? { ...r, repairs } : r);

  if (format === 'diff') {
    if (mode === 'git') throw new TypeError("applypatch: options.mode 'git' is for unified diffs");
    const r = apply(doc, patch, { ...common, mode: mode ?? 'strict', report: true } as ApplyReportOptions);
    return { format, text: r.text, splices: r.splices, sections: r.sections, ...(r.repairs ? { repairs: r.repairs } : {}) };
  }

  if (format === 'patch') {
    if (mode === 'git') throw new TypeError("applypatch: options.mode 'git' is for unified diffs");
    const ops = parse(patch).operations;
    const path = pick(
      ops.map((o) => o.path),
      given,
      'patch',
    );
    for (const op of ops) {
      if (op.path === path && op.kind === 'delete')
        throw refuse(
          `The patch deletes ${path}, the document open in this editor; an editor cannot apply that. Apply it to the files instead, or remove the *** Delete File: ${path} operation.`,
          { path },
        );
      if (op.path === path && op.moveTo !== undefined && op.moveTo !== path)
        throw refuse(
          `The patch moves ${path}, the document open in this editor, to ${op.moveTo}; an editor cannot apply that. Apply it to the files instead, or remove the *** Move to: line.`,
          { path },
        );
      if (op.moveTo === path && op.path !== path)
        throw refuse(
          `The patch moves ${op.path} onto ${path}, the document open in this editor; an editor cannot apply that. Apply it to the files instead.`,
          { path },
        );
    }
    const others = ops.filter((o) => o.path !== path);
    const part = others.length === 0 ? patch : patchPart(patch, ops, path);
    if (part === undefined) {
      throw refuse(
        `The operations on ${path} in this patch are not together (other files' operations come between them); an editor applies one run of operations on its document. Put them together, or apply the patch to the files.`,
        { path },
      );
    }
    const r = applyPatch({ [path]: doc }, part, { ...common, mode: mode ?? 'strict' } as FilesOptions);
    const text = r.files[path] ?? doc;
    const change = r.changes.find((c) => c.path === path);
    return withRepairs({ format, text, splices: change?.splices ?? [], sections: [], path, otherOperations: others });
  }

  if (format === 'unified') {
    if (mode === 'codex') throw new TypeError("applypatch: options.mode for a unified diff is 'strict' or 'git'");
    const files = parseUnified(patch);
    const path = pick(
      files.flatMap((f) => [f.newPath ?? f.oldPath ?? '']),
      given,
      'unified diff',
    );
    const mine = files.filter((f) => f.oldPath === path || f.newPath === path);
    for (const f of mine) {
      if (f.newPath === null)
        throw refuse(`The diff deletes ${path}, the document open in this editor; an editor cannot apply that.`, {
          path,
          diffLine: f.line,
        });
      if (f.oldPath !== null && f.oldPath !== f.newPath)
        throw refuse(
          `The diff renames ${f.oldPath} to ${f.newPath}, and ${path} is the document open in this editor; an editor cannot apply that.`,
          { path, diffLine: f.line },
        );
    }
    // The other files' lines become blank (ignored between file diffs): every line keeps its number.
    const lines = patch.split('\n');
    const keep = new Uint8Array(lines.length);
    files.forEach((f, k) => {
      if (!mine.includes(f)) return;
      const to = k + 1 < files.length ? (files[k + 1] as UnifiedFile).line - 1 : lines.length;
      keep.fill(1, f.line - 1, to);
    });
    const part = lines.map((l, i) => (keep[i] ? l : '')).join('\n');
    const report = applyUnified({ [path]: doc }, part, { mode: mode === 'git' ? 'git' : 'strict', report: true });
    const change = report.changes.find((c) => c.path === path);
    return {
      format,
      text: report.files[path] ?? doc,
      splices: change?.splices ?? [],
      sections: [],
      path,
      otherFiles: files.filter((f) => !mine.includes(f)),
    };
  }

  // Edit blocks: this document's blocks (those naming it, or none) in order.
  const parsed = parseBlocks(patch, { detailed: true });
  const named = parsed.edits.flatMap((e) => (e.path === undefined ? [] : [e.path]));
  const path = given ?? (named.length === 0 ? undefined : pick(named, undefined, 'message'));
  const mine = parsed.edits.filter((e) => e.path === undefined || e.path === path);
  if (mine.length === 0) {
    throw new PatchError({
      code: 'empty_patch',
      message: `The message has no edit block${path === undefined ? '' : ` for ${path}`}: write <<<<<<< SEARCH, the lines to find, =======, the new lines, >>>>>>> REPLACE.`,
    });
  }
  const preset = option(opts, 'preset', ['safe', 'compatible'] as const);
  const r = applyEdits(doc, mine, { ...(preset ? { preset } : {}), explain: true });
  const results: EditResult[] = r.results;
  const failed = results.find((x): x is EditFailed => !x.ok);
  if (failed !== undefined) {
    const block = mine[results.indexOf(failed)] as ParsedEditBlock;
    const near = failed.nearest;
    throw new PatchError({
      code: failed.reason === 'ambiguous' ? 'context_ambiguous' : 'context_not_found',
      message: failed.message ?? `Edit block ${results.indexOf(failed) + 1} (line ${block.line}) did not apply.`,
      diffLine: block.line,
      ...(failed.candidates ? { inputLines: failed.candidates.map((c) => c.startLine) } : {}),
      ...(near ? { inputLines: [near.startLine], nearest: { line: near.startLine, text: near.text, similarity: near.similarity } } : {}),
      ...(path === undefined ? {} : { path }),
    });
  }
  return {
    format,
    text: r.text,
    splices: r.splices,
    sections: [],
    ...(path === undefined ? {} : { path }),
    otherBlocks: parsed.edits.filter((e) => !mine.includes(e)),
  };
}
