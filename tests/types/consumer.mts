// Type-checked (not run) against the built package, as an ES module consumer
// with moduleResolution node16: the shipped .d.mts must describe the API.
import {
  type ApplyOptions,
  type ApplyReport,
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
  type Splice,
  summary,
} from 'applypatch';

const options: ApplyOptions = { mode: 'codex' };
const text: string = apply('a\n', '-a\n+b', options);
const batched: string = applyBatch('a\n', ['-a\n+b'], { mode: 'strict' });
const reported: ApplyReport = apply('a\n', '-a\n+b', { report: true });
const firstSplice: Splice | undefined = reported.splices[0];
const landed: number | undefined = applyBatch('a\n', ['-a\n+b'], { report: true }).sections[0]?.inputLine;
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
const repairedPatch: Patch = parse('```\n*** Begin Patch\n*** End Patch\n```', { repair: true });
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
import { applyUnified, lineDiff, parseUnified, type UnifiedFile, unifiedDiff } from 'applypatch';

const unifiedMap: Map<string, string> = applyUnified(new Map([['a', 'x\n']]), '--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n');
const unifiedObj: Record<string, string> = applyUnified({ a: 'x\n' }, '', { mode: 'git' });
const report = applyUnified({ a: 'x\n' }, '', { report: true });
const offset: number | undefined = report.hunks[0]?.offset;
const gitMode: string | undefined = report.modes[0]?.mode;
const movedFrom: string | undefined = report.changes[0]?.movedFrom;
const parsed: UnifiedFile[] = parseUnified('');
const status: 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | undefined = parsed[0]?.status;
const written: string = unifiedDiff({ a: '' }, new Map([['a', 'b\n']]), { context: 1 });
const ops: Array<'eq' | 'del' | 'add'> = lineDiff(['a'], ['b']).map((o) => o.op);
// @ts-expect-error: unified modes are strict and git
applyUnified({}, '', { mode: 'codex' });

// detectFormat: the formats are a closed set, 'unified' among them.
import { detectFormat, type Format } from 'applypatch';

const format: 'patch' | 'diff' | 'blocks' | 'unified' = detectFormat('');
// @ts-expect-error: not a format
const notFormat: Format = 'git';
void [unifiedMap, unifiedObj, offset, gitMode, movedFrom, status, written, ops, format, notFormat];

// createPatchStream: events are a union on `type`; the decoder takes any event.
import { createPatchStream, createToolInputDecoder, type PatchStream, type StreamEvent } from 'applypatch';

const stream: PatchStream = createPatchStream('a\n', { mode: 'codex', format: 'diff' });
const decode: (event: unknown) => string = createToolInputDecoder({ field: 'diff' });
const events: StreamEvent[] = stream.push(decode({ type: 'response.custom_tool_call_input.delta', delta: '@@\n' }));
for (const e of events) {
  if (e.type === 'section') {
    const from: number = e.splices[0]?.from ?? e.inputLine;
    void from;
  } else if (e.type === 'operation') {
    const path: string = e.path;
    void path;
  } else {
    const code: ErrorCode = e.error.code;
    void code;
  }
}
// @ts-expect-error: a patch streams over a file map, not a text
createPatchStream('a\n', { format: 'patch' });
// A file map streams a patch, and ends as applyFiles (the map's own type).
const filesStream: PatchStream<Map<string, string>> = createPatchStream(new Map([['a', 'x\n']]), { format: 'patch' });
const endedFiles: Map<string, string> = filesStream.end();
void endedFiles;
const streamed: string = stream.end();
void streamed;

// Edit blocks over a text: the preview is the text, end() is applyEdits' result.
import type { BlocksStream, BlocksStreamEvent, EditsResult } from 'applypatch';

const blocksStream: BlocksStream = createPatchStream('a\n', { format: 'blocks', preset: 'compatible', threshold: 0.9 });
for (const e of blocksStream.push('<<<<<<< SEARCH\n') as BlocksStreamEvent[]) {
  if (e.type === 'section') {
    const line: number = e.inputLine + e.diffLine + e.index;
    void line;
  } else if ('result' in e) {
    const applied: number = e.result.applied;
    void applied;
  } else {
    const code: ErrorCode = e.error.code;
    void code;
  }
}
const blocksPreview: string = blocksStream.preview();
const blocksEnd: EditsResult = blocksStream.end();
void [blocksPreview, blocksEnd];
// A text's base is a text.
const blocksOnBaseStream: BlocksStream = createPatchStream('a\n', { format: 'blocks', base: 'b\n' });
void blocksOnBaseStream;
// @ts-expect-error: a text's base is a text, not a file map
createPatchStream('a\n', { format: 'blocks', base: { a: 'b\n' } });

// Edit blocks over a file map: events name their file, the preview is the
// map's own kind, end() is applyBlocks' result.
import type { BlocksResult, FilesBlocksStream, FilesBlocksStreamEvent } from 'applypatch';

