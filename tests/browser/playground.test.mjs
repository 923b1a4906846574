// The playground in a real browser: `npm start`'s server (scripts/start.mjs
// --no-build, on a free port), Debian's Chromium driven by playwright-core.
// Each mode's case types its input and patch into the panes and checks the
// exact output text and an error highlight. A mode this build of the package
// lacks is reported by the page; its case then checks the page says so and is
// skipped with a loud message.
//
// No browser: with CI set this fails; elsewhere it skips, loudly.
// PLAYGROUND_SCREENSHOT=docs/playground.png also writes the README's picture.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { examples } from '../../www/examples.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'tests', 'browser', 'screenshots');
const example = (id) => examples.find((e) => e.id === id);

function findChromium() {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (p && existsSync(p)) return p;
  }
  return null;
}
const chromiumPath = findChromium();
const noBrowser = chromiumPath === null;
if (noBrowser) {
  const msg = 'Chromium is missing (/usr/bin/chromium; set CHROMIUM_PATH, or run scripts/setup.sh as root to install it)';
  if (process.env.CI) throw new Error(`playground browser test: ${msg}, and CI is set: the browser test must run`);
  console.log(`\n!!! SKIPPING the playground browser test: ${msg}. !!!\n`);
}
const browserTest = (name, fn) => test(name, { skip: noBrowser && 'no Chromium' }, fn);

let server;
let baseUrl;
let context;
let userDir;
const pageErrors = [];

before(async () => {
  if (noBrowser) return;
  assert.ok(existsSync(join(root, 'dist', 'browser.mjs')), 'dist/ is not built: run node scripts/build.mjs first');
  server = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--no-build'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/localhost:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}) before printing its URL: ${out}`)));
    setTimeout(() => reject(new Error(`the server printed no URL in 10 s: ${out}`)), 10000);
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
      '--no-first-run',
    ],
    viewport: { width: 1400, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  // Nothing may be fetched from anywhere but the local server.
  await context.route('**/*', (route) => (route.request().url().startsWith(baseUrl) ? route.continue() : route.abort()));
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await context?.close();
  if (server && server.exitCode === null) server.kill();
  if (userDir) rmSync(userDir, { recursive: true, force: true });
});

// ---- helpers ------------------------------------------------------------------

