// applypatch/codemirror and applypatch/monaco in a real browser (Chromium via
// Playwright), on real @codemirror/* and monaco-editor production builds
// bundled with esbuild: positions, undo steps, review per chunk, diagnostics
// and markers, and exact offsets with astral characters, CJK, CRLF, no final
// newline and an empty document.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p)) ?? null;
if (chromiumPath === null) {
  const msg = 'Chromium is missing (/usr/bin/chromium; set CHROMIUM_PATH, or run scripts/setup.sh as root to install it)';
  if (process.env.CI) throw new Error(`editors browser test: ${msg}, and CI is set: the browser test must run`);
  console.log(`\n!!! SKIPPING the editors browser test: ${msg}. !!!\n`);
}
const browserTest = (name, fn) => test(name, { skip: chromiumPath === null && 'no Chromium' }, fn);

const ORIGIN = 'http://editors.test/';
let context;
let page;
let userDir;
let outDir;
const problems = [];

before(async () => {
  if (chromiumPath === null) return;
  assert.ok(existsSync(join(root, 'dist', 'codemirror.mjs')), 'dist/ is not built: run node scripts/build.mjs first');
  const esbuild = await import('esbuild');
  outDir = mkdtempSync(join(tmpdir(), 'applypatch-editors-'));
  await esbuild.build({
    entryPoints: [join(root, 'tests', 'browser', 'editors', 'page.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'empty', '.ttf': 'empty' },
    outfile: join(outDir, 'page.js'),
    logLevel: 'error',
  });
  const { chromium } = await import('playwright-core');
  userDir = mkdtempSync(join(tmpdir(), 'applypatch-chromium-'));
  context = await chromium.launchPersistentContext(userDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const bundle = readFileSync(join(outDir, 'page.js'));
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url === ORIGIN)
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><meta charset="utf-8"><div id="cm"></div><div id="mo" style="width:600px;height:300px"></div><script type="module" src="page.js"></script>',
      });
    if (url === `${ORIGIN}page.js`) return route.fulfill({ contentType: 'text/javascript', body: bundle });
    return route.abort();
  });
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(ORIGIN);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 60000 });
});

after(async () => {
  await context?.close();
  for (const d of [userDir, outDir]) if (d) rmSync(d, { recursive: true, force: true });
  assert.deepEqual(problems, [], 'the page threw');
});

browserTest('CodeMirror: cursors and selections outside the changed lines stay on their characters; several cursors survive', async () => {
  const r = await page.evaluate(() => {
    const { EditorState, EditorSelection, EditorView } = t.cm;
    const doc = 'alpha 😀\nbeta\ngamma 中文\ndelta\nepsilon\n';
    const state = EditorState.create({ doc, extensions: [EditorState.allowMultipleSelections.of(true)] });
    const view = new EditorView({ state, parent: document.getElementById('cm') });
    // A cursor on line 1 after the emoji, a selection on line 3 ("中文"), a cursor on line 5, one inside line 2 (changed).
    const at = (s) => doc.indexOf(s);
    view.dispatch({
      selection: EditorSelection.create([
        EditorSelection.cursor(at(' 😀') + 3),
        EditorSelection.range(at('中文'), at('中文') + 2),
        EditorSelection.cursor(at('silon')),
        EditorSelection.cursor(at('eta')),
      ]),
    });
    const around = (st) => st.selection.ranges.map((rg) => st.sliceDoc(rg.from - 1, rg.to + 1));
    const before = around(view.state);
    const report = t.adapters.cm.applyPatchToView(view, '@@\n alpha 😀\n-beta\n+BETA!\n gamma 中文');
    const after = around(view.state);
    const out = {
      before,
      after,
      text: view.state.doc.toString(),
      want: t.apply(doc, '@@\n alpha 😀\n-beta\n+BETA!\n gamma 中文'),
      ranges: view.state.selection.ranges.length,
      splices: report.splices,
    };
    view.destroy();
    return out;
  });
  assert.equal(r.text, r.want);
  assert.equal(r.ranges, 4);
  // CodeMirror keeps ranges sorted: [1] is the cursor inside the changed line 2.
  const outside = (a) => [a[0], a[2], a[3]];
  assert.deepEqual(outside(r.after), outside(r.before), 'the cursors and the selection outside line 2 are on the same characters');
  assert.deepEqual(r.splices, [{ from: 9, to: 13, insert: 'BETA!' }]);
});

