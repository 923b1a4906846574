// Type check (not run): the editors are what the Agents SDK's applyPatchTool
// takes, through the package's published types (import).
import { applyPatchTool } from '@openai/agents-core';
import { applyOperation, createFile, createMemoryEditor } from 'applypatch';
import { applyPatchToDirectory, createEditor } from 'applypatch/node';

var memory = createMemoryEditor({ 'a.txt': 'a\n' }, { mode: 'codex' });
var disk = createEditor({ root: '.', mode: 'strict' });
var editors = [memory, disk];
applyPatchTool({ editor: memory });
applyPatchTool({ editor: disk });
var files = memory.files;
// biome-ignore lint/suspicious/noConfusingVoidType: the Agents SDK declares this exact type
var result = disk.updateFile({ type: 'update_file', path: 'a.txt', diff: '', moveTo: 'b.txt' });
var op = { type: 'update_file', path: 'a', diff: '', move_to: 'b' };
var map = applyOperation(new Map([['a', 'x\n']]), op);
var text = createFile('+x');
var dir = applyPatchToDirectory('.', '', { dryRun: true });

export { dir, editors, files, map, result, text };
