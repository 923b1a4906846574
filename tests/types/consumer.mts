// Type-checked (not run) against the built package, as an ES module consumer
// with moduleResolution node16: the shipped .d.mts must describe the API.
import {
  type ApplyOptions,
  apply,
  applyBatch,
  applyFiles,
  type CodexTool,
  codexGrammar,
  codexTool,
  type ErrorCode,
  errorCodes,
  type Operation,
  type Patch,
  PatchError,
  parse,
  type Repair,
  type RepairKind,
  repairKinds,
  summary,
} from 'applypatch';

const options: ApplyOptions = { mode: 'codex' };
const text: string = apply('a\n', '-a\n+b', options);
const batched: string = applyBatch('a\n', ['-a\n+b'], { mode: 'strict' });
const map: Map<string, string> = applyFiles(new Map([['a', 'x\n']]), '*** Begin Patch\n*** End Patch');
const obj: Record<string, string> = applyFiles({ a: 'x\n' }, '*** Begin Patch\n*** End Patch', { mode: 'strict' });
const patch: Patch = parse('*** Begin Patch\n*** End Patch');
const op: Operation | undefined = patch.operations[0];
const kind: 'add' | 'delete' | 'update' | undefined = op?.kind;
const line: number | undefined = op?.line;
const env: string | undefined = patch.environmentId;
const done: string = summary('');
const tool: CodexTool = codexTool({ environmentId: true });
const definition: string = tool.format.definition;
const grammar: string = codexGrammar();
const codes: readonly ErrorCode[] = errorCodes;
try {
  apply('', '');
} catch (e) {
  if (e instanceof PatchError) {
    const code: ErrorCode = e.code;
    const where: number | undefined = e.diffLine;
    const lines: number[] | undefined = e.inputLines;
    const near: number | undefined = e.nearest?.similarity;
    const path: string | undefined = e.path;
    const index: number | undefined = e.operation ?? e.diff;
    void [code, where, lines, near, path, index];
  }
}
// @ts-expect-error: modes are a closed set
apply('', '', { mode: 'fuzzy' });
// @ts-expect-error: codes are a closed set
const bad: ErrorCode = 'no_such_code';
// @ts-expect-error: diffs is an array
applyBatch('', '-a');
const repairs: Repair[] = [];
const repaired: string = apply('a \n', '-a\n+b', { repair: ['trailing-ws'], onRepair: (r) => repairs.push(r) });
const kinds: readonly RepairKind[] = repairKinds;
const first: RepairKind | undefined = repairs[0]?.kind;
const parsed: Patch = parse('```\n*** Begin Patch\n*** End Patch\n```', { repair: true });
// @ts-expect-error: repair kinds are a closed set
apply('', '', { repair: ['fuzzy'] });
void [text, batched, map, obj, kind, line, env, done, definition, grammar, codes, bad, repaired, kinds, first, parsed];