browserTest('CodeMirror: one undo restores the document exactly, one redo re-applies; typing just before stays its own step', async () => {
  const r = await page.evaluate(() => {
    const { EditorState, EditorView, history, undo, redo, undoDepth } = t.cm;
    const doc = 'one\ntwo\nthree\n';
    const view = new EditorView({ state: EditorState.create({ doc, extensions: [history()] }), parent: document.getElementById('cm') });
    view.dispatch({ changes: { from: 0, insert: 'x' }, userEvent: 'input.type' });
    const typed = view.state.doc.toString();
    const spec = t.adapters.cm.patchTransaction(view.state, '@@\n xone\n-two\n+TWO');
    const pure = view.state.doc.toString() === typed;
    view.dispatch(spec);
    const patched = view.state.doc.toString();
    const depth = undoDepth(view.state);
    undo(view);
    const afterUndo = view.state.doc.toString();
    redo(view);
    const afterRedo = view.state.doc.toString();
    undo(view);
    undo(view);
    const original = view.state.doc.toString();
    view.destroy();
    return { typed, pure, patched, depth, afterUndo, afterRedo, original, spec: { userEvent: spec.userEvent, changes: spec.changes } };
  });
  assert.ok(r.pure, 'patchTransaction does not change the state');
  assert.equal(r.patched, 'xone\nTWO\nthree\n');
  assert.equal(r.depth, 2, 'the typing and the patch are two undo steps');
  assert.equal(r.afterUndo, r.typed);
  assert.equal(r.afterRedo, r.patched);
  assert.equal(r.original, 'one\ntwo\nthree\n');
  assert.equal(r.spec.userEvent, 'input.patch');
});

browserTest('CodeMirror: review accepts and rejects per chunk', async () => {
  const r = await page.evaluate(async () => {
    const { EditorState, EditorView, history, getChunks, rejectChunk, acceptChunk, getOriginalDoc } = t.cm;
    const doc = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const diff = '@@\n-a\n+A\n b\n@@\n h\n-i\n+I1\n+I2';
    const want = t.apply(doc, diff);
    const make = () =>
      new EditorView({ state: EditorState.create({ doc, extensions: [history()] }), parent: document.getElementById('cm') });
    const v1 = make();
    await t.adapters.cm.reviewPatch(v1, diff);
    const shown = v1.state.doc.toString();
    const chunks = getChunks(v1.state).chunks.length;
    while (getChunks(v1.state).chunks.length) rejectChunk(v1, getChunks(v1.state).chunks[0].fromB);
    const rejected = v1.state.doc.toString();
    v1.destroy();
    const v2 = make();
    await t.adapters.cm.reviewPatch(v2, diff);
    while (getChunks(v2.state).chunks.length) acceptChunk(v2, getChunks(v2.state).chunks[0].fromB);
    const original = getOriginalDoc(v2.state).toString();
    const doc2 = v2.state.doc.toString();
    v2.destroy();
    return { doc, want, shown, chunks, rejected, original, doc2 };
  });
  assert.equal(r.shown, r.want);
  assert.equal(r.chunks, 2);
  assert.equal(r.rejected, r.doc, 'after rejecting every chunk: the text from before');
  assert.equal(r.original, r.want, "after accepting every chunk: getOriginalDoc is apply()'s text");
  assert.equal(r.doc2, r.want);
});

browserTest('CodeMirror: a failed patch changes nothing and its diagnostic is on the right line', async () => {
  const r = await page.evaluate(() => {
    const { EditorState, EditorView, EditorSelection, history, undoDepth, setDiagnostics, forEachDiagnostic } = t.cm;
    const doc = 'fn a() {\n  return 1;\n}\nfn b() {\n  return 2;\n}\n';
    const view = new EditorView({ state: EditorState.create({ doc, extensions: [history()] }), parent: document.getElementById('cm') });
    view.dispatch({ changes: { from: 0, insert: '// x\n' }, selection: EditorSelection.cursor(3) });
    const before = { doc: view.state.doc.toString(), sel: view.state.selection.toJSON(), depth: undoDepth(view.state) };
    let error;
    try {
      t.adapters.cm.applyPatchToView(view, '@@\n fn b() {\n-  return 3;\n+  return 4;');
    } catch (e) {
      error = e;
    }
    const afterFail = { doc: view.state.doc.toString(), sel: view.state.selection.toJSON(), depth: undoDepth(view.state) };
    view.dispatch(setDiagnostics(view.state, t.adapters.cm.patchDiagnostics(error, view.state)));
    const lines = [];
    forEachDiagnostic(view.state, (_d, from) => lines.push(view.state.doc.lineAt(from).number));
    const patchState = EditorState.create({ doc: '@@\n fn b() {\n-  return 3;\n+  return 4;' });
    const patchLines = t.adapters.cm
      .patchDiagnostics(error, patchState, { target: 'patch' })
      .map((d) => patchState.doc.lineAt(d.from).number);
    view.destroy();
    return {
      before,
      afterFail,
      code: error?.code,
      isPatchError: error instanceof t.adapters.cm.PatchError,
      inputLines: error?.inputLines,
      nearest: error?.nearest?.line,
      diffLine: error?.diffLine,
      lines,
      patchLines,
    };
  });
  assert.deepEqual(r.afterFail, r.before, 'document, selection and undo history unchanged');
  assert.equal(r.code, 'context_not_found');
  assert.ok(r.isPatchError);
  assert.deepEqual(r.lines, [r.inputLines?.[0] ?? r.nearest], 'the diagnostic is on the line the error names');
  assert.equal(r.lines[0], 6, 'line 6 of the document: "  return 2;"');
  assert.deepEqual(r.patchLines, [r.diffLine]);
});

