// The playground page: CodeMirror editors (editors.js) for the input files,
// the patch and the output, wired to the package through engine.js. The state
// (mode, files, patch, view, preset, repair) is kept in the URL hash,
// compressed (state.js). Everything about the patch (its format, where it
// failed, the closest place) is what the package reports: nothing is parsed
// or diffed here (the output's merge view is @codemirror/merge's display).

import * as ap from '../dist/browser.mjs';
import { createEditor, createOutput, lineDiagnostic } from './editors.js';
import { detect, MODE_NAMES, modesAvailable, run } from './engine.js';
import { defaultExample, examples } from './examples.js';
import { decodeHash, encodeHash, normalize } from './state.js';

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

const FORMAT_NAMES = { diff: 'V4A diff', patch: '*** Begin Patch patch', blocks: 'edit blocks', unified: 'unified diff' };
const GROUP_NAMES = { diff: 'V4A diffs', patch: '*** Begin Patch patches', blocks: 'Edit blocks', unified: 'Unified diffs' };
const features = detect(ap);
const available = modesAvailable(features);
document.body.dataset.multiFile = String(features.files);

const inputEditor = createEditor($('input'), {
  label: 'Input file contents',
  onChange(text) {
    state.files[state.selected].text = text;
    schedule();
  },
});
const patchEditor = createEditor($('patch'), {
  label: 'Patch',
  patch: true,
  onChange(text) {
    state.patch = text;
    schedule();
  },
});
const output = createOutput($('output-editor'));

let state = normalize((await decodeHash(location.hash)) ?? fromExample(defaultExample));
let last = null; // the last run's result
let shown = ''; // the path of the output file shown
let runs = 0;
let linkable = true; // whether the state fits in the URL

// ---- controls ----------------------------------------------------------------

for (const radio of document.querySelectorAll('input[name=mode]')) {
  const ok = available[radio.value];
  radio.dataset.available = String(ok);
  if (!ok) {
    radio.parentElement.append(el('span', { className: 'na', textContent: ' (not in this build)' }));
    radio.parentElement.title = `${MODE_NAMES[radio.value]} is not available in this build of applypatch`;
  }
  radio.addEventListener('change', () => {
    state.mode = radio.value;
    showMode();
    update();
  });
}
for (const radio of document.querySelectorAll('input[name=view]')) {
  radio.addEventListener('change', () => {
    state.view = radio.value;
    update();
  });
}
$('preset').addEventListener('change', () => {
  state.preset = $('preset').value;
  update();
});
$('repair').addEventListener('change', () => {
  state.repair = $('repair').checked;
  update();
});

// The examples menu, one group per format (as the package detects it), and the failures.
const groups = new Map();
for (const ex of examples) {
  const label = ex.id.startsWith('fail-') ? 'Fails on purpose' : GROUP_NAMES[ap.detectFormat(ex.patch)];
  if (!groups.has(label)) groups.set(label, el('optgroup', { label }));
  groups.get(label).append(el('option', { value: ex.id, textContent: ex.title }));
}
$('examples').append(...groups.values());
$('examples').addEventListener('change', () => {
  const ex = examples.find((e) => e.id === $('examples').value);
  if (!ex) return;
  load(normalize({ ...fromExample(ex), view: state.view }));
  $('examples').value = '';
});

$('file-path').addEventListener('input', () => {
  state.files[state.selected].path = $('file-path').value;
  inputEditor.setLanguage(state.files[state.selected].path);
  showFiles();
  schedule();
});
$('add-file').addEventListener('click', () => {
  const taken = new Set(state.files.map((f) => f.path));
  let n = 1;
  while (taken.has(`new${n === 1 ? '' : n}.txt`)) n++;
  state.files.push({ path: `new${n === 1 ? '' : n}.txt`, text: '' });
  select(state.files.length - 1);
  update();
  $('file-path').select();
  $('file-path').focus();
});
$('remove-file').addEventListener('click', () => {
  if (state.files.length < 2) return;
  state.files.splice(state.selected, 1);
  select(Math.min(state.selected, state.files.length - 1));
  update();
  document.querySelector('#file-tabs [aria-pressed=true]')?.focus();
});

