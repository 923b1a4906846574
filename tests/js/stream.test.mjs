// createPatchStream ends exactly as apply(), whatever the cuts: every V4A
// case of the repository's corpora (the Strict vectors, the Agents SDK's
// applyDiff cases, the repairs sample, the update bodies of the Codex parity
// patches over their files), also with CRLF line breaks, in both modes,
// pushed whole, one UTF-16 unit at a time (so surrogate pairs and CRLFs are
// cut) and in random pieces. The first error event is apply()'s error for
// the diff up to some line already pushed, and nothing follows it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import {
  apply,
  applyBlocks,
  applyEdits,
  applyFiles,
  applyUnified,
  createPatchStream,
  detectFormat,
  merge3,
  PatchError,
  parse,
  parseBlocks,
} from 'applypatch';
import { fixture, rng } from './helpers.mjs';

const require = createRequire(import.meta.url);
const binding = require('../../dist/cjs/binding.js');
const { core } = require('../../dist/cjs/engines/core.js');
const { extra } = require('../../dist/cjs/engines/extra.js');

function cases() {
  const out = [];
  for (const c of fixture('strict.json').apply) out.push({ name: `strict.json ${c.name}`, input: c.input, diff: c.diff });
  for (const c of fixture('agents-applyDiff.cases.json')) {
    if (typeof c.diff === 'string') out.push({ name: `agents ${c.name}`, input: c.input, diff: c.diff });
  }
  for (const [i, c] of fixture('repairs-sample.json').entries()) out.push({ name: `repairs ${i}`, input: c.input, diff: c.diff });
  for (const c of fixture('codex-parity.json').cases) {
    let patch;
    try {
      patch = parse(c.patch);
    } catch {
      continue;
    }
    for (const op of patch.operations) {
      if (op.kind === 'update') out.push({ name: `parity ${c.name} ${op.path}`, input: c.files[op.path] ?? '', diff: op.diff });
    }
  }
  const crlf = out.map((c) => ({
    name: `${c.name} (CRLF)`,
    input: c.input.replaceAll('\n', '\r\n'),
    diff: c.diff.replaceAll('\n', '\r\n'),
  }));
  return [...out, ...crlf, { name: 'astral characters', input: 'a😀b\nc\n', diff: '@@\n-a😀b\n+😀x😀\n c' }];
}

const outcome = (fn) => {
  try {
    return { text: fn() };
  } catch (e) {
    assert.ok(e instanceof PatchError, `not a PatchError: ${e}`);
    return { error: { code: e.code, message: e.message, diffLine: e.diffLine, inputLines: e.inputLines } };
  }
};