browserTest('CodeMirror: offsets exact with astral characters, CJK, CRLF documents, no final newline and an empty document', async () => {
  const cases = [
    { doc: '😀😀\n中文字\n👍🏽 end', diff: '@@\n 😀😀\n-中文字\n+中文字!\n 👍🏽 end' },
    { doc: 'a😀\r\nb\r\nc\r\n', diff: '@@\n-b\n+B😀\n c', crlf: true },
    { doc: 'x\r\ny\r\nz', diff: '@@\n x\n-y\n+Y\n z', crlf: true },
    { doc: 'last line', diff: '@@\n-last line\n+last 😀 line' },
    { doc: '', diff: '@@\n+new 中文' },
    {
      doc: 'keep\n',
      format: 'patch',
      diff: '*** Begin Patch\n*** Update File: other.txt\n@@\n-a\n+b\n*** Update File: doc.txt\n@@\n-keep\n+kept 😀\n*** End Patch',
      path: 'doc.txt',
    },
    { doc: 'one\ntwo\n', diff: '--- a/doc.txt\n+++ b/doc.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2️⃣\n' },
    { doc: 'one\ntwo\n', diff: 'doc.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO 😀\n>>>>>>> REPLACE\n' },
  ];
  const r = await page.evaluate((cases) => {
    const { EditorState, EditorView } = t.cm;
    return cases.map((c) => {
      const extensions = c.crlf ? [EditorState.lineSeparator.of('\r\n')] : [];
      const view = new EditorView({ state: EditorState.create({ doc: c.doc, extensions }), parent: document.getElementById('cm') });
      const report = t.adapters.cm.applyPatchToView(view, c.diff, c.path ? { path: c.path } : undefined);
      const got = view.state.sliceDoc();
      view.destroy();
      return { got, text: report.text, format: report.format, others: report.otherOperations?.map((o) => o.path) };
    });
  }, cases);
  const want = await page.evaluate((cases) => cases.map((c) => (c.format === 'patch' ? null : c)), cases);
  for (const [i, c] of cases.entries()) {
    assert.equal(r[i].got, r[i].text, `case ${i}: the editor's text is the engine's`);
    if (want[i] && r[i].format === 'diff') assert.equal(r[i].got, await page.evaluate(([d, p]) => t.apply(d, p), [c.doc, c.diff]));
  }
  assert.equal(r[1].got, 'a😀\r\nB😀\r\nc\r\n');
  assert.equal(r[4].got, 'new 中文');
  assert.equal(r[5].got, 'kept 😀\n');
  assert.deepEqual(r[5].others, ['other.txt'], "the other file's operation is returned, not applied");
  assert.equal(r[6].got, 'one\n2️⃣\n');
  assert.equal(r[7].got, 'one\nTWO 😀\n');
  assert.deepEqual(
    r.map((x) => x.format),
    ['diff', 'diff', 'diff', 'diff', 'diff', 'patch', 'unified', 'blocks'],
  );
});

browserTest('CodeMirror: a patch that deletes or moves the document is refused, and nothing changes', async () => {
  const r = await page.evaluate(() => {
    const { EditorState, EditorView } = t.cm;
    const view = new EditorView({ state: EditorState.create({ doc: 'x\n' }), parent: document.getElementById('cm') });
    const out = [];
    for (const p of [
      '*** Begin Patch\n*** Delete File: doc.txt\n*** End Patch',
      '*** Begin Patch\n*** Update File: doc.txt\n*** Move to: new.txt\n@@\n-x\n+y\n*** End Patch',
    ]) {
      try {
        t.adapters.cm.applyPatchToView(view, p, { path: 'doc.txt' });
        out.push('applied');
      } catch (e) {
        out.push(`${e.code}: ${e.message}`);
      }
    }
    out.push(view.state.doc.toString());
    view.destroy();
    return out;
  });
  assert.match(r[0], /^invalid_operation: The patch deletes doc\.txt, the document open in this editor/);
  assert.match(r[1], /^invalid_operation: The patch moves doc\.txt, the document open in this editor, to new\.txt/);
  assert.equal(r[2], 'x\n');
});

