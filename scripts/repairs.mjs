// npm run repairs: measures the `repair` option on a corpus of realistic
// failing diffs (README "Repairs").
//
// Real edits: every text file changed between consecutive published versions
// of a few npm packages (fetched with `npm pack` into .cache/repairs/), and
// between consecutive commits of this repository. Each edit becomes a V4A
// diff (3 lines of context, more where Strict needs them to be unique) that
// applies exactly in Strict mode; then one context or removed line is
// mutated the way models slip:
//   drift:   trailing whitespace, re-indentation, tabs for spaces, Unicode
//            punctuation (dashes and quotes);
//   content: a stale identifier, a made-up context line, a missing context line.
// The intended result is always the real new file. Each case runs in Strict
// with `repair: true`, in plain Strict, and in Codex mode; drift cases are
// run again with the section's lines repeated just above it (ambiguous
// drift). Replays (each real diff applied to its own result) check that no
// edit applies twice.
//
// Usage: node scripts/repairs.mjs [--offline] [--real-edits] [--write-sample]
//   --offline       use only packages already in .cache/repairs/ and git history
//   --real-edits    also the edits of bench/real-edits.mjs (npm and PyPI
//                   releases; built into .cache/real-edits/ if missing)
//   --write-sample  rewrite tests/fixtures/repairs-sample.json (a fixed sample
//                   of cases from this repository's own history)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './rng.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { apply, lineDiff, PatchError } = require(join(root, 'dist', 'index.cjs'));

const args = new Set(process.argv.slice(2));
const cache = join(root, '.cache', 'repairs');

// Consecutive published versions (all MIT or ISC licensed).
const PACKAGES = {
  semver: ['7.5.0', '7.5.1', '7.5.2', '7.5.3', '7.5.4', '7.6.0', '7.6.1', '7.6.2', '7.6.3'],
  minimatch: ['9.0.0', '9.0.1', '9.0.2', '9.0.3', '9.0.4', '9.0.5'],
  commander: ['10.0.0', '10.0.1', '11.0.0', '11.1.0', '12.0.0', '12.1.0'],
  'yargs-parser': ['21.0.0', '21.0.1', '21.1.0', '21.1.1'],
  express: ['4.18.2', '4.19.0', '4.19.2', '4.20.0', '4.21.0', '4.21.1'],
  debug: ['4.3.4', '4.3.5', '4.3.6', '4.3.7'],
  chalk: ['5.0.0', '5.0.1', '5.1.0', '5.2.0', '5.3.0'],
  eslint: ['9.0.0', '9.1.0', '9.2.0', '9.3.0', '9.4.0', '9.5.0'],
  ajv: ['8.12.0', '8.13.0', '8.14.0', '8.16.0', '8.17.1'],
  glob: ['10.3.10', '10.3.12', '10.4.1', '10.4.5'],
  uuid: ['9.0.0', '9.0.1', '10.0.0'],
};
const TEXT = /\.(js|cjs|mjs|ts|mts|cts|md|rs|json|sh|toml|css|html|yml|yaml)$/;
const MAX_LINES = 4000;

function walk(dir, base = dir, out = new Map()) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, base, out);
    else if (TEXT.test(name)) out.set(relative(base, p), readFileSync(p, 'utf8'));
  }
  return out;
}

function packageVersion(name, version) {
  const dir = join(cache, `${name.replace('/', '+')}@${version}`);
  if (!existsSync(join(dir, 'package'))) {
    if (args.has('--offline')) return null;
    mkdirSync(dir, { recursive: true });
    try {
      const file = execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim();
      execFileSync('tar', ['-xzf', join(dir, file.split('\n').pop()), '-C', dir]);
    } catch (e) {
      console.error(`skipped ${name}@${version}: ${e.message.split('\n')[0]}`);
      return null;
    }
  }
  return walk(join(dir, 'package'));
}

/** Edits between consecutive versions of each package: { source, path, old, new }. */
function packageEdits() {
  const edits = [];
  for (const [name, versions] of Object.entries(PACKAGES)) {
    let prev = null;
    for (const v of versions) {
      const files = packageVersion(name, v);
      if (prev && files) {
        for (const [path, text] of files) {
          const old = prev.files.get(path);
          if (old !== undefined && old !== text) edits.push({ source: `${name}@${prev.v}..${v}`, path, old, new: text });
        }
      }
      if (files) prev = { v, files };
    }
  }
  return edits;
}