function pieces(text, random) {
  if (random === undefined) return [...text.split('')];
  const out = [];
  for (let at = 0; at < text.length; ) {
    const n = Math.floor(random() * 13);
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}

/** The diff's first `n` lines, with their line breaks. */
function firstLines(diff, n) {
  let end = 0;
  for (let i = 0; i < n; i++) {
    const at = diff.indexOf('\n', end);
    if (at < 0) return diff;
    end = at + 1;
  }
  return diff.slice(0, end);
}

test('every chunking ends as apply() does, and the first error is apply() of a prefix', () => {
  const random = rng(26);
  let runs = 0;
  for (const c of cases()) {
    for (const mode of ['strict', 'codex']) {
      const want = outcome(() => apply(c.input, c.diff, { mode }));
      const ways = [[c.diff], pieces(c.diff), pieces(c.diff, random), pieces(c.diff, random)];
      for (const way of ways) {
        runs++;
        const s = createPatchStream(c.input, { mode });
        const events = [];
        let pushed = '';
        let error;
        for (const p of way) {
          if (error !== undefined) break;
          pushed += p;
          for (const e of s.push(p)) {
            events.push(e);
            if (e.type === 'error') error = { event: e, pushed };
          }
        }
        const at = `${c.name} [${mode}, ${way.length} pieces]`;
        if (error !== undefined) {
          assert.equal(events.at(-1), error.event, `${at}: an event after the error`);
          const lines = pushed.split('\n').length;
          const got = {
            code: error.event.error.code,
            message: error.event.error.message,
            diffLine: error.event.error.diffLine,
            inputLines: error.event.error.inputLines,
          };
          const prefixes = Array.from({ length: lines }, (_, k) => outcome(() => apply(c.input, firstLines(c.diff, k), { mode })).error);
          assert.ok(
            prefixes.some((e) => e !== undefined && JSON.stringify(e) === JSON.stringify(got)),
            `${at}: the error event ${JSON.stringify(got)} is apply()'s for no prefix`,
          );
          // Later pushes return nothing (api.md); end() answers for them too.
          assert.deepEqual(s.push(''), []);
          // end() answers for everything pushed.
          assert.deepEqual(
            outcome(() => s.end()),
            outcome(() => apply(c.input, pushed, { mode })),
            at,
          );
        } else {
          assert.deepEqual(
            outcome(() => s.end()),
            want,
            at,
          );
        }
        assert.throws(() => s.push('x'), /has ended/);
      }
    }
  }
  assert.ok(runs > 3000, `${runs} runs`);
});

test('a section is placed when the next line opens another, with UTF-16 splices', () => {
  const s = createPatchStream('😀 a\nb\nc\n');
  assert.deepEqual(s.push('@@\n-😀 a\n+😀 A\n'), []);
  assert.deepEqual(s.push('@'), []);
  assert.deepEqual(s.push('@\n'), [{ type: 'section', index: 0, diffLine: 1, inputLine: 1, splices: [{ from: 3, to: 4, insert: 'A' }] }]);
  assert.equal(s.preview(), '😀 A\nb\nc\n');
  s.push('-c\n+C');
  assert.equal(s.end(), '😀 A\nb\nC\n');
});

test('the first section that cannot apply stops the stream', () => {
  const s = createPatchStream('a\nb\n');
  const events = s.push('@@\n-x\n+y\n@@\n');
  assert.equal(events.length, 1);
  assert.equal(events[0].type, 'error');
  assert.equal(events[0].error.code, 'context_not_found');
  assert.throws(
    () => s.end(),
    (e) => e instanceof PatchError && e.code === 'empty_hunk',
  );
});

test('a lone surrogate is refused as apply() refuses it, even cut from its pair', () => {
  const s = createPatchStream('a\n');
  assert.deepEqual(s.push('@@\n-a\n+\uD83D'), []);
  assert.deepEqual(s.push('\uDE00\n'), []);
  assert.equal(s.end(), 'a\n'.replace('a', '😀'));
  const bad = createPatchStream('a\n');
  const events = bad.push('@@\n-a\n+\uD83D\n');
  assert.equal(events[0].error.code, 'invalid_string');
  assert.deepEqual(
    outcome(() => bad.end()),
    outcome(() => apply('a\n', '@@\n-a\n+\uD83D\n')),
  );
});

test('ASCII pieces, staged, and other pieces, joined as text, interleave exactly: end(), events and a late lone surrogate as apply() gives them', () => {
  // Sections of ASCII, of 2- and 4-byte characters, and one long enough to
  // be sent before it ends (more than 65,536 units held); pieces of 1 to 40
  // units, so that short ASCII pieces are staged and others are not, and a
  // pair may be cut between them.
  const lines = [];
  const body = [];
  for (let i = 0; i < 400; i++) {
    const line = i % 7 === 3 ? `line ${i} é 😀 ü` : `line ${i} ${'x'.repeat(i % 23)}`;
    lines.push(line);
    if (i % 10 === 5) body.push(`@@\n ${lines[i - 1]}\n-${line}\n+${line} changed 😀\n`);
  }
  lines.push(...Array.from({ length: 3000 }, (_, i) => `tail ${i} ${'y'.repeat(30)}`));
  body.push(
    `@@\n ${lines[400]}\n${lines
      .slice(401, 3400)
      .map((l) => ` ${l}\n`)
      .join('')}-${lines[3400]}\n+end\n`,
  );
  const input = `${lines.join('\n')}\n`;
  const good = body.join('');
  const bad = good.replace('+line 385 ', '+line 385 \uD83D');
  assert.notEqual(bad, good);
  const random = rng(2026);
  const cut = (text) => {
    const out = [];
    for (let at = 0; at < text.length; ) {
      const n = 1 + Math.floor(random() * (random() < 0.8 ? 6 : 40));
      out.push(text.slice(at, at + n));
      at += n;
    }
    return out;
  };
  for (const diff of [good, bad]) {
    const want = outcome(() => apply(input, diff));
    for (const way of [pieces(diff), cut(diff), cut(diff), [diff]]) {
      const s = createPatchStream(input);
      const placed = [];
      let error;
      for (const p of way) {
        for (const e of s.push(p)) {
          if (e.type === 'section') placed.push(e);
          else error = e.error;
        }
      }
      const at = `${diff === good ? 'good' : 'bad'} [${way.length} pieces]`;
      assert.deepEqual(
        outcome(() => s.end()),
        want,
        at,
      );
      if (diff === good) {
        assert.equal(placed.length, body.length - 1, at);
        assert.equal(error, undefined, at);
      } else {
        assert.equal(error?.message, want.error.message, at);
        assert.match(want.error.message, /lone surrogate \(\\uD83D\) at index \d+/);
      }
      let text = input;
      for (const e of placed.reverse())
        for (const sp of [...e.splices].reverse()) text = text.slice(0, sp.from) + sp.insert + text.slice(sp.to);
      if (diff === good) assert.equal(text, apply(input, body.slice(0, -1).join('')), at);
    }
  }
});

test('options streams do not take are refused clearly', () => {
  assert.throws(() => createPatchStream({ 'a.txt': 'a\n' }, { format: 'diff' }), TypeError);
  assert.throws(() => createPatchStream('a\n', { format: 'patch' }), TypeError);
  assert.throws(() => createPatchStream('a\n', { format: 'yaml' }), TypeError);
  assert.throws(() => createPatchStream('a\n', { repair: true }), TypeError);
  assert.throws(() => createPatchStream('a\n', { base: 7 }), TypeError);
  assert.throws(() => createPatchStream('a\n', { mode: 'loose' }), TypeError);
  const s = createPatchStream('a\n');
  s.abort();
  assert.throws(() => s.push('@@\n'), /has ended/);
});

test('a stream left open never keeps the engine from recovering after a trap', () => {
  const kept = createPatchStream('a\nb\n');
  kept.push('@@\n-a\n+A\n');
  createPatchStream('x\n').push('@@\n'); // dropped without end()
  // A trap: memory grown to its maximum, then a call that must allocate.
  const memory = core.wasm().wasmMemory();
  for (let pages = 32768; pages >= 1; pages = Math.floor(pages / 2)) {
    for (;;) {
      try {
        memory.grow(pages);
      } catch {
        break;
      }
    }
  }
  assert.throws(
    () => apply(`${'x\n'.repeat(1 << 18)}end\n`, '@@\n-y\n+z'),
    (e) => e.code === 'internal_error',
  );
  assert.equal(apply('a\n', '@@\n-a\n+b'), 'b\n');
  assert.ok(core.wasm().wasmMemory().buffer.byteLength < binding.MEMORY_LIMIT);
  // The stream went with the old instance, and says so; new ones work.
  assert.throws(
    () => kept.push('@@\n'),
    (e) => e instanceof PatchError && e.code === 'internal_error' && /restarted/.test(e.message),
  );
  const fresh = createPatchStream('a\nb\n');
  fresh.push('@@\n-a\n+A\n');
  assert.equal(fresh.end(), 'A\nb\n');
});

// A diff's stream holds the pieces not sent yet in wasm memory: memory that
// grows between pushes (another call, or the memory itself) detaches the
// view the wrapper writes through, and it must make it again, with every
// piece kept, whether the memory grows in the middle of a line or between
// lines, in the short path (pieces of a token) or the long one.
test('a diff stream keeps its pieces when wasm memory grows between pushes', () => {
  const input = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('');
  const section = (k) => `@@\n line ${5 * k}\n-line ${5 * k + 1}\n+LINE ${5 * k + 1}\n line ${5 * k + 2}\n`;
  const diff = Array.from({ length: 8 }, (_, k) => section(k)).join('');
  const want = apply(input, diff);
  const memory = core.wasm().wasmMemory();
  for (const size of [1, 3, 4, 7, 40]) {
    const s = createPatchStream(input);
    let placed = 0;
    for (let at = 0, i = 0; at < diff.length; at += size, i++) {
      const before = memory.buffer;
      // Every third piece: another call that needs more memory than there
      // is, or the memory grown by a page.
      if (i % 3 === 1) assert.equal(apply(`${'y\n'.repeat(20_000 + i)}x\n`, '@@\n-x\n+z').length, 2 * (20_000 + i) + 2);
      if (i % 3 === 2) memory.grow(1);
      if (i % 3 === 2) assert.notEqual(memory.buffer, before, 'the memory grew');
      for (const e of s.push(diff.slice(at, at + size))) {
        assert.equal(e.type, 'section');
        placed++;
      }
    }
    assert.equal(placed, 7, `${size}-unit pieces`);
    assert.equal(s.end(), want, `${size}-unit pieces`);
  }
});

// *** Begin Patch patches over file maps: every case of the Codex parity
// corpus (and its CRLF copy), in both modes, pushed whole, one UTF-16 unit at
// a time and in random pieces: end() is applyFiles(), an error event is
// applyFiles()'s error (or, when a later line of the patch is malformed,
// every body being read before any applies, an error at an earlier line than
// the whole patch's), and the preview after the last line is the result.
test('patches over file maps: every chunking ends as applyFiles() does', () => {
  const random = rng(2626);
  const counts = { operation: 0, section: 0, error: 0 };
  let runs = 0;
  const cases = fixture('codex-parity.json').cases.flatMap((c) => [
    c,
    {
      name: `${c.name} (CRLF)`,
      files: Object.fromEntries(Object.entries(c.files).map(([k, v]) => [k, v.replaceAll('\n', '\r\n')])),
      patch: c.patch.replaceAll('\n', '\r\n'),
    },
  ]);
  for (const c of cases) {
    for (const mode of ['strict', 'codex']) {
      const want = outcome(() => applyFiles(c.files, c.patch, { mode }));
      for (const way of [[c.patch], pieces(c.patch), pieces(c.patch, random)]) {
        runs++;
        const at = `${c.name} [${mode}, ${way.length} pieces]`;
        const s = createPatchStream(c.files, { mode });
        const events = way.flatMap((p) => s.push(p));
        for (const e of events) counts[e.type]++;
        const errors = events.filter((e) => e.type === 'error');
        assert.ok(errors.length <= 1 && (errors.length === 0 || events.at(-1) === errors[0]), `${at}: events after an error`);
        if (errors.length === 0 && want.text !== undefined && mode === 'codex') {
          assert.deepEqual(s.preview(), want.text, `${at}: preview`);
        }
        assert.deepEqual(
          outcome(() => s.end()),
          want,
          at,
        );
        if (errors.length === 1) {
          const e = errors[0].error;
          assert.ok(want.error !== undefined, `${at}: an error event for a patch that applies`);
          if (e.message !== want.error.message)
            assert.ok(want.error.diffLine > e.diffLine, `${at}: error event ${e.message}, applyFiles ${want.error.message}`);
        }
      }
    }
  }
  assert.ok(runs > 4000, `${runs} runs`);
  assert.ok(
    Object.values(counts).every((n) => n > 500),
    JSON.stringify(counts),
  );
});

test('a patch stream: operations, sections with their file, a preview of the map', () => {
  const files = { 'a.txt': 'one\ntwo\n', 'b.txt': 'x\n' };
  const s = createPatchStream(files, { format: 'patch' });
  assert.deepEqual(s.push('*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n'), [
    { type: 'operation', path: 'a.txt', kind: 'update', line: 2 },
  ]);
  assert.deepEqual(s.push('*** Delete File: b.txt\n'), [
    { type: 'section', path: 'a.txt', index: 0, diffLine: 1, inputLine: 1, splices: [{ from: 0, to: 3, insert: 'ONE' }] },
    { type: 'operation', path: 'b.txt', kind: 'delete', line: 6 },
  ]);
  assert.deepEqual(s.preview(), { 'a.txt': 'ONE\ntwo\n' });
  s.push('*** End Patch');
  assert.deepEqual(s.end(), { 'a.txt': 'ONE\ntwo\n' });
  const bad = createPatchStream(new Map([['a.txt', 'a\n']]));
  const events = bad.push('*** Begin Patch\n*** Update File: a.txt\n@@\n-zzz\n+y\n*** Add File: c\n');
  assert.equal(events.at(-1).type, 'error');
  assert.equal(events.at(-1).error.code, 'context_not_found');
  assert.deepEqual(bad.push('+c\n*** End Patch\n'), []);
  assert.throws(
    () => bad.end(),
    (e) => e instanceof PatchError && e.message === events.at(-1).error.message,
  );
});

// `base`: the text streams over base, and end() merges into the target as the
// one-shot call does, conflicts included; for a file map, end() is
// applyFiles(files, patch, { base }).
test('base: streamed over base, merged into the target at the end', () => {
  const base = 'a\nb\nc\nd\ne\nf\ng\n';
  const target = 'a\nb\nc\nd\ne\nf\nG!\n'; // the user changed the last line meanwhile
  const diff = '@@\n-a\n+A\n@@\n c\n-d\n+D\n';
  for (const mode of ['strict', 'codex']) {
    for (const way of [[diff], pieces(diff), pieces(diff, rng(4))]) {
      const s = createPatchStream(target, { base, mode });
      const events = way.flatMap((p) => s.push(p));
      assert.deepEqual(
        events.map((e) => [e.type, e.inputLine]),
        [['section', 1]],
      );
      assert.equal(s.preview(), 'A\nb\nc\nd\ne\nf\nG!\n');
      assert.equal(s.end(), apply(target, diff, { base, mode }));
    }
  }
  assert.equal(apply(target, diff, { base }), 'A\nb\nc\nD\ne\nf\nG!\n');
  // A conflict: the same error as the one-shot call.
  const clash = createPatchStream('a\nb\nc\nX\ne\nf\ng\n', { base });
  clash.push(diff);
  assert.deepEqual(
    outcome(() => clash.end()),
    outcome(() => apply('a\nb\nc\nX\ne\nf\ng\n', diff, { base })),
  );
  assert.equal(outcome(() => apply('a\nb\nc\nX\ne\nf\ng\n', diff, { base })).error.code, 'merge_conflict');
  // A file map.
  const files = { 'a.txt': 'one\ntwo\nthree!\n' };
  const baseFiles = { 'a.txt': 'one\ntwo\nthree\n' };
  const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch\n';
  const m = createPatchStream(files, { base: baseFiles });
  for (const p of pieces(patch)) m.push(p);
  assert.deepEqual(m.preview(), { 'a.txt': 'ONE\ntwo\nthree!\n' });
  assert.deepEqual(m.end(), applyFiles(files, patch, { base: baseFiles }));
  assert.deepEqual(applyFiles(files, patch, { base: baseFiles }), { 'a.txt': 'ONE\ntwo\nthree!\n' });
});

// Edit blocks over a text: end() is applyEdits(text, parseBlocks(message,
// { detailed: true }).edits, options) for every chunking, each closed block
// is a section event as it is applied, and the first error event carries the
// one-shot result for the message up to the failing block.
function blockCases() {
  const out = [];
  const block = (e) => `<<<<<<< SEARCH\n${e.search}\n=======\n${e.replace}\n>>>>>>> REPLACE\n`;
  // Messages written four ways: bare blocks, prose and a file name with
  // fences, a file name then Roo Code line hints, and blocks with a line
  // inside that looks like an end marker ('>>> ', a doctest).
  const messages = (edits) => [
    edits.map(block).join(''),
    edits.map((e) => block({ search: e.search, replace: `>>> check\n${e.replace}` })).join(''),
    `Here is the change:\n\nsrc/app.js\n${edits.map((e) => `\`\`\`js\n${block(e)}\`\`\`\n`).join('\n')}Done.\n`,
    `a.js\n${edits.map((e) => block(e).replace('SEARCH\n', 'SEARCH\n:start_line:1\n-------\n')).join('>>> not a marker\n')}`,
  ];
  const options = (c) => ({
    ...(c.threshold === undefined ? {} : { threshold: c.threshold }),
    ...(c.anchor_slack === undefined ? {} : { anchorSlack: c.anchor_slack }),
  });
  for (const c of fixture('apply-edit-block.cases.json').cases) {
    if (c.patch !== undefined) {
      const source = parseBlocks(c.patch, { detailed: true })
        .edits.map((e) => e.search)
        .join('\n');
      out.push({ name: `cases ${c.name}`, source, message: c.patch, options: options(c) });
    } else {
      for (const [k, message] of messages(c.edits).entries()) {
        out.push({ name: `cases ${c.name} (${k})`, source: c.source, message, options: options(c) });
      }
    }
  }
  for (const c of fixture('apply-edit-block.differential.json').cases) {
    const ms = c.patch !== undefined ? [c.patch] : messages(c.edits).slice(0, c.id % 3 === 0 ? 4 : 2);
    for (const [k, message] of ms.entries())
      out.push({ name: `differential ${c.id} (${k})`, source: c.source, message, options: options(c) });
  }
  const crlf = out
    .filter((_, i) => i % 4 === 0)
    .map((c) => ({ ...c, name: `${c.name} (CRLF)`, message: c.message.replaceAll('\n', '\r\n') }));
  return [...out, ...crlf];
}

const blocksOutcome = (fn) => {
  try {
    const r = fn();
    return { result: r, splices: r.splices };
  } catch (e) {
    assert.ok(e instanceof PatchError, `not a PatchError: ${e}`);
    return { error: { code: e.code, message: e.message } };
  }
};

test('edit blocks: every chunking ends as applyEdits(parseBlocks()) does; sections and the first error as it does on the prefix', () => {
  const random = rng(2626);
  let runs = 0;
  let sections = 0;
  let errors = 0;
  for (const c of blockCases()) {
    for (const preset of ['safe', 'compatible']) {
      const opts = { ...c.options, preset };
      const edits = parseBlocks(c.message, { detailed: true }).edits;
      const want = blocksOutcome(() => applyEdits(c.source, edits, opts));
      const ways = [[c.message], pieces(c.message), pieces(c.message, random), pieces(c.message, random)];
      for (const way of ways) {
        runs++;
        const at = `${c.name} [${preset}, ${way.length} pieces]`;
        const s = createPatchStream(c.source, { format: 'blocks', ...opts });
        const events = [];
        for (const p of way) events.push(...s.push(p));
        const placed = events.filter((e) => e.type === 'section');
        const failed = events.filter((e) => e.type === 'error');
        assert.ok(failed.length <= 1 && (failed.length === 0 || events.at(-1) === failed[0]), `${at}: nothing follows an error`);
        // The sections are the one-shot's first steps, in order: their
        // splices, applied in order, give preview().
        let text = c.source;
        for (const [k, e] of placed.entries()) {
          assert.equal(e.index, k, at);
          assert.equal(e.diffLine, edits[k].line, at);
          if (e.splices.length > 0) assert.ok(text.slice(0, e.splices[0].from).split('\n').length >= e.inputLine, at);
          for (const sp of [...e.splices].reverse()) text = text.slice(0, sp.from) + sp.insert + text.slice(sp.to);
        }
        assert.equal(text, s.preview(), at);
        if (want.result !== undefined) assert.equal(s.preview(), applyEdits(c.source, edits.slice(0, placed.length), opts).text, at);
        const end = blocksOutcome(() => s.end());
        assert.deepEqual(end, want, at);
        if (failed.length === 1) {
          errors++;
          const e = failed[0];
          // The one-shot call for the message up to the failing block: its
          // edits are the whole message's first ones, and nothing later in
          // the message undoes the failure, so it is the whole message's.
          const got = e.result === undefined ? { error: { code: e.error.code, message: e.error.message } } : blocksOutcome(() => e.result);
          if (e.result !== undefined) {
            assert.equal(e.result.ok, false, at);
            assert.deepEqual(
              got,
              blocksOutcome(() => applyEdits(c.source, edits.slice(0, e.result.results.length), opts)),
              at,
            );
          }
          assert.deepEqual(got, want, at);
        } else if (want.result !== undefined && !want.result.ok) {
          // Not reported: only the last block, closed by the message's last line, which has no line break.
          assert.equal(want.result.results.length, edits.length, `${at}: no error event`);
          assert.equal(placed.length, edits.length - 1, at);
        } else {
          assert.equal(want.error, undefined, `${at}: no error event`);
        }
        sections += placed.length;
        assert.throws(() => s.push('x'), /has ended/);
      }
    }
  }
  assert.ok(runs > 5000 && sections > 5000 && errors > 500, `${runs} runs, ${sections} sections, ${errors} errors`);
});

test('edit blocks: each line is parsed about once, whatever the pieces', () => {
  // 500 blocks (a doctest line starting with '>>>' inside each, a malformed
  // block, prose between), one UTF-16 unit at a time and in 4-unit pieces:
  // the text the engine parses adds up to a small multiple of the message,
  // not its square (each block is parsed at its '>>>' line, which could have
  // closed it, and at its end marker).
  const lines = Array.from({ length: 2000 }, (_, i) => `row ${i};`);
  const source = `${lines.join('\n')}\n`;
  let message = 'Edits:\n<<<<<<< SEARCH\nno divider\n>>>>>>> REPLACE\n';
  for (let i = 0; i < 2000; i += 4) message += `Next:\n<<<<<<< SEARCH\nrow ${i};\n=======\n>>> row ${i};\n>>>>>>> REPLACE\n`;
  const edits = parseBlocks(message, { detailed: true }).edits;
  assert.equal(edits.length, 500);
  const wasm = extra.wasm();
  const parse = wasm.blocksStreamParse;
  let parsed = 0;
  wasm.blocksStreamParse = (text) => {
    parsed += text.length;
    return parse(text);
  };
  try {
    for (const size of [1, 4]) {
      parsed = 0;
      const s = createPatchStream(source, { format: 'blocks' });
      let placed = 0;
      for (let at = 0; at < message.length; at += size)
        placed += s.push(message.slice(at, at + size)).filter((e) => e.type === 'section').length;
      assert.equal(placed, 500);
      assert.ok(parsed < 3 * message.length, `${parsed} units parsed for a message of ${message.length}`);
      const end = s.end();
      assert.deepEqual(end, applyEdits(source, edits));
      assert.equal(end.ok, true);
    }
  } finally {
    wasm.blocksStreamParse = parse;
  }
});

test('edit blocks stream: one block with 2,000 lines starting with >>> inside is parsed a small multiple of its length, not once per such line', () => {
  // Each '>>>' line could close the block, so the stream parses at it; after
  // a few parses that find the block still open it waits for the window to
  // double, so this block's event may come only from end().
  const source = 'def f():\n    return 1\n';
  const doctest = Array.from({ length: 2000 }, (_, i) => `>>> f() + ${i}\n${i + 1}\n`).join('');
  const message = `<<<<<<< SEARCH\n    return 1\n=======\n    return 1\n${doctest}>>>>>>> REPLACE\n`;
  const wasm = extra.wasm();
  const parse = wasm.blocksStreamParse;
  let parsed = 0;
  wasm.blocksStreamParse = (text) => {
    parsed += text.length;
    return parse(text);
  };
  try {
    const s = createPatchStream(source, { format: 'blocks' });
    let placed = 0;
    for (let at = 0; at < message.length; at += 4) placed += s.push(message.slice(at, at + 4)).filter((e) => e.type === 'section').length;
    assert.ok(placed <= 1);
    assert.ok(parsed < 4 * message.length, `${parsed} units parsed for a message of ${message.length}`);
    assert.deepEqual(s.end(), applyEdits(source, parseBlocks(message, { detailed: true }).edits));
  } finally {
    wasm.blocksStreamParse = parse;
  }
});

test('edit blocks: a failed block stops the stream at once, with the one-shot result', () => {
  const source = 'a\nb\nc\n';
  const message =
    'x.txt\n<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nzzz\n=======\nZ\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE\n';
  const s = createPatchStream(source, { format: 'blocks' });
  const cut = message.indexOf('>>>>>>> REPLACE') + '>>>>>>> REPLACE\n'.length;
  const first = s.push(message.slice(0, cut));
  assert.deepEqual(
    first.map((e) => [e.type, e.index, e.diffLine, e.inputLine]),
    [['section', 0, 2, 1]],
  );
  assert.deepEqual(first[0].splices, [{ from: 0, to: 1, insert: 'A' }]);
  assert.equal(s.preview(), 'A\nb\nc\n');
  const rest = message.slice(cut);
  const second = s.push(rest.slice(0, rest.indexOf('>>>>>>> REPLACE') + 16));
  assert.equal(second.length, 1);
  assert.equal(second[0].type, 'error');
  assert.deepEqual(second[0].result, applyEdits(source, parseBlocks(message, { detailed: true }).edits.slice(0, 2)));
  assert.equal(second[0].result.results[1].reason, 'not-found');
  assert.deepEqual(s.push('<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE\n'), []);
  assert.deepEqual(s.end(), second[0].result);
  assert.throws(() => s.end(), /has ended/);
});

test('edit blocks: a lone surrogate is the one-shot error; bad targets and options are refused', () => {
  const s = createPatchStream('a\n', { format: 'blocks' });
  const events = s.push('<<<<<<< SEARCH\na\uD800\n=======\nb\n>>>>>>> REPLACE\n');
  assert.equal(events.length, 1);
  const oneShot = (() => {
    try {
      parseBlocks('<<<<<<< SEARCH\na\uD800\n=======\nb\n>>>>>>> REPLACE\n', { detailed: true });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(events[0].error instanceof PatchError);
  assert.deepEqual([events[0].error.code, events[0].error.message], [oneShot.code, oneShot.message]);
  assert.throws(
    () => s.end(),
    (e) => e.code === 'invalid_string' && e.message === oneShot.message,
  );
  assert.throws(() => createPatchStream(['a\n'], { format: 'blocks' }), /files must be a plain object or a Map/);
  assert.throws(() => createPatchStream('a\n', { format: 'blocks', base: 7 }), /options.base/);
  assert.throws(() => createPatchStream({ 'a.txt': 'a\n' }, { format: 'blocks', base: 'a\n' }), /options.base must be a file map/);
  assert.throws(() => createPatchStream({ 'a.txt': 'a\n' }, { format: 'blocks', path: 7 }), /options.path/);
  assert.throws(() => createPatchStream('a\n', { format: 'blocks', preset: 'loose' }), /options.preset/);
  // Repairs are reported once, by end().
  const repairs = [];
  const r = createPatchStream('1\n2\n3\n', { format: 'blocks', repair: true, onRepair: (x) => repairs.push(x) });
  r.push('<<<<<<< SEARCH\n2 | 2\n=======\ntwo\n>>>>>>> REPLACE\n');
  assert.equal(r.preview(), '1\ntwo\n3\n');
  assert.equal(repairs.length, 0);
  assert.equal(r.end().text, '1\ntwo\n3\n');
  assert.equal(repairs.length, 1);
});

// Edit blocks over a file map: end() is applyBlocks(files, message, options)
// for every chunking. Each case of blockCases() goes to a map holding its
// source under each name its blocks give (or under options.path), beside
// other files; every other case names the files as the model remembered them
// (under pkg/, with the file-name repair), and some messages also create a
// file, name one the map lacks, or hold a malformed block.
function fileCases() {
  const out = [];
  for (const [i, c] of blockCases().entries()) {
    const edits = parseBlocks(c.message, { detailed: true }).edits;
    const names = [...new Set(edits.map((e) => e.path ?? 'main.txt'))];
    const files = Object.fromEntries([['other.txt', 'unrelated\n'], ...names.map((n) => [n, c.source])]);
    const options = { ...c.options, path: 'main.txt' };
    let message = c.message;
    const sep = message.endsWith('\n') ? '' : '\n';
    if (i % 5 === 1) message += `${sep}\nnew/file.txt\n<<<<<<< SEARCH\n=======\ncreated\n>>>>>>> REPLACE\n`;
    if (i % 7 === 2) message += `${sep}missing.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n`;
    if (i % 11 === 3) {
      const at = message.indexOf('REPLACE\n');
      if (at >= 0) message = `${message.slice(0, at + 8)}<<<<<<< SEARCH\nno divider\n>>>>>>> REPLACE\n${message.slice(at + 8)}`;
    }
    out.push({ name: c.name, files, message, options });
    if (i % 2 === 1) {
      const moved = Object.fromEntries(Object.entries(files).map(([k, v]) => [k === 'main.txt' ? k : `pkg/${k}`, v]));
      out.push({ name: `${c.name} (pkg/, file-name)`, files: moved, message, options: { ...options, repair: ['file-name'] } });
    }
  }
  return out;
}

/** The one-shot result as compared: enumerable fields (the map's files as entries). */
const filesOutcome = (fn) => {
  try {
    const r = fn();
    return { result: { ...r, files: r.files instanceof Map ? [...r.files] : r.files } };
  } catch (e) {
    assert.ok(e instanceof PatchError, `not a PatchError: ${e}`);
    return { error: { code: e.code, message: e.message } };
  }
};

test('edit blocks over a file map: every chunking ends as applyBlocks() does; sections, preview and the first error as on the prefix', () => {
  const random = rng(2627);
  const counts = { runs: 0, sections: 0, errors: 0, problems: 0, repaired: 0, created: 0 };
  for (const [n, c] of fileCases().entries()) {
    const opts = { ...c.options, preset: n % 2 === 0 ? 'safe' : 'compatible' };
    const files = n % 3 === 0 ? new Map(Object.entries(c.files)) : c.files;
    const want = filesOutcome(() => applyBlocks(files, c.message, opts));
    for (const way of [[c.message], pieces(c.message), pieces(c.message, random)]) {
      counts.runs++;
      const at = `${c.name} [${opts.preset}, ${way.length} pieces]`;
      const s = createPatchStream(files, { format: 'blocks', ...opts });
      const events = [];
      for (const p of way) events.push(...s.push(p));
      const placed = events.filter((e) => e.type === 'section');
      const failed = events.filter((e) => e.type === 'error');
      assert.ok(failed.length <= 1 && (failed.length === 0 || events.at(-1) === failed[0]), `${at}: nothing follows an error`);
      // The sections are the one-shot's blocks, in order, each to its file:
      // their splices, applied in order, give preview().
      const texts = new Map(files instanceof Map ? files : Object.entries(files));
      for (const [k, e] of placed.entries()) {
        assert.equal(e.index, k, at);
        if (want.result !== undefined && want.result.results.length > k) {
          assert.equal(e.path, want.result.results[k].path, at);
          assert.equal(e.diffLine, want.result.results[k].line, at);
        }
        let text = texts.get(e.path) ?? '';
        for (const sp of [...e.splices].reverse()) text = text.slice(0, sp.from) + sp.insert + text.slice(sp.to);
        texts.set(e.path, text);
        if (e.path === 'new/file.txt') counts.created++;
        if (e.path.startsWith('pkg/')) counts.repaired++;
      }
      const preview = s.preview();
      assert.deepEqual(new Map(preview instanceof Map ? preview : Object.entries(preview)), texts, `${at}: preview`);
      assert.equal(preview instanceof Map, files instanceof Map, at);
      const end = filesOutcome(() => s.end());
      assert.deepEqual(end, want, at);
      if (failed.length === 1) {
        counts.errors++;
        const e = failed[0];
        assert.ok(want.error !== undefined || !want.result.ok, `${at}: an error event for a message that applies`);
        if (e.result !== undefined) {
          assert.equal(e.result.ok, false, at);
          const last = e.result.results.at(-1);
          if (e.result.problems.length > 0) {
            // A malformed block: applyBlocks on the message up to it applies
            // nothing, and the whole message's lists the same problems first.
            counts.problems++;
            assert.deepEqual(e.result.results, [], at);
            assert.deepEqual(want.result?.problems.slice(0, e.result.problems.length), e.result.problems, at);
          } else {
            // A block that does not apply: applyBlocks on the message through its end marker line.
            assert.equal(last.ok, false, at);
            assert.deepEqual(
              filesOutcome(() => e.result),
              filesOutcome(() => applyBlocks(files, firstLines(c.message, last.endMarkerLine), opts)),
              at,
            );
            if (want.result !== undefined && want.result.problems.length === 0)
              assert.deepEqual(
                filesOutcome(() => e.result),
                want,
                at,
              );
          }
        } else {
          assert.deepEqual({ error: { code: e.error.code, message: e.error.message } }, want, at);
        }
      } else if (want.result?.ok) {
        assert.equal(placed.length, want.result.results.length - (c.message.endsWith('\n') ? 0 : 1), `${at}: every block placed`);
      }
      counts.sections += placed.length;
      assert.throws(() => s.push('x'), /has ended/);
    }
  }
  assert.ok(
    counts.runs > 5000 &&
      counts.sections > 5000 &&
      counts.errors > 500 &&
      counts.problems > 50 &&
      counts.repaired > 500 &&
      counts.created > 100,
    JSON.stringify(counts),
  );
});

// `base` on edit-block streams: the blocks apply to base as they stream, and
// end() is the one-shot call with base (merged into the target, conflicts
// failing as it fails them), for a text and for a file map. The target is
// the case's source with a line the user added at its end (merged cleanly
// unless a block changes the last line) or its first line changed (a
// conflict when a block changes it).
test('edit blocks with base: end() is applyEdits / applyBlocks with base, for every chunking', () => {
  const random = rng(2628);
  const counts = { runs: 0, sections: 0, merged: 0, conflicts: 0 };
  const cases = blockCases().filter((_, i) => i % 3 === 0);
  for (const [n, c] of cases.entries()) {
    const base = c.source;
    const target = n % 2 === 0 ? `${base}// the user's line\n` : base.replace(/^[^\n]*/, "// the user's first line");
    const opts = { ...c.options, base, preset: n % 4 < 2 ? 'safe' : 'compatible' };
    const edits = parseBlocks(c.message, { detailed: true }).edits;
    const want = blocksOutcome(() => applyEdits(target, edits, opts));
    // Every file the blocks name holds the text (one file: the same sections as the text's).
    const names = [...new Set(edits.map((e) => e.path ?? 'main.txt'))];
    const files = Object.fromEntries([['other.txt', 'x\n'], ...names.map((k) => [k, target])]);
    const baseFiles = Object.fromEntries([['other.txt', 'x\n'], ...names.map((k) => [k, base])]);
    const fileOpts = { ...opts, base: baseFiles, path: 'main.txt' };
    const wantFiles = filesOutcome(() => applyBlocks(files, c.message, fileOpts));
    if (want.result?.ok) counts.merged++;
    if (want.result?.results.at(-1)?.reason === 'merge-conflict') counts.conflicts++;
    for (const way of [[c.message], pieces(c.message), pieces(c.message, random)]) {
      counts.runs++;
      const at = `${c.name} [${opts.preset}, ${way.length} pieces]`;
      const s = createPatchStream(target, { format: 'blocks', ...opts });
      const m = createPatchStream(files, { format: 'blocks', ...fileOpts });
      const events = way.flatMap((p) => s.push(p));
      const fileEvents = way.flatMap((p) => m.push(p));
      // Both apply the blocks to base: the same sections, for one file.
      const placed = events.filter((e) => e.type === 'section');
      if (names.length === 1) {
        assert.deepEqual(
          fileEvents.filter((e) => e.type === 'section').map(({ path: _path, ...e }) => e),
          placed,
          at,
        );
      }
      let onBase = base;
      for (const e of placed)
        for (const sp of [...e.splices].reverse()) onBase = onBase.slice(0, sp.from) + sp.insert + onBase.slice(sp.to);
      // preview(): that merged into the target (a conflict throws, as end() fails).
      const merged = merge3(base, target, onBase);
      if (merged.ok) assert.equal(s.preview(), merged.text, at);
      else
        assert.throws(
          () => s.preview(),
          (e) => e instanceof PatchError && e.code === 'merge_conflict',
          at,
        );
      counts.sections += placed.length;
      const error = events.find((e) => e.type === 'error');
      if (error?.result !== undefined)
        assert.deepEqual(
          blocksOutcome(() => error.result),
          blocksOutcome(() => applyEdits(target, edits.slice(0, error.result.results.length), opts)),
          at,
        );
      assert.deepEqual(
        blocksOutcome(() => s.end()),
        want,
        at,
      );
      assert.deepEqual(
        filesOutcome(() => m.end()),
        wantFiles,
        at,
      );
    }
  }
  assert.ok(counts.runs > 1500 && counts.sections > 1000 && counts.merged > 100 && counts.conflicts > 20, JSON.stringify(counts));
});