browserTest('Monaco: minimal edits, one undo step, exact offsets (CRLF, astral), markers on the right line', async () => {
  const r = await page.evaluate(() => {
    const { monaco } = t;
    const out = {};
    const doc = 'alpha 😀\r\nbeta\r\ngamma 中文\r\n';
    const model = monaco.editor.createModel(doc, 'plaintext');
    const editor = monaco.editor.create(document.getElementById('mo'), { model });
    editor.setSelections([new monaco.Selection(1, 7, 1, 9), new monaco.Selection(3, 7, 3, 9)]);
    const around = () => editor.getSelections().map((s) => model.getValueInRange(s));
    out.before = around();
    out.edits = t.adapters.mo.patchEdits(model, '@@\n alpha 😀\n-beta\n+BETA 👍🏽\n gamma 中文');
    out.pure = model.getValue() === doc;
    const report = t.adapters.mo.applyPatchToModel(editor, '@@\n alpha 😀\n-beta\n+BETA 👍🏽\n gamma 中文');
    out.text = model.getValue();
    out.report = report.text;
    out.after = around();
    model.undo();
    out.undone = model.getValue();
    model.redo();
    out.redone = model.getValue();
    let error;
    try {
      t.adapters.mo.applyPatchToModel(model, '@@\n-gamma 中\n+x');
    } catch (e) {
      error = e;
    }
    out.afterFail = model.getValue();
    monaco.editor.setModelMarkers(model, 'applypatch', t.adapters.mo.patchMarkers(error, model));
    out.markers = monaco.editor.getModelMarkers({ owner: 'applypatch' }).map((m) => [m.startLineNumber, m.severity]);
    out.code = error?.code;
    // A model (no editor): one undo step too; an empty model; no final newline.
    const m2 = monaco.editor.createModel('', 'plaintext');
    t.adapters.mo.applyPatchToModel(m2, '@@\n+中文 😀');
    out.empty = m2.getValue();
    m2.undo();
    out.emptyUndone = m2.getValue();
    const m3 = monaco.editor.createModel('x\ny', 'plaintext');
    t.adapters.mo.applyPatchToModel(m3, '@@\n x\n-y\n+😀y');
    out.noFinal = [m3.getValue(), t.apply('x\ny', '@@\n x\n-y\n+😀y')];
    editor.dispose();
    for (const m of [model, m2, m3]) m.dispose();
    return out;
  });
  assert.deepEqual(r.edits, [
    { range: { startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 5 }, text: 'BETA 👍🏽', forceMoveMarkers: false },
  ]);
  assert.ok(r.pure);
  assert.equal(r.text, 'alpha 😀\r\nBETA 👍🏽\r\ngamma 中文\r\n');
  assert.equal(r.text, r.report);
  assert.deepEqual(r.after, r.before, 'selections outside the changed line stay on their characters');
  assert.equal(r.undone, 'alpha 😀\r\nbeta\r\ngamma 中文\r\n', 'one undo restores the text exactly');
  assert.equal(r.redone, r.text);
  assert.equal(r.afterFail, r.text, 'a failed patch changes nothing');
  assert.equal(r.code, 'context_not_found');
  assert.deepEqual(r.markers, [[3, 8]], 'the marker is on line 3 ("gamma 中文"), as an error');
  assert.equal(r.empty, '中文 😀');
  assert.equal(r.emptyUndone, '');
  assert.equal(r.noFinal[0], r.noFinal[1]);
});

// The user typed while the model wrote: the patch was written against the
// text the model read (`base`); applied with it, the changes are the patch's
// alone, the user's typing and cursor stay, and a clash changes nothing.
const modelRead = 'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';
const modelDiff = '@@ function sub(a, b) {\n-  return a - b;\n+  return Number(a) - Number(b);\n';