async function open(hash = '') {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${page.url()}: console: ${m.text()}`);
  });
  await page.goto(baseUrl + hash);
  await page.waitForFunction(() => Number(document.body.dataset.runs) > 0);
  return page;
}

/** Waits until the debounced update after the last keystroke has run. */
async function settle(page) {
  await page.waitForFunction(() => document.body.dataset.pending === 'false');
}

/** Replaces a text field's contents by typing, key by key. */
async function typeInto(page, selector, text) {
  await page.click(selector);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  assert.equal(await page.inputValue(selector), text, `typing into ${selector}`);
}

async function chooseMode(page, mode) {
  await page.check(`input[name=mode][value=${mode}]`);
  await settle(page);
}

async function chooseView(page, view) {
  await page.check(`input[name=view][value=${view}]`);
  await settle(page);
}

const modeAvailable = (page, mode) => page.$eval(`input[name=mode][value=${mode}]`, (r) => r.dataset.available === 'true');
const status = (page) => page.evaluate(() => document.body.dataset.status);
const marks = (page, pane) => page.$$eval(`#${pane}-pane .mark`, (ms) => ms.map((m) => [Number(m.dataset.line), m.dataset.kind]));
const linesOf = (list, kind) => list.filter(([, k]) => k === kind).map(([l]) => l);
const outputText = (page, path) => page.$eval(`#output .file[data-path="${path}"] pre.text`, (p) => p.textContent);
const files = (page) =>
  page.$$eval('#output .file', (fs) =>
    fs.map((f) => ({ path: f.dataset.path, status: f.dataset.status, badge: f.querySelector('.badge').textContent })),
  );

/** Types the input files (renaming the first, adding the others) and the patch. */
async function typeFiles(page, list) {
  await typeInto(page, '#file-path', list[0].path);
  await typeInto(page, '#input', list[0].text);
  for (const f of list.slice(1)) {
    await page.click('#add-file');
    await typeInto(page, '#file-path', f.path);
    await typeInto(page, '#input', f.text);
  }
}

function skipLoudly(t, what) {
  const msg = `${what} is not available in this build of applypatch: its browser case did not run`;
  console.log(`\n!!! SKIPPED: ${msg} !!!\n`);
  t.skip(msg);
}

// ---- expected results (written out by hand from the examples) --------------------

const strictOut = `export function total(items, taxRate = 0) {
  let sum = 0;
  for (const item of items) {
    sum += item.price * item.quantity;
  }
  return sum * (1 + taxRate);
}

export function isEmpty(items) {
  return items.length === 0;
}
`;

const movedCart = `import { formatMoney } from '../money.js';

export function total(items) {
  let sum = 0;
  for (const item of items) {
    sum += item.price;
  }
  return sum;
}

export function isEmpty(items) {
  return !items || items.length === 0;
}

export function label(items) {
  return formatMoney(total(items));
}
`;

const money = `export function formatMoney(cents, currency = 'EUR') {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
}
`;

const codexSummary = 'Success. Updated the following files:\nA src/money.js\nM src/checkout/cart.js\nD src/format.js';

const blocksOut = `class Cart:
    def __init__(self):
        self.items = []

    def add(self, item, quantity=1):
        self.items.extend([item] * quantity)

    def total(self, discount=0):
        subtotal = sum(item.price for item in self.items)
        return max(subtotal - discount, 0)
`;

// ---- tests ----------------------------------------------------------------------

browserTest('the server serves the page and the package (the wasm travels inside dist/wasm/bytes.mjs)', async () => {
  for (const [path, type] of [
    ['', 'text/html'],
    ['app.js', 'text/javascript'],
    ['style.css', 'text/css'],
    ['dist/browser.mjs', 'text/javascript'],
    ['dist/wasm/bytes.mjs', 'text/javascript'],
  ]) {
    const res = await fetch(baseUrl + path);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type'), new RegExp(`^${type}`), path);
  }
  // Nothing outside www/ and dist/ (fetch would normalise '..' away: send it raw).
  const raw = await new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    get({ hostname, port, path: '/..%2fpackage.json' }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
  assert.equal(raw, 403);
});

browserTest('opens with an example loaded and its output shown', async () => {
  const page = await open();
  assert.equal(await status(page), 'ok');
  assert.equal(await page.inputValue('#input'), example('strict-diff').files[0].text);
  assert.equal(await page.inputValue('#patch'), example('strict-diff').patch);
  // The line diff: the three changed lines, removed then added.
  const rows = await page.$$eval('#output .diff tr', (rs) => rs.map((r) => [r.dataset.op, r.querySelector('.tx')?.textContent]));
  assert.deepEqual(
    rows.filter(([op]) => op === 'del').map(([, t]) => t),
    ['export function total(items) {', '    sum += item.price;', '  return sum;'],
  );
  assert.deepEqual(
    rows.filter(([op]) => op === 'add').map(([, t]) => t),
    ['export function total(items, taxRate = 0) {', '    sum += item.price * item.quantity;', '  return sum * (1 + taxRate);'],
  );
  await chooseView(page, 'text');
  assert.equal(await outputText(page, 'src/cart.js'), strictOut);
  assert.match(page.url(), /#s=[\w-]+$/);
  await page.screenshot({ path: join(shots, 'opening.tmp.png') });
  if (process.env.PLAYGROUND_SCREENSHOT) {
    await chooseView(page, 'diff');
    await page.setViewportSize({ width: 1280, height: 520 });
    await page.screenshot({ path: join(root, process.env.PLAYGROUND_SCREENSHOT) });
  }
  await page.close();
});

browserTest('Strict: a V4A diff typed into the panes; copy, and a link that reproduces it', async () => {
  const page = await open();
  await chooseMode(page, 'strict');
  await chooseView(page, 'text');
  const ex = example('strict-diff');
  await typeFiles(page, [{ path: 'src/cart.js', text: ex.files[0].text }]);
  await typeInto(page, '#patch', '');
  await settle(page);
  // An empty diff changes nothing.
  assert.equal(await outputText(page, 'src/cart.js'), ex.files[0].text);
  await typeInto(page, '#patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok');
  assert.equal(await outputText(page, 'src/cart.js'), strictOut);
  assert.deepEqual(await files(page), [{ path: 'src/cart.js', status: 'modified', badge: 'modified' }]);

  await page.click('#copy');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Output copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), strictOut);

  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Link copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());

  const again = await open(new URL(page.url()).hash);
  assert.equal(await again.inputValue('#patch'), ex.patch);
  assert.equal(await again.inputValue('#file-path'), 'src/cart.js');
  assert.equal(await outputText(again, 'src/cart.js'), strictOut);
  await again.close();
  await page.close();
});

