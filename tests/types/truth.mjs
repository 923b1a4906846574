var _a, _b;

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
  PatchError,
} from 'applypatch';

// --- EditResult: a union on ok.
var r = applyEdit('a\n', { search: 'a', replace: 'b' });
if (r.ok) {
  var strategy = r.strategy;
  var start = r.start;
  void [strategy, start];
  // @ts-expect-error: an applied edit has no failure reason
  var reason = r.reason;
  void reason;
} else {
  var nothing = r.strategy;
  var minus = r.start;
  var reason = r.reason;
  var near = (_a = r.nearest) === null || _a === void 0 ? void 0 : _a.startLine;
  void [nothing, minus, reason, near];
}
// @ts-expect-error: without narrowing on ok, the strategy may be null
var unchecked = r.strategy;
void unchecked;
var many = applyEdits('a\n', [{ search: 'a', replace: 'b' }]);
if (many.ok) {
  // every result of a successful applyEdits applied
  var strategies = many.results.map((x) => x.strategy);
  void strategies;
}
var blocks = applyBlocks({ 'a.py': 'x\n' }, 'a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n');
if (blocks.ok) {
  var none = blocks.problems;
  void none;
} else {
  var line = (_b = blocks.problems[0]) === null || _b === void 0 ? void 0 : _b.line;
  void line;
}
var block = blocks.results[0];
if ((block === null || block === void 0 ? void 0 : block.ok) === false) {
  var message = block.message;
  var path = block.path;
  void [message, path];
}
// --- PatchError: narrowed by code, still a class.
try {
  applyBatch('a\n', ['-a\n+b', '-a\n+c']);
} catch (e) {
  if (e instanceof PatchError) {
    var code = e.code;
    var message = e.message;
    var isError = e;
    void [code, message, isError];
    if (e.code === 'overlap') {
      var other = e.conflict.diff;
      var second = e.diff;
      var lines = e.inputLines;
      void [other, second, lines];
    } else if (e.code === 'context_not_found') {
      var near = e.nearest;
      void near;
      // @ts-expect-error: only an overlap names another diff
      var other = e.conflict.diff;
      void other;
    } else {
      // @ts-expect-error: only context_not_found has a closest place
      var near = e.nearest;
      void near;
    }
    // @ts-expect-error: before narrowing, conflict may be missing
    var unchecked_1 = e.conflict.diff;
    void unchecked_1;
  }
}
var made = new PatchError({ code: 'file_not_found', message: 'm' });
var asError = made;
void asError;
// @ts-expect-error: codes are a closed set
void new PatchError({ code: 'no_such_code', message: 'm' });
// --- Options: repair is Strict's; Codex mode does exactly what Codex does.
apply('a\n', '-a\n+b', { repair: true });
apply('a\n', '-a\n+b', { mode: 'strict', repair: ['trailing-ws'], onRepair: () => {} });
apply('a\n', '-a\n+b', { mode: 'codex' });
apply('a\n', '-a\n+b', { mode: 'codex', repair: false });
var someMode = Math.random() > 0.5 ? 'strict' : 'codex';
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