browserTest('CodeMirror with base: the user typed into the document since the model read it; typing and cursor survive', async () => {
  const r = await page.evaluate(
    ([base, diff]) => {
      const { EditorState, EditorView, EditorSelection, history, undo } = t.cm;
      const view = new EditorView({
        state: EditorState.create({ doc: base, extensions: [history()] }),
        parent: document.getElementById('cm'),
      });
      // The user types a comment at the top and a doc line inside add(), the cursor ends after it.
      view.dispatch({ changes: { from: 0, insert: '// math\n' }, userEvent: 'input.type' });
      const inAdd = view.state.doc.toString().indexOf('  return a + b;');
      view.dispatch({
        changes: { from: inAdd, insert: '  // adds\n' },
        selection: EditorSelection.cursor(inAdd + '  // adds'.length),
        userEvent: 'input.type',
      });
      const typed = view.state.doc.toString();
      const cursor = view.state.selection.main.head;
      const around = (st) => st.sliceDoc(st.selection.main.head - 6, st.selection.main.head);
      const before = around(view.state);
      const spec = t.adapters.cm.patchTransaction(view.state, diff, { base });
      const report = t.adapters.cm.applyPatchToView(view, diff, { base });
      const out = {
        typed,
        text: view.state.doc.toString(),
        reportText: report.text,
        changes: spec.changes,
        cursorMoved: view.state.selection.main.head - cursor,
        before,
        after: around(view.state),
      };
      undo(view);
      out.undone = view.state.doc.toString();
      // The user changes the very line the patch changes: merge_conflict, nothing changes, a diagnostic on that line.
      const inSub = view.state.doc.toString().indexOf('a - b');
      view.dispatch({ changes: { from: inSub, to: inSub + 5, insert: 'b - a' }, userEvent: 'input.type' });
      const clashed = view.state.doc.toString();
      try {
        t.adapters.cm.applyPatchToView(view, diff, { base });
      } catch (e) {
        out.code = e.code;
        out.inputLines = e.inputLines;
        out.diagnostics = t.adapters.cm.patchDiagnostics(e, view.state).map((d) => view.state.doc.lineAt(d.from).number);
      }
      out.unchanged = view.state.doc.toString() === clashed;
      view.destroy();
      return out;
    },
    [modelRead, modelDiff],
  );
  const want = r.typed.replace('return a - b', 'return Number(a) - Number(b)');
  assert.equal(r.text, want);
  assert.equal(r.reportText, want);
  // One minimal change, against the document as the user left it (the patch's line, 4 lines further down than in base).
  assert.deepEqual(r.changes, [{ from: r.typed.indexOf('a - b'), to: r.typed.indexOf('a - b') + 5, insert: 'Number(a) - Number(b)' }]);
  assert.equal(r.cursorMoved, 0, 'the cursor stays where the user left it');
  assert.equal(r.after, r.before);
  assert.equal(r.undone, r.typed, "undo takes the patch back and keeps the user's typing");
  assert.equal(r.code, 'merge_conflict');
  assert.deepEqual(r.inputLines, [8]);
  assert.deepEqual(r.diagnostics, [8]);
  assert.ok(r.unchanged, 'a conflict changes nothing');
});

browserTest('Monaco with base: the user typed into the model since the model read it; typing and cursor survive', async () => {
  const r = await page.evaluate(
    ([base, diff]) => {
      const { monaco } = t;
      const model = monaco.editor.createModel(base, 'plaintext');
      const editor = monaco.editor.create(document.getElementById('mo'), { model });
      // The user types a line at the top and a word inside add(), the cursor after it.
      editor.executeEdits('user', [{ range: new monaco.Range(1, 1, 1, 1), text: '// math\n' }]);
      editor.executeEdits('user', [{ range: new monaco.Range(3, 16, 3, 16), text: ' /* sum */' }]);
      editor.setSelection(new monaco.Selection(3, 26, 3, 26));
      const typed = model.getValue();
      const edits = t.adapters.mo.patchEdits(model, diff, { base });
      t.adapters.mo.applyPatchToModel(editor, diff, { base });
      const sel = editor.getSelection();
      const out = { typed, edits, text: model.getValue(), cursor: [sel.positionLineNumber, sel.positionColumn] };
      model.undo();
      out.undone = model.getValue();
      editor.dispose();
      model.dispose();
      return out;
    },
    [modelRead, modelDiff],
  );
  assert.equal(r.typed, `// math\n${modelRead.replace('a + b;', 'a + b; /* sum */')}`);
  assert.equal(r.text, r.typed.replace('return a - b', 'return Number(a) - Number(b)'));
  assert.deepEqual(r.edits, [
    {
      range: { startLineNumber: 7, startColumn: 10, endLineNumber: 7, endColumn: 15 },
      text: 'Number(a) - Number(b)',
      forceMoveMarkers: false,
    },
  ]);
  assert.deepEqual(r.cursor, [3, 26], 'the cursor stays where the user left it');
  assert.equal(r.undone, r.typed, "undo takes the patch back and keeps the user's typing");
});
