// The tools of `applypatch mcp` as plain JSON Schema, for any framework's
// function tools (the MCP server lists exactly these). No Node and no SDK
// here: the main entry exports them, browsers included.

/** A JSON Schema object (draft 2020-12 keywords; plain data). */
export type JsonSchema = { [key: string]: unknown };

/** The names of the tools. */
export type ToolName = 'apply_patch' | 'edit_file' | 'apply_unified_diff' | 'read_file';

/** One tool: its name, what the model is told, and the JSON Schemas of its input and of its `structuredContent`. */
export interface ToolDefinition {
  name: ToolName;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

const dryRun: JsonSchema = {
  type: 'boolean',
  default: false,
  description: 'Check the edit and return the unified diff it would make; write nothing.',
};

/** A failure's fields (`isError: true`): the code and the message for the model, and where. */
const errorProperties: JsonSchema = {
  code: { type: 'string', description: 'What failed, e.g. context_not_found, context_ambiguous, path_outside_root, file_changed.' },
  message: { type: 'string', description: 'What failed, where, and what to change.' },
  path: { type: 'string' },
  hunk: { type: 'integer', description: '1-based file operation of the patch, or file of the diff, that failed.' },
  line: { type: 'integer', description: '1-based line of the patch or diff.' },
  edit: { type: 'integer', description: 'edit_file: the 1-based edit that failed.' },
  inputLines: {
    type: 'array',
    items: { type: 'integer' },
    description: '1-based lines of the file (for an ambiguous match, where each place starts).',
  },
  candidates: {
    type: 'array',
    description: 'edit_file, ambiguous: the places oldText matched.',
    items: {
      type: 'object',
      properties: { startLine: { type: 'integer' }, endLine: { type: 'integer' } },
      required: ['startLine', 'endLine'],
    },
  },
  nearest: { type: 'object', description: 'Where the file came closest to the expected text.' },
};

/** The result of the editing tools: what changed, or a failure. */
const editOutput: JsonSchema = {
  type: 'object',
  properties: {
    applied: { type: 'boolean', description: 'True when the files were written (false for a dry run).' },
    changes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          status: { type: 'string', enum: ['added', 'modified', 'deleted'] },
          movedFrom: { type: 'string', description: 'For a move: the path it came from (also listed as deleted).' },
          changedOnDisk: {
            type: 'boolean',
            description:
              'The file had changed on disk since this server last read or wrote it; the edit was merged into it (three-way merge).',
          },
        },
        required: ['path', 'status'],
      },
    },
    diff: { type: 'string', description: 'A unified diff of the changes.' },
    ...errorProperties,
  },
  anyOf: [{ required: ['applied', 'changes'] }, { required: ['code', 'message'] }],
};

const readOutput: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    content: { type: 'string', description: "The file's text, exactly as it is on disk." },
    ...errorProperties,
  },
  anyOf: [{ required: ['path', 'content'] }, { required: ['code', 'message'] }],
};

const APPLY_PATCH = `Edit files under the workspace root with a patch, all or nothing. The patch goes in the JSON string \`patch\` (its newlines escaped as \\n like any JSON string; no Markdown fence). Paths are relative to the root.

The format:
*** Begin Patch
*** Add File: path/to/new.txt
+every line of the new file, each starting with +
*** Delete File: path/to/old.txt
*** Update File: path/to/file.py
*** Move to: path/to/renamed.py   (optional: rename while updating)
@@ def the_function():   (optional: a line above the change that locates it)
 a context line, starting with one space
-a line to remove, starting with -
+a line to add, starting with +
*** End Patch

Rules: show about 3 unchanged lines before and after each change, copied exactly from the file; context and removed lines must match the file, and the place must be unique: when the same lines occur twice, add an @@ line naming the enclosing class or function (several @@ lines narrow it further). Start a new @@ section for each separate change in a file. New files are only + lines. Give \`dryRun: true\` to see the diff without writing. On failure nothing is written and the message says which file, which hunk, and what to change.`;

const EDIT_FILE = `Edit one text file under the workspace root by replacing exact text; all edits apply, in order, or none does. Each edit's oldText must match exactly one place in the file as the previous edits left it (copy it from the file, including indentation); when it matches several places the call fails and lists them: add surrounding lines to make it unique, or set replaceAll: true to replace every copy. Line endings, tabs and a byte-order mark of the file are kept. Returns a unified diff of the change; \`dryRun: true\` writes nothing.`;

const APPLY_UNIFIED_DIFF = `Apply a unified diff (git diff output, or diff -u) to the files under the workspace root, all or nothing. The diff goes in the JSON string \`diff\`. Each hunk must apply at its stated line or at exactly one other place, and its @@ counts must agree with its lines. New files (--- /dev/null), deletes, renames and mode changes are applied. \`dryRun: true\` returns the diff it would make and writes nothing.`;

const READ_FILE = `Read a text file under the workspace root, exactly as it is (to copy exact lines into an edit). Paths are relative to the root.`;

/**
 * The tools of `applypatch mcp`, as JSON Schema for any framework's function
 * tools. Run them with `createToolHandlers` from `applypatch/node`.
 */
export const toolDefinitions: readonly ToolDefinition[] = deepFreeze([
  {
    name: 'apply_patch',
    description: APPLY_PATCH,
    inputSchema: {
      type: 'object',
      properties: {
        patch: { type: 'string', description: 'The whole patch, from *** Begin Patch to *** End Patch.' },
        dryRun,
      },
      required: ['patch'],
      additionalProperties: false,
    },
    outputSchema: editOutput,
  },
  {
    name: 'edit_file',
    description: EDIT_FILE,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file, relative to the root.' },
        edits: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              oldText: { type: 'string', description: 'Text to search for: it must match exactly one place.' },
              newText: { type: 'string', description: 'Text to put there.' },
              replaceAll: { type: 'boolean', default: false, description: 'Replace every copy of oldText.' },
            },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun,
      },
      required: ['path', 'edits'],
      additionalProperties: false,
    },
    outputSchema: editOutput,
  },
  {
    name: 'apply_unified_diff',
    description: APPLY_UNIFIED_DIFF,
    inputSchema: {
      type: 'object',
      properties: {
        diff: { type: 'string', description: 'The unified diff.' },
        dryRun,
      },
      required: ['diff'],
      additionalProperties: false,
    },
    outputSchema: editOutput,
  },
  {
    name: 'read_file',
    description: READ_FILE,
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'The file, relative to the root.' } },
      required: ['path'],
      additionalProperties: false,
    },
    outputSchema: readOutput,
  },
] satisfies ToolDefinition[]);

/** Frozen all the way down: the server lists these very objects. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
