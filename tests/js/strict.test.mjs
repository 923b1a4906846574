// apply / applyBatch in Strict mode, through the built package as users import it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { apply, applyBatch, errorCodes, PatchError } from 'applypatch';
import { fixture, pick, rng } from './helpers.mjs';

const require = createRequire(import.meta.url);
const vectors = fixture('strict.json');

test('every apply vector of strict.json', () => {
  assert.ok(vectors.apply.length >= 29);
  for (const c of vectors.apply) {
    if (c.fails) {
      assert.throws(() => apply(c.input, c.diff), PatchError, c.name);
    } else {
      assert.equal(apply(c.input, c.diff), c.want, c.name);
      assert.equal(apply(c.input, c.diff, { mode: 'strict' }), c.want, c.name);
    }
  }
});

test('every applyBatch vector of strict.json', () => {
  assert.ok(vectors.applyBatch.length >= 6);
  for (const c of vectors.applyBatch) {
    if (c.fails) assert.throws(() => applyBatch(c.input, c.diffs), PatchError, c.name);
    else assert.equal(applyBatch(c.input, c.diffs), c.want, c.name);
  }
});

test('PatchError carries its fields', () => {
  try {
    apply('same\nsame\n', '@@\n-same\n+new');
  } catch (e) {
    assert.ok(e instanceof PatchError && e instanceof Error);
    assert.equal(e.name, 'PatchError');
    assert.equal(e.code, 'context_ambiguous');
    assert.equal(e.diffLine, 2);
    assert.deepEqual(e.inputLines, [1, 2]);
    assert.match(e.message, /2 places/);
    assert.ok(errorCodes.includes(e.code));
    assert.equal(e.nearest, undefined);
    assert.ok(e.stack.includes('PatchError'));
  }
  try {
    apply('one\ntwo\nthree\n', '@@\n one\n-tw0\n+2');
    assert.fail('should throw');
  } catch (e) {
    assert.equal(e.code, 'context_not_found');
    assert.deepEqual(e.nearest, { line: 1, text: 'one\ntwo', similarity: 0.5 });
  }
  try {
    applyBatch('a\nb\n', ['-a\n+x', '-b\n+y', '-a\n+z']);
    assert.fail('should throw');
  } catch (e) {
    assert.equal(e.code, 'overlap');
    assert.equal(e.diff, 2);
    assert.deepEqual(e.conflict, { diff: 0, diffLine: 1 });
    assert.deepEqual(e.inputLines, [1, 1]);
  }
  try {
    applyBatch('a\nb\n', ['-a\n+x', '-zzz\n+y']);
    assert.fail('should throw');
  } catch (e) {
    assert.equal(e.code, 'context_not_found');
    assert.equal(e.diff, 1);
  }
});

test('errorCodes is frozen, complete and matches the engine', () => {
  assert.ok(Object.isFrozen(errorCodes));
  // Each engine's own list (js/generated.ts has it from the engine's source).
  for (const name of ['core', 'extra']) {
    const engine = require(`../../dist/cjs/engines/${name}.js`)[name].wasm().errorCodes();
    assert.deepEqual([...errorCodes], engine, name);
  }
  assert.equal(new Set(errorCodes).size, errorCodes.length);
});

test('wrong argument types throw TypeError, and the module keeps working', () => {
  const bad = [
    () => apply(1, ''),
    () => apply('', null),
    () => apply(undefined, undefined),
    () => apply(new String('a'), '-a\n+b'),
    () => apply('', '', 'strict'),
    () => apply('', '', { mode: 'fuzzy' }),
    () => apply('', '', { mode: 1 }),
    () => apply('', '', []),
    () => applyBatch('', '-a'),
    () => applyBatch('', [1]),
    () => applyBatch('', undefined),
    () => applyBatch(Symbol('x'), []),
  ];
  for (const f of bad) {
    assert.throws(f, TypeError);
    assert.equal(apply('a\n', '-a\n+b'), 'b\n');
  }
  assert.throws(() => apply('', '', { mode: 'fuzzy' }), /options\.mode must be 'strict'/);
  assert.throws(() => apply(1, ''), /input must be a string, got number/);
});

test('lone surrogates are refused, never changed', () => {
  for (const [input, diff] of [
    ['a\uD800b\n', '-x'],
    ['a\n', '-a\n+\uDC00'],
    ['\uDBFF', ''],
  ]) {
    try {
      apply(input, diff);
      assert.fail('should throw');
    } catch (e) {
      assert.ok(e instanceof PatchError);
      assert.equal(e.code, 'invalid_string');
      assert.match(e.message, /lone surrogate/);
    }
  }
  assert.throws(
    () => applyBatch('a\n', ['-a\n+b', '+\uD83D']),
    (e) => e.code === 'invalid_string' && /diffs\[1\]/.test(e.message),
  );
  // A well-formed pair is fine.
  assert.equal(apply('😀\n', '-😀\n+🙂'), '🙂\n');
  // The check runs after encoding, when the bytes hold a U+FFFD: a real
  // U+FFFD is kept, a lone surrogate beside one is still refused, by name.
  assert.equal(apply('\uFFFD中\n', '-\uFFFD中\n+\uFFFD文'), '\uFFFD文\n');
  assert.throws(
    () => apply('中\uFFFD\n', '-中\uFFFD\n+\uDC00\uFFFD'),
    (e) =>
      e instanceof PatchError &&
      e.code === 'invalid_string' &&
      /^diff is not well-formed UTF-16: .*\(\\uDC00\) at index 5\./.test(e.message),
  );
  // Argument type errors come first.
  assert.throws(() => apply('a\uD800', '', { mode: 'fuzzy' }), TypeError);
  assert.throws(() => apply('a\uD800', 1), /diff must be a string, got number/);
});

