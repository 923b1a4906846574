// The editor adapters' types as a TypeScript user sees them (node16 resolution, skipLibCheck off).
import { EditorState } from '@codemirror/state';
import { applyPatchToView, PatchError, patchDiagnostics, patchTransaction, reviewPatch } from 'applypatch/codemirror';
import { applyPatchToModel, patchEdits, patchMarkers } from 'applypatch/monaco';

var state = EditorState.create({ doc: 'a\n' });
var spec = patchTransaction(state, '@@\n-a\n+b', { format: 'diff', mode: 'strict' });
var userEvent = patchTransaction(state, '@@\n-a\n+b').userEvent;
var report = applyPatchToView(view, '@@\n-a\n+b', { path: 'a.txt', repair: true });
var splice = report.splices[0];
var reviewed = reviewPatch(view, '@@\n-a\n+b');
var diagnostics = patchDiagnostics(new PatchError({ code: 'context_not_found', message: 'x' }), state);
var edits = patchEdits(model, '@@\n-a\n+b', { format: 'auto' });
var applied = applyPatchToModel(ed, '@@\n-a\n+b');
var markers = patchMarkers(new Error('x'), model, { target: 'patch' });
// @ts-expect-error: not a format
patchTransaction(state, '', { format: 'git' });
void [spec, userEvent, report, splice, reviewed, diagnostics, edits, applied, markers];