/** Edits of this repository's history: every text file changed by a commit. */
function gitEdits() {
  const git = (...a) => execFileSync('git', ['-C', root, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const edits = [];
  const commits = git('rev-list', '--first-parent', '--no-merges', 'HEAD').trim().split('\n').filter(Boolean).reverse();
  for (const c of commits) {
    let names;
    try {
      names = execFileSync('git', ['-C', root, 'diff', '--name-only', '--diff-filter=M', `${c}^`, c], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .trim()
        .split('\n')
        .filter(Boolean);
    } catch {
      continue; // the first commit
    }
    for (const path of names) {
      if (!TEXT.test(path) || path.startsWith('tests/fixtures/')) continue;
      edits.push({ source: `git ${c.slice(0, 7)}`, path, old: git('show', `${c}^:${path}`), new: git('show', `${c}:${path}`) });
    }
  }
  return edits;
}

const split = (text) => {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

/**
 * The sections of a V4A diff from a to b with `context` lines around each
 * change: [{ oldStart, lines: [{ kind, text, old?: line in a }] }].
 */
function sections(a, b, context) {
  const ops = lineDiff(a, b);
  const changed = ops.map((o) => o.op !== 'eq');
  const out = [];
  let i = 0;
  while (i < ops.length) {
    if (!changed[i]) {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    // Extend while the next change is within 2 * context.
    let end = i;
    for (;;) {
      while (end < ops.length && changed[end]) end++;
      let next = end;
      while (next < ops.length && !changed[next] && next - end < 2 * context) next++;
      if (next < ops.length && changed[next] && next - end < 2 * context) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    if (out.length && start < out.at(-1).stop) start = out.at(-1).stop;
    const lines = [];
    for (let k = start; k < stop; k++) {
      const o = ops[k];
      if (o.op === 'eq') lines.push({ kind: ' ', text: a[o.a], old: o.a });
      else if (o.op === 'del') lines.push({ kind: '-', text: a[o.a], old: o.a });
      else lines.push({ kind: '+', text: b[o.b] });
    }
    out.push({ stop, lines, oldStart: lines.find((l) => l.old !== undefined)?.old, newStart: ops[start].b });
    i = stop;
  }
  return out;
}

const render = (secs) => secs.map((s) => ['@@', ...s.lines.map((l) => `${l.kind}${l.text}`)].join('\n')).join('\n');

function tryApply(input, diff, options) {
  try {
    return { ok: true, text: apply(input, diff, options) };
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return { ok: false, code: e.code };
  }
}

/** A diff that Strict applies exactly, with its sections; null when none does. */
function realDiff(edit) {
  if (edit.old.includes('\r') || edit.new.includes('\r')) return null;
  const a = split(edit.old);
  const b = split(edit.new);
  if (a.length > MAX_LINES || b.length > MAX_LINES) return null;
  for (const context of [3, 5, 8]) {
    const secs = sections(a, b, context);
    if (secs.length === 0 || secs.length > 12 || secs.some((s) => s.oldStart === undefined)) return null;
    const diff = render(secs);
    const r = tryApply(edit.old, diff);
    if (r.ok && r.text === edit.new) return { secs, diff, a, b };
    // Why a real diff did not apply in Strict (ambiguous context, mostly; a
    // V4A diff cannot add or remove a file's final newline).
    const why = r.ok ? 'final newline' : r.code;
    if (context === 3) refusals[why] = (refusals[why] ?? 0) + 1;
  }
  return null;
}

const LOOKALIKE = { '-': '\u2013', '"': '\u201C', "'": '\u2019', ' ': '\u00A0' };

/** Mutations of one line's text: each returns the new text, or null when it does not apply to the line. */
const MUTATIONS = {
  drift: {
    'trailing-ws': (t) => (t.trim() === '' ? null : `${t}  `),
    indent: null, // every line of a section shifted (below)
    tabs: (t) => {
      if (t.trim() === '') return null;
      if (t.startsWith('\t')) return t.replace(/^\t+/, (m) => '    '.repeat(m.length));
      const m = /^( {2,})/.exec(t);
      if (!m) return null;
      const width = m[1].length % 4 === 0 ? 4 : 2;
      return '\t'.repeat(Math.floor(m[1].length / width)) + t.slice(m[1].length - (m[1].length % width));
    },
    unicode: (t) => {
      const body = t.trimStart();
      const at = [...body].findIndex((c, i) => c in LOOKALIKE && !(c === ' ' && (i === 0 || i === body.length - 1)));
      if (at < 0) return null;
      const lead = t.length - body.length;
      const chars = [...body];
      chars[at] = LOOKALIKE[chars[at]];
      return t.slice(0, lead) + chars.join('');
    },
  },
  content: {
    'stale-identifier': (t) => {
      const m = /[A-Za-z_][A-Za-z0-9_]{2,}/.exec(t);
      return m ? t.slice(0, m.index) + `${m[0]}Old` + t.slice(m.index + m[0].length) : null;
    },
    // One line indented differently among lines that match exactly: another
    // line, not drift (a uniform shift of the section is `drift:indent`).
    'one-line-indent': (t) => {
      if (t.trim() === '') return null;
      const lead = t.length - t.trimStart().length;
      return lead >= 2 ? t.slice(2) : `  ${t}`;
    },
    'made-up-line': null, // inserted, not changed (below)
    'missing-line': null, // removed, not changed (below)
  },
};

/** The candidate lines of a diff: context and removed lines, [section, line index]. */
function candidates(secs, pred) {
  const out = [];
  secs.forEach((s, si) => {
    s.lines.forEach((l, li) => {
      if (l.kind !== '+' && pred(l, s, li)) out.push([si, li]);
    });
  });
  return out;
}

function mutate(real, family, kind, random) {
  const secs = real.secs.map((s) => ({ ...s, lines: s.lines.map((l) => ({ ...l })) }));
  if (kind === 'made-up-line') {
    const spots = candidates(secs, (l) => l.kind === ' ');
    if (spots.length === 0) return null;
    const [si, li] = spots[Math.floor(random() * spots.length)];
    const indent = /^\s*/.exec(secs[si].lines[li].text)[0];
    secs[si].lines.splice(li + 1, 0, { kind: ' ', text: `${indent}// checked earlier by validateInput()` });
    return { secs, si, li };
  }
  if (kind === 'indent') {
    // The whole section indented 2 spaces less (or more, when a line has
    // less than 2), its added lines too: a section with at least two
    // non-blank old lines, so that the shift is evidence.
    const nonblank = (l) => l.text.trim() !== '';
    const spots = secs.map((_, si) => si).filter((si) => secs[si].lines.filter((l) => l.kind !== '+' && nonblank(l)).length >= 2);
    if (spots.length === 0) return null;
    const si = spots[Math.floor(random() * spots.length)];
    const lines = secs[si].lines;
    const less = lines.filter(nonblank).every((l) => l.text.startsWith('  '));
    for (const l of lines) if (nonblank(l)) l.text = less ? l.text.slice(2) : `  ${l.text}`;
    return { secs, si, li: lines.findIndex((l) => l.kind !== '+') };
  }
  if (kind === 'missing-line') {
    // A context line between two other old lines of its section (so that
    // what is left is not a block of the file).
    const isOld = (l) => l.kind !== '+';
    const spots = candidates(
      secs,
      (l, s, li) => l.kind === ' ' && l.text.trim() !== '' && s.lines.slice(0, li).some(isOld) && s.lines.slice(li + 1).some(isOld),
    );
    if (spots.length === 0) return null;
    const [si, li] = spots[Math.floor(random() * spots.length)];
    secs[si].lines.splice(li, 1);
    return { secs, si, li };
  }
  const fn = MUTATIONS[family][kind];
  const spots = candidates(secs, (l) => fn(l.text) !== null && fn(l.text) !== l.text);
  if (spots.length === 0) return null;
  const [si, li] = spots[Math.floor(random() * spots.length)];
  secs[si].lines[li].text = fn(secs[si].lines[li].text);
  return { secs, si, li };
}

/** The drift case made ambiguous: the mutated section's old lines repeated just above it. */
function ambiguous(real, m) {
  const s = real.secs[m.si];
  const oldLines = s.lines.filter((l) => l.kind !== '+');
  const start = oldLines[0].old;
  const copy = oldLines.map((l) => l.text);
  const input = [...real.a.slice(0, start), ...copy, ...real.a.slice(start)];
  // Where the section's old lines start in the new file: after every earlier section's net change.
  let shift = 0;
  for (const t of real.secs.slice(0, m.si))
    shift += t.lines.filter((l) => l.kind === '+').length - t.lines.filter((l) => l.kind === '-').length;
  const at = start + shift;
  const expected = [...real.b.slice(0, at), ...copy, ...real.b.slice(at)];
  const join = (lines) => (lines.length ? `${lines.join('\n')}\n` : '');
  return { input: join(input), expected: join(expected) };
}

/** The (old, new) pairs of the real-edits benchmark corpus, when asked for. */
async function benchEdits() {
  if (!args.has('--real-edits')) return [];
  const { loadCorpus } = await import(join(root, 'bench', 'real-edits.mjs'));
  return loadCorpus().cases.map((c) => ({ source: c.source, path: c.path, old: c.input, new: c.expected }));
}

const refusals = {};
const seen = new Set();
const edits = [...packageEdits(), ...gitEdits(), ...(await benchEdits())].filter((e) => {
  const key = `${e.old}\0${e.new}`;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
});
const random = rng(12);
const stats = {
  edits: edits.length,
  usable: 0,
  sources: new Set(),
  replay: { strict: 0, strictRepair: 0, codex: 0, total: 0 },
  cases: {},
  ambiguous: { total: 0, repairRefused: 0, repairWrong: 0, codexWrong: 0, codexRight: 0, codexFailed: 0 },
};
const tally = (kind) => {
  stats.cases[kind] ??= {
    total: 0,
    repairExact: 0,
    repairWrong: 0,
    repairRefused: 0,
    strictRefused: 0,
    codexExact: 0,
    codexWrong: 0,
    codexFailed: 0,
  };
  return stats.cases[kind];
};
const sample = [];
const wrongs = [];

for (const edit of edits) {
  const real = realDiff(edit);
  if (!real) continue;
  stats.usable++;
  stats.sources.add(edit.source.startsWith('git') ? 'this repository' : edit.source.split('@')[0].replace(/^(npm|pypi):/, ''));
  // Replays: the real diff sent again to the file it produced.
  stats.replay.total++;
  const again = tryApply(edit.new, real.diff);
  if (again.ok) stats.replay.strict++;
  else if (again.code === 'already_applied') stats.replay.already = (stats.replay.already ?? 0) + 1;
  const againRepair = tryApply(edit.new, real.diff, { repair: true });
  if (againRepair.ok && againRepair.text !== edit.new) stats.replay.strictRepair++;
  const againCodex = tryApply(edit.new, real.diff, { mode: 'codex' });
  if (againCodex.ok && againCodex.text !== edit.new) stats.replay.codex++;

  for (const [family, kinds] of Object.entries(MUTATIONS)) {
    for (const kind of Object.keys(kinds)) {
      const m = mutate(real, family, kind, random);
      if (!m) continue;
      const diff = render(m.secs);
      const t = tally(`${family}:${kind}`);
      t.total++;
      const r = tryApply(edit.old, diff, { repair: true });
      if (r.ok && r.text === edit.new) t.repairExact++;
      else if (r.ok) {
        t.repairWrong++;
        wrongs.push({ kind, source: edit.source, path: edit.path, diff, input: edit.old, got: r.text, want: edit.new });
      } else t.repairRefused++;
      if (!tryApply(edit.old, diff).ok) t.strictRefused++;
      const c = tryApply(edit.old, diff, { mode: 'codex' });
      // Codex always ends the file with a newline: compare on that footing.
      const intended = edit.new.endsWith('\n') || edit.new === '' ? edit.new : `${edit.new}\n`;
      if (c.ok && c.text === intended) t.codexExact++;
      else if (c.ok) t.codexWrong++;
      else t.codexFailed++;
      if (edit.source.startsWith('git') && edit.old.length < 6000 && sample.length < 400) {
        sample.push({
          kind: `${family}:${kind}`,
          source: `${edit.source} ${edit.path}`,
          input: edit.old,
          diff,
          expected: r.ok ? edit.new : null,
        });
      }
      if (family === 'drift') {
        const amb = ambiguous(real, m);
        stats.ambiguous.total++;
        const ra = tryApply(amb.input, diff, { repair: true });
        if (!ra.ok) stats.ambiguous.repairRefused++;
        else if (ra.text !== amb.expected) stats.ambiguous.repairWrong++;
        const ca = tryApply(amb.input, diff, { mode: 'codex' });
        const intended = amb.expected.endsWith('\n') || amb.expected === '' ? amb.expected : `${amb.expected}\n`;
        if (!ca.ok) stats.ambiguous.codexFailed++;
        else if (ca.text === intended) stats.ambiguous.codexRight++;
        else stats.ambiguous.codexWrong++;
      }
    }
  }
}

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);
console.log(
  `Corpus: ${stats.edits} changed files (${[...stats.sources].join(', ')}), ${stats.usable} usable as a Strict V4A diff that applies exactly.\n`,
);
console.log(
  '| mutation | cases | repair: exact | repair: refused | repair: wrong | Strict: refused | Codex: exact | Codex: wrong | Codex: fails |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const sum = (family) => {
  const all = {
    total: 0,
    repairExact: 0,
    repairWrong: 0,
    repairRefused: 0,
    strictRefused: 0,
    codexExact: 0,
    codexWrong: 0,
    codexFailed: 0,
  };
  for (const [k, t] of Object.entries(stats.cases)) if (k.startsWith(family)) for (const f of Object.keys(all)) all[f] += t[f];
  return all;
};
const row = (name, t) =>
  console.log(
    `| ${name} | ${t.total} | ${t.repairExact} (${pct(t.repairExact, t.total)}) | ${t.repairRefused} (${pct(t.repairRefused, t.total)}) | ${t.repairWrong} | ${t.strictRefused} | ${t.codexExact} (${pct(t.codexExact, t.total)}) | ${t.codexWrong} | ${t.codexFailed} |`,
  );
for (const [k, t] of Object.entries(stats.cases)) row(k, t);
row('**drift, all**', sum('drift'));
row('**content, all**', sum('content'));
const a = stats.ambiguous;
console.log(
  `\nAmbiguous drift (the section's lines repeated just above it), ${a.total} cases: repair refuses ${a.repairRefused} (${pct(a.repairRefused, a.total)}), applies wrongly ${a.repairWrong}; Codex lands in the wrong place ${a.codexWrong} (${pct(a.codexWrong, a.total)}), right ${a.codexRight}, fails ${a.codexFailed}.`,
);
const r = stats.replay;
console.log(
  `Replays (each real diff sent again to the file it produced), ${r.total}: apply again in Strict ${r.strict} (already_applied: ${r.already ?? 0}), in Strict with repair ${r.strictRepair} (a change; no-ops excluded), in Codex mode ${r.codex}.`,
);
console.log(
  `Real diffs (3 lines of context) Strict refused before more context was tried: ${
    Object.entries(refusals)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none'
  }.`,
);
if (wrongs.length) {
  console.log(`\nWrong results with repair (${wrongs.length}):`);
  for (const w of wrongs.slice(0, 5)) console.log(`- ${w.kind} ${w.source} ${w.path}\n${w.diff}`);
  if (process.env.REPAIRS_DUMP) writeFileSync(process.env.REPAIRS_DUMP, JSON.stringify(wrongs, null, 1));
}

if (args.has('--write-sample')) {
  // A fixed, small sample for npm test: a few cases of each kind from this repository's history.
  const byKind = new Map();
  for (const c of sample) {
    const list = byKind.get(c.kind) ?? [];
    if (list.length < 6) list.push(c);
    byKind.set(c.kind, list);
  }
  const out = [...byKind.values()].flat();
  writeFileSync(join(root, 'tests', 'fixtures', 'repairs-sample.json'), `${JSON.stringify(out, null, 1)}\n`);
  console.log(`\nWrote ${out.length} cases to tests/fixtures/repairs-sample.json`);
}
process.exitCode = wrongs.length === 0 && a.repairWrong === 0 ? 0 : 1;