test('non-ASCII text splices at the right UTF-16 offsets', () => {
  const input = '😀 émoji\nкириллица\n中文\n𝔘𝔫𝔦𝔠𝔬𝔡𝔢\nend\n';
  assert.equal(apply(input, '@@\n 中文\n-𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n+unicode\n end'), '😀 émoji\nкириллица\n中文\nunicode\nend\n');
  assert.equal(apply(input, '-end\n+終わり'), '😀 émoji\nкириллица\n中文\n𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n終わり\n');
  // A large text that is ASCII at first and not later (the input buffer grows).
  const big = 'x'.repeat(100_000) + '\n' + 'é😀'.repeat(50_000) + '\nlast\n';
  assert.equal(apply(big, '-last\n+LAST'), big.replace('last\n', 'LAST\n'));
  // CRLF and no final newline are kept.
  assert.equal(apply('α\r\nβ', '-β\n+γ'), 'α\r\nγ');
  // Several changes, whose new texts (non-ASCII, 4-byte characters, empty)
  // cross back joined in one string: each lands in its own place.
  const several = ['😀a', 'b', 'c', 'é', 'd', 'e', 'f', 'g', '中', 'h'].join('\n') + '\n';
  const diff = '@@\n-😀a\n+𝔘1\n b\n@@\n c\n-é\n d\n@@\n f\n+ü\n+😀😀\n g\n@@\n-中\n+\n h';
  assert.equal(apply(several, diff), ['𝔘1', 'b', 'c', 'd', 'e', 'f', 'ü', '😀😀', 'g', '', 'h'].join('\n') + '\n');
  assert.equal(
    applyBatch(several, ['-😀a\n+x😀', '@@ g\n-中\n+y']),
    ['x😀', 'b', 'c', 'é', 'd', 'e', 'f', 'g', 'y', 'h'].join('\n') + '\n',
  );
});

test('random inputs and diffs give a string or a PatchError, never a trap', () => {
  const random = rng(7);
  const pieces = ['', 'a', 'b', ' a', '-a', '+a', '-b', '+c', '@@', '@@ a', '@@x', '*** End of File', '\t', '😀', 'é', '\r'];
  let ok = 0;
  let failed = 0;
  for (let i = 0; i < 3000; i++) {
    const input = Array.from({ length: Math.floor(random() * 6) }, () => pick(random, pieces)).join(pick(random, ['\n', '\r\n']));
    const diff = Array.from({ length: Math.floor(random() * 6) }, () => pick(random, pieces)).join('\n');
    let out;
    try {
      out = apply(input, diff);
    } catch (e) {
      assert.ok(e instanceof PatchError, `not a PatchError: ${e}`);
      assert.equal(out, undefined);
      failed++;
      continue;
    }
    assert.equal(typeof out, 'string');
    ok++;
  }
  assert.ok(ok > 100 && failed > 100, `ok ${ok}, failed ${failed}`);
  assert.equal(apply('a\n', '-a\n+b'), 'b\n');
});

test('stacked anchors narrow within the reach of the one before; suggested anchors apply', () => {
  const input = 'class A\n  def f():\n    pass\nclass B\n  def f():\n    pass\n';
  assert.equal(
    apply(input, '@@ class B\n@@   def f():\n-    pass\n+    return 1'),
    'class A\n  def f():\n    pass\nclass B\n  def f():\n    return 1\n',
  );
  const readme = 'def a():\n    return None\ndef b():\n    return None\n';
  assert.equal(apply(readme, '@@ def a():\n-    return None\n+    return []'), 'def a():\n    return []\ndef b():\n    return None\n');
  assert.throws(
    () => apply('class B\n  def f():\n    pass\n  def f():\n    pass\n', '@@ class B\n@@   def f():\n-    pass\n+    return 1'),
    (e) => e instanceof PatchError && e.code === 'anchor_ambiguous' && e.inputLines.join() === '2,4' && e.diffLine === 2,
  );
});

test('line breaks at every place of the 16-byte blocks the split reads in wasm: LF, CRLF (also across two blocks) and a lone CR', () => {
  const random = rng(16);
  for (let k = 0; k < 200; k++) {
    const endings = k % 4 === 0 ? ['\n'] : k % 4 === 1 ? ['\r\n'] : ['\n', '\r\n', '\r'];
    const lines = [];
    for (let i = 0; i < 40; i++) lines.push(`${'x'.repeat(Math.floor(random() * 19))}${i}`);
    const target = Math.floor(random() * lines.length);
    lines[target] = `TARGET ${k}`;
    const ends = lines.map(() => pick(random, endings));
    const input = lines.map((l, i) => l + ends[i]).join('');
    const want = input.replace(`TARGET ${k}`, `DONE ${k}`);
    const diff = `@@\n-TARGET ${k}\n+DONE ${k}`;
    // Codex mode: each line keeps its ending, a new line takes the first line's.
    const codex = input.replace(`TARGET ${k}${ends[target]}`, `DONE ${k}${ends[0]}`);
    assert.equal(apply(input, diff, { mode: 'codex' }), codex, JSON.stringify(input));
    if (endings.length === 1) assert.equal(apply(input, diff), want, JSON.stringify(input));
    else if (ends.includes('\r'))
      assert.throws(
        () => apply(input, diff),
        (e) => e.code === 'mixed_newlines',
      );
  }
});