// format: 'auto': the first line that settles the format (detectFormat's
// rules, read line by line by the engine) picks the stream; for every case
// of the corpora, in every chunking, auto decides the case's format and gives
// the explicit format's events and end().
test("format 'auto': every corpus case gives the events and end() of its own format", () => {
  const random = rng(2629);
  const counts = { runs: 0, diff: 0, patch: 0, blocks: 0, unified: 0, events: 0, undecided: 0 };
  const run = (target, text, options, format) => {
    for (const way of [[text], pieces(text), pieces(text, random)]) {
      counts.runs++;
      const at = `${format} ${JSON.stringify(text.slice(0, 60))} [${way.length} pieces]`;
      const explicit = createPatchStream(target, { ...options, format });
      const auto = createPatchStream(target, { ...options, format: 'auto' });
      const want = way.flatMap((p) => explicit.push(p));
      const got = way.flatMap((p) => auto.push(p));
      // A text whose first line is no V4A line and no marker (prose, or a
      // V4A diff that fails there) is decided by its end: end() only.
      if (auto.format === undefined) {
        counts.undecided++;
        assert.deepEqual(got, [], at);
      } else assert.deepEqual(got, want, at);
      assert.equal(auto.format ?? detectFormat(text), format, at);
      counts.events += got.length;
      // (Before a line decides, the preview is the target as given.)
      if (auto.format !== undefined && !want.some((e) => e.type === 'error')) assert.deepEqual(auto.preview(), explicit.preview(), at);
      const end = (s) => {
        try {
          const r = s.end();
          return { result: r, splices: r.splices };
        } catch (e) {
          return { error: e };
        }
      };
      assert.deepEqual(end(auto), end(explicit), at);
      assert.throws(() => auto.push('x'), /has ended/);
      counts[format]++;
    }
  };
  for (const c of cases().filter((_, i) => i % 2 === 0)) {
    if (detectFormat(c.diff) === 'diff') run(c.input, c.diff, { mode: 'codex' }, 'diff');
  }
  for (const c of fixture('codex-parity.json').cases) if (detectFormat(c.patch) === 'patch') run(c.files, c.patch, {}, 'patch');
  for (const c of blockCases().filter((_, i) => i % 3 === 0)) run(c.source, c.message, c.options, 'blocks');
  for (const c of fileCases().filter((_, i) => i % 3 === 1)) run(c.files, c.message, c.options, 'blocks');
  for (const c of fixture('unified-git.json').cases.filter((_, i) => i % 2 === 0)) run(c.files, c.diff, {}, 'unified');
  assert.ok(counts.runs > 3000 && Object.values(counts).every((n) => n > 20), JSON.stringify(counts));
  assert.ok(counts.undecided < counts.runs / 20, JSON.stringify(counts));
});

