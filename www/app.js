// The playground page: wires the panes to the engine (engine.js) and draws
// the result. The state (mode, files, patch, view) is mirrored in the URL hash.

import { diffRows, endsWithNewline, useEngine } from './diff.js';
import { createEditor } from './editor.js';
import { detect, MODE_NAMES, modesAvailable, patchKind, run } from './engine.js';
import { defaultExample, examples } from './examples.js';
import { decodeHash, encodeHash, normalize } from './state.js';

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

// The package: '../dist/' is /dist/ under `npm start`, and also right when the
// repository root itself is served (www/ and dist/ side by side).
let ap;
try {
  ap = await import('../dist/browser.mjs');
} catch (e) {
  $('status').textContent = `Could not load the applypatch package (${e.message}). Build it first: npm start builds and serves.`;
  document.body.dataset.status = 'broken';
  throw e;
}
useEngine(ap);
const features = detect(ap);
const available = modesAvailable(features);
document.body.dataset.multiFile = String(features.files);

const inputEditor = createEditor($('input'));
const patchEditor = createEditor($('patch'));
let state = normalize(decodeHash(location.hash) ?? fromExample(defaultExample));
let last = null; // the last run's result
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

for (const ex of examples) $('examples').append(el('option', { value: ex.id, textContent: ex.title }));
$('examples').addEventListener('change', () => {
  const ex = examples.find((e) => e.id === $('examples').value);
  if (!ex) return;
  load(normalize({ ...fromExample(ex), view: state.view }));
  $('examples').value = '';
});

$('input').addEventListener('input', () => {
  state.files[state.selected].text = $('input').value;
  schedule();
});
$('patch').addEventListener('input', () => {
  state.patch = $('patch').value;
  schedule();
});
$('file-path').addEventListener('input', () => {
  state.files[state.selected].path = $('file-path').value;
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
$('copy-link').addEventListener('click', () => {
  if (linkable) copy(location.href, 'Link copied');
  else $('status').textContent = 'These files are too large to fit in a link';
});

window.addEventListener('hashchange', () => {
  const s = decodeHash(location.hash);
  if (s && location.hash !== encodeHash(state)) load(s);
});

// ---- state -> page -------------------------------------------------------------

function fromExample(ex) {
  return { mode: ex.mode, files: ex.files.map((f) => ({ ...f })), selected: 0, patch: ex.patch, view: 'diff' };
}

function load(s) {
  state = normalize(s);
  patchEditor.setValue(state.patch);
  select(state.selected);
  showMode();
  update();
}

function showMode() {
  for (const r of document.querySelectorAll('input[name=mode]')) r.checked = r.value === state.mode;
  for (const r of document.querySelectorAll('input[name=view]')) r.checked = r.value === state.view;
  $('preset').value = state.preset;
  $('preset-label').hidden = state.mode !== 'blocks';
}

function select(i) {
  state.selected = i;
  inputEditor.setValue(state.files[i].text);
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
      b.addEventListener('click', () => select(i));
      return b;
    }),
  );
  $('remove-file').disabled = state.files.length < 2;
  $('input-label').textContent = `Contents of ${state.files[state.selected].path || 'the input file'}`;
}

let timer = 0;
function schedule() {
  clearTimeout(timer);
  timer = setTimeout(update, 150);
  document.body.dataset.pending = 'true';
}

function update() {
  clearTimeout(timer);
  const result = run(ap, features, state);
  last = result;
  runs++;
  const kind = patchKind(state.mode, state.patch);
  $('patch-kind').textContent = { diff: 'V4A diff', files: '*** Begin Patch patch', blocks: 'edit blocks' }[kind];
  $('input-hint').textContent = {
    diff:
      state.files.length > 1
        ? `A V4A diff applies to the selected file, ${state.files[state.selected].path}.`
        : 'A V4A diff applies to this file.',
    files: 'The patch names its files by path: Add file, and set each path as the patch names it.',
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
  // Browsers cap URLs near 2 MB: past a megabyte the link holds no state.
  const size = state.files.reduce((sum, f) => sum + f.path.length + f.text.length, state.patch.length);
  const hash = size <= 700_000 ? encodeHash(state) : '';
  linkable = hash !== '' && hash.length <= 1_000_000;
  history.replaceState(null, '', linkable ? hash : location.pathname + location.search);
  document.body.dataset.status = result.status;
  document.body.dataset.pending = 'false';
  document.body.dataset.runs = String(runs);
}

function markPatch(result) {
  const marks = [];
  const e = result.status === 'error' ? result.error : null;
  if (e?.patchLines) {
    for (let l = e.patchLines[0]; l <= e.patchLines[1]; l++) marks.push({ line: l, kind: l === e.diffLine ? 'error' : 'error-range' });
  } else if (e?.diffLine) {
    marks.push({ line: e.diffLine, kind: 'error', title: e.code });
  }
  for (const p of result.problems ?? []) if (p.line !== e?.diffLine) marks.push({ line: p.line, kind: 'warn', title: p.message });
  patchEditor.setMarks(marks);
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
    status.textContent = `${mode}: applied, ${changed} of ${r.files.length} file${r.files.length === 1 ? '' : 's'} changed (${r.ms.toFixed(1)} ms)`;
  }

  $('summary').hidden = !r.summary;
  $('summary').textContent = r.summary ?? '';
  showBlocks(r.blocks);
  $('notes').hidden = !r.notes?.length;
  $('notes').replaceChildren(...(r.notes ?? []).map((n) => el('li', { textContent: n })));

  const out = $('output');
  out.replaceChildren();
  if (r.status !== 'ok') return;
  const many = r.kind !== 'diff';
  for (const f of r.files) out.append(fileView(f, many));
}

