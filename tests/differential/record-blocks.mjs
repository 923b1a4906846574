#!/usr/bin/env node
// Records apply-edit-block's results for generated edit-block cases, so that
// `npm test` can check the package (tests/js/blocks-differential.test.mjs) and
// the engine (tests/blocks_differential.rs) against the published package
// without Python.
//
//   node tests/differential/record-blocks.mjs [--oracle PATH] [--count N]
//
// The oracle is ../shared/oracles/apply-edit-block.sh (it installs PyPI
// apply-edit-block 0.1.0 into a virtual environment on first use). Cases are
// generated deterministically from a seed: sources in several styles (2- and
// 4-space, tabs, non-ASCII text, CRLF, no final newline, repeated blocks) and
// edits made from their lines the way models get them wrong (trailing
// whitespace, shifted or retyped indentation, changed or missing lines,
// made-up text, searches ending in a newline), with varied threshold and
// anchor_slack, plus some whole SEARCH/REPLACE messages to parse. The
// recording fails unless every strategy and failures are represented.
// Writes tests/fixtures/apply-edit-block.differential.json.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { rng } from '../../scripts/rng.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const oracle = arg('--oracle', join(root, '..', 'shared', 'oracles', 'apply-edit-block.sh'));
const count = Number(arg('--count', 640));
const out = join(root, 'tests', 'fixtures', 'apply-edit-block.differential.json');

const random = rng(20240604);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;

const WORDS = ['total', 'value', 'item', 'count', 'name', 'user', 'result', 'data', 'index', 'node'];
const UNICODE = ['café', 'naïve', '🚀 launch', '日本語', 'Ωmega', 'größe', '😀😀', 'señal', 'z\u00a0z'];

/** One line of code at `depth`, in a style. */
function codeLine(style, depth, i) {
  const w = pick(WORDS);
  const unit = style === 'tabs' ? '\t' : ' '.repeat(style === 'py' ? 4 : 2);
  const ind = unit.repeat(depth);
  const text = pick([
    `const ${w}${i} = compute(${w}, ${i});`,
    `if (${w} > ${i}) {`,
    `${w}.push(${i});`,
    `return ${w};`,
    `// ${pick(UNICODE)} ${w}`,
    `log("${pick(UNICODE)}", ${i});`,
    `${w}${i} += ${int(0, 99)}`,
    '}',
    '',
  ]);
  return text === '' ? '' : ind + text;
}

/** A source as lines, in a random style, with some repeated blocks. */
function sourceLines() {
  const style = pick(['js', 'py', 'tabs', 'js', 'py']);
  const n = pick([1, 2, 3, int(4, 12), int(10, 40), int(20, 60)]);
  const lines = [];
  let depth = 0;
  for (let i = 0; i < n; i++) {
    if (chance(0.2)) depth = Math.min(depth + 1, 4);
    // biome-ignore lint/suspicious/noDuplicateElseIf: two independent random draws
    else if (chance(0.2)) depth = Math.max(depth - 1, 0);
    lines.push(codeLine(style, depth, i));
  }
  // Repeat a block so that some edits match more than once.
  if (n >= 8 && chance(0.3)) {
    const at = int(0, n - 4);
    lines.push(...lines.slice(at, at + int(1, 3)));
  }
  return lines;
}

function join_(lines, crlf, finalNewline) {
  const nl = crlf ? '\r\n' : '\n';
  return lines.join(nl) + (finalNewline && lines.length ? nl : '');
}

