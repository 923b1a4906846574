// The public API of the npm package `applypatch` (names and shapes: README).
export { apply, applyBatch, type ApplyOptions } from './diff.js';
export { PatchError, errorCodes, type ErrorCode, type Nearest, type Conflict, type PatchErrorFields } from './errors.js';
export type { Mode } from './args.js';
export { parseBlocks, applyEdit, applyEdits, similarity, type Strategy, type Preset, type EditBlock, type ParsedEditBlock, type BlockProblem, type ParsedBlocks, type ParseBlocksOptions, type EditOptions, type LineRange, type LineDifference, type NearestBlock, type EditResult, type EditsResult } from './blocks.js';
