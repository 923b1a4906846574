// applypatch/node: the Node-only parts (they use node:fs), kept out of the
// main entry so that browsers and bundlers never pull them in.

export { applyPatchToDirectory, type DirectoryChange, type DirectoryOptions, type DirectoryResult } from './apply.js';
export type { CliBlocksApplied, CliError, CliErrorCode, CliFilesApplied, CliOutput, CliPatchApplied, EditOutcome } from './cli-output.js';
export { createEditor, type EditorOptions } from './directory-editor.js';
export {
  createToolHandlers,
  type ToolChange,
  type ToolHandlers,
  type ToolHandlersOptions,
  type ToolResult,
} from './tools.js';
export { applyUnifiedToDirectory, type UnifiedDirectoryOptions } from './unified-dir.js';