browserTest('Strict: an error highlights its patch line and input lines, and fixing the diff clears it', async () => {
  const page = await open();
  await chooseMode(page, 'strict');
  const ex = example('fail-ambiguous');
  await typeFiles(page, ex.files);
  await typeInto(page, '#patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), 'context_ambiguous');
  // The highlights are where the package says the error is.
  const { apply } = await import('../../dist/index.mjs');
  const err = (() => {
    try {
      apply(ex.files[0].text, ex.patch);
    } catch (e) {
      return e;
    }
  })();
  assert.equal(err.code, 'context_ambiguous');
  assert.equal(await page.textContent('#error .message'), err.message);
  assert.deepEqual(linesOf(await marks(page, 'patch'), 'error'), [err.diffLine]);
  assert.deepEqual(linesOf(await marks(page, 'input'), 'error'), [2, 5]);
  assert.deepEqual(err.inputLines, [2, 5]);
  await page.screenshot({ path: join(shots, 'strict-error.tmp.png') });

  // The jump button puts the caret on the failing patch line.
  await page.click('#error .jump >> nth=0');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'patch');

  // An anchor makes it unique: the error and its marks go.
  await typeInto(page, '#patch', '@@ def find_order(id):\n-    return None\n+    return []\n');
  await settle(page);
  assert.equal(await status(page), 'ok');
  assert.deepEqual(await marks(page, 'patch'), []);
  assert.deepEqual(await marks(page, 'input'), []);
  await chooseView(page, 'text');
  assert.equal(await outputText(page, 'store.py'), 'def find_user(id):\n    return None\n\ndef find_order(id):\n    return []\n');
  await page.close();
});

/** Types the Codex example (three files, one patch) and checks every resulting file. */
async function multiFileCase(page, mode) {
  await chooseMode(page, mode);
  await chooseView(page, 'text');
  const ex = example('codex-files');
  // A stray file, added then removed again.
  await page.click('#add-file');
  await typeInto(page, '#file-path', 'stray.txt');
  await page.click('#remove-file');
  assert.deepEqual(await page.$$eval('#file-tabs .tab', (ts) => ts.map((t) => t.textContent)), [await page.inputValue('#file-path')]);
  await typeFiles(page, ex.files);
  assert.deepEqual(
    await page.$$eval('#file-tabs .tab', (ts) => ts.map((t) => t.textContent)),
    ex.files.map((f) => f.path),
  );
  await typeInto(page, '#patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.deepEqual(await files(page), [
    { path: 'src/checkout/cart.js', status: 'moved', badge: 'moved from src/cart.js' },
    { path: 'src/format.js', status: 'deleted', badge: 'deleted' },
    { path: 'README.md', status: 'unchanged', badge: 'unchanged' },
    { path: 'src/money.js', status: 'added', badge: 'added' },
  ]);
  assert.equal(await outputText(page, 'src/checkout/cart.js'), movedCart);
  assert.equal(await outputText(page, 'src/money.js'), money);
  assert.equal(await outputText(page, 'README.md'), ex.files[2].text);
  assert.equal(await page.$('#output .file[data-path="src/format.js"] pre.text'), null);
  // summary() comes with applyFiles (issue 3), and does not depend on the mode.
  assert.equal((await page.textContent('#summary')).trimEnd(), codexSummary);
  // The link reproduces all three files.
  const again = await open(new URL(page.url()).hash);
  assert.equal(await again.$$eval('#file-tabs .tab', (ts) => ts.length), 3);
  assert.equal(await outputText(again, 'src/checkout/cart.js'), movedCart);
  await again.close();
}

browserTest('Strict: a *** Begin Patch patch over several files (added, moved, deleted)', async (t) => {
  const page = await open();
  if (!(await page.evaluate(() => document.body.dataset.multiFile === 'true'))) {
    await chooseMode(page, 'strict');
    await typeInto(page, '#patch', example('codex-files').patch);
    await settle(page);
    assert.equal(await status(page), 'unavailable');
    assert.match(await page.textContent('#error'), /not available in this build/);
    await page.close();
    return skipLoudly(t, 'applyFiles (Strict patches over several files)');
  }
  await multiFileCase(page, 'strict');
  await page.close();
});

