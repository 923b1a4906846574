// The public API of the npm package `applypatch` (names and shapes: README).
export { apply, applyBatch, type ApplyOptions } from './diff.js';
export { parse, applyFiles, summary, type Operation, type Patch, type Files } from './patch.js';
export {
  applyOperation,
  createFile,
  type ApplyPatchOperation,
  type CreateFileOperation,
  type UpdateFileOperation,
  type DeleteFileOperation,
} from './operation.js';
export { createMemoryEditor, type Editor, type MemoryEditor, type ApplyPatchResult } from './editor.js';
export { codexTool, codexGrammar, type CodexTool, type CodexToolOptions } from './tool.js';
export { PatchError, errorCodes, type ErrorCode, type Nearest, type Conflict, type PatchErrorFields } from './errors.js';
export type { Mode } from './args.js';
export { parseBlocks, applyEdit, applyEdits, similarity, type Strategy, type Preset, type EditBlock, type ParsedEditBlock, type BlockProblem, type ParsedBlocks, type ParseBlocksOptions, type EditOptions, type LineRange, type LineDifference, type NearestBlock, type EditResult, type EditsResult } from './blocks.js';