const filesBlocks: FilesBlocksStream<Map<string, string>> = createPatchStream(new Map([['a', 'x\n']]), {
  format: 'blocks',
  path: 'a',
  base: new Map([['a', 'y\n']]),
  repair: ['file-name'],
});
for (const e of filesBlocks.push('<<<<<<< SEARCH\n') as FilesBlocksStreamEvent<Map<string, string>>[]) {
  if (e.type === 'section') {
    const where: string = e.path;
    void where;
  } else if ('result' in e) {
    const files: Map<string, string> = e.result.files;
    void files;
  } else {
    const code: ErrorCode = e.error.code;
    void code;
  }
}
const filesBlocksPreview: Map<string, string> = filesBlocks.preview();
const filesBlocksEnd: BlocksResult<Map<string, string>> = filesBlocks.end();
void [filesBlocksPreview, filesBlocksEnd];
// @ts-expect-error: a file map's base is a file map
createPatchStream({ a: 'x\n' }, { format: 'blocks', base: 'b\n' });

// format: 'auto': the format decided, the events and results of the formats a target takes.
import type { FilesAutoStream, TextAutoStream } from 'applypatch';

const autoText: TextAutoStream = createPatchStream('a\n', { format: 'auto', mode: 'codex', preset: 'safe', base: 'b\n' });
const decided: Format | undefined = autoText.format;
for (const e of autoText.push('@@\n')) {
  if (e.type === 'section') {
    const line: number = e.inputLine;
    void line;
  } else if (e.type === 'error' && 'result' in e) {
    const applied: number = e.result.applied;
    void applied;
  }
}
const autoTextEnd: string | EditsResult = autoText.end();
const autoFiles: FilesAutoStream<Map<string, string>> = createPatchStream(new Map([['a', 'x\n']]), { format: 'auto', path: 'a' });
const autoFilesPreview: Map<string, string> = autoFiles.preview();
const autoFilesEnd: Map<string, string> | BlocksResult<Map<string, string>> = autoFiles.end();
void [decided, autoTextEnd, autoFilesPreview, autoFilesEnd];
// @ts-expect-error: format 'auto' does not take repair
createPatchStream('a\n', { format: 'auto', repair: true });
// @ts-expect-error: the end of an auto stream may be either format's
const onlyText: string = createPatchStream('a\n', { format: 'auto' }).end();
void onlyText;
// @ts-expect-error: preview() is the map's own kind
const notAMap: Map<string, string> = createPatchStream({ a: 'x\n' }, { format: 'blocks' }).preview();
void notAMap;

// A unified diff streams over a file map, in applyUnified's modes; with report, end() is the report.
import type { UnifiedReport } from 'applypatch';

const unifiedStream: PatchStream<Map<string, string>> = createPatchStream(new Map([['a', 'x\n']]), { format: 'unified', mode: 'git' });
const unifiedEnd: Map<string, string> = unifiedStream.end();
const unifiedReport: UnifiedReport<{ a: string }> = createPatchStream({ a: 'x\n' }, { format: 'unified', report: true }).end();
const unifiedPreview: { a: string } = createPatchStream({ a: 'x\n' }, { format: 'unified', report: true }).preview();
void [unifiedEnd, unifiedReport, unifiedPreview];
// @ts-expect-error: a unified diff streams over a file map, not a text
createPatchStream('a\n', { format: 'unified' });
// @ts-expect-error: applyUnified's modes are 'strict' and 'git'
createPatchStream({ a: 'x\n' }, { format: 'unified', mode: 'codex' });

// The `base` option: a text on the text functions, a file map on the file-map ones.
import { applyBlocks, applyEdit, applyEdits, applyPatch, type MergeConflict, merge3 } from 'applypatch';

const merged3: MergeConflict[] = merge3('a\n', 'b\n', 'c\n', { style: 'zdiff3' }).conflicts;
const onBase: string = apply('b\n', '@@\n-a\n+c', { base: 'a\n' });
const onBaseMap: Record<string, string> = applyPatch({ a: 'b\n' }, '', { base: { a: 'a\n' } }).files;
const onBaseUnified: Map<string, string> = applyUnified(new Map([['a', 'b\n']]), '', { base: new Map([['a', 'a\n']]), report: true }).files;
const editOnBase = applyEdit('b\n', { search: 'a', replace: 'c' }, { base: 'a\n' });
const editConflicts: MergeConflict[] | undefined = editOnBase.ok ? undefined : editOnBase.conflicts;
const editsOnBase: string = applyEdits('b\n', [], { base: 'a\n' }).text;
const blocksOnBase: boolean = applyBlocks({ a: 'b\n' }, '', { base: { a: 'a\n' } }).ok;
// @ts-expect-error: a file map's base is a file map
applyUnified({ a: 'b\n' }, '', { base: 'a\n' });
// @ts-expect-error: a file map's base is a file map
applyBlocks({ a: 'b\n' }, '', { base: 'a\n' });
// @ts-expect-error: a file map's base is a file map
applyPatch({ a: 'b\n' }, '', { base: 'a\n' });
// @ts-expect-error: a text's base is a text
applyEdit('b\n', { search: 'a', replace: 'c' }, { base: { a: 'a\n' } });
// @ts-expect-error: a text's base is a text
apply('b\n', '', { base: new Map() });
void [merged3, onBase, onBaseMap, onBaseUnified, editConflicts, editsOnBase, blocksOnBase];
