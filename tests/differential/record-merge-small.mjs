// Records what `git merge-file -p` writes for small random triples over a
// few distinct lines (tests/fixtures/merge-small.json, read by
// tests/merge.rs): edits close together, so conflicts are joined (merge),
// trimmed (zdiff3) and placed in every way the real histories of
// merge-git.json rarely reach, and with CRLF line endings. Run: node tests/differential/record-merge-small.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'merge-small.json');
let seed = 22;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n);
};
const words = ['a', 'b', 'c', 'd', '}', '', 'x = 1', 'y'];
const line = () => `${words[rand(words.length)]}\n`;
function edit(lines) {
  const out = [...lines];
  for (let k = 1 + rand(3); k > 0; k--) {
    const at = rand(out.length + 1);
    const op = rand(3);
    if (op === 0 && out.length > 0) out.splice(Math.min(at, out.length - 1), 1 + rand(2));
    else if (op === 1) out.splice(at, 0, ...Array.from({ length: 1 + rand(2) }, line));
    else if (out.length > 0) out.splice(Math.min(at, out.length - 1), 1, line());
  }
  return out;
}
const dir = mkdtempSync(join(tmpdir(), 'record-merge-small-'));
function mergeFile(base, ours, theirs, style) {
  writeFileSync(join(dir, 'ours'), ours);
  writeFileSync(join(dir, 'base'), base);
  writeFileSync(join(dir, 'theirs'), theirs);
  const flags = style === 'merge' ? [] : [`--${style}`];
  try {
    const text = execFileSync('git', ['merge-file', '-p', ...flags, '-L', 'ours', '-L', 'base', '-L', 'theirs', 'ours', 'base', 'theirs'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return [0, text];
  } catch (e) {
    if (typeof e.status !== 'number' || e.status < 0 || e.status > 127) throw e;
    return [e.status, e.stdout];
  }
}
const cases = [];
for (let i = 0; i < 1500; i++) {
  const base = Array.from({ length: 3 + rand(8) }, line);
  const [ours, theirs] = [edit(base).join(''), edit(base).join('')];
  const b = base.join('');
  cases.push({
    base: b,
    ours,
    theirs,
    merge: mergeFile(b, ours, theirs, 'merge'),
    diff3: mergeFile(b, ours, theirs, 'diff3'),
    zdiff3: mergeFile(b, ours, theirs, 'zdiff3'),
  });
}
// Then 500 with other line endings: each file all CRLF (half of them), all
// LF or mixed, and a quarter without a line break at the end: where git
// decides whether a conflict's markers end with CRLF.
const endings = (lines) => {
  const mode = rand(4);
  let text = lines.map((l) => l.slice(0, -1) + (mode < 2 ? '\r\n' : mode === 2 || rand(2) ? '\n' : '\r\n')).join('');
  if (rand(4) === 0) text = text.replace(/\r?\n$/, '');
  return text;
};
for (let i = 0; i < 500; i++) {
  const base = Array.from({ length: 3 + rand(8) }, line);
  const [b, ours, theirs] = [endings(base), endings(edit(base)), endings(edit(base))];
  cases.push({
    base: b,
    ours,
    theirs,
    merge: mergeFile(b, ours, theirs, 'merge'),
    diff3: mergeFile(b, ours, theirs, 'diff3'),
    zdiff3: mergeFile(b, ours, theirs, 'zdiff3'),
  });
}
const version = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
writeFileSync(
  out,
  `${JSON.stringify({ about: `Recorded by tests/differential/record-merge-small.mjs with ${version}: [conflicts, text] per style.`, cases })}\n`,
);
console.log(`${cases.length} cases, ${cases.filter((c) => c.merge[0] > 0).length} with conflicts -> ${out}`);
