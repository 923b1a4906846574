// The directory helpers against a hostile directory and concurrent writers,
// on real temporary directories:
// - a second process swaps a directory of the root for a symlink to a folder
//   outside, and a file for a FIFO, in a loop, while patches add, update and
//   delete files there (through the API and the CLI): nothing outside the
//   root is ever written, created or deleted, and nothing blocks;
// - two processes, and two worker threads, update one file at once: every
//   update is in the file or was reported failed (file_changed).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { applyPatchToDirectory, createEditor } from 'applypatch/node';
import { makeTree, patchOf, snapshot } from './fs-helpers.mjs';

const here = import.meta.dirname ?? new URL('.', import.meta.url).pathname;
const child = join(here, 'race-child.mjs');
const bin = join(here, '..', '..', 'dist', 'cli.cjs');
const linux = process.platform === 'linux';

/** A root with sub/f.txt and sub/d-0..N.txt, and a folder outside with the same files. */
function hostileTree(t, n) {
  const files = { 'sub/f.txt': 'line\n' };
  for (let i = 0; i < n; i++) {
    files[`sub/d-${i}.txt`] = `d${i}\n`;
    files[`sub/m-${i}.txt`] = 'line\n';
  }
  const { base, root } = makeTree(t, files);
  const outside = join(base, 'outside');
  mkdirSync(outside);
  for (const [path, contents] of Object.entries(files)) writeFileSync(join(outside, path.slice(4)), contents);
  return { root, outside };
}

/** Starts the swapping process; resolves to its swap count when it ends. */
function racer(root, seconds, outside) {
  const p = spawn(process.execPath, [child, 'swap', root, String(seconds), outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  p.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`racer exited ${code}`))));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a directory swapped for a symlink to outside, and a file for a FIFO, in a loop: nothing outside is touched (API)', {
  skip: !linux && 'the race guarantee needs /proc/self/fd (Linux)',
  timeout: 30_000,
}, async (t) => {
  const n = 400;
  const { root, outside } = hostileTree(t, n);
  const before = snapshot(outside);
  const swaps = racer(root, 2, outside);
  await sleep(100);
  const counts = {};
  const editor = createEditor({ root });
  const count = (kind, outcome) => {
    const key = `${kind} ${outcome}`;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const end = Date.now() + 1800;
  for (let i = 0; Date.now() < end && i < n; i++) {
    const ops = [
      ['add', patchOf(`*** Add File: sub/a-${i}.txt`, '+new')],
      ['update', patchOf('*** Update File: sub/f.txt', '@@', ' line', `+u${i}`)],
      ['delete', patchOf(`*** Delete File: sub/d-${i}.txt`)],
      ['move', patchOf(`*** Update File: sub/m-${i}.txt`, `*** Move to: sub/g-${i}.txt`, '@@', ' line', '+g')],
    ];
    for (const [kind, patch] of ops) {
      try {
        applyPatchToDirectory(root, patch);
        count(kind, 'ok');
      } catch (e) {
        count(kind, e.code ?? 'thrown');
        assert.ok(
          [
            'path_outside_root',
            'not_a_file',
            'file_changed',
            'file_not_found',
            // a Delete while sub is swapped away: no such file, and none near it in the root's listing
            'already_applied',
            'context_not_found',
            'invalid_path',
            'write_failed',
          ].includes(e.code),
          e.stack,
        );
      }
    }
    const r = await editor.createFile({ type: 'create_file', path: `sub/e-${i}.txt`, diff: '+e' });
    count('editor create', r.status);
  }
  t.diagnostic(`swaps: ${await swaps}; outcomes: ${JSON.stringify(counts)}`);
  assert.deepEqual(snapshot(outside), before, 'the folder outside the root is exactly as it was');
  assert.ok((counts['add ok'] ?? 0) > 0 && (counts['delete ok'] ?? 0) > 0, 'some operations got through between the swaps');
});

