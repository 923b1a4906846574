// The public API of the npm package `applypatch` (names and shapes: README).

export type { Mode } from './args.js';
export {
  type ApplyBlocksOptions,
  applyBlocks,
  applyEdit,
  applyEdits,
  type BlockProblem,
  type BlockResult,
  type BlocksResult,
  type EditBlock,
  type EditOptions,
  type EditResult,
  type EditsResult,
  type LineDifference,
  type LineRange,
  type NearestBlock,
  type ParseBlocksOptions,
  type ParsedBlocks,
  type ParsedEditBlock,
  type Preset,
  parseBlocks,
  type Strategy,
  similarity,
} from './blocks.js';
export { type ApplyOptions, type ApplyReport, type ApplyReportOptions, apply, applyBatch } from './diff.js';
export { type Conflict, type ErrorCode, errorCodes, type Nearest, PatchError, type PatchErrorFields } from './errors.js';
export { detectFormat, type Format } from './format.js';
export { type JsonSchema, type ToolDefinition, type ToolName, toolDefinitions } from './mcp/definitions.js';
export { type ApplyPatchResult, createMemoryEditor, type Editor, type MemoryEditor } from './memory-editor.js';
export { type Merge3Options, type Merge3Result, type MergeConflict, type MergeStyle, merge3 } from './merge.js';
export {
  type ApplyPatchOperation,
  applyOperation,
  type CreateFileOperation,
  createFile,
  type DeleteFileOperation,
  type UpdateFileOperation,
} from './operation.js';
export {
  applyFiles,
  applyPatch,
  type Files,
  type FilesOptions,
  type Operation,
  type Patch,
  type PatchChange,
  type PatchResult,
  parse,
  summary,
} from './patch.js';
export type { PlacedSection, Splice } from './positions.js';
export { type Repair, type RepairKind, type RepairOptions, repairKinds } from './repair.js';
export { createToolInputDecoder, type ToolInputOptions } from './responses.js';
export {
  createPatchStream,
  type FilesStreamOptions,
  type PatchStream,
  type StreamEvent,
  type StreamOptions,
  type StreamSplice,
  type UnifiedReportStream,
  type UnifiedStreamOptions,
} from './stream.js';
export type { AutoStream, AutoStreamOptions, FilesAutoStream, FilesAutoStreamOptions, TextAutoStream } from './stream-auto.js';
export type {
  BlocksStream,
  BlocksStreamEvent,
  BlocksStreamOptions,
  FilesBlocksStream,
  FilesBlocksStreamEvent,
  FilesBlocksStreamOptions,
} from './stream-blocks.js';
export { type CodexTool, type CodexToolOptions, codexGrammar, codexTool } from './tool.js';
export {
  applyUnified,
  type HunkPlacement,
  type LineOp,
  lineDiff,
  parseUnified,
  type UnifiedDiffOptions,
  type UnifiedFile,
  type UnifiedHunk,
  type UnifiedLine,
  type UnifiedMode,
  type UnifiedOptions,
  type UnifiedReport,
  type UnifiedReportOptions,
  unifiedDiff,
} from './unified.js';
