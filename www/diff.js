// Line diff for the output pane: which lines of the input were removed and
// which lines of the output were added. The diff itself is the engine's
// (the package's lineDiff, the same Myers diff as unifiedDiff and the CLI's
// --dry-run), which gives up on the shortest script past 2,000 edits so the
// page stays responsive on a pasted 100,000-line file. The page hands the
// loaded package over with useEngine().
// No DOM here: tests/js/playground-diff.test.mjs runs it in Node.

let engine = null;

/** Sets the package whose lineDiff the diff view uses. */
export function useEngine(ap) {
  engine = ap;
}

/** The line diff from lines `a` to lines `b`: `[{ op: 'eq' | 'del' | 'add', a, b }]`. */
export function lineDiff(a, b) {
  if (engine === null || typeof engine.lineDiff !== 'function') throw new Error('applypatch: this build has no lineDiff');
  return engine.lineDiff(a, b);
}

/** Splits text into lines; a final newline ends the last line (no empty extra line). */
export function splitLines(text) {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Rows to display: every changed line, `context` unchanged lines around each
 * change, and `{ op: 'skip', count }` for longer unchanged runs. Each row has
 * `oldNo` / `newNo` (1-based, where the line exists) and `text`.
 */
export function diffRows(before, after, context = 3) {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = lineDiff(a, b);
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