$('copy').addEventListener('click', () => copy(outputText(), 'Output copied'));
$('copy-link').addEventListener('click', async () => {
  await hashDone;
  if (linkable) copy(location.href, 'Link copied');
  else $('status').textContent = 'These files are too large to fit in a link';
});

window.addEventListener('hashchange', async () => {
  const hash = location.hash;
  if (hash === written) return;
  const s = await decodeHash(hash);
  if (s) load(s);
});

// ---- state -> page -------------------------------------------------------------

function fromExample(ex) {
  return { mode: ex.mode, files: ex.files.map((f) => ({ ...f })), selected: 0, patch: ex.patch, view: 'diff' };
}

function load(s) {
  state = normalize(s);
  shown = '';
  patchEditor.setText(state.patch);
  select(state.selected);
  showMode();
  update();
}

function showMode() {
  for (const r of document.querySelectorAll('input[name=mode]')) r.checked = r.value === state.mode;
  for (const r of document.querySelectorAll('input[name=view]')) r.checked = r.value === state.view;
  $('preset').value = state.preset;
  $('preset-label').hidden = state.mode !== 'blocks';
  $('repair').checked = state.repair;
  $('repair-label').hidden = state.mode !== 'strict';
}

function select(i) {
  state.selected = i;
  inputEditor.setText(state.files[i].text, state.files[i].path);
  $('file-path').value = state.files[i].path;
  showFiles();
  if (last) markInput(last);
}

function showFiles() {
  const errorPath = last?.status === 'error' ? last.error.path : undefined;
  $('file-tabs').replaceChildren(
    ...state.files.map((f, i) => {
      const b = el('button', { type: 'button', className: 'tab', textContent: f.path || '(no path)' });
      b.setAttribute('aria-pressed', String(i === state.selected));
      b.dataset.path = f.path;
      if (f.path === errorPath) {
        b.classList.add('has-error');
        b.title = 'The error is in this file';
      }
      b.addEventListener('click', () => {
        select(i);
        writeHash();
      });
      return b;
    }),
  );
  $('remove-file').disabled = state.files.length < 2;
}

let timer = 0;
function schedule() {
  clearTimeout(timer);
  timer = setTimeout(update, 150);
  document.body.dataset.pending = 'true';
}

function update() {
  clearTimeout(timer);
  const t0 = performance.now();
  const result = run(ap, features, state);
  last = result;
  runs++;
  const kind = result.kind;
  $('patch-kind').textContent = result.format ? `detected: ${FORMAT_NAMES[result.format]}` : '';
  $('patch-kind').dataset.format = result.format ?? '';
  $('input-hint').textContent = {
    diff:
      state.files.length > 1
        ? `A V4A diff applies to the selected file, ${state.files[state.selected].path}.`
        : 'A V4A diff applies to this file.',
    files: 'The patch names its files by path: Add file, and set each path as the patch names it.',
    unified: 'The diff names its files by path: Add file, and set each path as the diff names it.',
    blocks: 'Each block applies to the file it names, else to the selected file.',
  }[kind];

  // Follow the error to its input file, unless someone is typing in the input.
  const errorPath = result.status === 'error' ? result.error.path : undefined;
  const idx = state.files.findIndex((f) => f.path === errorPath);
  if (idx >= 0 && idx !== state.selected && !$('input-pane').contains(document.activeElement)) select(idx);
  else showFiles();

  showResult(result);
  markPatch(result);
  markInput(result);
  document.body.dataset.status = result.status;
  document.body.dataset.pending = 'false';
  document.body.dataset.runs = String(runs);
  // How long the page's main thread was busy: the call, and the call with the page drawn.
  document.body.dataset.applyMs = String(result.ms ?? 0);
  document.body.dataset.updateMs = String(performance.now() - t0);
  writeHash();
}

