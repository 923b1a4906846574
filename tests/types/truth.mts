// Types that tell the truth (issue 29): results are unions on `ok`, errors on
// `code`, and option combinations that throw at run time do not compile.
// Type-checked (not run) with tsc --strict by npm test; every
// `@ts-expect-error` line must be an error, or tsc fails.
import {
  apply,
  applyBatch,
  applyBlocks,
  applyEdit,
  applyEdits,
  applyFiles,
  applyOperation,
  applyPatch,
  createMemoryEditor,
  type EditResult,
  type ErrorCode,
  type Nearest,
  PatchError,
} from 'applypatch';

// --- EditResult: a union on ok.
const r: EditResult = applyEdit('a\n', { search: 'a', replace: 'b' });
if (r.ok) {
  const strategy: 'empty-search' | 'exact' | 'trailing-ws' | 'indent' | 'anchor' | 'fuzzy' = r.strategy;
  const start: number = r.start;
  void [strategy, start];
  // @ts-expect-error: an applied edit has no failure reason
  const reason: string = r.reason;
  void reason;
} else {
  const nothing: null = r.strategy;
  const minus: -1 = r.start;
  const reason: 'empty-search' | 'not-found' | 'ambiguous' | 'unknown-file' | 'no-change' | 'merge-conflict' | undefined = r.reason;
  const near: number | undefined = r.nearest?.startLine;
  void [nothing, minus, reason, near];
}
// @ts-expect-error: without narrowing on ok, the strategy may be null
const unchecked: string = r.strategy;
void unchecked;

const many = applyEdits('a\n', [{ search: 'a', replace: 'b' }]);
if (many.ok) {
  // every result of a successful applyEdits applied
  const strategies: string[] = many.results.map((x) => x.strategy);
  void strategies;
}

const blocks = applyBlocks({ 'a.py': 'x\n' }, 'a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n');
if (blocks.ok) {
  const none: [] = blocks.problems;
  void none;
} else {
  const line: number | undefined = blocks.problems[0]?.line;
  void line;
}
const block = blocks.results[0];
if (block?.ok === false) {
  const message: string | undefined = block.message;
  const path: string = block.path;
  void [message, path];
}

// --- PatchError: narrowed by code, still a class.
try {
  applyBatch('a\n', ['-a\n+b', '-a\n+c']);
} catch (e) {
  if (e instanceof PatchError) {
    const code: ErrorCode = e.code;
    const message: string = e.message;
    const isError: Error = e;
    void [code, message, isError];
    if (e.code === 'overlap') {
      const other: number = e.conflict.diff;
      const second: number = e.diff;
      const lines: number[] = e.inputLines;
      void [other, second, lines];
    } else if (e.code === 'context_not_found') {
      const near: Nearest | undefined = e.nearest;
      void near;
      // @ts-expect-error: only an overlap names another diff
      const other: number = e.conflict.diff;
      void other;
    } else {
      // @ts-expect-error: only context_not_found has a closest place
      const near: Nearest = e.nearest;
      void near;
    }
    // @ts-expect-error: before narrowing, conflict may be missing
    const unchecked: number = e.conflict.diff;
    void unchecked;
  }
}
const made = new PatchError({ code: 'file_not_found', message: 'm' });
const asError: Error = made;
void asError;
// @ts-expect-error: codes are a closed set
void new PatchError({ code: 'no_such_code', message: 'm' });

// --- Options: repair is Strict's; Codex mode does exactly what Codex does.
apply('a\n', '-a\n+b', { repair: true });
apply('a\n', '-a\n+b', { mode: 'strict', repair: ['trailing-ws'], onRepair: () => {} });
apply('a\n', '-a\n+b', { mode: 'codex' });
apply('a\n', '-a\n+b', { mode: 'codex', repair: false });
const someMode = Math.random() > 0.5 ? ('strict' as const) : ('codex' as const);
apply('a\n', '-a\n+b', { mode: someMode });
// @ts-expect-error: repair is a Strict mode option
apply('a\n', '-a\n+b', { mode: 'codex', repair: true });
// @ts-expect-error: repair is a Strict mode option
applyBatch('a\n', ['-a\n+b'], { mode: 'codex', repair: ['indent'] });
// @ts-expect-error: repair is a Strict mode option
applyFiles({}, '', { mode: 'codex', repair: true });
// @ts-expect-error: repair is a Strict mode option
applyPatch({}, '', { mode: 'codex', repair: true });
// @ts-expect-error: repair is a Strict mode option
applyOperation({}, { type: 'delete_file', path: 'a' }, { mode: 'codex', repair: true });
// @ts-expect-error: repair is a Strict mode option
createMemoryEditor({}, { mode: 'codex', repair: true });
// @ts-expect-error: onRepair is a Strict mode option
apply('a\n', '-a\n+b', { mode: 'codex', onRepair: () => {} });
