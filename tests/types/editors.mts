// The editor adapters' types as a TypeScript user sees them (node16 resolution, skipLibCheck off).

import type { Diagnostic } from '@codemirror/lint';
import { EditorState, type TransactionSpec } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import {
  applyPatchToView,
  PatchError,
  type PatchReport,
  patchDiagnostics,
  patchTransaction,
  reviewPatch,
  type Splice,
} from 'applypatch/codemirror';
import { applyPatchToModel, patchEdits, patchMarkers } from 'applypatch/monaco';
import type { editor } from 'monaco-editor';

const state = EditorState.create({ doc: 'a\n' });
const spec: TransactionSpec = patchTransaction(state, '@@\n-a\n+b', { format: 'diff', mode: 'strict' });
const userEvent: 'input.patch' = patchTransaction(state, '@@\n-a\n+b').userEvent;
declare const view: EditorView;
declare const model: editor.ITextModel;
declare const ed: editor.ICodeEditor;
const report: PatchReport = applyPatchToView(view, '@@\n-a\n+b', { path: 'a.txt', repair: true });
const splice: Splice | undefined = report.splices[0];
const reviewed: Promise<PatchReport> = reviewPatch(view, '@@\n-a\n+b');
const diagnostics: Diagnostic[] = patchDiagnostics(new PatchError({ code: 'context_not_found', message: 'x' }), state);
const edits: editor.IIdentifiedSingleEditOperation[] = patchEdits(model, '@@\n-a\n+b', { format: 'auto' });
const applied: PatchReport = applyPatchToModel(ed, '@@\n-a\n+b');
const markers: editor.IMarkerData[] = patchMarkers(new Error('x'), model, { target: 'patch' });
// @ts-expect-error: not a format
patchTransaction(state, '', { format: 'git' });
// The text the model read, when the user typed since.
const typedOver: PatchReport = applyPatchToView(view, '@@\n-a\n+b', { base: 'a\n' });
const typedEdits: editor.IIdentifiedSingleEditOperation[] = patchEdits(model, '@@\n-a\n+b', { base: 'a\n' });
// @ts-expect-error: a document's base is a text
applyPatchToModel(ed, '@@\n-a\n+b', { base: { 'a.txt': 'a\n' } });
void [typedOver, typedEdits];
void [spec, userEvent, report, splice, reviewed, diagnostics, edits, applied, markers];
