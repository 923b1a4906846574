// A unified diff of two texts, for `--dry-run`: the line diff of
// js/linediff.ts, in hunks with 3 lines of context.

import { diffLines as lineDiff } from '../linediff.js';

type Op = ' ' | '-' | '+';

/** Splits text into lines that keep their `\n` (the last may have none). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const SIGN = { eq: ' ', del: '-', add: '+' } as const;

/** The edit script from `a` to `b`, as [op, line] pairs in order. */
export function diffLines(a: string[], b: string[]): Array<[Op, string]> {
  return lineDiff(a, b).map((o): [Op, string] => [SIGN[o.op], o.op === 'add' ? b[o.b]! : a[o.a]!]);
}

const NO_NEWLINE = '\\ No newline at end of file\n';

function range(start: number, len: number): string {
  const s = len === 0 ? start : start + 1;
  return len === 1 ? `${s}` : `${s},${len}`;
}

/**
 * The hunks of a unified diff from `before` to `after` (no file header), with
 * `context` lines around each change; '' when the texts are equal.
 */
export function unifiedHunks(before: string, after: string, context = 3): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  const changed: number[] = [];
  ops.forEach(([op], i) => {
    if (op !== ' ') changed.push(i);
  });
  if (changed.length === 0) return '';
  let out = '';
  let i = 0;
  // Line numbers (0-based) in before and after at op index `pos`.
  let pos = 0;
  let oldLine = 0;
  let newLine = 0;
  const advance = (to: number): void => {
    for (; pos < to; pos++) {
      if (ops[pos]![0] !== '+') oldLine++;
      if (ops[pos]![0] !== '-') newLine++;
    }
  };
  while (i < changed.length) {
    let j = i;
    while (j + 1 < changed.length && changed[j + 1]! - changed[j]! <= 2 * context + 1) j++;
    const start = Math.max(0, changed[i]! - context);
    const end = Math.min(ops.length, changed[j]! + context + 1);
    advance(start);
    let oldLen = 0;
    let newLen = 0;
    let body = '';
    for (let p = start; p < end; p++) {
      const [op, line] = ops[p]!;
      if (op !== '+') oldLen++;
      if (op !== '-') newLen++;
      body += op + (line.endsWith('\n') ? line : line + '\n' + NO_NEWLINE);
    }
    out += `@@ -${range(oldLine, oldLen)} +${range(newLine, newLen)} @@\n${body}`;
    i = j + 1;
  }
  return out;
}

/**
 * A unified diff of one file: `---` / `+++` headers (`/dev/null` for an added
 * or deleted file) and its hunks; '' when nothing changed.
 */
export function unifiedDiff(oldPath: string | null, newPath: string | null, before: string, after: string): string {
  const hunks = unifiedHunks(before, after);
  if (hunks === '' && oldPath === newPath) return '';
  const from = oldPath === null ? '/dev/null' : `a/${oldPath}`;
  const to = newPath === null ? '/dev/null' : `b/${newPath}`;
  return `--- ${from}\n+++ ${to}\n${hunks}`;
}