const mutators = {
  exact: (block) => block,
  trailing: (block) => block.map((l) => (chance(0.6) ? l + pick([' ', '  ', '\t', ' \t']) : l)),
  indentShift: (block) => {
    const d = pick([-4, -2, 2, 4, 8]);
    return block.map((l) => (l.trim() === '' ? l : d > 0 ? ' '.repeat(d) + l : l.replace(new RegExp(`^[ \\t]{0,${-d}}`), '')));
  },
  tabsToSpaces: (block) => block.map((l) => l.replace(/^\t+/, (m) => '    '.repeat(m.length))),
  outdentAll: (block) => block.map((l) => l.replace(/^[ \t]+/, '')),
  changeInterior: (block) => block.map((l, i) => (i > 0 && i < block.length - 1 && chance(0.4) ? `${l} // ${pick(WORDS)}` : l)),
  changeOne: (block) => {
    const b = [...block];
    b[int(0, b.length - 1)] = `made up ${pick(WORDS)}`;
    return b;
  },
  changeFirstAndOne: (block) => {
    const b = [...block];
    b[0] = `${b[0]} /* ${pick(WORDS)} */`;
    if (b.length > 8 && chance(0.5)) b[int(1, b.length - 1)] += ' ';
    return b;
  },
  dropLine: (block) => (block.length > 2 ? block.filter((_, i) => i !== int(1, block.length - 2)) : block),
  insertLine: (block) => {
    const b = [...block];
    b.splice(int(1, Math.max(1, b.length - 1)), 0, `extra ${pick(UNICODE)}`);
    return b;
  },
  garbage: () => Array.from({ length: int(1, 6) }, () => `garbage ${pick(WORDS)} ${pick(UNICODE)}`),
  blankFirst: (block) => ['', ...block],
};

function replacementFor(search) {
  const lines = search.split('\n');
  switch (int(0, 4)) {
    case 0:
      return '';
    case 1:
      return lines.map((l) => l.replace(/\d+/, (d) => String(Number(d) + 1))).join('\n');
    case 2:
      return [...lines, `${(lines.at(-1) ?? '').match(/^[ \t]*/)[0]}added(${pick(UNICODE)});`].join('\n');
    case 3:
      return lines.map((l, i) => (i === 0 ? l : `  ${l}`)).join('\n');
    default:
      return `${pick(UNICODE)} replaced`;
  }
}

function makeEdit(lines, crlfSearch) {
  const kind = pick([
    'exact',
    'exact',
    'trailing',
    'indentShift',
    'indentShift',
    'tabsToSpaces',
    'outdentAll',
    'changeInterior',
    'changeInterior',
    'changeOne',
    'changeFirstAndOne',
    'changeFirstAndOne',
    'dropLine',
    'insertLine',
    'garbage',
    'blankFirst',
    'empty',
    'whitespace',
    'longer',
  ]);
  if (kind === 'empty') return { kind, search: '', replace: replacementFor('x') + '\n' };
  if (kind === 'whitespace') return { kind, search: pick(['\n', '\n\n', '  ', '\t\n']), replace: 'W' };
  if (kind === 'longer') {
    const search = [...lines, 'tail line', 'another'].join('\n');
    return { kind, search, replace: 'R' };
  }
  // Fuzzy matches need long blocks: one changed line in 7 is 0.857.
  const longer = kind === 'changeFirstAndOne' || kind === 'changeOne';
  const len = lines.length ? int(longer ? Math.min(lines.length, 6) : 1, Math.min(lines.length, longer ? 16 : pick([1, 3, 6, 12]))) : 1;
  const at = int(0, Math.max(0, lines.length - len));
  const block = lines.slice(at, at + len);
  const mutated = mutators[kind](block.length ? block : ['x']);
  let search = mutated.join(crlfSearch ? '\r\n' : '\n');
  if (chance(0.2)) search += '\n';
  return { kind, search, replace: replacementFor(search) };
}

function options() {
  const o = {};
  if (chance(0.3)) o.threshold = pick([0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1]);
  if (chance(0.25)) o.anchor_slack = pick([0, 1, 3, 5]);
  return o;
}