browserTest('Codex: a patch over several files, its summary, and an error in one file', async (t) => {
  const page = await open();
  if (!(await modeAvailable(page, 'codex'))) {
    await chooseMode(page, 'codex');
    assert.equal(await status(page), 'unavailable');
    assert.match(await page.textContent('#error'), /Codex mode is not available in this build/);
    assert.match(await page.textContent('#status'), /not available/);
    await page.close();
    return skipLoudly(t, 'Codex mode');
  }
  await multiFileCase(page, 'codex');
  assert.equal((await page.textContent('#summary')).trimEnd(), codexSummary);
  await page.screenshot({ path: join(shots, 'codex.tmp.png') });

  // The model remembers README.md wrong: the error points at the patch line and
  // at README.md's lines, and the input pane switches to README.md.
  const bad =
    "*** Begin Patch\n*** Update File: src/format.js\n@@\n-  return '€' + (cents / 100).toFixed(2);\n+  return formatMoney(cents);\n*** Update File: README.md\n@@\n # shop\n \n-A tiny shop.\n+A small shop with a cart.\n*** End Patch\n";
  await typeInto(page, '#patch', bad);
  await settle(page);
  assert.equal(await status(page), 'error');
  const ap = await import('../../dist/index.mjs');
  const files0 = Object.fromEntries(example('codex-files').files.map((f) => [f.path, f.text]));
  const err = (() => {
    try {
      ap.applyFiles(files0, bad, { mode: 'codex' });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof ap.PatchError, 'the bad patch must fail in the package too');
  assert.equal(err.path, 'README.md');
  assert.equal(await page.textContent('#error .code'), err.code);
  assert.ok(Number.isInteger(err.diffLine));
  assert.deepEqual(linesOf(await marks(page, 'patch'), 'error'), [err.diffLine]);
  assert.equal(await page.inputValue('#file-path'), 'README.md');
  assert.equal(await page.$eval('#file-tabs .has-error', (b) => b.textContent), 'README.md');
  if (err.inputLines) assert.deepEqual(linesOf(await marks(page, 'input'), 'error'), err.inputLines);
  // Nothing is half-applied: the output lists no files.
  assert.equal(await page.$$eval('#output .file', (fs) => fs.length), 0);
  await page.close();
});

browserTest('Unified diff: a git diff over two files (a rename), then a hunk that moved and one that fails', async (t) => {
  const page = await open();
  if (!(await modeAvailable(page, 'unified'))) {
    await chooseMode(page, 'unified');
    assert.equal(await status(page), 'unavailable');
    await page.close();
    return skipLoudly(t, 'Unified diffs');
  }
  await chooseMode(page, 'unified');
  await chooseView(page, 'text');
  const ex = example('unified-git');
  await typeFiles(page, ex.files);
  await typeInto(page, '#patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.deepEqual(await files(page), [
    { path: 'src/greet.py', status: 'modified', badge: 'modified' },
    { path: 'docs/NOTES.md', status: 'moved', badge: 'moved from NOTES.md' },
  ]);
  assert.equal(await outputText(page, 'src/greet.py'), ex.files[0].text.replace('print("Hi " + name)', 'print(f"Hello, {name}!")'));
  // Two lines added at the top: Strict finds the hunk 2 lines further down and says so.
  await page.click('#file-tabs .tab');
  await typeInto(page, '#input', `# greet\n\n${ex.files[0].text}`);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.match(await page.textContent('#notes'), /src\/greet\.py: hunk 1 applied at line 3, 2 lines below where its header says \(1\)\./);
  // A removed line the file does not have: the error names the file, hunk and line.
  await typeInto(page, '#patch', ex.patch.replace('-    print("Hi " + name)', '-    print("Hey " + name)'));
  await settle(page);
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), 'context_not_found');
  assert.match(await page.textContent('#error'), /src\/greet\.py: hunk 1 \(diff lines 5-12/);
  // Strict mode runs a unified diff as one (the package's detectFormat says what it is); Codex mode says to switch.
  await typeInto(page, '#patch', ex.patch);
  await chooseMode(page, 'strict');
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.deepEqual(await files(page), [
    { path: 'src/greet.py', status: 'modified', badge: 'modified' },
    { path: 'docs/NOTES.md', status: 'moved', badge: 'moved from NOTES.md' },
  ]);
  await chooseMode(page, 'codex');
  assert.equal(await status(page), 'error');
  assert.match(await page.textContent('#error'), /This is a unified diff: choose the Strict or Unified diff mode\./);
  await page.close();
});