function errorBody(e) {
  const box = document.createDocumentFragment();
  box.append(el('p', { className: 'code' }, el('strong', { textContent: e.code })));
  box.append(el('pre', { className: 'message', textContent: e.message }));
  if (e.hint) box.append(el('p', { className: 'hint', textContent: e.hint }));
  const where = el('p', { className: 'where' });
  if (e.diffLine) {
    where.append(jump(`Patch line ${e.diffLine}`, () => patchEditor.reveal(e.diffLine)));
  }
  if (e.inputLines?.length) {
    const file = e.path ? ` of ${e.path}` : '';
    where.append(
      jump(`Input line${e.inputLines.length > 1 ? 's' : ''} ${e.inputLines.join(', ')}${file}`, () => {
        const i = state.files.findIndex((f) => f.path === e.path);
        if (i >= 0 && i !== state.selected) select(i);
        inputEditor.reveal(e.inputLines[0]);
      }),
    );
  }
  if (e.nearest) {
    const n = e.nearest.text.split('\n').length;
    const lines = n > 1 ? `lines ${e.nearest.line}–${e.nearest.line + n - 1}` : `line ${e.nearest.line}`;
    where.append(
      jump(`Closest: input ${lines} (${Math.round(e.nearest.similarity * 100)}% equal)`, () => {
        const i = state.files.findIndex((f) => f.path === e.path);
        if (i >= 0 && i !== state.selected) select(i);
        inputEditor.reveal(e.nearest.line);
      }),
    );
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

const STATUS_TEXT = { modified: 'modified', unchanged: 'unchanged', added: 'added', deleted: 'deleted', moved: 'moved' };

function fileView(f, many) {
  const section = el('section', { className: `file file-${f.status}` });
  section.dataset.path = f.path;
  section.dataset.status = f.status;
  const badge = el('span', {
    className: `badge badge-${f.status}`,
    textContent: f.status === 'moved' ? `moved from ${f.from}` : STATUS_TEXT[f.status],
  });
  section.append(el('h3', {}, el('span', { className: 'path', textContent: f.path }), ' ', badge));
  if (state.view === 'text') {
    if (f.after === null) section.append(el('p', { className: 'gone', textContent: 'This file is deleted.' }));
    else section.append(el('pre', { className: 'text', tabIndex: 0, textContent: f.after }));
  } else if (many && f.status === 'unchanged') {
    section.append(el('p', { className: 'gone', textContent: 'No changes.' }));
  } else {
    section.append(diffView(f.before ?? '', f.after ?? ''));
  }
  return section;
}

function diffView(before, after) {
  const table = el('table', { className: 'diff', tabIndex: 0 });
  table.setAttribute('aria-label', 'Line diff: removed lines marked −, added lines marked +');
  const body = el('tbody');
  for (const r of diffRows(before, after)) {
    if (r.op === 'skip') {
      body.append(
        el(
          'tr',
          { className: 'row skip' },
          el('td', { colSpan: 4, textContent: `⋯ ${r.count} unchanged line${r.count === 1 ? '' : 's'}` }),
        ),
      );
      continue;
    }
    const sign = { eq: ' ', del: '−', add: '+' }[r.op];
    const tr = el(
      'tr',
      { className: `row ${r.op}` },
      el('td', { className: 'no', textContent: r.oldNo ?? '' }),
      el('td', { className: 'no', textContent: r.newNo ?? '' }),
      el('td', { className: 'sign', textContent: sign }),
      el('td', { className: 'tx', textContent: r.text.replace(/\r$/, '') }),
    );
    tr.dataset.op = r.op;
    body.append(tr);
  }
  if (before !== '' && after !== '' && endsWithNewline(before) !== endsWithNewline(after)) {
    const text = endsWithNewline(after) ? 'A final newline is added.' : 'The final newline is removed.';
    body.append(el('tr', { className: 'row note' }, el('td', { colSpan: 4, textContent: text })));
  }
  if (!body.childElementCount) body.append(el('tr', { className: 'row skip' }, el('td', { colSpan: 4, textContent: 'Empty file.' })));
  table.append(body);
  return table;
}

/** The output as plain text, for the copy button. */
function outputText() {
  const r = last;
  if (!r) return '';
  if (r.status === 'unavailable') return r.message;
  if (r.status === 'error') return `${r.error.code}: ${r.error.message}`;
  if (r.kind === 'diff') return r.files[0].after;
  const parts = r.summary ? [r.summary.replace(/\n*$/, '\n')] : [];
  for (const f of r.files) {
    const label = f.status === 'moved' ? `moved from ${f.from}` : f.status;
    parts.push(`=== ${f.path} (${label}) ===\n${f.after ?? ''}`);
  }
  return parts.join('\n');
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
