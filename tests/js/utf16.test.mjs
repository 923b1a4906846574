// Text that V8 keeps in two bytes a character (it holds a character above
// U+00FF) reaches wasm memory another way in Node: copied as UTF-16 by
// `Buffer.ucs2Write` and encoded as UTF-8 by the engine (src/utf16.rs
// `encode_utf8`, js/binding.ts `#putWide`), from 256 code units on. The
// bytes, the answers and the errors must be the ones `encodeInto` gave.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { apply, applyFiles, PatchError } from 'applypatch';
import { rng } from './helpers.mjs';

const require = createRequire(import.meta.url);
const { core } = require('../../dist/cjs/engines/core.js');

const WIDE_MIN = 256;
const PIECES = ['a', 'x', ' ', '\n', '\t', '~', '\x7f', '\x80', 'é', 'ÿ', 'Ā', 'ж', '中', '€', '\uFFFD', '\uFFFF', '😀', '𝔘'];
const LONE = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

/** A text of about `n` code units, mostly ASCII runs (whole blocks) with other characters between. */
function text(random, n, lone = false) {
  let s = '';
  while (s.length < n) {
    const r = random();
    if (r < 0.5) s += 'y'.repeat(Math.floor(random() * 40));
    else if (lone && r < 0.52) s += LONE[Math.floor(random() * LONE.length)];
    else s += PIECES[Math.floor(random() * PIECES.length)];
  }
  return s;
}

/** The bytes the engine holds for `t` put at byte `offset` of its input buffer. */
function bytesPut(t, offset = 0) {
  const n = core.putInput(t, offset);
  const ptr = core.wasm().reserveInput(0, 0);
  return Buffer.from(core.wasm().wasmMemory().buffer, ptr + offset, n);
}

/** Whether `t`'s UTF-16 was copied where `#putWide` puts it (past three bytes a unit after `offset`). */
function staged(t, offset = 0) {
  const from = (offset + 3 * t.length + 7) & ~7;
  const ptr = core.wasm().reserveInput(0, 0);
  return Buffer.from(core.wasm().wasmMemory().buffer, ptr + from, 2 * t.length).equals(Buffer.from(t, 'utf16le'));
}

test('two-byte text is encoded by the engine into the bytes encodeInto writes, lone surrogates as U+FFFD', () => {
  const random = rng(28);
  let wide = 0;
  for (let i = 0; i < 300; i++) {
    const n = WIDE_MIN - 20 + Math.floor(random() * 3000);
    const t = text(random, n, i % 3 === 0);
    const offset = i % 2 === 0 ? 0 : 1 + Math.floor(random() * 50);
    if (offset > 0) core.putInput('z'.repeat(offset));
    const got = bytesPut(t, offset);
    assert.ok(got.equals(Buffer.from(t, 'utf8')), `text ${i} (${t.length} units)`);
    if (t.length >= WIDE_MIN && /[^\0-\xff]/.test(t)) {
      assert.ok(staged(t, offset), `text ${i} went through the engine's encoder`);
      wide++;
    }
  }
  assert.ok(wide > 200, `${wide} texts went through the engine's encoder`);
  // A text under 256 units, or without a character above U+00FF, is encoded by encodeInto.
  const short = 'é中'.repeat(WIDE_MIN / 2 - 1);
  assert.ok(bytesPut(short).equals(Buffer.from(short)) && !staged(short));
  const latin1 = 'é'.repeat(1000);
  assert.ok(bytesPut(latin1).equals(Buffer.from(latin1)) && !staged(latin1));
  const edge = 'é中'.repeat(WIDE_MIN / 2);
  assert.ok(bytesPut(edge).equals(Buffer.from(edge)) && staged(edge));
});

test('two-byte inputs and diffs apply as before: splices, answers, and lone surrogates refused by name and index', () => {
  const random = rng(29);
  for (let i = 0; i < 60; i++) {
    const lines = text(random, 2000).split('\n');
    const at = Math.floor(lines.length / 2);
    lines[at] = `target ${i} 中`;
    const input = lines.join('\n') + '\n';
    const diff = `@@\n-target ${i} 中\n+${text(random, 300).replaceAll('\n', ' ')}\n`;
    const want = input.replace(`target ${i} 中\n`, diff.split('\n')[2].slice(1) + '\n');
    assert.equal(apply(input, diff), want);
    const r = apply(input, diff, { report: true });
    assert.equal(r.text, want);
    let rebuilt = '';
    let pos = 0;
    for (const s of r.splices) {
      rebuilt += input.slice(pos, s.from) + s.insert;
      pos = s.to;
    }
    assert.equal(rebuilt + input.slice(pos), want);
  }
  // A lone surrogate anywhere in a long two-byte input or diff: the error encodeInto's path gave.
  const body = `${'中'.repeat(300)}\n${'x'.repeat(500)}\n`;
  for (const [where, cut] of [
    ['start', 0],
    ['in a block', 310],
    ['at the end', body.length],
  ]) {
    for (const lone of LONE) {
      const bad = body.slice(0, cut) + lone + body.slice(cut);
      assert.throws(
        () => apply(bad, '-x\n+y'),
        (e) =>
          e instanceof PatchError &&
          e.code === 'invalid_string' &&
          e.message ===
            `input is not well-formed UTF-16: it has a lone surrogate (\\u${lone.charCodeAt(0).toString(16).toUpperCase()}) at index ${cut}. Such a string cannot be encoded as UTF-8 without changing it, so it is refused.`,
        where,
      );
      assert.throws(
        () => apply('a\n', `-a\n+${bad.replaceAll('\n', ' ')}`),
        (e) => e.code === 'invalid_string' && /^diff is not/.test(e.message),
      );
    }
  }
  // A high surrogate cut from its pair by the end of the text.
  assert.throws(
    () => apply(`${'中'.repeat(300)}\uD83D`, ''),
    (e) => e.code === 'invalid_string' && /\(\\uD83D\) at index 300\./.test(e.message),
  );
  // A pair across the engine's blocks of 16 units, at every place.
  for (let k = 0; k < 40; k++) {
    const input = `${'中'.repeat(WIDE_MIN)}\n${'x'.repeat(k)}😀${'y'.repeat(40 - k)}\nend\n`;
    assert.equal(apply(input, '-end\n+END'), input.replace('end\n', 'END\n'));
  }
});