browserTest('Edit blocks: strategies and similarity per block, and a block that does not match', async (t) => {
  const page = await open();
  if (!(await modeAvailable(page, 'blocks'))) {
    await chooseMode(page, 'blocks');
    assert.equal(await status(page), 'unavailable');
    assert.match(await page.textContent('#error'), /Edit blocks are not available in this build/);
    await page.close();
    return skipLoudly(t, 'Edit blocks (parseBlocks, applyEdits)');
  }
  await chooseMode(page, 'blocks');
  await chooseView(page, 'text');
  const ex = example('blocks');
  await typeFiles(page, ex.files);
  await typeInto(page, '#patch', ex.patch);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  assert.equal(await outputText(page, 'cart.py'), blocksOut);
  const rows = await page.$$eval('#blocks tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 2);
  assert.deepEqual(
    rows.map((r) => r.slice(0, 4)),
    [
      ['1', 'cart.py', '2–8', 'exact'],
      ['2', 'cart.py', '11–18', 'indent'],
    ],
  );
  for (const r of rows) assert.match(r[4], /^(0|1)\.\d\d$/, 'a similarity is shown');
  assert.equal(rows[0][4], '1.00');
  await page.screenshot({ path: join(shots, 'blocks.tmp.png') });

  // The second block now searches for a method the class does not have.
  const broken = ex.patch.replace('def total(self):\n    return sum', 'def subtotal(self):\n    return sum');
  await typeInto(page, '#patch', broken);
  await settle(page);
  assert.equal(await status(page), 'error');
  const patchMarks = await marks(page, 'patch');
  assert.deepEqual(linesOf(patchMarks, 'error'), [11]);
  assert.deepEqual(linesOf(patchMarks, 'error-range'), [12, 13, 14, 15, 16, 17, 18]);
  const failed = await page.$$eval('#blocks tbody tr', (rs) => rs.map((r) => [r.className, r.cells[3].textContent]));
  assert.deepEqual(failed[1], ['failed', 'no match']);
  assert.equal(await page.$$eval('#output .file', (fs) => fs.length), 0);

  // The safe preset names the closest place (input lines 8-9) and the lines that
  // differ there: the input pane marks them, and a button jumps to them.
  await page.selectOption('#preset', 'safe');
  await settle(page);
  assert.equal(await status(page), 'error');
  assert.match(await page.textContent('#error .message'), /The closest place is lines 8-9/);
  assert.deepEqual(linesOf(await marks(page, 'input'), 'error'), [8, 9]);
  assert.match(await page.textContent('#error .where'), /Closest: input lines 8–9/);
  await page.close();
});

browserTest('keyboard, examples menu, narrow window and dark theme', async () => {
  const page = await open();
  // The mode switch and the examples menu work from the keyboard.
  await page.focus('input[name=mode][value=strict]');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  assert.equal(await page.$eval('input[name=mode]:checked', (r) => r.value), 'codex');
  assert.match(await page.textContent('#status'), /^Codex: /);
  // Type-ahead in the menu: 'F' picks the first 'Fails on purpose' example.
  assert.equal(examples.find((e) => e.title.startsWith('F')).id, 'fail-stale');
  await page.focus('#examples');
  await page.keyboard.press('F');
  await settle(page);
  assert.equal(await page.inputValue('#file-path'), 'config.py');
  assert.equal(await page.$eval('input[name=mode]:checked', (r) => r.value), 'strict');
  assert.equal(await status(page), 'error');
  assert.equal(await page.textContent('#error .code'), 'context_not_found');
  // The closest place in the input is marked too.
  assert.ok(linesOf(await marks(page, 'input'), 'near').length > 0);
  // Every control has a name.
  const unnamed = await page.$$eval('button, input, select, textarea', (els) =>
    els.filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim() || e.title)).map((e) => e.outerHTML),
  );
  assert.deepEqual(unnamed, []);

  // A narrow window stacks the panes.
  await page.setViewportSize({ width: 480, height: 900 });
  const box = (id) => page.$eval(id, (e) => e.getBoundingClientRect().toJSON());
  const [input, patch, output] = [await box('#input-pane'), await box('#patch-pane'), await box('#output-pane')];
  assert.ok(input.bottom <= patch.top && patch.bottom <= output.top, 'stacked');
  assert.ok(input.width > 400, 'full width');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px too wide)`);
  await page.screenshot({ path: join(shots, 'narrow.tmp.png'), fullPage: true });

  // Light and dark follow the system.
  const luminance = async () => {
    const rgb = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = rgb.match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  await page.emulateMedia({ colorScheme: 'light' });
  assert.ok((await luminance()) > 0.8, 'light background');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.ok((await luminance()) < 0.2, 'dark background');
  await page.setViewportSize({ width: 1400, height: 800 });
  await page.screenshot({ path: join(shots, 'dark.tmp.png') });
  await page.close();
});

browserTest('long lines scroll sideways, in the editors and in the output, instead of being cut', async () => {
  const page = await open();
  const long = `const message = '${'x'.repeat(300)}'; // END`;
  await page.fill('#input', `${long}\nreturn message;\n`);
  await page.fill('#patch', `@@\n-${long}\n+${long.replace('END', 'FIN')}`);
  await settle(page);
  assert.equal(await status(page), 'ok', await page.textContent('#error'));
  for (const id of ['#input', '#patch', '#result']) {
    const [scroll, client] = await page.$eval(id, (e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(scroll > client, `${id} scrolls sideways (${scroll} > ${client})`);
  }
  // Scrolled to the right, the end of the changed line is inside the output box.
  await page.$eval('#result', (e) => {
    e.scrollLeft = e.scrollWidth;
  });
  const [cell, box] = await page.evaluate(() => {
    const tx = [...document.querySelectorAll('#output .diff .add .tx')].find((t) => t.textContent.endsWith('FIN'));
    return [tx.getBoundingClientRect().right, document.getElementById('result').getBoundingClientRect().right];
  });
  assert.ok(cell <= box + 1, `the line's end (${cell}) is visible in the output (right edge ${box})`);
  await page.close();
});

