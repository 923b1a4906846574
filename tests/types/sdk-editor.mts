// Type check (not run): the editors are what the Agents SDK's applyPatchTool
// takes, through the package's published types (import).
import { applyPatchTool, type Editor as SdkEditor, type ApplyPatchResult as SdkResult } from '@openai/agents-core';
import { type ApplyPatchOperation, applyOperation, createFile, createMemoryEditor } from 'applypatch';
import { applyPatchToDirectory, createEditor, type DirectoryResult } from 'applypatch/node';

const memory = createMemoryEditor({ 'a.txt': 'a\n' }, { mode: 'codex' });
const disk = createEditor({ root: '.', mode: 'strict' });
const editors: SdkEditor[] = [memory, disk];
applyPatchTool({ editor: memory });
applyPatchTool({ editor: disk });
const files: Record<string, string> = memory.files;
// biome-ignore lint/suspicious/noConfusingVoidType: the Agents SDK declares this exact type
const result: Promise<SdkResult | void> = disk.updateFile({ type: 'update_file', path: 'a.txt', diff: '', moveTo: 'b.txt' });
const op: ApplyPatchOperation = { type: 'update_file', path: 'a', diff: '', move_to: 'b' };
const map: Map<string, string> = applyOperation(new Map([['a', 'x\n']]), op);
const text: string = createFile('+x');
const dir: DirectoryResult = applyPatchToDirectory('.', '', { dryRun: true });

export { dir, editors, files, map, result, text };
