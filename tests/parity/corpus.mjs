// The parity corpus: patches to run through Codex mode and through the real
// Codex CLI binary. Hand-written edge cases of the Codex format (envelope,
// update hunks, matching passes, line endings, file operations), then
// generated cases: random files and edits with whitespace and Unicode
// punctuation drift, CRLF / CR / mixed endings, missing final newlines,
// anchors, End of File, moves, adds, deletes, and failing cases.
//
// A case is { name, files: { path: contents }, patch }. Deterministic.
import { rng } from '../../scripts/rng.mjs';

const B = '*** Begin Patch';
const E = '*** End Patch';
const p = (...lines) => [B, ...lines, E].join('\n') + '\n';

/** Hand-written cases, each about one rule. */
export function edgeCases() {
  const c = [];
  const add = (name, files, patch) => c.push({ name, files, patch });

  // Envelope (section 2.1)
  add('envelope: minimal add', {}, p('*** Add File: a.txt', '+hello'));
  add('envelope: empty text', {}, '');
  add('envelope: whitespace only', {}, '  \n\t\n');
  add('envelope: begin only', {}, B);
  add('envelope: end only', {}, E);
  add('envelope: lowercase begin', {}, '*** begin patch\n*** Add File: a\n+x\n*** End Patch');
  add('envelope: decorated markers', {}, '*** Begin Patch ***\n*** Add File: a\n+x\n*** End Patch ***');
  add('envelope: JSON wrapper', {}, '{"patch": "*** Begin Patch\\n*** End Patch"}');
  add('envelope: markdown fence', {}, '```\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n```');
  add('envelope: leading blank lines and spaces', {}, '\n\n   *** Begin Patch  \n*** Add File: a\n+x\n  *** End Patch   \n\n');
  add(
    'envelope: CRLF patch',
    { 'a.txt': 'one\ntwo\n' },
    '*** Begin Patch\r\n*** Update File: a.txt\r\n@@\r\n-one\r\n+uno\r\n*** End Patch\r\n',
  );
  add('envelope: heredoc EOF', {}, "<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF\n");
  add('envelope: heredoc bare EOF', {}, '<<EOF\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF');
  add('envelope: heredoc double quotes', {}, '<<"EOF"\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF');
  add('envelope: heredoc xxEOF end', {}, "<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nxxEOF");
  add('envelope: heredoc other tag', {}, "<<'PATCH'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nPATCH");
  add('envelope: heredoc too short', {}, "<<'EOF'\n*** Begin Patch\nEOF");
  add('envelope: empty patch', {}, p());
  add('envelope: environment id', {}, p('*** Environment ID: env-1', '*** Add File: a', '+x'));
  add('envelope: empty environment id', {}, p('*** Environment ID:   ', '*** Add File: a', '+x'));
  add('envelope: environment id twice', {}, p('*** Environment ID: a', '*** Environment ID: b', '*** Add File: a', '+x'));
  add('envelope: environment id after a hunk', {}, p('*** Add File: a', '+x', '*** Environment ID: e'));
  add('envelope: text after end patch', {}, p('*** Add File: a', '+x') + 'trailing\n');
  add('envelope: end patch in the middle', {}, [B, '*** Add File: a', '+x', E, '*** Add File: b', '+y', E].join('\n'));

  // Headers (section 2.2)
  add('header: unknown', {}, p('*** Create File: a', '+x'));
  add('header: blank line between hunks', {}, p('*** Add File: a', '+x', '', '*** Add File: b', '+y'));
  add('header: leading space path', {}, p('*** Add File:  sp.txt', '+x'));
  add('header: indented headers', {}, p('  *** Add File: a', '+x', '\t*** Delete File: gone'));
  add('header: no space after colon', {}, p('*** Add File:a', '+x'));
  add('header: trailing spaces in path', {}, p('*** Add File: t.txt   ', '+x'));
  add('header: header after update with leading space', { u: 'a\n' }, p('*** Update File: u', '@@', '-a', '+b', ' *** Add File: v', '+y'));

  // Add File body
  add('add: empty file', {}, p('*** Add File: empty.txt'));
  add('add: bare plus lines', {}, p('*** Add File: a', '+', '+x', '+'));
  add('add: blank line in body', {}, p('*** Add File: a', '+x', '', '+y'));
  add('add: unprefixed line', {}, p('*** Add File: a', '+x', 'y'));
  add('add: end of file marker', {}, p('*** Add File: a', '+x', '*** End of File'));
  add('add: overwrites existing', { 'a.txt': 'old\n' }, p('*** Add File: a.txt', '+new'));
  add('add: nested directories', {}, p('*** Add File: src/deep/x.txt', '+x'));
  add('add: CRLF patch gives LF file', {}, '*** Begin Patch\r\n*** Add File: a\r\n+x\r\n+y\r\n*** End Patch\r\n');

  // Delete File
  add('delete: existing', { 'a.txt': 'x\n', 'b.txt': 'y\n' }, p('*** Delete File: a.txt'));
  add('delete: missing', {}, p('*** Delete File: nope.txt'));
  add('delete: line after delete', { 'a.txt': 'x\n' }, p('*** Delete File: a.txt', '+x'));

  // Update File body
  const f = { 'a.txt': 'alpha\nbeta\ngamma\ndelta\n' };
  add('update: simple', f, p('*** Update File: a.txt', '@@', ' alpha', '-beta', '+BETA', ' gamma'));
  add('update: first chunk without @@', f, p('*** Update File: a.txt', ' alpha', '-beta', '+BETA'));
  add('update: empty', f, p('*** Update File: a.txt'));
  add('update: move only', f, p('*** Update File: a.txt', '*** Move to: b.txt'));
  add('update: @@ then end patch', f, p('*** Update File: a.txt', '@@'));
  add('update: @@ then end of file', f, p('*** Update File: a.txt', '@@', '*** End of File'));
  add('update: two @@ in a row', f, p('*** Update File: a.txt', '@@', '@@', '-beta', '+B'));
  add('update: @@ ctx then @@', f, p('*** Update File: a.txt', '@@ alpha', '@@ gamma', '-delta', '+D'));
  add('update: @@ with no space', f, p('*** Update File: a.txt', '@@alpha', '-beta', '+B'));
  add('update: @@@@ after lines', f, p('*** Update File: a.txt', '@@', '-beta', '+B', '@@@@'));
  add('update: @@ with trailing spaces', f, p('*** Update File: a.txt', '@@   ', '-beta', '+B'));
  add('update: @@ ctx with trailing spaces', f, p('*** Update File: a.txt', '@@ alpha   ', '-beta', '+B'));
  add('update: tab-indented line', f, p('*** Update File: a.txt', '@@', '\tbeta', '+B'));
  add('update: plain text line first', f, p('*** Update File: a.txt', 'beta', '+B'));
  add('update: plain text after lines', f, p('*** Update File: a.txt', '@@', '-beta', '+B', 'gamma'));
  add('update: star line', f, p('*** Update File: a.txt', '@@', '-beta', '+B', '*bogus'));
  add('update: unknown triple star', f, p('*** Update File: a.txt', '@@', '-beta', '+B', '*** Bogus'));
  add('update: lines after end of file', f, p('*** Update File: a.txt', '@@', ' delta', '+e', '*** End of File', ' x'));
  add('update: blank after end of file', f, p('*** Update File: a.txt', '@@', ' delta', '+e', '*** End of File', '', '  '));
  add(
    'update: @@ after end of file',
    { 'a.txt': 'a\nb\nc\n' },
    p('*** Update File: a.txt', '@@', ' c', '+d', '*** End of File', '@@', '-a', '+A'),
  );
  add('update: end of file with no chunk', f, p('*** Update File: a.txt', '*** End of File'));
  add('update: move to after a chunk', f, p('*** Update File: a.txt', '@@', '-beta', '+B', '*** Move to: z.txt'));
  add('update: two move lines', f, p('*** Update File: a.txt', '*** Move to: b', '*** Move to: c', '@@', '-beta', '+B'));
  add('update: blank line is empty context', { 'a.txt': 'a\n\nb\n' }, p('*** Update File: a.txt', '@@', ' a', '', '-b', '+B'));
  add('update: whitespace-only line is context', { 'a.txt': 'a\n  \nb\n' }, p('*** Update File: a.txt', '@@', ' a', '   ', '-b', '+B'));
  add('update: blank lines between chunks', f, p('*** Update File: a.txt', '@@', '-alpha', '+A', '', '@@', '-gamma', '+G'));
  add('update: second chunk without @@', f, p('*** Update File: a.txt', '@@', '-alpha', '+A', ' beta', '-gamma', '+G'));
  add('update: missing file', {}, p('*** Update File: nope.txt', '@@', '-a', '+b'));

  // Matching (section 3)
  add(
    'match: anchor',
    { 'a.py': 'def f():\n    return 1\ndef g():\n    return 1\n' },
    p('*** Update File: a.py', '@@ def g():', '-    return 1', '+    return 2'),
  );
  add(
    'match: anchor not found',
    { 'a.py': 'def f():\n    return 1\n' },
    p('*** Update File: a.py', '@@ def nope():', '-    return 1', '+    return 2'),
  );
  add('match: anchor trimmed', { 'a.py': '  def f():\n    x\n' }, p('*** Update File: a.py', '@@ def f():', '-    x', '+    y'));
  add(
    'match: anchor with unicode dash',
    { 'a.md': '# Top\u2013level\nbody\n' },
    p('*** Update File: a.md', '@@ # Top-level', '-body', '+BODY'),
  );
  add('match: first of two', { 'a.txt': 'x\ny\nx\ny\n' }, p('*** Update File: a.txt', '@@', '-x', '+X'));
  add('match: later exact beats earlier fuzzy', { 'a.txt': 'x \ny\nx\n' }, p('*** Update File: a.txt', '@@', '-x', '+X'));
  add('match: trailing whitespace pass', { 'a.txt': 'one  \ntwo\n' }, p('*** Update File: a.txt', '@@', '-one', '+ONE'));
  add('match: context keeps file text', { 'a.txt': 'keep  \nchange\n' }, p('*** Update File: a.txt', '@@', ' keep', '-change', '+changed'));
  add(
    'match: indentation pass',
    { 'a.py': '    if x:\n        y()\n' },
    p('*** Update File: a.py', '@@', ' if x:', '-    y()', '+    z()'),
  );
  add(
    'match: unicode quotes and dashes',
    { 'a.txt': 'say \u201chi\u201d \u2014 it\u2019s\nnext\n' },
    p('*** Update File: a.txt', '@@', ' say "hi" - it\'s', '-next', '+NEXT'),
  );
  add('match: nbsp and narrow spaces', { 'a.txt': 'a\u00a0b\u202fc\nz\n' }, p('*** Update File: a.txt', '@@', '-a b c', '+abc'));
  add('match: ellipsis is not normalised', { 'a.txt': 'wait\u2026\n' }, p('*** Update File: a.txt', '@@', '-wait...', '+done'));
  add('match: inner whitespace not collapsed', { 'a.txt': 'a  b\n' }, p('*** Update File: a.txt', '@@', '-a b', '+c'));
  add('match: case matters', { 'a.txt': 'Hello\n' }, p('*** Update File: a.txt', '@@', '-hello', '+bye'));
  add('match: bom takes part', { 'a.txt': '\ufeffa\nb\n' }, p('*** Update File: a.txt', '@@', '-a', '+A'));
  add('match: pure insertion appends', { 'a.txt': 'a\nb\nc\n' }, p('*** Update File: a.txt', '@@ a', '+inserted'));
  add('match: pure insertion anchor missing', { 'a.txt': 'a\nb\n' }, p('*** Update File: a.txt', '@@ zzz', '+inserted'));
  add('match: pure insertion empty file', { 'e.txt': '' }, p('*** Update File: e.txt', '@@', '+hello'));
  add('match: context only on empty file', { 'e.txt': '' }, p('*** Update File: e.txt', ' '));
  add('match: end of file at end', { 'a.txt': 'a\nb\n' }, p('*** Update File: a.txt', '@@', ' b', '+c', '*** End of File'));
  add('match: end of file not at end', { 'a.txt': 'a\nb\n' }, p('*** Update File: a.txt', '@@', '-a', '+A', '*** End of File'));
  add('match: end of file repeated line', { 'a.txt': 'x\ny\nx\n' }, p('*** Update File: a.txt', '@@', '-x', '+X', '*** End of File'));
  add('match: chunks out of order', f, p('*** Update File: a.txt', '@@', '-gamma', '+G', '@@', '-alpha', '+A'));
  add('match: retry without trailing empty line', { 'a.txt': 'a\nb' }, p('*** Update File: a.txt', '@@', ' a', '-b', '+B', ''));
  add('match: trailing empty removed line', { 'a.txt': 'a\nb\n' }, p('*** Update File: a.txt', '@@', '-a', '-', '+A'));
  add('match: remove empty only', { 'a.txt': 'a\n' }, p('*** Update File: a.txt', '@@', '-', '+x'));
  add('match: not found quotes original lines', { 'a.txt': 'a\nb\n' }, p('*** Update File: a.txt', '@@', ' a', '-c', '+C', ''));
  add('match: fuzzy removed line replaced verbatim', { 'a.txt': '  b  \n' }, p('*** Update File: a.txt', '@@', '-b', '+B'));

  // Line endings (section 3.4)
  add('eol: CRLF kept', { 'a.txt': 'a\r\nb\r\nc\r\n' }, p('*** Update File: a.txt', '@@', ' a', '-b', '+B', ' c'));
  add('eol: CRLF no final newline', { 'a.txt': 'a\r\nb' }, p('*** Update File: a.txt', '@@', '-a', '+A'));
  add('eol: LF no final newline', { 'a.txt': 'a\nb' }, p('*** Update File: a.txt', '@@', '-a', '+A'));
  add('eol: replace last line without newline', { 'a.txt': 'a\nb' }, p('*** Update File: a.txt', '@@', ' a', '-b', '+B'));
  add('eol: mixed insert', { 'a.txt': 'a\r\nb\nc\n' }, p('*** Update File: a.txt', '@@', ' b', '+x', ' c'));
  add('eol: mixed replace takes first ending', { 'a.txt': 'a\nb\r\nc\n' }, p('*** Update File: a.txt', '@@', '-b', '+B'));
  add('eol: lone CR file', { 'a.txt': 'a\rb\rc\r' }, p('*** Update File: a.txt', '@@', '-b', '+B'));
  add('eol: CR first then LF', { 'a.txt': 'a\rb\nc\n' }, p('*** Update File: a.txt', '@@', '-c', '+C'));
  add(
    'eol: CRLF file, CRLF patch',
    { 'a.txt': 'a\r\nb\r\n' },
    '*** Begin Patch\r\n*** Update File: a.txt\r\n@@\r\n-a\r\n+A\r\n*** End Patch\r\n',
  );
  add('eol: empty lines CRLF', { 'a.txt': 'a\r\n\r\nb\r\n' }, p('*** Update File: a.txt', '@@', ' a', '', '-b', '+B'));
  add('eol: CR CR LF', { 'a.txt': 'a\r\r\nb\n' }, p('*** Update File: a.txt', '@@', '-b', '+B'));

  // File operations (section 5)
  add('ops: move', { 'a.txt': 'x\n' }, p('*** Update File: a.txt', '*** Move to: b/c.txt', '@@', '-x', '+y'));
  add(
    'ops: move overwrites destination',
    { 'a.txt': 'x\n', 'b.txt': 'old\n' },
    p('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-x', '+y'),
  );
  add('ops: move to same path', { 'a.txt': 'x\n' }, p('*** Update File: a.txt', '*** Move to: a.txt', '@@', '-x', '+y'));
  add('ops: add then update', {}, p('*** Add File: n.txt', '+one', '*** Update File: n.txt', '@@', '-one', '+two'));
  add(
    'ops: update twice',
    { 'a.txt': '1\n2\n' },
    p('*** Update File: a.txt', '@@', '-1', '+one', '*** Update File: a.txt', '@@', '-2', '+two'),
  );
  add('ops: delete then add', { 'a.txt': 'old\n' }, p('*** Delete File: a.txt', '*** Add File: a.txt', '+new'));
  add('ops: add then delete', {}, p('*** Add File: t.txt', '+x', '*** Delete File: t.txt'));
  add('ops: later failure', { 'a.txt': 'x\n' }, p('*** Add File: made.txt', '+m', '*** Update File: a.txt', '@@', '-nope', '+y'));
  add(
    'ops: summary order',
    { 'd.txt': 'x\n', 'u.txt': 'u\n' },
    p('*** Delete File: d.txt', '*** Update File: u.txt', '*** Move to: v.txt', '@@', '-u', '+v', '*** Add File: a.txt', '+a'),
  );
  add(
    'ops: update moved file by old path',
    { 'a.txt': 'x\n' },
    p('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-x', '+y', '*** Update File: a.txt', '@@', '-y', '+z'),
  );
  add(
    'ops: paths with spaces and unicode',
    { 'my file é.txt': 'x\n' },
    p('*** Update File: my file é.txt', '@@', '-x', '+y', '*** Add File: dir name/ü.md', '+ok'),
  );
  return c;
}

