// applypatch/codemirror: an agent's edit applied to a CodeMirror 6 editor as
// the engine's minimal changes (cursors, selections and the rest of the
// history stay), its own undo step, reviewable per chunk with
// @codemirror/merge, and a failure shown as @codemirror/lint diagnostics.
import { isolateHistory } from '@codemirror/commands';
import type { Diagnostic } from '@codemirror/lint';
import { type ChangeSpec, type EditorState, StateEffect, type TransactionSpec } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { type DocumentPatchOptions, type DocumentPatchReport, patchDocument } from '../document.js';
import { PatchError } from '../errors.js';
import type { Splice } from '../positions.js';

export type { DocumentPatchOptions as PatchOptions, DocumentPatchReport as PatchReport } from '../document.js';
export { PatchError } from '../errors.js';
export type { PlacedSection, Splice } from '../positions.js';

/** The transaction of a patch: its changes, its own undo step, `userEvent: 'input.patch'`. */
export interface PatchTransactionSpec extends TransactionSpec {
  changes: ChangeSpec[];
  userEvent: 'input.patch';
}

/**
 * The engine's splices (UTF-16 offsets into the document's text with its own
 * line separator) as CodeMirror positions, where a line break is one
 * position whatever the separator.
 */
function positions(state: EditorState, text: string, splices: readonly Splice[]): ChangeSpec[] {
  const sep = state.lineBreak;
  if (sep.length === 1) return splices.map(({ from, to, insert }) => ({ from, to, insert }));
  // A multi-unit separator ('\r\n'): each one before an offset counts one position less.
  let seen = 0; // separators before `at`
  let at = 0;
  const pos = (offset: number): number => {
    for (let i = text.indexOf(sep, at); i !== -1 && i + sep.length <= offset; i = text.indexOf(sep, i + sep.length)) {
      seen++;
      at = i + sep.length;
    }
    return offset - seen * (sep.length - 1);
  };
  return splices.map(({ from, to, insert }) => {
    const a = pos(from);
    return { from: a, to: pos(to), insert };
  });
}

/** The document as the engine sees it: the editor's text with its own line separator. */
function documentText(state: EditorState): string {
  return state.sliceDoc();
}

function transaction(
  state: EditorState,
  patch: string,
  options?: DocumentPatchOptions,
): { spec: PatchTransactionSpec; report: DocumentPatchReport } {
  const doc = documentText(state);
  const report = patchDocument(doc, patch, options);
  const spec: PatchTransactionSpec = {
    changes: positions(state, doc, report.splices),
    userEvent: 'input.patch',
    annotations: isolateHistory.of('full'),
  };
  return { spec, report };
}

/**
 * The transaction that applies `patch` (a V4A diff, a `*** Begin Patch`
 * patch, a unified diff or edit blocks; `options.format`) to the editor's
 * document: the engine's minimal changes, one undo step of its own
 * (`isolateHistory`), `userEvent: 'input.patch'`. Pure: dispatch it
 * yourself. Throws a {@link PatchError} when the patch does not apply.
 */
export function patchTransaction(state: EditorState, patch: string, options?: DocumentPatchOptions): PatchTransactionSpec {
  return transaction(state, patch, options).spec;
}

/** Applies `patch` to the view's document (see {@link patchTransaction}) and returns what was applied. On failure nothing changes. */
export function applyPatchToView(view: EditorView, patch: string, options?: DocumentPatchOptions): DocumentPatchReport {
  const { spec, report } = transaction(view.state, patch, options);
  view.dispatch(spec);
  return report;
}

/** Options of {@link reviewPatch}: those of the patch, and of `unifiedMergeView`. */
export interface ReviewOptions extends DocumentPatchOptions {
  /** Passed to `unifiedMergeView` (default: merge controls on, changes highlighted, a gutter). */
  mergeControls?: boolean;
  highlightChanges?: boolean;
  gutter?: boolean;
  collapseUnchanged?: { margin?: number; minSize?: number };
}

/**
 * Applies `patch` to the view's document and shows it against the text
 * before with `@codemirror/merge`'s unified merge view: each chunk can be
 * accepted (`acceptChunk`) or rejected (`rejectChunk`, which restores the
 * text before). Rejecting every chunk gives the document back; after
 * accepting every chunk `getOriginalDoc` is the patched text. Needs the
 * optional peer dependency `@codemirror/merge` (loaded here, hence async).
 */
export async function reviewPatch(view: EditorView, patch: string, options?: ReviewOptions): Promise<DocumentPatchReport> {
  const merge = await import('@codemirror/merge');
  const { spec, report } = transaction(view.state, patch, options);
  const o = options ?? {};
  const extension = merge.unifiedMergeView({
    original: view.state.doc,
    mergeControls: o.mergeControls ?? true,
    highlightChanges: o.highlightChanges ?? true,
    gutter: o.gutter ?? true,
    ...(o.collapseUnchanged ? { collapseUnchanged: o.collapseUnchanged } : {}),
  });
  view.dispatch({ ...spec, effects: StateEffect.appendConfig.of(extension) });
  return report;
}

/** Where {@link patchDiagnostics} puts a failure. */
export interface DiagnosticsOptions {
  /**
   * `'document'` (default): the state is the document the patch was applied
   * to; the diagnostics go on the input lines the error names (the nearest
   * candidate, the ambiguous matches). `'patch'`: the state holds the patch;
   * the diagnostic goes on the error's diff line.
   */
  target?: 'document' | 'patch';
}

/**
 * A failed patch as `@codemirror/lint` diagnostics (for `setDiagnostics` or
 * a linter): one on each line the error names, or on the first line when it
 * names none. Anything that is not a {@link PatchError} gives one diagnostic
 * with its message.
 */
export function patchDiagnostics(error: unknown, state: EditorState, options?: DiagnosticsOptions): Diagnostic[] {
  const message = error instanceof Error ? error.message : String(error);
  const target = options?.target ?? 'document';
  let lines: number[] = [];
  if (error instanceof PatchError || (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'PatchError')) {
    const e = error as PatchError;
    if (target === 'patch') lines = e.diffLine === undefined ? [] : [e.diffLine];
    else lines = e.inputLines ?? (e.nearest ? [e.nearest.line] : []);
  }
  if (lines.length === 0) lines = [1];
  const doc = state.doc;
  return [...new Set(lines)].map((n) => {
    const line = doc.line(Math.min(Math.max(1, n), doc.lines));
    return { from: line.from, to: line.to, severity: 'error', source: 'applypatch', message };
  });
}
