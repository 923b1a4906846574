#!/usr/bin/env node
// Re-sent diffs and patches: an agent that sends the same edit twice must get
// "already applied" (with `repair`, a reported no-op), never the edit applied
// a second time, and a fresh edit must never be taken for a re-sent one.
//
// - Per-file diffs: every diff of the real-edits corpus (bench/real-edits.mjs:
//   releases of npm and PyPI packages, and this repository's history) sent
//   again to the file it produced, in Strict, and with `repair: true`.
// - Whole patches: for each commit of this repository's history, one Strict
//   `*** Begin Patch` patch of every text file it adds, deletes, renames or
//   changes (a V4A diff from `git diff -U3`, more context where Strict needs
//   it), applied to those files as they were, then sent again to the result
//   with `repair: true`: it must be a reported no-op.
//
//   node bench/resent.mjs            (builds the corpus first when missing: downloads)
//   node bench/resent.mjs --git-only (only this repository's history)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { apply, applyFiles, PatchError } = require(join(root, 'dist', 'index.cjs'));
const args = new Set(process.argv.slice(2));

function attempt(f) {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return { ok: false, code: e.code, message: e.message };
  }
}

const tally = (t, key) => {
  t[key] = (t[key] ?? 0) + 1;
};
const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(2)}%`);
const failures = [];

// Per-file diffs.
const perFile = { total: 0, alreadyApplied: 0, repairNoOp: 0, appliedTwice: 0, freshCalledApplied: 0, codes: {} };
if (!args.has('--git-only')) {
  const { loadCorpus } = await import(join(root, 'bench', 'real-edits.mjs'));
  for (const c of loadCorpus().cases) {
    perFile.total++;
    const fresh = attempt(() => apply(c.input, c.diff));
    if (!fresh.ok && fresh.code === 'already_applied') perFile.freshCalledApplied++;
    const again = attempt(() => apply(c.expected, c.diff));
    if (again.ok) perFile.appliedTwice++;
    else if (again.code === 'already_applied') perFile.alreadyApplied++;
    else {
      tally(perFile.codes, again.code);
      failures.push({
        kind: 'diff',
        source: c.source,
        path: c.path,
        code: again.code,
        message: again.message,
        diff: c.diff,
        input: c.expected,
      });
    }
    const seen = [];
    const repaired = attempt(() => apply(c.expected, c.diff, { repair: true, onRepair: (r) => seen.push(r.kind) }));
    if (repaired.ok && repaired.value === c.expected && seen.includes('already-applied')) perFile.repairNoOp++;
    else if (repaired.ok && repaired.value !== c.expected) perFile.appliedTwice++;
  }
}

// Whole patches from this repository's history.
const git = (...a) =>
  execFileSync('git', ['-C', root, ...a], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
const TEXT = /\.(m?js|cjs|ts|py|md|rst|txt|json|toml|cfg|rs|html|css|sh|yml|yaml)$/;
const tmp = join(root, '.cache', 'resent');
mkdirSync(tmp, { recursive: true });

function v4a(oldText, newText, context) {
  writeFileSync(join(tmp, 'a'), oldText);
  writeFileSync(join(tmp, 'b'), newText);
  let out;
  try {
    out = execFileSync('git', ['diff', '--no-index', '--no-color', `-U${context}`, 'a', 'b'], {
      cwd: tmp,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
  } catch (e) {
    out = e.stdout;
  }
  const diff = [];
  let inHunk = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('@@')) {
      diff.push('@@');
      inHunk = true;
    } else if (inHunk && line.startsWith('\\')) return null;
    else if (inHunk) diff.push(line);
  }
  while (diff.length > 0 && diff[diff.length - 1] === '') diff.pop();
  return diff.join('\n');
}

/** A V4A diff Strict applies exactly, or null. */
function updateDiff(oldText, newText) {
  for (const context of [3, 6, 12]) {
    const d = v4a(oldText, newText, context);
    if (d === null) return null;
    const r = attempt(() => apply(oldText, d));
    if (r.ok && r.value === newText) return d;
  }
  return null;
}

const ok = (t) => !t.includes('\r') && !t.includes('\0');
const whole = { total: 0, noOp: 0, alreadyApplied: 0, appliedTwice: 0, skipped: 0, ops: {}, codes: {} };
const commits = git('rev-list', '--first-parent', '--reverse', 'HEAD').trim().split('\n');
for (let i = 1; i < commits.length; i++) {
  const [parent, commit] = [commits[i - 1], commits[i]];
  const status = git('diff', '--name-status', '-M', parent, commit).trim().split('\n').filter(Boolean);
  const before = {};
  const ops = [];
  let usable = true;
  for (const row of status) {
    const [st, a, b] = row.split('\t');
    const path = b ?? a;
    if (!TEXT.test(path) || path.startsWith('tests/fixtures/') || !TEXT.test(a)) continue;
    const show = (rev, p) => git('show', `${rev}:${p}`);
    if (st === 'A') {
      const text = show(commit, a);
      if (!ok(text) || !text.endsWith('\n')) continue;
      ops.push(
        `*** Add File: ${a}\n${text
          .slice(0, -1)
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}`,
      );
      tally(whole.ops, 'add');
    } else if (st === 'D') {
      before[a] = show(parent, a);
      ops.push(`*** Delete File: ${a}`);
      tally(whole.ops, 'delete');
    } else if (st === 'M' || st.startsWith('R')) {
      const o = show(parent, a);
      const n = show(commit, path);
      if (!ok(o) || !ok(n)) continue;
      const moved = st.startsWith('R') ? `\n*** Move to: ${b}` : '';
      if (o === n && !moved) continue;
      const d = o === n ? '' : updateDiff(o, n);
      if (d === null) {
        usable = false;
        break;
      }
      before[a] = o;
      ops.push(`*** Update File: ${a}${moved}${d ? `\n${d}` : ''}`);
      tally(whole.ops, moved ? 'move' : 'update');
    }
  }
  if (!usable || ops.length === 0) {
    whole.skipped++;
    continue;
  }
  const patch = `*** Begin Patch\n${ops.join('\n')}\n*** End Patch`;
  const first = attempt(() => applyFiles(before, patch));
  if (!first.ok) {
    whole.skipped++;
    continue;
  }
  whole.total++;
  const after = first.value;
  const plain = attempt(() => applyFiles(after, patch));
  if (plain.ok) whole.appliedTwice++;
  else if (plain.code === 'already_applied') whole.alreadyApplied++;
  const seen = [];
  const again = attempt(() => applyFiles(after, patch, { repair: true, onRepair: (r) => seen.push(r.kind) }));
  if (again.ok && JSON.stringify(again.value) === JSON.stringify(after) && seen.includes('already-applied')) whole.noOp++;
  else if (again.ok && JSON.stringify(again.value) !== JSON.stringify(after)) whole.appliedTwice++;
  else {
    tally(whole.codes, again.ok ? 'ok without a report' : again.code);
    failures.push({ kind: 'patch', source: commit.slice(0, 10), code: again.code, message: again.message });
  }
}

if (perFile.total) {
  console.log(
    `Re-sent per-file diffs (real-edits corpus), ${perFile.total}: already_applied ${perFile.alreadyApplied} (${pct(perFile.alreadyApplied, perFile.total)}); with repair a reported no-op ${perFile.repairNoOp} (${pct(perFile.repairNoOp, perFile.total)}); other errors ${JSON.stringify(perFile.codes)}; applied twice ${perFile.appliedTwice}; fresh diffs reported as already applied ${perFile.freshCalledApplied}.`,
  );
}
console.log(
  `Re-sent whole patches (this repository's commits; operations: ${JSON.stringify(whole.ops)}), ${whole.total} (${whole.skipped} commits skipped: no text file, or a change Strict cannot express): with repair a reported no-op ${whole.noOp} (${pct(whole.noOp, whole.total)}); without, already_applied ${whole.alreadyApplied}; other results ${JSON.stringify(whole.codes)}; applied twice ${whole.appliedTwice}.`,
);
if (process.env.RESENT_DUMP) writeFileSync(process.env.RESENT_DUMP, JSON.stringify(failures, null, 1));
process.exitCode = perFile.appliedTwice + whole.appliedTwice + perFile.freshCalledApplied === 0 ? 0 : 1;