test('applyFiles puts two-byte files through the engine too, refusing a lone surrogate by its path', () => {
  const files = {
    'a.txt': `${'中'.repeat(400)}\nold a\n`,
    'b.txt': 'ascii\n'.repeat(100),
    'c.txt': `${'é😀'.repeat(200)}\nold c\n`,
  };
  const patch = [
    '*** Begin Patch',
    '*** Update File: a.txt',
    '@@',
    '-old a',
    '+new a 中',
    '*** Update File: c.txt',
    '@@',
    '-old c',
    '+new c',
    '*** End Patch',
  ].join('\n');
  const out = applyFiles(files, patch);
  assert.equal(out['a.txt'], files['a.txt'].replace('old a', 'new a 中'));
  assert.equal(out['b.txt'], files['b.txt']);
  assert.equal(out['c.txt'], files['c.txt'].replace('old c', 'new c'));
  assert.throws(
    () => applyFiles({ ...files, 'c.txt': `${'é😀'.repeat(200)}\uDC00\nold c\n` }, patch),
    (e) => e.code === 'invalid_string' && /^files\["c\.txt"\] is not well-formed UTF-16: .*\(\\uDC00\) at index 600\./.test(e.message),
  );
});

test('a patch and an edit-block source are checked for lone surrogates as they are put, after the argument types', async () => {
  const { applyEdit, applyEdits, applyPatch } = await import('applypatch');
  const files = { 'a.txt': 'old\n' };
  for (const patch of [
    `*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new \uD800\n*** End Patch\n`,
    `*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+${'中'.repeat(300)} \uD800\n*** End Patch\n`,
  ]) {
    const at = patch.indexOf('\uD800');
    const message = `patch is not well-formed UTF-16: it has a lone surrogate (\\uD800) at index ${at}. Such a string cannot be encoded as UTF-8 without changing it, so it is refused.`;
    for (const f of [applyFiles, applyPatch]) {
      assert.throws(
        () => f(files, patch),
        (e) => e instanceof PatchError && e.code === 'invalid_string' && e.message === message,
      );
      assert.throws(() => f(files, patch, { mode: 'fuzzy' }), TypeError);
    }
  }
  for (const source of [`a\uDFFFb\n`, `${'中'.repeat(300)}\uDFFF\n`]) {
    const at = source.indexOf('\uDFFF');
    const message = `source is not well-formed UTF-16: it has a lone surrogate (\\uDFFF) at index ${at}. Such a string cannot be encoded as UTF-8 without changing it, so it is refused.`;
    const edit = { search: 'b', replace: 'c' };
    assert.throws(
      () => applyEdit(source, edit),
      (e) => e.code === 'invalid_string' && e.message === message,
    );
    assert.throws(
      () => applyEdits(source, [edit]),
      (e) => e.code === 'invalid_string' && e.message === message,
    );
    assert.throws(() => applyEdit(source, { search: 1, replace: 'c' }), TypeError);
  }
  // Well-formed two-byte sources and patches apply.
  const source = `${'中'.repeat(300)}\nold\n`;
  assert.equal(applyEdit(source, { search: 'old', replace: 'new' }).text, source.replace('old', 'new'));
  assert.equal(
    applyFiles({ 'a.txt': source }, `*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+新 ${'中'.repeat(300)}\n*** End Patch\n`)['a.txt'],
    source.replace('old', `新 ${'中'.repeat(300)}`),
  );
});

test('with option base, a source with a lone surrogate is refused, not merged into', async () => {
  const { applyEdit, applyEdits } = await import('applypatch');
  const source = `${'中'.repeat(300)}\uD800\nold\n`;
  const base = `${'中'.repeat(300)}\nold\n`;
  const edit = { search: 'old', replace: 'new' };
  for (const f of [() => applyEdit(source, edit, { base }), () => applyEdits(source, [edit], { base })]) {
    assert.throws(
      f,
      (e) => e.code === 'invalid_string' && /^source is not well-formed UTF-16: .*\(\\uD800\) at index 300\./.test(e.message),
    );
  }
  assert.equal(applyEdit(base, edit, { base }).text, base.replace('old', 'new'));
});