function block(search, replace) {
  return `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
}

function makeCase(id) {
  const lines = sourceLines();
  const crlf = chance(0.2);
  const source = lines.length === 0 || chance(0.02) ? '' : join_(lines, crlf, chance(0.85));
  const c = { id, ...options(), source };
  const roll = random();
  if (roll < 0.1) {
    // A whole message to parse: one or two blocks, sometimes with a quirk.
    const edits = [makeEdit(lines, false), makeEdit(lines, false)].slice(0, int(1, 2));
    let patch = edits.map((e) => block(e.search, e.replace)).join(pick(['\n', '\nsome prose\n', '\n\n']));
    if (chance(0.3)) patch = patch.replace(/\n/g, '\r\n');
    if (chance(0.2)) patch = patch.slice(0, patch.lastIndexOf('>>>>>>>'));
    c.patch = patch;
    c.kinds = edits.map((e) => e.kind);
  } else if (roll < 0.2) {
    const edits = Array.from({ length: int(2, 3) }, () => makeEdit(lines, crlf && chance(0.5)));
    c.edits = edits.map(({ search, replace }) => ({ search, replace }));
    c.kinds = edits.map((e) => e.kind);
  } else {
    const e = makeEdit(lines, crlf && chance(0.5));
    c.edits = [{ search: e.search, replace: e.replace }];
    c.kinds = [e.kind];
  }
  return c;
}

const run = promisify(execFile);
async function callOracle(request) {
  const child = run('bash', [oracle], { maxBuffer: 64 << 20 });
  child.child.stdin.end(JSON.stringify(request));
  const { stdout } = await child;
  return JSON.parse(stdout);
}

async function record(c) {
  const request = { source: c.source };
  for (const k of ['threshold', 'anchor_slack']) if (c[k] !== undefined) request[k] = c[k];
  if (c.patch !== undefined) request.patch = c.patch;
  else request.edits = c.edits;
  c.expected = await callOracle(request);
  // The text before each later step, to convert that step's offsets.
  if (c.edits && c.expected.results.length > 1) {
    c.steps = [];
    for (let k = 1; k < c.expected.results.length; k++) {
      const r = await callOracle({ ...request, edits: c.edits.slice(0, k) });
      c.steps.push(r.text);
    }
  }
  return c;
}

const cases = Array.from({ length: count }, (_, i) => makeCase(i));
// Two oracle processes at a time.
const queue = [...cases];
await Promise.all(
  [0, 1].map(async () => {
    while (queue.length) await record(queue.shift());
  }),
);

const tally = {};
for (const c of cases) {
  for (const r of c.expected.results) {
    const key = r.strategy ?? 'failure';
    tally[key] = (tally[key] ?? 0) + 1;
  }
}
const features = {
  crlf: cases.filter((c) => c.source.includes('\r\n')).length,
  tabs: cases.filter((c) => c.source.includes('\t')).length,
  // biome-ignore lint/suspicious/noControlCharactersInRegex: counts non-ASCII text
  nonAscii: cases.filter((c) => /[^\x00-\x7f]/.test(c.source)).length,
  options: cases.filter((c) => c.threshold !== undefined || c.anchor_slack !== undefined).length,
  patches: cases.filter((c) => c.patch !== undefined).length,
  multiEdit: cases.filter((c) => c.edits && c.edits.length > 1).length,
};
for (const s of ['empty-search', 'exact', 'trailing-ws', 'indent', 'anchor', 'fuzzy', 'failure']) {
  if (!tally[s]) throw new Error(`no case reached ${s}; change the generator`);
}
for (const [k, v] of Object.entries(features)) if (!v) throw new Error(`no case has ${k}`);
writeFileSync(
  out,
  JSON.stringify(
    {
      generator: 'tests/differential/record-blocks.mjs (deterministic, seed 20240604)',
      oracle: 'apply-edit-block==0.1.0 (PyPI) through ../shared/oracles/apply-edit-block.sh',
      offset_unit: 'Unicode code points (Python str indices)',
      tally,
      features,
      cases,
    },
    null,
    1,
  ) + '\n',
);
console.log(`recorded ${cases.length} cases into ${out}`);
console.log('results by strategy:', tally);
console.log('features:', features);
