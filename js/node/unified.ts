// A unified diff of two texts, for `--dry-run`: Myers' O((N+M)D) line diff
// after trimming the common head and tail, hunks with 3 lines of context.

type Op = ' ' | '-' | '+';

/** Splits text into lines that keep their `\n` (the last may have none). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Above this much work the middle is shown as one replaced block. */
const MAX_WORK = 4e7;

/** The edit script from `a` to `b`, as [op, line] pairs in order. */
export function diffLines(a: string[], b: string[]): Array<[Op, string]> {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: Array<[Op, string]> = [];
  for (let i = 0; i < head; i++) out.push([' ', a[i]!]);
  out.push(...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)));
  for (let i = a.length - tail; i < a.length; i++) out.push([' ', a[i]!]);
  return out;
}

function middle(a: string[], b: string[]): Array<[Op, string]> {
  const n = a.length;
  const m = b.length;
  const replace = (): Array<[Op, string]> => [...a.map((l): [Op, string] => ['-', l]), ...b.map((l): [Op, string] => ['+', l])];
  if (n === 0 || m === 0) return replace();
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d]: v before round d, for k in [-d-1, d+1] (index k + d + 1).
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    if ((n + m) * d > MAX_WORK) return replace();
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  const rev: Array<[Op, string]> = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!;
    const at = (k: number): number => prev[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    while (x > px && y > py) {
      rev.push([' ', a[--x]!]);
      y--;
    }
    if (down) rev.push(['+', b[--y]!]);
    else rev.push(['-', a[--x]!]);
  }
  while (x > 0 && y > 0) {
    rev.push([' ', a[--x]!]);
    y--;
  }
  return rev.reverse();
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
  ops.forEach(([op], i) => op !== ' ' && changed.push(i));
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