const VOCAB = [
  'import os',
  'def main():',
  '    return 0',
  '    x = 1',
  '',
  'class Thing:',
  '    pass',
  '}',
  '{',
  '  // comment',
  'const a = "quote";',
  "it's fine",
  'say \u201chello\u201d',
  'range 1\u20132',
  'a\u00a0b',
  '\tindented()',
  'x = 1  ',
  '    x = 1',
  'end',
  'print("done")',
  '# Title',
  '- item',
  '-- double',
  '+ plus',
  '@@ not a marker',
  '*** stars',
];

/** Generated cases: random files, random edits, random drift. */
export function generatedCases(count, seed = 1) {
  const random = rng(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const chance = (x) => random() < x;
  const cases = [];
  for (let n = 0; n < count; n++) {
    const files = {};
    const nfiles = 1 + Math.floor(random() * 3);
    const ending = pick(['\n', '\n', '\n', '\r\n', '\r\n', '\r', 'mixed']);
    for (let k = 0; k < nfiles; k++) {
      const len = Math.floor(random() * 14);
      const lines = Array.from({ length: len }, () => (chance(0.3) ? `line ${Math.floor(random() * 1000)}` : pick(VOCAB)));
      let text = '';
      lines.forEach((l, i) => {
        const nl = ending === 'mixed' ? pick(['\n', '\r\n', '\r']) : ending;
        text += l + (i < lines.length - 1 || chance(0.7) ? nl : '');
      });
      files[`f${k}${pick(['.txt', '.py', '.md', ''])}`] = text;
    }
    const paths = Object.keys(files);
    const body = [];
    const nops = 1 + Math.floor(random() * 3);
    for (let o = 0; o < nops; o++) {
      const r = random();
      if (r < 0.12) {
        body.push(`*** Add File: ${chance(0.2) ? pick(paths) : `new${o}.txt`}`);
        const m = Math.floor(random() * 4);
        for (let i = 0; i < m; i++) body.push('+' + pick(VOCAB));
      } else if (r < 0.2) {
        body.push(`*** Delete File: ${chance(0.85) ? pick(paths) : 'missing.txt'}`);
      } else {
        // Mostly a file this patch has not touched yet: a second update of
        // the same file written against its old text fails (stale context).
        const fresh = paths.filter((q) => !body.some((l) => l.endsWith(` ${q}`)));
        const path = fresh.length && chance(0.85) ? pick(fresh) : pick(paths);
        body.push(`*** Update File: ${path}`);
        if (chance(0.12)) body.push(`*** Move to: moved${o}/${path}`);
        body.push(...updateBody(files[path], random, pick, chance));
      }
    }
    let patch = [B, ...body, E].join('\n') + '\n';
    if (chance(0.1)) patch = patch.replace(/\n/g, '\r\n');
    if (chance(0.05)) patch = `<<'EOF'\n${patch}EOF\n`;
    if (chance(0.05)) patch = '\n  ' + patch.replace('*** Update File', '  *** Update File');
    cases.push({ name: `generated ${n + 1}`, files, patch });
  }
  return cases;
}

/** Lines of a file as Codex splits them (LF, CRLF, lone CR). */
function splitLines(text) {
  const out = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') {
      out.push(cur);
      cur = '';
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** Drift a model might introduce in a line it copies. */
function drift(line, random, pick) {
  switch (Math.floor(random() * 8)) {
    case 0:
      return line + '  ';
    case 1:
      return line.trimEnd();
    case 2:
      return '  ' + line;
    case 3:
      return line.trim();
    case 4:
      return line
        .replace(/[\u201c\u201d]/g, '"')
        .replace(/\u2013/g, '-')
        .replace(/\u00a0/g, ' ')
        .replace(/\u2019/g, "'");
    case 5:
      return line.replace(/"/g, '\u201c').replace(/-/g, '\u2014');
    case 6:
      return line + pick(['x', '!', ';']); // a real difference: fails
    default:
      return line;
  }
}

function updateBody(text, random, pick, chance) {
  const lines = splitLines(text ?? '');
  const out = [];
  const nchunks = 1 + Math.floor(random() * 3);
  let pos = 0;
  for (let c = 0; c < nchunks && pos <= lines.length; c++) {
    const start = pos + Math.floor(random() * Math.max(1, Math.min(4, lines.length - pos + 1)));
    const before = Math.floor(random() * 3);
    const del = Math.floor(random() * 3);
    const after = Math.floor(random() * 3);
    // Mostly in file order (chunks and anchors after the previous chunk);
    // a few anchors point back, which Codex cannot find.
    const from = Math.max(pos, start - before);
    const anchorAt = from - 1;
    if (chance(0.3) && anchorAt >= (chance(0.9) ? pos : 0) && anchorAt < lines.length)
      out.push('@@ ' + (chance(0.85) ? lines[anchorAt] : drift(lines[anchorAt], random, pick)));
    else if (c > 0 || chance(0.6)) out.push('@@');
    const copy = (l) => (chance(0.15) ? drift(l, random, pick) : l);
    for (let i = from; i < Math.min(start, lines.length); i++) out.push(' ' + copy(lines[i]));
    for (let i = start; i < Math.min(start + del, lines.length); i++) out.push('-' + copy(lines[i]));
    const adds = Math.floor(random() * 3);
    for (let i = 0; i < adds; i++) out.push('+' + pick(VOCAB));
    const end = Math.min(start + del, lines.length);
    for (let i = end; i < Math.min(end + after, lines.length); i++) out.push(' ' + copy(lines[i]));
    if (out.length > 0 && out.at(-1).startsWith('@@') && chance(0.9)) out.push('+added');
    if (end + after >= lines.length && chance(0.3)) out.push('*** End of File');
    else if (chance(0.05)) out.push('*** End of File');
    if (chance(0.1)) out.push('');
    pos = end + after;
    if (out.at(-1) === '*** End of File') break;
  }
  if (out.length === 0 || out.every((l) => l.startsWith('@@'))) out.push('+added');
  return out;
}