test("format 'auto': prose is skipped until a marker decides; a text the target cannot take ends with the one-shot call's error", () => {
  const message = 'Here is the fix:\n\n<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n';
  const s = createPatchStream('a\nb\n', { format: 'auto' });
  assert.deepEqual(s.push(message.slice(0, 18)), []);
  assert.equal(s.format, undefined);
  assert.equal(s.preview(), 'a\nb\n');
  assert.deepEqual(s.push(message.slice(18, 29)), []);
  assert.equal(s.format, undefined);
  assert.deepEqual(s.push(message.slice(29, 33)), []);
  assert.equal(s.format, 'blocks');
  assert.deepEqual(
    s.push(message.slice(33)).map((e) => [e.type, e.index, e.diffLine]),
    [['section', 0, 3]],
  );
  assert.equal(s.preview(), 'A\nb\n');
  assert.deepEqual(s.end(), applyEdits('a\nb\n', parseBlocks(message, { detailed: true }).edits));
  // A V4A diff is decided by its first line.
  const d = createPatchStream('a\n', { format: 'auto', mode: 'codex' });
  d.push('@@\n-a\n');
  assert.equal(d.format, 'diff');
  d.push('+b\n');
  assert.equal(d.end(), apply('a\n', '@@\n-a\n+b\n', { mode: 'codex' }));
  // Over a map: a patch, and a unified diff (its last hunk placed by end()).
  const p = createPatchStream({ 'a.txt': 'a\n' }, { format: 'auto' });
  assert.deepEqual(p.push('*** Begin Patch\n*** Update File: a.txt\n'), [{ type: 'operation', path: 'a.txt', kind: 'update', line: 2 }]);
  assert.equal(p.format, 'patch');
  p.push('@@\n-a\n+b\n*** End Patch\n');
  assert.deepEqual(p.end(), { 'a.txt': 'b\n' });
  const unified = 'Subject: fix\n\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n';
  const u = createPatchStream(new Map([['a.txt', 'a\n']]), { format: 'auto' });
  assert.deepEqual(u.push(unified), [{ type: 'operation', path: 'a.txt', kind: 'modified', line: 3 }]);
  assert.equal(u.format, 'unified');
  assert.deepEqual(u.preview(), new Map([['a.txt', 'a\n']]));
  assert.deepEqual(u.end(), new Map([['a.txt', 'b\n']]));
  // A unified diff over a text: apply()'s error, which names applyUnified.
  const t = createPatchStream('a\n', { format: 'auto' });
  assert.deepEqual(t.push(unified), []);
  assert.equal(t.format, 'unified');
  assert.throws(
    () => t.end(),
    (e) => e instanceof PatchError && /applyUnified/.test(e.message) && e.message === outcome(() => apply('a\n', unified)).error.message,
  );
  // Never decided by a line: end() is detectFormat's format for the whole text.
  const prose = createPatchStream('a\n', { format: 'auto' });
  prose.push('Nothing to change.');
  assert.deepEqual(
    outcome(() => prose.end()),
    outcome(() => apply('a\n', 'Nothing to change.')),
  );
  assert.equal(prose.format, 'diff');
  // Options are checked at once; repairs are for a stream of edit blocks.
  assert.throws(() => createPatchStream('a\n', { format: 'auto', repair: true }), /options.repair/);
  assert.throws(() => createPatchStream('a\n', { format: 'auto', mode: 'loose' }), TypeError);
  assert.throws(() => createPatchStream('a\n', { format: 'auto', preset: 'loose' }), /options.preset/);
  assert.throws(() => createPatchStream({ a: 'a\n' }, { format: 'auto', base: 'a\n' }), /options.base must be a file map/);
  const aborted = createPatchStream('a\n', { format: 'auto' });
  aborted.push('Prose\n');
  aborted.abort();
  assert.throws(() => aborted.push('@@\n'), /has ended/);
  assert.throws(() => aborted.end(), /has ended/);
});