test('the same race through the CLI: nothing outside is touched, and no run hangs on the FIFO', {
  skip: !linux && 'the race guarantee needs /proc/self/fd (Linux)',
  timeout: 60_000,
}, async (t) => {
  const n = 40;
  const { root, outside } = hostileTree(t, n);
  const before = snapshot(outside);
  const swaps = racer(root, 3, outside);
  await sleep(100);
  const codes = {};
  const end = Date.now() + 2800;
  for (let i = 0; Date.now() < end && i < n; i++) {
    const patch = patchOf(
      `*** Add File: sub/a-${i}.txt`,
      '+new',
      '*** Update File: sub/f.txt',
      '@@',
      ' line',
      `+u${i}`,
      `*** Delete File: sub/d-${i}.txt`,
    );
    const r = await new Promise((resolve) => {
      const p = spawn(process.execPath, [bin, '--json'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      p.stdout.on('data', (d) => {
        stdout += d;
      });
      const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
      p.on('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout });
      });
      p.stdin.end(patch);
    });
    assert.equal(r.signal, null, 'no run hangs');
    const json = JSON.parse(r.stdout);
    const key = json.ok ? 'ok' : json.error.code;
    codes[key] = (codes[key] ?? 0) + 1;
    assert.equal(r.code, json.ok ? 0 : 1);
  }
  t.diagnostic(`swaps: ${await swaps}; outcomes: ${JSON.stringify(codes)}`);
  assert.deepEqual(snapshot(outside), before, 'the folder outside the root is exactly as it was');
});

test('a FIFO where a file should be is refused at once, never waited on', (t) => {
  const { root } = makeTree(t, {});
  spawnSync('mkfifo', [join(root, 'pipe.txt')]);
  for (const patch of [
    patchOf('*** Update File: pipe.txt', '@@', '-a', '+b'),
    patchOf('*** Delete File: pipe.txt'),
    patchOf('*** Add File: pipe.txt', '+a'),
  ]) {
    assert.throws(
      () => applyPatchToDirectory(root, patch),
      (e) => e.code === 'not_a_file' && e.message === 'pipe.txt is not a regular file. Nothing was written.',
    );
  }
});

/** Reads the shared file and checks every outcome against it. */
function checkOutcomes(root, outcomes) {
  const lines = new Set(readFileSync(join(root, 'f.txt'), 'utf8').split('\n'));
  const ok = outcomes.filter(([, o]) => o === 'ok');
  const failed = outcomes.filter(([, o]) => o !== 'ok');
  const lost = ok.filter(([line]) => !lines.has(line)).map(([line]) => line);
  assert.deepEqual(lost, [], 'every update reported as applied is in the file');
  for (const [line, code] of failed) {
    assert.equal(code, 'file_changed', `${line}: ${code}`);
    assert.ok(!lines.has(line), `${line} was reported failed but is in the file`);
  }
  assert.ok(ok.length > 0);
  assert.equal(lines.size - 2, ok.length, 'nothing else is in the file'); // 'start' and the final ''
  assert.deepEqual(
    readdirSync(root).filter((f) => f !== 'f.txt'),
    [],
    'no temporary or backup file is left',
  );
  return { ok: ok.length, failed: failed.length };
}

test('two processes updating one file: every update is in the file or reported failed (file_changed)', async (t) => {
  const { root } = makeTree(t, { 'f.txt': 'start\n' });
  const run = (tag) =>
    new Promise((resolve, reject) => {
      const p = spawn(process.execPath, [child, 'write', root, '300', tag], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.on('data', (d) => {
        out += d;
      });
      p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer exited ${code}`))));
    });
  const [a, b] = await Promise.all([run('A'), run('B')]);
  const r = checkOutcomes(root, [...a, ...b]);
  t.diagnostic(`applied ${r.ok}, reported file_changed ${r.failed}, lost 0`);
});

test('two worker threads updating one file: every update is in the file or reported failed (file_changed)', async (t) => {
  const { root } = makeTree(t, { 'f.txt': 'start\n' });
  const run = (tag) =>
    new Promise((resolve, reject) => {
      const w = new Worker(child, { workerData: ['write', root, '300', tag] });
      w.on('message', resolve);
      w.on('error', reject);
    });
  const [a, b] = await Promise.all([run('A'), run('B')]);
  const r = checkOutcomes(root, [...a, ...b]);
  t.diagnostic(`applied ${r.ok}, reported file_changed ${r.failed}, lost 0`);
});
