// A line diff: the edit script from lines `a` to lines `b`, by Myers'
// O((N+M)D) algorithm on the part between the common head and tail. Used by
// the CLI's --dry-run (unified diffs) and by the playground's output pane
// (which imports the compiled dist/esm/linediff.js). No DOM, no node:.

export interface LineOp {
  op: 'eq' | 'del' | 'add';
  /** 0-based line in `a` (for 'add': where the line goes in `a`). */
  a: number;
  /** 0-based line in `b` (for 'del': where the line was in `b`). */
  b: number;
}

/**
 * Past this many edits, or this much work ((N + M) · edits), the middle is
 * reported as all removed then all added instead of the shortest script: a
 * diff must stay quick on very different large texts.
 */
const MAX_EDITS = 2000;
const MAX_WORK = 4e7;

export function diffLines(a: readonly string[], b: readonly string[]): LineOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;

  const ops: LineOp[] = [];
  for (let i = 0; i < pre; i++) ops.push({ op: 'eq', a: i, b: i });
  for (const o of middle(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf))) {
    ops.push({ op: o.op, a: o.a + pre, b: o.b + pre });
  }
  for (let k = suf; k > 0; k--) ops.push({ op: 'eq', a: a.length - k, b: b.length - k });
  return ops;
}

function middle(a: readonly string[], b: readonly string[]): LineOp[] {
  const n = a.length;
  const m = b.length;
  const replace = (): LineOp[] => [
    ...a.map((_, i): LineOp => ({ op: 'del', a: i, b: 0 })),
    ...b.map((_, j): LineOp => ({ op: 'add', a: n, b: j })),
  ];
  if (n === 0 || m === 0) return replace();
  const max = Math.min(n + m, MAX_EDITS);
  // v[k] = furthest x on diagonal k (x - y = k); trace[d] keeps v for k in -d..d.
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    if ((n + m) * d > MAX_WORK) break;
    for (let k = -d; k <= d; k += 2) {
      if (k < -m || k > n) continue; // off the grid
      let x = goesDown(k, d, n, m, (i) => v[offset + i]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return backtrack(trace, a, b);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return replace();
}

// Whether the best path to diagonal k at step d comes down from k + 1 (an
// added line) rather than right from k - 1 (a removed line). Diagonals off
// the grid (below -m or above n) are never entered.
function goesDown(k: number, d: number, n: number, m: number, v: (k: number) => number): boolean {
  if (k === -d || k - 1 < -m) return true;
  if (k === d || k + 1 > n) return false;
  return v(k - 1) < v(k + 1);
}

function backtrack(trace: Int32Array[], a: readonly string[], b: readonly string[]): LineOp[] {
  const ops: LineOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]!; // indexes -(d-1)..(d-1), stored from 0
    const at = (k: number): number => prev[k + d - 1]!;
    const k = x - y;
    const down = goesDown(k, d, a.length, b.length, at);
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ op: 'eq', a: x, b: y });
    }
    if (down) {
      y--;
      ops.push({ op: 'add', a: x, b: y });
    } else {
      x--;
      ops.push({ op: 'del', a: x, b: y });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ op: 'eq', a: x, b: y });
  }
  return ops.reverse();
}