test('edit blocks over a file map: each line is parsed about once, and the one-shot call runs once per name the file-name repair maps', () => {
  // 500 blocks over 50 files (a doctest line starting with '>>>' in each),
  // one UTF-16 unit at a time and in 4-unit pieces: the text parsed adds up
  // to a small multiple of the message; applyBlocks runs on the message so
  // far only to learn what a name the map lacks means (10 names), not per block.
  const files = {};
  for (let f = 0; f < 50; f++) files[`src/m${f}.py`] = `${Array.from({ length: 10 }, (_, i) => `row ${i};`).join('\n')}\n`;
  let message = 'Edits:\n';
  for (let i = 0; i < 500; i++) {
    const f = i % 50;
    const name = f < 10 ? `m${f}.py` : `src/m${f}.py`;
    message += `\n${name}\n<<<<<<< SEARCH\nrow ${Math.floor(i / 50)};\n=======\n>>> r${i}\n>>>>>>> REPLACE\n`;
  }
  const wasm = extra.wasm();
  const [parse, prepare] = [wasm.blocksStreamParse, wasm.prepareBlocks];
  let parsed = 0;
  let oneShots = 0;
  wasm.blocksStreamParse = (text) => {
    parsed += text.length;
    return parse(text);
  };
  wasm.prepareBlocks = (text) => {
    oneShots++;
    return prepare(text);
  };
  try {
    for (const size of [1, 4]) {
      [parsed, oneShots] = [0, 0];
      const s = createPatchStream(files, { format: 'blocks', repair: ['file-name'] });
      let placed = 0;
      for (let at = 0; at < message.length; at += size)
        placed += s.push(message.slice(at, at + size)).filter((e) => e.type === 'section').length;
      assert.equal(placed, 500);
      assert.ok(parsed < 3 * message.length, `${parsed} units parsed for a message of ${message.length}`);
      assert.equal(oneShots, 10);
      const end = s.end();
      assert.equal(end.ok, true);
      assert.deepEqual(end, applyBlocks(files, message, { repair: ['file-name'] }));
    }
  } finally {
    wasm.blocksStreamParse = parse;
    wasm.prepareBlocks = prepare;
  }
});

