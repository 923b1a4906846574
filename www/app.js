// The playground page: CodeMirror editors (editors.js) for the input files,
// the patch and the output, wired to the package through engine.js. The state
// (mode, files, patch, view, preset, repair) is kept in the URL hash,
// compressed (state.js). Everything about the patch (its format, where it
// failed, the closest place) is what the package reports: nothing is parsed
// or diffed here (the output's merge view is @codemirror/merge's display).

import * as ap from '../dist/browser.mjs';
import { createEditor, createOutput, lineDiagnostic } from './editors.js';
import {
  detect,
  MODE_NAMES,
  modesAvailable,
  openStream,
  patchKind,
  replayBlocked,
  replayFailure,
  replayResult,
  run,
  streamFiles,
} from './engine.js';
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

$('replay').addEventListener('click', () => (replay ? update() : startReplay()));
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
  stopReplay();
  clearTimeout(timer);
  timer = setTimeout(update, 150);
  document.body.dataset.pending = 'true';
}

function update() {
  stopReplay();
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
  showReplayButton();
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

// ---- replay as a stream -------------------------------------------------------------
// The patch is pushed to createPatchStream a few characters at a time, as a
// model writes it. Each section event shows the stream's preview() with the
// section's lines marked (placed where its splices say), the end shows end(),
// and an error event stops the replay and shows the error as a failed apply.

const REPLAY_TICK_MS = 15;
let replay = null; // { kind, input, path?, stream, text, piece, pushed, sections, placed, timer }

function showReplayButton() {
  const why = replay ? null : replayBlocked(ap, features, state);
  const b = $('replay');
  b.disabled = why !== null;
  b.title = replay
    ? 'Stop the replay and apply the whole patch'
    : (why ?? 'Push the patch to createPatchStream a few characters at a time, as a model writes it, and see each section land');
  b.textContent = replay ? 'Stop replay' : 'Replay as stream';
  b.setAttribute('aria-pressed', String(replay !== null));
}

function startReplay() {
  if (document.body.dataset.pending === 'true') update(); // the state as typed
  if (replayBlocked(ap, features, state)) return;
  let opened;
  try {
    opened = openStream(ap, state);
  } catch (e) {
    replayFailed({ kind: patchKind(ap, state.mode, state.patch), stream: null, text: state.patch, pushed: 0 }, e);
    return;
  }
  // About a token a tick, more for a long patch: a whole replay takes a few seconds.
  const piece = Math.max(4, Math.ceil(state.patch.length / 300));
  replay = { ...opened, text: state.patch, piece, pushed: 0, sections: 0, placed: new Map(), timer: 0 };
  Object.assign(document.body.dataset, { replay: 'running', replaySections: '0', replayPushed: '0', status: 'replaying' });
  showReplayButton();
  patchEditor.setText('');
  patchEditor.setMarks([]);
  inputEditor.setMarks([]);
  showReplayOutput(replay, replay.stream.preview(), null, []);
  $('status').textContent = `${MODE_NAMES[state.mode]}: replaying the patch as a stream…`;
  replay.timer = setTimeout(replayTick, REPLAY_TICK_MS);
}

function replayTick() {
  const r = replay;
  if (!r) return;
  const piece = r.text.slice(r.pushed, r.pushed + r.piece);
  r.pushed += piece.length;
  document.body.dataset.replayPushed = String(r.pushed);
  patchEditor.setText(r.text.slice(0, r.pushed));
  patchEditor.follow();
  let events;
  try {
    events = r.stream.push(piece);
  } catch (e) {
    replayFailed(r, e);
    return;
  }
  for (const e of events) {
    if (e.type === 'section') replayLanded(r, e);
    else if (e.type === 'error') {
      // A PatchError, or (edit blocks) applyBlocks' result on the message so far.
      replayFailed(r, e.error ?? e.result);
      return;
    }
  }
  if (r.pushed < r.text.length) r.timer = setTimeout(replayTick, REPLAY_TICK_MS);
  else replayEnded(r);
}

/** A section placed: the preview, the section's lines marked in it. */
function replayLanded(r, e) {
  r.sections++;
  const path = e.path ?? r.path;
  // The splices are offsets into the original text: in the preview each moves by the splices placed before it.
  // (Edit blocks: into the file as the blocks before left it, the preview before this block.)
  const earlier = r.kind === 'blocks' ? [] : (r.placed.get(path) ?? []);
  const all = [...earlier, ...e.splices];
  const ranges = e.splices.map((s, j) => {
    const at = earlier.length + j;
    let shift = 0;
    all.forEach((p, i) => {
      if (i !== at && (p.to < s.from || (p.to === s.from && i < at))) shift += p.insert.length - (p.to - p.from);
    });
    return [s.from + shift, s.from + shift + s.insert.length];
  });
  r.placed.set(path, all);
  const preview = r.stream.preview();
  // An update that moves its file: the preview has it at its new path, the added file whose text is this one's with the splices placed.
  let where = path;
  if (typeof preview !== 'string' && !preview.has(path)) {
    const text = spliced(r.input.get(path) ?? '', all);
    where = [...preview].find(([p, t]) => !r.input.has(p) && t === text)?.[0] ?? path;
  }
  showReplayOutput(r, preview, where, ranges);
  $('status').textContent =
    `${MODE_NAMES[state.mode]}: replaying, section ${e.index + 1}${e.path ? ` of ${e.path}` : ''} placed at input line ${e.inputLine}`;
  document.body.dataset.replaySections = String(r.sections);
  document.dispatchEvent(new CustomEvent('replaysection', { detail: { index: e.index, path, inputLine: e.inputLine } }));
}

/** A text with splices (offsets into it, in the order placed) applied. */
function spliced(text, splices) {
  const sorted = splices.map((p, i) => [p, i]).sort(([a, i], [b, j]) => a.from - b.from || i - j);
  let out = '';
  let at = 0;
  for (const [p] of sorted) {
    out += text.slice(at, p.from) + p.insert;
    at = p.to;
  }
  return out + text.slice(at);
}

function showReplayOutput(r, out, path, ranges) {
  const list = streamFiles(r, out);
  for (const id of ['error', 'summary', 'blocks', 'notes']) $(id).hidden = true;
  $('output').hidden = false;
  if (path !== null && list.some((f) => f.path === path)) shown = path;
  else if (!list.some((f) => f.path === shown)) shown = (list.find((f) => f.status !== 'unchanged') ?? list[0]).path;
  showOutputFiles(list);
  if (shown !== path || ranges.length === 0) return;
  const doc = output.view.state.doc;
  const lines = new Set();
  for (const [from, to] of ranges) {
    const first = doc.lineAt(Math.min(from, doc.length)).number;
    const lastLine = doc.lineAt(Math.min(Math.max(from, to - 1), doc.length)).number;
    for (let l = first; l <= lastLine; l++) lines.add(l);
  }
  output.setMarks([...lines].map((line) => ({ line, kind: 'landed', title: 'placed by the last section' })));
}

function replayEnded(r) {
  let out;
  try {
    out = r.stream.end();
  } catch (e) {
    replayFailed(r, e);
    return;
  }
  replay = null;
  const result = replayResult(ap, state, r, out);
  if (result.status !== 'ok') {
    // Edit blocks: applyBlocks refused the whole message (a block malformed or not found).
    replayShowFailure(result);
    return;
  }
  last = result;
  showResult(result);
  markPatch(result);
  markInput(result);
  const changed = result.files.filter((f) => f.status !== 'unchanged').length;
  $('status').textContent =
    `${MODE_NAMES[state.mode]}: replayed as a stream, ${r.sections} section${r.sections === 1 ? '' : 's'} placed as ${r.sections === 1 ? 'it' : 'they'} arrived, then end(): ${changed} of ${result.files.length} file${result.files.length === 1 ? '' : 's'} changed`;
  Object.assign(document.body.dataset, { replay: 'done', status: 'ok' });
  showReplayButton();
}

/** The first error: the replay stops, and the error shows as a failed apply shows it. */
function replayFailed(r, e) {
  clearTimeout(r.timer);
  release(r);
  replay = null;
  replayShowFailure(replayFailure(ap, state, r, e, r.text.slice(0, r.pushed)));
}

function replayShowFailure(result) {
  patchEditor.setText(state.patch);
  last = result;
  showResult(result);
  markPatch(result);
  markInput(result);
  showFiles();
  $('status').textContent = `${MODE_NAMES[state.mode]}: the replay stopped, the patch does not apply (${result.error.code})`;
  Object.assign(document.body.dataset, { replay: 'error', status: 'error' });
  showReplayButton();
}

/** Stops a replay in progress (an edit, or the button), with the whole patch back in its pane. */
function stopReplay() {
  const r = replay;
  if (!r) return;
  replay = null;
  clearTimeout(r.timer);
  release(r);
  document.body.dataset.replay = 'stopped';
  if (patchEditor.text() !== state.patch) patchEditor.setText(state.patch);
  showReplayButton();
}

function release(r) {
  try {
    r.stream?.abort();
  } catch {
    // already ended or failed: nothing held
  }
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
