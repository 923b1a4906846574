// Type check (not run): the same through require's types.
import { applyPatchTool } from '@openai/agents-core';
import { createMemoryEditor } from 'applypatch';
import { createEditor } from 'applypatch/node';

applyPatchTool({ editor: createMemoryEditor(new Map([['a', 'b']])) });
applyPatchTool({ editor: createEditor({ root: '.' }) });