// Unified diffs over file maps: every case recorded against git apply
// (tests/fixtures/unified-git.json: generated, drifted and damaged diffs,
// real ones), in both modes, pushed whole, one UTF-16 unit at a time and in
// random pieces. end() is applyUnified(); an error event is applyUnified()'s
// error for the diff up to some line pushed (the whole diff's, unless a later
// line is malformed); every section is placed where applyUnified() places
// its hunk, and its splices make the preview.
test('unified diffs over file maps: every chunking ends as applyUnified() does, and every hunk placed is where it applies', (t) => {
  const random = rng(2630);
  const counts = { runs: 0, operation: 0, section: 0, error: 0, checkedSplices: 0 };
  for (const c of fixture('unified-git.json').cases) {
    for (const mode of ['strict', 'git']) {
      const want = outcome(() => applyUnified(c.files, c.diff, { mode }));
      const report = want.error === undefined ? applyUnified(c.files, c.diff, { mode, report: true }) : undefined;
      for (const way of [[c.diff], pieces(c.diff), pieces(c.diff, random)]) {
        counts.runs++;
        const at = `${c.name} [${mode}, ${way.length} pieces]`;
        const s = createPatchStream(c.files, { format: 'unified', mode });
        const events = way.flatMap((p) => s.push(p));
        for (const e of events) counts[e.type]++;
        const errors = events.filter((e) => e.type === 'error');
        assert.ok(errors.length <= 1 && (errors.length === 0 || events.at(-1) === errors[0]), `${at}: events after an error`);
        const preview = s.preview();
        assert.deepEqual(
          outcome(() => s.end()),
          want,
          at,
        );
        if (errors.length === 1) {
          const e = errors[0].error;
          assert.ok(want.error !== undefined, `${at}: an error event for a diff that applies`);
          if (e.message !== want.error.message)
            assert.ok(want.error.diffLine > e.diffLine, `${at}: error event ${e.message}, applyUnified ${want.error.message}`);
          continue;
        }
        if (report === undefined) continue;
        const sections = events.filter((e) => e.type === 'section');
        assert.ok(sections.length <= report.hunks.length, at);
        assert.deepEqual(
          sections.map((e) => [e.path, e.index + 1, e.inputLine]),
          report.hunks.slice(0, sections.length).map((h) => [h.path, h.hunk, h.line]),
          at,
        );
        // A file one file diff changes in place: its sections' splices, offsets into the file, give the preview.
        const written = events.filter((e) => e.type === 'operation').map((e) => e.path);
        for (const path of new Set(sections.map((e) => e.path))) {
          if (written.filter((p) => p === path).length !== 1 || c.files[path] === undefined) continue;
          const own = sections.filter((e) => e.path === path);
          const text = spliced(
            c.files[path],
            own.flatMap((e) => e.splices),
          );
          if (preview[path] !== undefined) {
            assert.equal(text, preview[path], `${at}: ${path}`);
            counts.checkedSplices++;
          }
        }
      }
    }
  }
  assert.ok(
    counts.runs > 7000 && counts.operation > 5000 && counts.section > 5000 && counts.error > 500 && counts.checkedSplices > 2000,
    JSON.stringify(counts),
  );
  t.diagnostic(JSON.stringify(counts));
});

