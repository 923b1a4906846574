// The page of tests/browser/editors.test.mjs: real CodeMirror 6 and Monaco
// production builds with the adapters, bundled by esbuild, exposed to the test.
import { history, redo, undo, undoDepth } from '@codemirror/commands';
import { forEachDiagnostic, setDiagnostics } from '@codemirror/lint';
import { acceptChunk, getChunks, getOriginalDoc, rejectChunk } from '@codemirror/merge';
import { EditorSelection, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import * as monaco from 'monaco-editor/editor/editor.api.js';
import { apply, applyPatch, PatchError } from '../../../dist/browser.mjs';
import * as cm from '../../../dist/codemirror.mjs';
import * as mo from '../../../dist/monaco.mjs';

window.t = {
  cm: {
    EditorSelection,
    EditorState,
    EditorView,
    history,
    undo,
    redo,
    undoDepth,
    setDiagnostics,
    forEachDiagnostic,
    acceptChunk,
    rejectChunk,
    getChunks,
    getOriginalDoc,
  },
  monaco,
  apply,
  applyPatch,
  PatchError,
  adapters: { cm, mo },
};
window.ready = true;
