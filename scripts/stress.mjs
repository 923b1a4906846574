#!/usr/bin/env node
// Adversarial inputs at growing sizes through the built package: for each
// family, each size runs in a fresh Node process (so its peak memory is its
// own), and the table shows the input size, the CPU time of the call (user +
// system: less disturbed than wall time on a shared machine; the wall time
// follows), the peak resident memory of the process and what the call
// returned. A family whose CPU time grows more than 1.6x faster than its
// input between two sizes (and past 50 ms) is flagged SUPER-LINEAR; a call
// over 1 s of CPU is flagged SLOW. A full garbage collection runs before the
// call, so that it is not charged for the garbage of building its input.
//
//   npm run stress                         (after npm run build)
//   node scripts/stress.mjs --sizes 1,10   (sizes in MB; default 1,2.5,5,10)
//   node scripts/stress.mjs --only codex   (families whose name contains it)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const MB = 1 << 20;

/** Lines of `width` characters that fill about `bytes`. */
const count = (bytes, width) => Math.max(1, Math.floor(bytes / (width + 1)));
/** Temp directories to remove once the call is measured. */
const cleanup = [];
const distinct = (n, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i}`);

/** A tree of one file per 600 bytes of patch, in folders of 1,000, and a patch that updates each. */
function updateTree(bytes) {
  const root = mkdtempSync(join(tmpdir(), 'applypatch-stress-'));
  const body = Array.from({ length: 10 }, (_, i) => `context line ${i}`);
  const paths = [];
  let patch = '*** Begin Patch\n';
  for (let i = 0, n = count(bytes, 600); i < n; i++) {
    const path = `d${Math.floor(i / 1000)}/f${i}.txt`;
    if (i % 1000 === 0) mkdirSync(join(root, `d${i / 1000}`));
    writeFileSync(join(root, path), `${body.join('\n')}\none\n`);
    paths.push(path);
    patch += `*** Update File: ${path}\n@@\n${body.map((l) => ` ${l}`).join('\n')}\n-one\n+two\n`;
  }
  return { root, paths, patch: `${patch}*** End Patch` };
}

// Each family: build(bytes) returns a thunk that makes the call; what it
// returns (or throws) is summarised as the outcome.
const families = {
  // Strict, a section of 1,000 context lines over repeated lines, matching nowhere.
  'strict-near-miss': (bytes) => {
    const n = count(bytes, 1);
    const input = Array.from({ length: n }, (_, i) => (i % 1000 === 999 ? 'y' : 'x')).join('\n');
    const diff = `${' x\n'.repeat(1000)}-z\n+w`;
    return (p) => p.apply(input, diff);
  },
  // Strict, a section that matches everywhere (ambiguous).
  'strict-ambiguous': (bytes) => {
    const input = 'x\n'.repeat(count(bytes, 1));
    const diff = `${' x\n'.repeat(999)}-x\n+y`;
    return (p) => p.apply(input, diff);
  },
  // Codex, almost-matching text: every start matches the first 1,000 lines
  // but not the last, through all four passes and the retry.
  'codex-almost': (bytes) => {
    const input = 'a \n'.repeat(count(bytes, 2));
    const diff = `${' a\n'.repeat(1000)}-b\n+c\n `;
    return (p) => p.apply(input, diff, { mode: 'codex' });
  },
  // Codex, a section found by the whitespace pass after a near miss at every line.
  'codex-trimmed': (bytes) => {
    const n = count(bytes, 4);
    const input = `${'  a \n'.repeat(n - 1)}  b \n`;
    const diff = `${'  a\n'.repeat(1000)}- b\n+c`;
    return (p) => p.apply(input, diff, { mode: 'codex' });
  },
  // A plain input of nothing but line breaks.
  'apply-newlines': (bytes) => {
    const input = `start\n${'\n'.repeat(bytes)}end\n`;
    return (p) => p.apply(input, '@@ start\n-\n+x');
  },
  // Edit blocks: a SEARCH text of distinct lines (the trap reproducer: 140,000 lines is 1 MB).
  'edit-distinct-search': (bytes) => {
    const search = distinct(count(bytes, 10)).join('\n');
    return (p) => p.applyEdit('a\nb\n', { search, replace: '' });
  },
  // Edit blocks, fuzzy rung that cannot prune: every window is close to the SEARCH text.
  'edit-fuzzy-unprunable': (bytes) => {
    const n = count(bytes, 1);
    const file = Array.from({ length: n }, (_, i) => 'abc'[i % 3]).join('\n');
    const search = Array.from({ length: 2000 }, (_, i) => (i % 50 === 0 ? 'z' : 'abc'[i % 3])).join('\n');
    return (p) => p.applyEdit(file, { search, replace: 'r' });
  },
  // Edit blocks, safe preset: anchors on every line, a long interior to compare.
  'edit-anchor-safe': (bytes) => {
    const n = count(bytes, 1);
    const file = Array.from({ length: n }, (_, i) => (i % 2 ? 'x' : 'y')).join('\n');
    const search = ['x', ...Array.from({ length: 2000 }, (_, i) => `q${i}`), 'x'].join('\n');
    return (p) => p.applyEdit(file, { search, replace: 'r' }, { preset: 'safe' });
  },
  // similarity of two texts of the same distinct lines in opposite orders.
  'similarity-reversed': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const [a, b] = [lines.join('\n'), [...lines].reverse().join('\n')];
    return (p) => p.similarity(a, b);
  },
  // similarity of two alike texts (one line changed).
  'similarity-alike': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const a = lines.join('\n');
    lines[lines.length >> 1] = 'changed';
    const b = lines.join('\n');
    return (p) => p.similarity(a, b);
  },
  // createPatchStream: a V4A diff of many small sections (half the size)
  // over distinct lines (the other half), pushed in 4-character pieces.
  'stream-diff-pieces': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const input = `${lines.join('\n')}\n`;
    let diff = '';
    for (let i = 0; diff.length < bytes / 2 && i < lines.length; i += 7) diff += `@@\n-${lines[i]}\n+${lines[i]}!\n`;
    return (p) => {
      const s = p.createPatchStream(input);
      let placed = 0;
      for (let i = 0; i < diff.length; i += 4) placed += s.push(diff.slice(i, i + 4)).length;
      return `${placed} events, ${s.end().length} chars`;
    };
  },
  // createPatchStream: one section of context lines common all over the
  // input (ambiguous until the last line), pushed one character at a time.
  'stream-ambiguous-chars': (bytes) => {
    const input = 'x\n'.repeat(count(bytes / 2, 1));
    const diff = `@@\n${' x\n'.repeat(count(bytes / 2, 2) - 1)}-x\n+y`;
    return (p) => {
      const s = p.createPatchStream(input);
      for (const c of diff) s.push(c);
      return s.end();
    };
  },
  // createPatchStream over a file map: a *** Begin Patch patch of one
  // update per file of many small files, pushed in 4-character pieces.
  'stream-patch-pieces': (bytes) => {
    const body = Array.from({ length: 10 }, (_, i) => `context line ${i}`);
    const files = new Map();
    let patch = '*** Begin Patch\n';
    for (let i = 0, n = count(bytes, 200); i < n; i++) {
      files.set(`d/f${i}.txt`, `${body.join('\n')}\none\n`);
      patch += `*** Update File: d/f${i}.txt\n@@\n ${body[9]}\n-one\n+two\n`;
    }
    patch += '*** End Patch\n';
    return (p) => {
      const s = p.createPatchStream(files);
      let events = 0;
      for (let i = 0; i < patch.length; i += 4) events += s.push(patch.slice(i, i + 4)).length;
      return `${events} events, ${s.end().size} files`;
    };
  },
  // createPatchStream over a file map with format 'auto': prose, then edit
  // blocks, one per file of many small files (a '>>>' doctest line inside
  // each, a line that could close it), pushed in 4-character pieces.
  'stream-blocks-files': (bytes) => {
    const files = new Map();
    let message = 'Here are the edits.\n';
    for (let i = 0, n = count(bytes, 120); i < n; i++) {
      files.set(`d/f${i}.py`, 'def f():\n    return 1\n');
      message += `\nd/f${i}.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>> f()\n>>>>>>> REPLACE\n`;
    }
    return (p) => {
      const s = p.createPatchStream(files, { format: 'auto' });
      let events = 0;
      for (let i = 0; i < message.length; i += 4) events += s.push(message.slice(i, i + 4)).length;
      return `${events} events, ${s.end().files.size} files`;
    };
  },
  // createPatchStream over a file map with format 'unified': a git diff of
  // many small hunks (half the size) over one file of distinct lines (the
  // other half), pushed in 4-character pieces.
  'stream-unified-pieces': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const files = new Map([['big.txt', `${lines.join('\n')}\n`]]);
    let diff = 'diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n';
    for (let i = 1; diff.length < bytes / 2 && i + 1 < lines.length; i += 7) {
      diff += `@@ -${i + 1},2 +${i + 1},2 @@\n ${lines[i]}\n-${lines[i + 1]}\n+${lines[i + 1]}!\n`;
    }
    return (p) => {
      const s = p.createPatchStream(files, { format: 'unified' });
      let events = 0;
      for (let i = 0; i < diff.length; i += 4) events += s.push(diff.slice(i, i + 4)).length;
      return `${events} events, ${s.end().get('big.txt').length} chars`;
    };
  },
  // applyFiles, one update per file of many small files.
  'files-many-updates': (bytes) => {
    const n = count(bytes, 60);
    const files = {};
    let patch = '*** Begin Patch\n';
    for (let i = 0; i < n; i++) {
      files[`f${i}.txt`] = 'one\n';
      patch += `*** Update File: f${i}.txt\n@@\n-one\n+two\n`;
    }
    patch += '*** End Patch';
    return (p) => p.applyFiles(files, patch);
  },
  // applyFiles, many updates of one large file (half the size is the file).
  'files-one-file-updates': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const files = { 'big.txt': `${lines.join('\n')}\n` };
    let patch = '*** Begin Patch\n';
    const updates = count(bytes / 2, 60);
    for (let i = 0; i < updates; i++) {
      const at = (i * 7919) % lines.length;
      patch += `*** Update File: big.txt\n@@\n-${lines[at]}\n+${lines[at]}\n`;
    }
    patch += '*** End Patch';
    return (p) => p.applyFiles(files, patch);
  },
  // applyFiles, one Add File per file, into an empty map.
  'files-many-adds': (bytes) => {
    let patch = '*** Begin Patch\n';
    for (let i = 0, n = count(bytes, 40); i < n; i++) patch += `*** Add File: f${i}.txt\n+new\n`;
    patch += '*** End Patch';
    return (p) => p.applyFiles({}, patch);
  },
  // applyFiles, one Delete File per file.
  'files-many-deletes': (bytes) => {
    const files = {};
    let patch = '*** Begin Patch\n';
    for (let i = 0, n = count(bytes, 30); i < n; i++) {
      files[`f${i}.txt`] = 'one\n';
      patch += `*** Delete File: f${i}.txt\n`;
    }
    patch += '*** End Patch';
    return (p) => p.applyFiles(files, patch);
  },
  // applyFiles, one move (with an edit) per file.
  'files-many-moves': (bytes) => {
    const files = {};
    let patch = '*** Begin Patch\n';
    for (let i = 0, n = count(bytes, 80); i < n; i++) {
      files[`f${i}.txt`] = 'one\n';
      patch += `*** Update File: f${i}.txt\n*** Move to: g${i}.txt\n@@\n-one\n+two\n`;
    }
    patch += '*** End Patch';
    return (p) => p.applyFiles(files, patch);
  },
  // applyPatch (files, changes and summary) on the many-updates patch, as a Map.
  'files-apply-patch': (bytes) => {
    const files = new Map();
    let patch = '*** Begin Patch\n';
    for (let i = 0, n = count(bytes, 60); i < n; i++) {
      files.set(`f${i}.txt`, 'one\n');
      patch += `*** Update File: f${i}.txt\n@@\n-one\n+two\n`;
    }
    patch += '*** End Patch';
    return (p) => p.applyPatch(files, patch).files;
  },
  // applyBatch: many one-line diffs of one input.
  'batch-many-diffs': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const diffs = [];
    for (let i = 0, n = count(bytes / 2, 30); i < n && i < lines.length; i++) diffs.push(`@@\n-${lines[i]}\n+${lines[i]}!`);
    const input = `${lines.join('\n')}\n`;
    return (p) => p.applyBatch(input, diffs);
  },
  // applyEdits: many exact edits of one source.
  'edits-many': (bytes) => {
    const lines = distinct(count(bytes / 2, 10));
    const edits = [];
    for (let i = 0, n = count(bytes / 2, 30); i < n && i < lines.length; i++)
      edits.push({ search: `${lines[i]}\n`, replace: `${lines[i]}!\n` });
    const source = `${lines.join('\n')}\n`;
    return (p) => p.applyEdits(source, edits).text;
  },
  // applyBlocks: one edit block per file of many small files.
  'blocks-many-files': (bytes) => {
    const files = {};
    let message = '';
    for (let i = 0, n = count(bytes, 60); i < n; i++) {
      files[`f${i}.txt`] = 'one\n';
      message += `f${i}.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n`;
    }
    return (p) => p.applyBlocks(files, message).results;
  },
  // lineDiff of two lists of lines, every tenth line changed.
  'line-diff': (bytes) => {
    const a = distinct(count(bytes / 2, 10));
    const b = a.map((l, i) => (i % 10 === 0 ? `${l}!` : l));
    return (p) => p.lineDiff(a, b);
  },
  // applyPatchToDirectory on a real temp directory: one update per file, a
  // thousand files per folder, each update with 10 lines of context (so
  // one file per 600 bytes of patch: the call is file-system bound, about
  // ten system calls per file, and a 10 MB patch of 171,897 files would
  // take minutes of a shared disk). The files are written before the call.
  'dir-many-updates': (bytes) => {
    const { root, patch } = updateTree(bytes);
    return (p) => {
      try {
        return p.node.applyPatchToDirectory(root, patch).changes;
      } finally {
        cleanup.push(root);
      }
    };
  },
  // Not applypatch: the same files of the same tree updated by plain Node
  // calls (read, write a temporary file, rename it over the file), with none
  // of the checks: the floor the file system sets for dir-many-updates.
  'reference-fs-floor': (bytes) => {
    const { root, paths } = updateTree(bytes);
    return () => {
      try {
        for (const path of paths) {
          const file = join(root, path);
          writeFileSync(`${file}.tmp`, readFileSync(file, 'utf8').replace('\none\n', '\ntwo\n'));
          renameSync(`${file}.tmp`, file);
        }
        return paths;
      } finally {
        cleanup.push(root);
      }
    };
  },

  // merge3 of three unrelated texts of distinct lines (each side replaces everything).
  'merge-unrelated-distinct': (bytes) => {
    const n = count(bytes, 12);
    const [b, o, t] = ['b', 'o', 't'].map((tag) => `${distinct(n, tag).join('\n')}\n`);
    return (p) => p.merge3(b, o, t);
  },
  // merge3 of three unrelated texts of four repeated lines in a pseudo-random
  // order: the diffs' worst case, stopped by the work limit.
  'merge-unrelated-repeated': (bytes) => {
    let seed = 7;
    const text = () =>
      `${Array.from({ length: count(bytes, 5) }, () => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return ['x = 1', '}', '', 'return'][seed >>> 30];
      }).join('\n')}\n`;
    const [b, o, t] = [text(), text(), text()];
    return (p) => p.merge3(b, o, t);
  },
  // merge3 of ordinary edits: each side changes one line in 50, apart.
  'merge-ordinary': (bytes) => {
    const base = distinct(count(bytes, 10));
    const o = base.map((l, i) => (i % 50 === 0 ? `${l} ours` : l));
    const t = base.map((l, i) => (i % 50 === 25 ? `${l} theirs` : l));
    return (p) => p.merge3(`${base.join('\n')}\n`, `${o.join('\n')}\n`, `${t.join('\n')}\n`);
  },
  // apply with base: the user added a line in 100 since the model read the text.
  'apply-base': (bytes) => {
    const base = distinct(count(bytes, 10));
    const typed = base.flatMap((l, i) => (i % 100 === 0 ? ['// typed', l] : [l]));
    const diff = `@@\n ${base[base.length - 2]}\n-${base[base.length - 1]}\n+changed`;
    return (p) => p.apply(`${typed.join('\n')}\n`, diff, { base: `${base.join('\n')}\n` });
  },

  // parseBlocks with problems: unclosed start markers.
  'parse-unclosed-markers': (bytes) => {
    const text = '<<<<<<< SEARCH\n'.repeat(count(bytes, 14));
    return (p) => p.parseBlocks(text, { detailed: true });
  },
};

function outcome(value) {
  if (typeof value === 'string') return `text (${value.length} chars)`;
  if (typeof value === 'number') return `number ${value.toFixed(6)}`;
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (value instanceof Map) return `${value.size} files`;
  if (value && typeof value === 'object' && 'conflicts' in value)
    return `ok: ${value.ok}, ${value.conflicts.length} conflicts, text (${value.text.length} chars)`;
  if (value && typeof value === 'object' && 'ok' in value) return `ok: ${value.ok}, strategy: ${value.strategy}`;
  if (value && typeof value === 'object' && 'problems' in value) {
    const size = value.problems.reduce((n, p) => n + p.message.length, 0);
    return `${value.problems.length} problems (${size} chars)`;
  }
  if (value && typeof value === 'object') return `${Object.keys(value).length} files`;
  return String(value);
}

async function one(family, mb) {
  const p = { ...(await import('applypatch')), node: await import('applypatch/node') };
  const call = families[family](Math.round(mb * MB));
  // A full collection first: the call is charged for its own garbage, not
  // for the garbage of building its input.
  globalThis.gc?.();
  const start = performance.now();
  const cpu = process.cpuUsage();
  let result;
  try {
    result = outcome(call(p));
  } catch (e) {
    result = e instanceof p.PatchError ? `PatchError ${e.code}` : `THREW ${e?.constructor?.name}: ${String(e?.message).slice(0, 80)}`;
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ ms, cpuMs, result, maxRssKb: process.resourceUsage().maxRSS }));
}

async function main() {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const sizes = (arg('--sizes') ?? '1,2.5,5,10').split(',').map(Number);
  const only = arg('--only');
  console.log(
    `applypatch stress, Node ${process.version}: CPU and wall time of one call, peak memory of its process (a fresh Node each)\n`,
  );
  console.log(
    `${'family'.padEnd(24)} ${'MB'.padStart(5)} ${'cpu ms'.padStart(8)} ${'wall ms'.padStart(8)} ${'peak MB'.padStart(8)}  result`,
  );
  const flags = [];
  const reference = [];
  for (const family of Object.keys(families)) {
    if (only && !family.includes(only)) continue;
    let prev;
    for (const mb of sizes) {
      const out = execFileSync(process.execPath, ['--max-old-space-size=4096', '--expose-gc', self, '--one', family, String(mb)], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      const { ms: wall, cpuMs: ms, result, maxRssKb } = JSON.parse(out);
      let flag = '';
      if (prev && ms > 50 && ms / prev.ms > 1.6 * (mb / prev.mb)) flag += ' SUPER-LINEAR';
      if (ms > 1000) flag += ' SLOW';
      // A reference family measures the machine, not applypatch: shown, never a failure.
      if (flag) (family.startsWith('reference-') ? reference : flags).push(`${family} at ${mb} MB:${flag}`);
      console.log(
        `${family.padEnd(24)} ${String(mb).padStart(5)} ${ms.toFixed(0).padStart(8)} ${wall.toFixed(0).padStart(8)} ${(maxRssKb / 1024).toFixed(0).padStart(8)}  ${result}${flag}`,
      );
      prev = { ms, mb };
    }
  }
  console.log(flags.length ? `\nflagged:\n  ${flags.join('\n  ')}` : '\nno family grew super-linearly or took over 1 s');
  if (reference.length) console.log(`\nreference families (plain Node, not applypatch):\n  ${reference.join('\n  ')}`);
  if (flags.length) process.exitCode = 1;
}

if (process.argv[2] === '--one') await one(process.argv[3], Number(process.argv[4]));
else await main();
