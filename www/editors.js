// The page's CodeMirror 6 editors: the input and patch editors, the output's
// merge view against the input, the marks the errors put on lines, languages
// picked by file name, and light and dark themes following the system.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { python } from '@codemirror/lang-python';
import { rust } from '@codemirror/lang-rust';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { unifiedMergeView } from '@codemirror/merge';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  ViewPlugin,
} from '@codemirror/view';

// ---- light and dark ----------------------------------------------------------------

const dark = matchMedia('(prefers-color-scheme: dark)');
const lightTheme = [
  EditorView.theme({ '&': { backgroundColor: 'var(--bg)', color: 'var(--fg)' } }, { dark: false }),
  syntaxHighlighting(defaultHighlightStyle),
];
const themeOf = () => (dark.matches ? oneDark : lightTheme);
const views = new Set();
const themes = new Compartment();
dark.addEventListener('change', () => {
  for (const v of views) v.dispatch({ effects: themes.reconfigure(themeOf()) });
});

const shared = EditorView.theme({
  '&': { height: '100%', fontSize: 'var(--fs)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: 'var(--lh)' },
  '.cm-gutters': { borderRight: '1px solid var(--border)' },
  '.ap-mark-error': { backgroundColor: 'var(--mark-error)', boxShadow: 'inset 3px 0 var(--error)' },
  '.ap-mark-error-range': { backgroundColor: 'var(--mark-range)' },
  '.ap-mark-near': { backgroundColor: 'var(--mark-near)' },
  '.ap-mark-warn': { backgroundColor: 'var(--mark-near)' },
  // The merge view's lines, in the page's colours (stronger than @codemirror/merge's own in light mode).
  '&.cm-merge-b .cm-changedLine': { backgroundColor: 'var(--add)' },
  '& .cm-deletedChunk': { backgroundColor: 'var(--del)' },
  '.ap-add': { color: 'var(--add-sign)' },
  '.ap-del': { color: 'var(--del-sign)' },
  '.ap-head': { color: 'var(--accent)', fontWeight: '600' },
});

// ---- languages by file name ----------------------------------------------------------

/** The CodeMirror language for a path, or [] when none is known. */
export function languageFor(path) {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path ?? '')?.[1]?.toLowerCase();
  switch (ext) {
    case 'js':
    case 'mjs':
    case 'cjs':
      return javascript();
    case 'jsx':
      return javascript({ jsx: true });
    case 'ts':
    case 'mts':
    case 'cts':
      return javascript({ typescript: true });
    case 'tsx':
      return javascript({ typescript: true, jsx: true });
    case 'py':
      return python();
    case 'rs':
      return rust();
    case 'json':
      return json();
    default:
      return [];
  }
}

// ---- line marks (the error's lines), each carrying its line number -----------------

const setMarks = StateEffect.define();
const marksField = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setMarks)) return e.value;
    return tr.docChanged ? Decoration.none : value;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function marksFor(doc, list) {
  const builder = new RangeSetBuilder();
  const byLine = new Map();
  for (const m of list) if (m.line >= 1 && m.line <= doc.lines && !byLine.has(m.line)) byLine.set(m.line, m);
  for (const m of [...byLine.values()].sort((a, b) => a.line - b.line)) {
    const attributes = { 'data-line': String(m.line), 'data-kind': m.kind };
    if (m.title) attributes.title = m.title;
    builder.add(doc.line(m.line).from, doc.line(m.line).from, Decoration.line({ class: `ap-mark-${m.kind}`, attributes }));
  }
  return builder.finish();
}

// ---- the patch's own lines: added, removed, headers (display only) --------------------

