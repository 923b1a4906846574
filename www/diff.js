// Line diff for the output pane: which lines of the input were removed and
// which lines of the output were added. Myers' O(ND) algorithm on the part
// between the common prefix and suffix; past MAX_D edits it stops looking for
// the shortest script and shows the middle as removed then added (a playground
// must stay responsive on a pasted 100,000-line file).
// No DOM here: tests/js/playground-diff.test.mjs runs it in Node.

const MAX_D = 2000;

/** Splits text into lines; a final newline ends the last line (no empty extra line). */
export function splitLines(text) {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The edit script from lines `a` to lines `b`: a list of
 * `{ op: 'eq' | 'del' | 'add', a, b }` in order, where `a` and `b` are the
 * 0-based line indexes in each side (for 'add' `a` is where it goes in a,
 * for 'del' `b` is where it was in b).
 */
export function diffLines(a, b) {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;

  const ops = [];
  for (let i = 0; i < pre; i++) ops.push({ op: 'eq', a: i, b: i });
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  for (const o of middle(midA, midB)) ops.push({ op: o.op, a: o.a + pre, b: o.b + pre });
  for (let k = suf; k > 0; k--) ops.push({ op: 'eq', a: a.length - k, b: b.length - k });
  return ops;
}

function middle(a, b) {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((_, j) => ({ op: 'add', a: 0, b: j }));
  if (m === 0) return a.map((_, i) => ({ op: 'del', a: i, b: 0 }));
  const max = Math.min(n + m, MAX_D);
  // v[k] = furthest x on diagonal k (x - y = k); trace[d] keeps v for k in -d..d.
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      if (k < -m || k > n) continue; // off the grid
      let x = goesDown(k, d, n, m, (i) => v[offset + i]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
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
  // Too different for a shortest script at this size: all out, all in.
  return [...a.map((_, i) => ({ op: 'del', a: i, b: 0 })), ...b.map((_, j) => ({ op: 'add', a: n, b: j }))];
}

// Whether the best path to diagonal k at step d comes down from k + 1 (an
// added line) rather than right from k - 1 (a removed line). Diagonals off
// the grid (below -m or above n) are never entered.
function goesDown(k, d, n, m, v) {
  if (k === -d || k - 1 < -m) return true;
  if (k === d || k + 1 > n) return false;
  return v(k - 1) < v(k + 1);
}

function backtrack(trace, a, b) {
  const ops = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]; // indexes -(d-1)..(d-1), stored from 0
    const at = (k) => prev[k + d - 1];
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

/**
 * Rows to display: every changed line, `context` unchanged lines around each
 * change, and `{ op: 'skip', count }` for longer unchanged runs. Each row has
 * `oldNo` / `newNo` (1-based, where the line exists) and `text`.
 */
export function diffRows(before, after, context = 3) {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  const rows = ops.map((o) =>
    o.op === 'eq'
      ? { op: 'eq', oldNo: o.a + 1, newNo: o.b + 1, text: b[o.b] }
      : o.op === 'del'
        ? { op: 'del', oldNo: o.a + 1, text: a[o.a] }
        : { op: 'add', newNo: o.b + 1, text: b[o.b] },
  );
  const near = new Array(rows.length).fill(false);
  rows.forEach((r, i) => {
    if (r.op === 'eq') return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) near[j] = true;
  });
  const out = [];
  for (let i = 0; i < rows.length; ) {
    if (near[i]) {
      out.push(rows[i++]);
      continue;
    }
    let j = i;
    while (j < rows.length && !near[j]) j++;
    // A gap of one line is cheaper to show than to hide.
    if (j - i === 1) out.push(rows[i]);
    else out.push({ op: 'skip', count: j - i });
    i = j;
  }
  return out;
}

/** Whether the text ends with a line break (shown when only that differs). */
export function endsWithNewline(text) {
  return text === '' || text.endsWith('\n');
}