/** A text with splices (UTF-16 offsets into it, sorted) applied. */
function spliced(text, splices) {
  let out = '';
  let at = 0;
  for (const p of [...splices].sort((a, b) => a.from - b.from)) {
    out += text.slice(at, p.from) + p.insert;
    at = p.to;
  }
  return out + text.slice(at);
}

test('a unified diff stream: a hunk is placed at the line after it, the first error is the whole message applyUnified() throws, then nothing', () => {
  const files = { 'a.py': 'x = 1\ny = 2\n', 'b.py': 'z = 3\n' };
  const diff =
    '--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 10\n@@ -2 +2 @@\n-y = 2 \n+y = 20\n' +
    '--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-z = 3\n+z = 30\n';
  const lines = diff.split(/(?<=\n)/);
  const s = createPatchStream(files, { format: 'unified' });
  assert.deepEqual(s.push(lines.slice(0, 5).join('')), [{ type: 'operation', path: 'a.py', kind: 'modified', line: 1 }]);
  assert.deepEqual(s.push(lines[5]), [
    { type: 'section', path: 'a.py', index: 0, diffLine: 3, inputLine: 1, splices: [{ from: 5, to: 5, insert: '0' }] },
  ]);
  assert.deepEqual(s.preview(), { 'a.py': 'x = 10\ny = 2\n', 'b.py': 'z = 3\n' });
  const events = s.push(lines.slice(6).join(''));
  assert.deepEqual(
    events.map((e) => e.type),
    ['error'],
  );
  const { error } = events[0];
  assert.ok(error instanceof PatchError);
  assert.equal(
    error.message,
    "a.py: hunk 2 (diff lines 6-8, '@@ -2,1 +2,1 @@'): its 1 context and removed line are not in the file after hunk 1. Nothing was changed. The closest place is line 2, where 0 of 1 lines are equal. Diff line 7 has 'y = 2 \\n', but line 2 of the file is 'y = 2\\n' (only whitespace differs). Copy the context and removed lines exactly from the current file and send the diff again.",
  );
  assert.deepEqual([error.code, error.path, error.diffLine], ['context_not_found', 'a.py', 7]);
  assert.deepEqual(s.push('more\n'), []);
  assert.deepEqual(outcome(() => s.end()).error, outcome(() => applyUnified(files, `${diff}more\n`)).error);
  // Options are applyUnified's: git mode; a text is no target; repairs are not taken.
  const g = createPatchStream(new Map([['a.txt', 'a\nb\n']]), { format: 'unified', mode: 'git' });
  g.push('--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-b\n+B\n');
  assert.deepEqual(g.end(), new Map([['a.txt', 'a\nB\n']]));
  // A lone surrogate, even cut from its pair: applyUnified()'s error.
  const lone = createPatchStream(files, { format: 'unified' });
  const withLone = '--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = \uD83D\nDone.\n';
  const got = [...withLone].flatMap((unit) => lone.push(unit));
  assert.deepEqual(
    got.map((e) => [e.type, e.error?.message]),
    [
      ['operation', undefined],
      ['error', outcome(() => applyUnified(files, withLone)).error.message],
    ],
  );
  assert.throws(() => createPatchStream('a\n', { format: 'unified' }), /format 'unified' streams a unified diff over a file map/);
  assert.throws(() => createPatchStream({}, { format: 'unified', mode: 'codex' }), /options.mode must be 'strict' or 'git'/);
  assert.throws(() => createPatchStream({}, { format: 'unified', repair: true }), /does not take options.repair/);
});