// The hash is written once the page has been still for a moment (writing a
// long URL costs the main thread), and compressing is asynchronous: a new
// update supersedes a write still waiting.
let written = location.hash;
let hashDone = Promise.resolve();
let hashRun = 0;
let hashTimer = 0;
let settleHash = () => {};
function writeHash() {
  const mine = ++hashRun;
  document.body.dataset.linked = 'false';
  clearTimeout(hashTimer);
  // Browsers cap URLs near 2 MB: past that the link holds no state.
  const size = state.files.reduce((sum, f) => sum + f.path.length + f.text.length, state.patch.length);
  const previous = settleHash;
  hashDone = new Promise((resolve) => {
    settleHash = resolve;
    hashTimer = setTimeout(
      async () => {
        const hash = size <= 8_000_000 ? await encodeHash(state) : '';
        if (mine !== hashRun) return;
        linkable = hash !== '' && hash.length <= 1_500_000;
        written = linkable ? hash : '';
        history.replaceState(null, '', linkable ? hash : location.pathname + location.search);
        document.body.dataset.linked = String(linkable);
        resolve();
      },
      size > 100_000 ? 1000 : 100,
    );
  });
  previous(hashDone); // a click waiting for the superseded write waits for this one
}

function markPatch(result) {
  const marks = [];
  const diagnostics = [];
  const doc = patchEditor.view.state.doc;
  const e = result.status === 'error' ? result.error : null;
  if (e?.patchLines) {
    for (let l = e.patchLines[0]; l <= e.patchLines[1]; l++) marks.push({ line: l, kind: l === e.diffLine ? 'error' : 'error-range' });
  } else if (e?.diffLine) {
    marks.push({ line: e.diffLine, kind: 'error', title: e.code });
  }
  if (e?.diffLine) diagnostics.push(lineDiagnostic(doc, e.diffLine, 'error', `${e.code}: ${e.message}`, 'applypatch'));
  for (const p of result.problems ?? []) {
    if (p.line === e?.diffLine) continue;
    marks.push({ line: p.line, kind: 'warn', title: p.message });
    diagnostics.push(lineDiagnostic(doc, p.line, 'warning', p.message, 'applypatch'));
  }
  patchEditor.setMarks(marks);
  patchEditor.setDiagnostics(diagnostics);
}

function markInput(result) {
  const e = result.status === 'error' ? result.error : null;
  const marks = [];
  if (e && e.path === state.files[state.selected].path) {
    const errorLines = new Set(e.inputLines ?? []);
    for (const line of errorLines) marks.push({ line, kind: 'error', title: e.code });
    if (e.nearest) {
      const n = e.nearest.text.split('\n').length;
      for (let l = e.nearest.line; l < e.nearest.line + n; l++) {
        if (!errorLines.has(l))
          marks.push({ line: l, kind: 'near', title: `closest match (${Math.round(e.nearest.similarity * 100)}% of lines equal)` });
      }
    }
  }
  inputEditor.setMarks(marks);
}

// ---- the output pane -------------------------------------------------------------

function showResult(r) {
  const mode = MODE_NAMES[r.mode];
  const status = $('status');
  const error = $('error');
  error.hidden = r.status === 'ok';
  error.replaceChildren();
  if (r.status === 'unavailable') {
    status.textContent = `${mode}: not available in this build`;
    error.className = 'error unavailable';
    error.append(el('p', { textContent: r.message }));
  } else if (r.status === 'error') {
    status.textContent = `${mode}: the patch does not apply (${r.error.code})`;
    error.className = 'error';
    error.append(errorBody(r.error));
  } else {
    const changed = r.files.filter((f) => f.status !== 'unchanged').length;
    status.textContent = `${mode}: applied, ${changed} of ${r.files.length} file${r.files.length === 1 ? '' : 's'} changed (${r.ms < 0.1 ? 'under 0.1' : r.ms.toFixed(1)} ms)`;
  }

  $('summary').hidden = !r.summary;
  $('summary').textContent = r.summary ?? '';
  showBlocks(r.blocks);
  $('notes').hidden = !r.notes?.length;
  $('notes').replaceChildren(...(r.notes ?? []).map((n) => el('li', { textContent: n })));

  $('output').hidden = r.status !== 'ok';
  if (r.status !== 'ok') return;
  // The file shown: the one shown before if it is still there, else the first changed one.
  if (!r.files.some((f) => f.path === shown)) shown = (r.files.find((f) => f.status !== 'unchanged') ?? r.files[0]).path;
  showOutputFiles(r.files);
}

const STATUS_TEXT = { modified: 'modified', unchanged: 'unchanged', added: 'added', deleted: 'deleted', moved: 'moved' };

