var _a, _b, _c, _d, _e, _f, _g, _h, _j, _k;

// Type-checked (not run) against the built package, as an ES module consumer
// with moduleResolution node16: the shipped .d.mts must describe the API.
import { apply, applyBatch, applyFiles, codexGrammar, codexTool, errorCodes, PatchError, parse, repairKinds, summary } from 'applypatch';

var options = { mode: 'codex' };
var text = apply('a\n', '-a\n+b', options);
var batched = applyBatch('a\n', ['-a\n+b'], { mode: 'strict' });
var reported = apply('a\n', '-a\n+b', { report: true });
var firstSplice = reported.splices[0];
var landed = (_a = applyBatch('a\n', ['-a\n+b'], { report: true }).sections[0]) === null || _a === void 0 ? void 0 : _a.inputLine;
var map = applyFiles(new Map([['a', 'x\n']]), '*** Begin Patch\n*** End Patch');
var obj = applyFiles({ a: 'x\n' }, '*** Begin Patch\n*** End Patch', { mode: 'strict' });
var patch = parse('*** Begin Patch\n*** End Patch');
var op = patch.operations[0];
var kind = op === null || op === void 0 ? void 0 : op.kind;
var line = op === null || op === void 0 ? void 0 : op.line;
var env = patch.environmentId;
var done = summary('');
var tool = codexTool({ environmentId: true });
var definition = tool.format.definition;
var grammar = codexGrammar();
var codes = errorCodes;
try {
  apply('', '');
} catch (e) {
  if (e instanceof PatchError) {
    var code = e.code;
    var where = e.diffLine;
    var lines = e.inputLines;
    var near = (_b = e.nearest) === null || _b === void 0 ? void 0 : _b.similarity;
    var path = e.path;
    var index = (_c = e.operation) !== null && _c !== void 0 ? _c : e.diff;
    void [code, where, lines, near, path, index];
  }
}
// @ts-expect-error: modes are a closed set
apply('', '', { mode: 'fuzzy' });
// @ts-expect-error: codes are a closed set
var bad = 'no_such_code';
// @ts-expect-error: diffs is an array
applyBatch('', '-a');
var repairs = [];
var repaired = apply('a \n', '-a\n+b', { repair: ['trailing-ws'], onRepair: (r) => repairs.push(r) });
var kinds = repairKinds;
var first = (_d = repairs[0]) === null || _d === void 0 ? void 0 : _d.kind;
var repairedPatch = parse('```\n*** Begin Patch\n*** End Patch\n```', { repair: true });
// @ts-expect-error: repair kinds are a closed set
apply('', '', { repair: ['fuzzy'] });
void [
  text,
  batched,
  map,
  obj,
  kind,
  line,
  env,
  done,
  definition,
  grammar,
  codes,
  bad,
  repaired,
  kinds,
  first,
  repairedPatch,
  reported,
  firstSplice,
  landed,
];

// Unified diffs: the file map keeps its kind; report: true gives placements.
import { applyUnified, lineDiff, parseUnified, unifiedDiff } from 'applypatch';

var unifiedMap = applyUnified(new Map([['a', 'x\n']]), '--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n');
var unifiedObj = applyUnified({ a: 'x\n' }, '', { mode: 'git' });
var report = applyUnified({ a: 'x\n' }, '', { report: true });
var offset = (_e = report.hunks[0]) === null || _e === void 0 ? void 0 : _e.offset;
var gitMode = (_f = report.modes[0]) === null || _f === void 0 ? void 0 : _f.mode;
var movedFrom = (_g = report.changes[0]) === null || _g === void 0 ? void 0 : _g.movedFrom;
var parsed = parseUnified('');
var status = (_h = parsed[0]) === null || _h === void 0 ? void 0 : _h.status;
var written = unifiedDiff({ a: '' }, new Map([['a', 'b\n']]), { context: 1 });
var ops = lineDiff(['a'], ['b']).map((o) => o.op);
// @ts-expect-error: unified modes are strict and git
applyUnified({}, '', { mode: 'codex' });

// detectFormat: the formats are a closed set, 'unified' among them.
import { detectFormat } from 'applypatch';

var format = detectFormat('');
// @ts-expect-error: not a format
var notFormat = 'git';
void [unifiedMap, unifiedObj, offset, gitMode, movedFrom, status, written, ops, format, notFormat];

// createPatchStream: events are a union on `type`; the decoder takes any event.
import { createPatchStream, createToolInputDecoder } from 'applypatch';

var stream = createPatchStream('a\n', { mode: 'codex', format: 'diff' });
var decode = createToolInputDecoder({ field: 'diff' });
var events = stream.push(decode({ type: 'response.custom_tool_call_input.delta', delta: '@@\n' }));
for (var _i = 0, events_1 = events; _i < events_1.length; _i++) {
  var e = events_1[_i];
  if (e.type === 'section') {
    var from = (_k = (_j = e.splices[0]) === null || _j === void 0 ? void 0 : _j.from) !== null && _k !== void 0 ? _k : e.inputLine;
    void from;
  } else {
    var code = e.error.code;
    void code;
  }
}
// @ts-expect-error: only V4A diffs are streamed
createPatchStream('a\n', { format: 'patch' });
var streamed = stream.end();
void streamed;