test('a unified diff stream over base: the hunks are placed in base, the preview merges them into the files, end() is applyUnified() with base', () => {
  const base = { 'a.txt': 'one\ntwo\nthree\nfour\nfive\n' };
  const files = { 'a.txt': 'one\ntwo\nthree\nfour\nfive\nsix (typed meanwhile)\n' };
  const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n@@ -3 +3 @@\n-three\n+THREE\n';
  const s = createPatchStream(files, { format: 'unified', base });
  assert.deepEqual(
    s.push(diff).map((e) => [e.type, e.inputLine]),
    [
      ['operation', undefined],
      ['section', 1],
    ],
  );
  assert.deepEqual(s.preview(), { 'a.txt': 'ONE\ntwo\nthree\nfour\nfive\nsix (typed meanwhile)\n' });
  assert.deepEqual(s.end(), applyUnified(files, diff, { base }));
});

test('a unified diff stream: each line crosses into the engine once, about once per hunk, whatever the pieces', () => {
  // 2,000 hunks in one file: the wrapper holds hunk lines back until a line
  // that is none (the next '@@'), so the engine is called about once per hunk.
  const input = Array.from({ length: 8000 }, (_, i) => `row ${i}\n`).join('');
  let diff = '--- a/f.txt\n+++ b/f.txt\n';
  for (let i = 0; i < 8000; i += 4) diff += `@@ -${i + 1} +${i + 1} @@\n-row ${i}\n+ROW ${i}\n`;
  const proto = extra.wasm().PreparedUnifiedStream.prototype;
  const push = proto.pushInput;
  let sent = 0;
  let calls = 0;
  // The lines cross through the input buffer: their length in bytes (ASCII here, so units).
  proto.pushInput = function (len) {
    sent += len;
    calls++;
    return push.call(this, len);
  };
  try {
    for (const size of [1, 4]) {
      [sent, calls] = [0, 0];
      const s = createPatchStream({ 'f.txt': input }, { format: 'unified' });
      let placed = 0;
      for (let at = 0; at < diff.length; at += size) placed += s.push(diff.slice(at, at + size)).filter((e) => e.type === 'section').length;
      assert.equal(placed, 1999);
      assert.ok(sent <= diff.length && calls <= 2001, `${calls} calls, ${sent} units sent for ${diff.length}`);
      assert.deepEqual(s.end(), applyUnified({ 'f.txt': input }, diff));
    }
  } finally {
    proto.pushInput = push;
  }
});

test('a V4A diff stream: each line crosses into the engine once, about once per section, whatever the pieces (CRLF too)', () => {
  // 2,000 sections: the wrapper holds section lines back until a line that
  // is none (the next '@@'), so the engine is called about once per section;
  // a line break or a carriage return cut from its line changes nothing.
  const input = Array.from({ length: 8000 }, (_, i) => `row ${i}\n`).join('');
  let diff = '';
  for (let i = 0; i < 8000; i += 4) diff += `@@\n row ${i}\n-row ${i + 1}\n+ROW ${i + 1}\n`;
  const proto = core.wasm().PreparedStream.prototype;
  const [push, pushStaged] = [proto.pushInput, proto.pushStaged];
  let sent = 0;
  let calls = 0;
  // The lines cross through the input buffer, or (pieces of a token) the
  // stage: their length in bytes (ASCII here, so units).
  proto.pushInput = function (len) {
    sent += len;
    calls++;
    return push.call(this, len);
  };
  proto.pushStaged = function (complete, staged) {
    sent += complete;
    calls++;
    return pushStaged.call(this, complete, staged);
  };
  try {
    for (const [text, target] of [
      [diff, input],
      [diff.replaceAll('\n', '\r\n'), input.replaceAll('\n', '\r\n')],
    ]) {
      for (const size of [1, 3, 4]) {
        [sent, calls] = [0, 0];
        const s = createPatchStream(target);
        let placed = 0;
        for (let at = 0; at < text.length; at += size)
          placed += s.push(text.slice(at, at + size)).filter((e) => e.type === 'section').length;
        assert.equal(placed, 1999);
        // Every line once, but the last section's body (held until end()).
        const held = text.slice(text.indexOf('\n', text.lastIndexOf('@@')) + 1);
        assert.equal(sent, text.length - held.length);
        // The first push at once (an input that cannot take a diff fails there), then one call per '@@' line.
        assert.ok(calls >= 2000 && calls <= 2001, `${calls} calls for ${size}-character pieces`);
        assert.equal(s.end(), apply(target, text));
      }
    }
  } finally {
    [proto.pushInput, proto.pushStaged] = [push, pushStaged];
  }
});