function showOutputFiles(list) {
  $('output-files').hidden = list.length < 2 && list[0]?.status !== 'moved';
  $('output-files').replaceChildren(
    ...list.map((f) => {
      const badge = el('span', {
        className: `badge badge-${f.status}`,
        textContent: f.status === 'moved' ? `moved from ${f.from}` : STATUS_TEXT[f.status],
      });
      const b = el(
        'button',
        { type: 'button', className: `tab file file-${f.status}` },
        el('span', { className: 'path', textContent: f.path }),
        ' ',
        badge,
      );
      b.setAttribute('aria-pressed', String(f.path === shown));
      b.dataset.path = f.path;
      b.dataset.status = f.status;
      b.addEventListener('click', () => {
        shown = f.path;
        showOutputFiles(list);
      });
      return b;
    }),
  );
  const f = list.find((x) => x.path === shown);
  $('output-editor').dataset.path = f.path;
  $('output-editor').dataset.status = f.status;
  $('output-gone').hidden = f.after !== null;
  $('output-editor').hidden = f.after === null;
  output.show(f.before ?? '', f.after ?? '', f.path, state.view === 'diff');
}

function errorBody(e) {
  const box = document.createDocumentFragment();
  box.append(el('p', { className: 'code' }, el('strong', { textContent: e.code })));
  box.append(el('pre', { className: 'message', textContent: e.message }));
  if (e.hint) box.append(el('p', { className: 'hint', textContent: e.hint }));
  const where = el('p', { className: 'where' });
  if (e.diffLine) where.append(jump(`Patch line ${e.diffLine}`, () => patchEditor.reveal(e.diffLine)));
  const inInput = (line) => () => {
    const i = state.files.findIndex((f) => f.path === e.path);
    if (i >= 0 && i !== state.selected) select(i);
    inputEditor.reveal(line);
  };
  if (e.inputLines?.length) {
    const file = e.path ? ` of ${e.path}` : '';
    where.append(jump(`Input line${e.inputLines.length > 1 ? 's' : ''} ${e.inputLines.join(', ')}${file}`, inInput(e.inputLines[0])));
  }
  if (e.nearest) {
    const n = e.nearest.text.split('\n').length;
    const lines = n > 1 ? `lines ${e.nearest.line}–${e.nearest.line + n - 1}` : `line ${e.nearest.line}`;
    where.append(jump(`Closest: input ${lines} (${Math.round(e.nearest.similarity * 100)}% equal)`, inInput(e.nearest.line)));
  }
  if (where.childNodes.length) box.append(where);
  return box;
}

function jump(text, action) {
  return el('button', { type: 'button', className: 'jump', textContent: text, onclick: action });
}

function showBlocks(blocks) {
  const table = $('blocks');
  table.hidden = !blocks?.length;
  table.tBodies[0].replaceChildren(
    ...(blocks ?? []).map((b) => {
      const tr = el(
        'tr',
        { className: b.ok === false ? 'failed' : b.ok ? 'applied' : 'skipped' },
        el('td', { textContent: String(b.n) }),
        el('td', { textContent: b.path }),
        el('td', { textContent: b.lines ? `${b.lines[0]}–${b.lines[1]}` : '' }),
        el('td', { className: 'strategy', textContent: b.ok === null ? 'not tried' : b.ok ? (b.strategy ?? '') : 'no match' }),
        el('td', { className: 'similarity', textContent: typeof b.similarity === 'number' ? b.similarity.toFixed(2) : '' }),
      );
      tr.dataset.block = String(b.n);
      return tr;
    }),
  );
}

/** The new text of the output file shown, for the copy button. */
function outputText() {
  const r = last;
  if (!r) return '';
  if (r.status === 'unavailable') return r.message;
  if (r.status === 'error') return `${r.error.code}: ${r.error.message}`;
  return r.files.find((f) => f.path === shown)?.after ?? '';
}

async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard API (or no permission): the old way, through a selection.
    const area = el('textarea', { value: text });
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) {
      $('status').textContent = 'Copying failed: this browser refused the clipboard';
      return;
    }
  }
  $('status').textContent = done;
}

load(state);