browserTest('at phone width (390 x 844) the output starts within two screens', async () => {
  const page = await open();
  await page.setViewportSize({ width: 390, height: 844 });
  const [top, height] = await page.evaluate(() => [
    document.getElementById('output-pane').getBoundingClientRect().top + scrollY,
    innerHeight,
  ]);
  assert.ok(top < 2 * height, `the output pane starts at ${top}px, ${(top / height).toFixed(2)} screens down`);
  await page.close();
});

browserTest('the browser entry survives a wasm trap: internal_error, then every call works and the memory is back', async () => {
  const page = await open();
  const result = await page.evaluate(async () => {
    const ap = await import('/dist/browser.mjs');
    const binding = await import('/dist/esm/binding.js');
    const memory = binding.wasm().wasmMemory();
    // Grow wasm memory as far as it goes, so the next large allocation traps.
    for (let pages = 32768; pages >= 1; pages = Math.floor(pages / 2)) {
      for (;;) {
        try {
          memory.grow(pages);
        } catch {
          break;
        }
      }
    }
    const grown = memory.buffer.byteLength;
    let error;
    try {
      // 8 MB: more than the free room the engine's allocator keeps (it grows
      // memory by half again at each step), so copying it in needs memory at once.
      ap.apply(`${'x\n'.repeat(1 << 22)}end\n`, '@@\n-end\n+END');
    } catch (e) {
      error = { name: e.name, code: e.code, message: e.message };
    }
    return {
      grown,
      error,
      after: binding.wasm().wasmMemory().buffer.byteLength,
      apply: ap.apply('a\n', '@@\n-a\n+b'),
      edit: ap.applyEdit('a\n', { search: 'a', replace: 'c' }).text,
      files: ap.applyFiles({ 'a.txt': 'a\n' }, '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch'),
    };
  });
  assert.ok(result.grown > 1024 * 1024 * 1024, `wasm memory grew to ${result.grown} bytes`);
  assert.equal(result.error?.name, 'PatchError');
  assert.equal(result.error?.code, 'internal_error');
  assert.match(result.error.message, /^The WebAssembly engine failed inside reserveInput \(RuntimeError: /);
  assert.ok(result.after < 64 * 1024 * 1024, `memory after: ${result.after} bytes`);
  assert.deepEqual([result.apply, result.edit, result.files], ['b\n', 'c\n', {}]);
  await page.close();
});

browserTest('no page errors', () => {
  assert.deepEqual(pageErrors, []);
});
