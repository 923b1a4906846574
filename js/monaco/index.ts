// applypatch/monaco: an agent's edit applied to a Monaco model as the
// engine's minimal edits, one undo step (never setValue, which wipes the undo
// stack), and a failure as model markers. Only Monaco's types are used: the
// adapter calls the model and editor it is given.
import type { editor, IRange } from 'monaco-editor';
import { type DocumentPatchOptions, type DocumentPatchReport, patchDocument } from '../document.js';
import { PatchError } from '../errors.js';

export type { DocumentPatchOptions as PatchOptions, DocumentPatchReport as PatchReport } from '../document.js';
export { PatchError } from '../errors.js';
export type { PlacedSection, Splice } from '../positions.js';

type Model = editor.ITextModel;
type Editor = editor.ICodeEditor;

function edits(
  model: Model,
  patch: string,
  options?: DocumentPatchOptions,
): { edits: editor.IIdentifiedSingleEditOperation[]; report: DocumentPatchReport } {
  // The model's text with its own end of line: offsets are counted the way getPositionAt counts them.
  const report = patchDocument(model.getValue(), patch, options);
  const out = report.splices.map(({ from, to, insert }) => {
    const a = model.getPositionAt(from);
    const b = model.getPositionAt(to);
    const range: IRange = { startLineNumber: a.lineNumber, startColumn: a.column, endLineNumber: b.lineNumber, endColumn: b.column };
    return { range, text: insert, forceMoveMarkers: false };
  });
  return { edits: out, report };
}

/**
 * The edits that apply `patch` (a V4A diff, a `*** Begin Patch` patch, a
 * unified diff or edit blocks; `options.format`) to the model: the engine's
 * minimal changes, as ranges of the model as it is. Pure. Throws a
 * {@link PatchError} when the patch does not apply.
 */
export function patchEdits(model: Model, patch: string, options?: DocumentPatchOptions): editor.IIdentifiedSingleEditOperation[] {
  return edits(model, patch, options).edits;
}

function isEditor(x: Model | Editor): x is Editor {
  return typeof (x as Editor).executeEdits === 'function';
}

/**
 * Applies `patch` to an editor's model (`executeEdits` between two
 * `pushUndoStop`s) or to a model (`pushEditOperations` between two
 * `pushStackElement`s): one undo step, cursors and decorations kept. Returns
 * what was applied. On failure nothing changes.
 */
export function applyPatchToModel(editorOrModel: Model | Editor, patch: string, options?: DocumentPatchOptions): DocumentPatchReport {
  if (isEditor(editorOrModel)) {
    const model = editorOrModel.getModel();
    if (model === null) throw new TypeError('applypatch: the editor has no model');
    const r = edits(model, patch, options);
    editorOrModel.pushUndoStop();
    editorOrModel.executeEdits('applypatch', r.edits);
    editorOrModel.pushUndoStop();
    return r.report;
  }
  const r = edits(editorOrModel, patch, options);
  editorOrModel.pushStackElement();
  editorOrModel.pushEditOperations(null, r.edits, () => null);
  editorOrModel.pushStackElement();
  return r.report;
}

/** Monaco's `MarkerSeverity.Error`. */
const ERROR = 8;

/** Where {@link patchMarkers} puts a failure (see the CodeMirror adapter's `patchDiagnostics`). */
export interface MarkersOptions {
  target?: 'document' | 'patch';
}

/**
 * A failed patch as markers for `monaco.editor.setModelMarkers(model, owner,
 * markers)`: one on each line the error names (the nearest candidate, the
 * ambiguous matches; with `target: 'patch'`, the model holds the patch and
 * the marker goes on the diff line), or on the first line.
 */
export function patchMarkers(error: unknown, model: Model, options?: MarkersOptions): editor.IMarkerData[] {
  const message = error instanceof Error ? error.message : String(error);
  let lines: number[] = [];
  if (error instanceof PatchError || (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'PatchError')) {
    const e = error as PatchError;
    if (options?.target === 'patch') lines = e.diffLine === undefined ? [] : [e.diffLine];
    else lines = e.inputLines ?? (e.nearest ? [e.nearest.line] : []);
  }
  if (lines.length === 0) lines = [1];
  const count = model.getLineCount();
  return [...new Set(lines)].map((n) => {
    const line = Math.min(Math.max(1, n), count);
    return {
      severity: ERROR as editor.IMarkerData['severity'],
      message,
      source: 'applypatch',
      startLineNumber: line,
      startColumn: 1,
      endLineNumber: line,
      endColumn: model.getLineMaxColumn(line),
    };
  });
}
