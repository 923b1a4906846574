var _a, _b;

// Types that tell the truth, applypatch/node: moves carry movedFrom, the
// editor's options reject impossible combinations, the CLI's --json output is
// a union on ok. Type-checked (not run) by npm test.
import { applyPatchToDirectory, createEditor } from 'applypatch/node';

var changes = applyPatchToDirectory('.', '', { dryRun: true }).changes;
var from = (_a = changes[0]) === null || _a === void 0 ? void 0 : _a.movedFrom;
void from;
// @ts-expect-error: repair is a Strict mode option
applyPatchToDirectory('.', '', { mode: 'codex', repair: true });
createEditor({ root: '.', mode: 'codex' });
createEditor({ root: '.', repair: ['indent'] });
// @ts-expect-error: repair is a Strict mode option
createEditor({ root: '.', mode: 'codex', repair: true });
var out = JSON.parse(stdout);
if (out.ok) {
  if ('changes' in out) {
    var status_1 = (_b = out.changes[0]) === null || _b === void 0 ? void 0 : _b.status;
    var summary = out.summary;
    void [status_1, summary];
  } else {
    var blocks = out.blocks;
    void blocks;
  }
} else {
  var code = out.error.code;
  var line = out.error.line;
  void [code, line];
  if (out.error.code === 'no_match') {
    var block = out.error.block;
    void block;
  }
}
var usage = 'usage';
var noBlocks = 'no_blocks';
// @ts-expect-error: CLI codes are a closed set
var bad = 'no_such_code';
void [usage, noBlocks, bad];
