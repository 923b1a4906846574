// Generated from the Rust engine by tests/generated.rs: do not edit.
// `UPDATE_GENERATED=1 cargo test --test generated` rewrites it; npm test fails when it is stale.

/** The modes; the binding takes a mode as its index here. */
export const modes = ['strict', 'codex'] as const;

/** The formats `detectFormat` tells apart. */
export const formats = ['patch', 'diff', 'blocks', 'unified'] as const;

/** The kinds of a patch's operations (`parse(patch).operations[].kind`). */
export const operationKinds = ['add', 'delete', 'update'] as const;

/** The Responses API operation types the binding takes. */
export const operationTypes = ['create_file', 'update_file', 'delete_file'] as const;

/** The edit-block strategies in ladder order; the binding answers a strategy as its index here plus 1 (0: none). */
export const strategies = ['empty-search', 'exact', 'trailing-ws', 'indent', 'anchor', 'fuzzy'] as const;

/** The edit-block options as the binding takes them, in one array of numbers (flags as 1 or 0): name and type. */
export const editOptionFields = [
  ['anchorSlack', 'number'],
  ['threshold', 'number'],
  ['anchorThreshold', 'number'],
  ['unique', 'boolean'],
  ['newlines', 'boolean'],
  ['relativeIndent', 'boolean'],
  ['explain', 'boolean'],
  ['wholeLines', 'boolean'],
  ['emptySearch', 'boolean'],
  ['noChange', 'boolean'],
  ['lineHints', 'boolean'],
  ['replaceAll', 'boolean'],
  ['repair', 'number'],
] as const;

/** The presets' option values, in the order of {@link editOptionFields}. */
export const presets = {
  compatible: [2, 0.85, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  safe: [2, 0.85, 0.5, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0],
} as const;

/** Every error code of the engine, in order. */
export const engineErrorCodes = [
  'invalid_line',
  'empty_hunk',
  'anchor_not_found',
  'anchor_ambiguous',
  'context_not_found',
  'context_ambiguous',
  'out_of_order',
  'unanchored_insertion',
  'mixed_newlines',
  'overlap',
  'invalid_string',
  'invalid_patch',
  'invalid_header',
  'empty_update',
  'empty_patch',
  'file_not_found',
  'invalid_operation',
  'path_outside_root',
  'invalid_path',
  'binary_file',
  'not_a_file',
  'read_failed',
  'write_failed',
  'hunk_count_mismatch',
  'binary_patch',
  'file_exists',
  'wasm_unavailable',
  'internal_error',
  'file_changed',
  'input_too_large',
  'already_applied',
  'merge_conflict',
] as const;

/** Every repair kind, in order; the binding takes the allowed kinds as a bit set (bit k for the k-th kind). */
export const repairKinds = [
  'trailing-ws',
  'unicode',
  'tabs',
  'indent',
  'line-numbers',
  'hunk-header',
  'envelope',
  'already-applied',
  'file-name',
] as const;

/** The engine's limit on one text, in UTF-8 bytes (`limits::MAX_TEXT_BYTES`). */
export const maxTextBytes = 33554432;

/** The binding's mode code is `mode | allowedRepairs << repairShift`. */
export const repairShift = 8;

/** Why an edit block was not applied (`reason` of a failed result). */
export const editFailureReasons = ['not-found', 'ambiguous', 'unknown-file', 'empty-search', 'no-change', 'merge-conflict'] as const;

/** How a SEARCH line and the file differ at the closest place (`nearest.differences[].kind`). */
export const lineDifferenceKinds = ['whitespace', 'changed', 'not-in-file', 'not-in-search'] as const;

/** The modes of `applyUnified`; the binding takes a mode as its index here. */
export const unifiedModes = ['strict', 'git'] as const;

/** What a file diff of a unified diff does (`parseUnified(diff)[].status`). */
export const unifiedStatuses = ['modified', 'added', 'deleted', 'renamed', 'copied'] as const;

/** What a hunk line does (`parseUnified(diff)[].hunks[].lines[].kind`). */
export const unifiedLineKinds = ['context', 'remove', 'add'] as const;

/** The steps of `lineDiff`; the binding answers a step as its index here. */
export const lineOps = ['eq', 'del', 'add'] as const;
