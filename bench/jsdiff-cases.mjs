// jsdiff's applyPatch (npm `diff`, a devDependency) on the recorded unified-
// diff cases (tests/fixtures/unified-git.json): how often it writes what
// `git apply` writes, writes something else (a hunk landed elsewhere, or
// applied where git refuses), or fails. Shared by bench/unified.mjs and
// tests/js/unified-differential.test.mjs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function loadCases() {
  return JSON.parse(readFileSync(new URL('../tests/fixtures/unified-git.json', import.meta.url), 'utf8'));
}

/** The whole file map git left (the fixture stores only what changed). */
export function gitFiles(c) {
  if (!c.git.ok) return null;
  const out = { ...c.files, ...c.git.files };
  for (const p of c.git.deleted) delete out[p];
  return out;
}

const strip = (name) => (name === undefined || name === '/dev/null' ? null : name.replace(/^[ab]\//, ''));

/**
 * Applies a (multi-file) diff with jsdiff, file by file, as a user of its
 * `parsePatch` and `applyPatch` would: `null` when any file fails (applyPatch
 * returns false), else the new file map.
 */
export function jsdiffApply(files, diff, perFile = []) {
  const { applyPatch, parsePatch } = require('diff');
  let patches;
  try {
    patches = parsePatch(diff);
  } catch {
    return null;
  }
  const out = { ...files };
  for (const p of patches) {
    const from = strip(p.oldFileName);
    const to = strip(p.newFileName);
    if (from === null && to === null) continue;
    const source = from === null ? '' : out[from];
    if (source === undefined) return null;
    let result;
    try {
      result = p.hunks.length === 0 ? source : applyPatch(source, p);
    } catch {
      return null;
    }
    if (result === false) return null;
    if (to !== null && p.hunks.length > 0) perFile.push([to, result]);
    if (from !== null && from !== to) delete out[from];
    if (to !== null) out[to] = result;
  }
  return out;
}

const same = (a, b) => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
};

/**
 * Runs jsdiff on every case and counts: `same` (git's files exactly),
 * `different` (applied, files differ from git's), `refusedByGit` (applied
 * where git refuses), `failed` (returned false where git applied),
 * `bothFail`.
 */
export function compareJsdiff(cases) {
  const counts = {
    cases: cases.length,
    same: 0,
    different: 0,
    appliedWhereGitRefused: 0,
    failedWhereGitApplied: 0,
    bothFail: 0,
    filesPatched: 0,
    filesLandedElsewhere: 0,
  };
  const examples = [];
  for (const c of cases) {
    const perFile = [];
    const got = jsdiffApply(c.files, c.diff, perFile);
    const want = gitFiles(c);
    if (want !== null) {
      if (got !== null) {
        for (const [path, text] of perFile) {
          if (!(path in want)) continue;
          counts.filesPatched++;
          if (want[path] !== text) counts.filesLandedElsewhere++;
        }
      }
      if (got === null) counts.failedWhereGitApplied++;
      else if (same(got, want)) counts.same++;
      else {
        counts.different++;
        if (examples.length < 5) examples.push(c.name);
      }
    } else if (got === null) counts.bothFail++;
    else counts.appliedWhereGitRefused++;
  }
  return { counts, examples };
}
