// The public API of the npm package `applypatch` (names and shapes: README).
export { apply, applyBatch, type ApplyOptions } from './diff.js';
export { PatchError, errorCodes, type ErrorCode, type Nearest, type Conflict, type PatchErrorFields } from './errors.js';
export type { Mode } from './args.js';