const patchLineClass = (text) => {
  if (/^(\*\*\* |@@|diff --git |--- |\+\+\+ |<<<<<<< SEARCH|=======$|>>>>>>> REPLACE)/.test(text)) return 'ap-head';
  if (text.startsWith('+')) return 'ap-add';
  if (text.startsWith('-')) return 'ap-del';
  return null;
};
const patchColours = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = this.build(view);
    }
    update(u) {
      if (u.docChanged || u.viewportChanged) this.decorations = this.build(u.view);
    }
    build(view) {
      const builder = new RangeSetBuilder();
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to; ) {
          const line = view.state.doc.lineAt(pos);
          const cls = patchLineClass(line.text);
          if (cls) builder.add(line.from, line.from, Decoration.line({ class: cls }));
          pos = line.to + 1;
        }
      }
      return builder.finish();
    }
  },
  { decorations: (v) => v.decorations },
);

// ---- editors --------------------------------------------------------------------------

function base(label) {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    drawSelection(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
    themes.of(themeOf()),
    shared,
    marksField,
    EditorView.contentAttributes.of({ 'aria-label': label }),
  ];
}

/**
 * An editable editor in `parent`. `onChange(text)` runs after each change made
 * by typing (not by setText).
 */
export function createEditor(parent, { label, onChange, patch = false }) {
  const language = new Compartment();
  const extensions = [
    ...base(label),
    history(),
    language.of([]),
    EditorState.allowMultipleSelections.of(true),
    // setText replaces the whole state (no update runs): every change seen here is the user's.
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onChange(u.state.doc.toString());
    }),
  ];
  if (patch) extensions.push(patchColours, lintGutter());
  const view = new EditorView({ parent, state: EditorState.create({ doc: '', extensions }) });
  views.add(view);
  return {
    view,
    text: () => view.state.doc.toString(),
    /** Replaces the text (a new undo history) and the language. */
    setText(text, path) {
      view.setState(EditorState.create({ doc: text, extensions }));
      view.dispatch({ effects: [language.reconfigure(patch ? [] : languageFor(path)), themes.reconfigure(themeOf())] });
    },
    setLanguage(path) {
      view.dispatch({ effects: language.reconfigure(languageFor(path)) });
    },
    setMarks(list) {
      view.dispatch({ effects: setMarks.of(marksFor(view.state.doc, list)) });
    },
    setDiagnostics(list) {
      view.dispatch(setDiagnostics(view.state, list));
    },
    /** Scrolls the end of the text into view (a replay's text growing). */
    follow() {
      view.dispatch({ effects: EditorView.scrollIntoView(view.state.doc.length, { y: 'end' }) });
    },
    /** Selects a line (1-based), scrolls it into view and focuses the editor. */
    reveal(line) {
      const doc = view.state.doc;
      const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
      view.dispatch({ selection: { anchor: l.from, head: l.to }, effects: EditorView.scrollIntoView(l.from, { y: 'center' }) });
      view.focus();
    },
  };
}

/**
 * The output: `after` as a read-only editor, shown against `before` as a
 * unified merge view (deleted lines inline, long unchanged runs collapsed),
 * or as the plain new text.
 */
export function createOutput(parent) {
  const view = new EditorView({ parent, state: EditorState.create({ doc: '' }) });
  views.add(view);
  return {
    view,
    show(before, after, path, asDiff) {
      const extensions = [...base('Output'), EditorState.readOnly.of(true), EditorView.editable.of(false), languageFor(path)];
      if (asDiff) {
        extensions.push(
          unifiedMergeView({
            original: before,
            mergeControls: false,
            highlightChanges: true,
            gutter: true,
            collapseUnchanged: { margin: 3, minSize: 8 },
          }),
        );
      }
      view.setState(EditorState.create({ doc: after, extensions }));
    },
    /** Marks lines of the text shown (a replayed section's lines), and scrolls the first into view. */
    setMarks(list) {
      const effects = [setMarks.of(marksFor(view.state.doc, list))];
      const first = list.find((m) => m.line >= 1 && m.line <= view.state.doc.lines);
      if (first) effects.push(EditorView.scrollIntoView(view.state.doc.line(first.line).from, { y: 'center' }));
      view.dispatch({ effects });
    },
  };
}

/** A lint diagnostic for a (1-based) line of a document. */
export function lineDiagnostic(doc, line, severity, message, source) {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  return { from: l.from, to: l.to, severity, message, source };
}
