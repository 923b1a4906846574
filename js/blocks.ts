// Search/replace edit blocks: parseBlocks, applyEdit, applyEdits, similarity.
// A failed match is data (`ok: false`), never an exception; only arguments of
// the wrong type throw (TypeError), and strings with a lone surrogate are
// refused with a PatchError like everywhere else in the package.
//
// Over 600 lines on purpose: the `base` forms of applyEdit, applyEdits and
// applyBlocks build the same result shapes as the functions themselves, from
// the checks and types defined here.
import { checkOptions, checkString, checkText, describe, STRICT } from './args.js';
import type { PreparedBlocks } from './binding.js';
import { extra } from './engines/extra.js';
import { call, PatchError } from './errors.js';
import { type editFailureReasons, editOptionFields, type lineDifferenceKinds, presets, strategies } from './generated.js';
import { baseOption, type MergeConflict, mergeWithSplices } from './merge.js';
import { type BaseChange, baseFiles, type FileMap, type Files, fileMap, mergeChanges, putPaths } from './patch.js';
import { addSplices, editSplices, type Splice } from './positions.js';
import { type Repair, type RepairOptions, repairBits, repairKinds } from './repair.js';

/** The ladder's rungs, in the order they are tried. */
export type Strategy = (typeof strategies)[number];

/** `'safe'` (the default): every improvement on. `'compatible'`: apply-edit-block 0.1.0's behaviour. */
export type Preset = keyof typeof presets;

/** One search/replace edit. */
export interface EditBlock {
  search: string;
  replace: string;
  /** Roo Code's `:start_line:`: the 1-based line where SEARCH starts in the file as the model read it; with `lineHints` (safe) it chooses among several exact matches. */
  startLine?: number;
  /** Roo Code's `:end_line:` (kept; not used for matching). */
  endLine?: number;
  /** continue.dev's `replace_all`: replace every non-overlapping exact copy of SEARCH (`matches` says how many). */
  replaceAll?: boolean;
}

/** An edit from `parseBlocks(text, { detailed: true })`. */
export interface ParsedEditBlock extends EditBlock {
  /** The file named on the line before the block (a fence line in between is skipped), or the previous block's. */
  path?: string;
  /** 1-based line of the block's start marker in the text. */
  line: number;
  /** Roo Code's `:start_line:N` header, when the block has one. */
  startLine?: number;
  /** Roo Code's `:end_line:N` header, when the block has one. */
  endLine?: number;
}

/** Something that looked like an edit block but is not one (for example a block that is never closed). */
export interface BlockProblem {
  /** 1-based line in the text. */
  line: number;
  /** What is wrong and how to write it, for the model. */
  message: string;
}

export interface ParsedBlocks {
  edits: ParsedEditBlock[];
  problems: BlockProblem[];
}

export interface ParseBlocksOptions {
  /** `true`: `{ edits, problems }` with paths, fences understood and unclosed blocks reported. */
  detailed?: boolean;
}

export interface EditOptions extends Omit<RepairOptions, 'repair'> {
  /**
   * Repairs allowed, each reported in the result's `repairs` (and to
   * `onRepair`): `true` for all, or a list of kinds. `'line-numbers'`: a
   * SEARCH text whose lines carry read-tool prefixes (`12 | code`) that are
   * their own line numbers in the file is matched without them (when the
   * text as written is not found); `'file-name'` ({@link applyBlocks}): a
   * file name not in the map is taken as the one file it can only mean.
   * Off in both presets.
   */
  repair?: RepairOptions['repair'];
  /** `'safe'` (default) or `'compatible'`; the options below override the preset's. */
  preset?: Preset;
  /** `anchor`: how far the gap between the anchor lines may differ from the SEARCH text's (2). */
  anchorSlack?: number;
  /** `fuzzy`: the lowest line similarity accepted (0.85). */
  threshold?: number;
  /** Fail, listing the candidates, when the winning strategy matches several places (safe: on). */
  unique?: boolean;
  /** `anchor`: the lowest similarity of the lines between the anchors (compatible 0: not checked; safe 0.5). */
  anchorThreshold?: number;
  /** Match CRLF files as LF, write the file's newline, keep a BOM first, take the newline a SEARCH text ends with (safe: on). */
  newlines?: boolean;
  /** `indent`/`anchor`: require the file's nesting to match the SEARCH text's and re-indent relatively, tabs staying tabs (safe: on). */
  relativeIndent?: boolean;
  /** On failure, report the closest place, how similar it is and which lines differ (safe: on). */
  explain?: boolean;
  /** An empty REPLACE over whole lines removes them with their line breaks (safe: on). */
  wholeLines?: boolean;
  /** An empty SEARCH only creates a file: refused on a non-empty file, and the file it creates ends with a newline (safe: on). */
  emptySearch?: boolean;
  /** Fail when SEARCH equals REPLACE: nothing would change (safe: on). */
  noChange?: boolean;
  /** With `unique`: an edit's `startLine` chooses among several exact matches, the one starting within 5 lines of it (safe: on). */
  lineHints?: boolean;
  /** Every edit replaces all exact copies of its SEARCH text, as if each had `replaceAll` (off in both presets). */
  replaceAll?: boolean;
  /**
   * The text the edits were written against, when the source changed since
   * (the user kept typing while the model wrote): the edits apply to `base`,
   * and the result is merged into the source (`merge3`). Where the source
   * changed the same lines, the result fails with `reason:
   * 'merge-conflict'` and `conflicts`, the source unchanged. The results'
   * `start`, `end` and `matches` describe the edit on `base` (`applyEdit`:
   * `start`/`end` span the merge's changes to the source).
   */
  base?: string;
}

/** 1-based, inclusive lines of the file. */
export interface LineRange {
  startLine: number;
  endLine: number;
}

/** A difference between a SEARCH line and the file at the closest place. */
export interface LineDifference {
  kind: (typeof lineDifferenceKinds)[number];
  /** 1-based line in the SEARCH text, and its text. */
  searchLine?: number;
  search?: string;
  /** 1-based line in the file, and its text. */
  fileLine?: number;
  file?: string;
}

/** The place in the file closest to the SEARCH text. */
export interface NearestBlock extends LineRange {
  /** Share of the SEARCH lines found there in order, whitespace around lines ignored. */
  similarity: number;
  /** The file's lines there. */
  text: string;
  /** The lines that differ (at most 50). */
  differences: LineDifference[];
}

/** What every edit result has, applied or not. */
interface EditResultBase {
  /** The new text; on failure the source unchanged. */
  text: string;
  /** apply-edit-block's similarity: 1 for exact and empty-search, the line similarity of the replaced text otherwise; on failure the best fuzzy score. */
  similarity: number;
  /** How many places the winning strategy matched (0 on a plain failure). */
  matches: number;
  /**
   * The changes from the text this edit applied to to `text`, as minimal
   * splices (UTF-16 offsets; `[]` on failure), for an editor: where the
   * engine placed the edit, split by its lines and trimmed on first read; not enumerable.
   */
  readonly splices: Splice[];
}

/** An edit that applied. */
export interface EditApplied extends EditResultBase {
  ok: true;
  /** The strategy that matched. */
  strategy: Strategy;
  /** Replaced range of the source, in UTF-16 code units. */
  start: number;
  end: number;
  /** How the edit was placed when that needs saying: chosen among several matches by its `startLine`, or how many places `replaceAll` replaced. */
  note?: string;
  /** The repairs (`options.repair`) that placed it. */
  repairs?: Repair[];
  reason?: undefined;
  message?: undefined;
}

/** An edit that did not apply: the text is the source, unchanged. */
export interface EditFailed extends EditResultBase {
  ok: false;
  strategy: null;
  /** -1: nothing was replaced. */
  start: -1;
  end: -1;
  /** With `explain`, `unique`, `emptySearch` or `noChange`: why (`'unknown-file'`: {@link applyBlocks} only). */
  reason?: (typeof editFailureReasons)[number];
  /** With `explain` or `unique`: what failed and what to change, for the model. */
  message?: string;
  /** `ambiguous`: the places matched (at most 20). */
  candidates?: LineRange[];
  /** `not-found` with `explain`: the closest place (absent when no SEARCH line is in the file). */
  nearest?: NearestBlock;
  /** `not-found` with `explain`: where the REPLACE text already is (the edit was probably applied). */
  alreadyApplied?: LineRange;
  /** `merge-conflict` (option `base`): where the source and the edit changed the same lines, as `merge3` lists them. */
  conflicts?: MergeConflict[];
  note?: undefined;
  repairs?: undefined;
}

/** The result of one edit: a union on `ok`. */
export type EditResult = EditApplied | EditFailed;

/** {@link applyEdits}: every edit applied, or it stopped at the first failure (the last result). */
export type EditsResult =
  | {
      ok: true;
      /** The text after every edit. */
      text: string;
      /** One result per edit; offsets refer to the text at that step. */
      results: EditApplied[];
      /** How many edits applied: all of them. */
      applied: number;
      /** The changes from the source to `text`, as minimal splices (UTF-16 offsets): the engine's placements of the edits, composed into splices of the source, split by their lines and trimmed on first read; not enumerable. */
      readonly splices: Splice[];
    }
  | {
      ok: false;
      /** The text after the last edit that applied (discard it for all or nothing). */
      text: string;
      /** One result per edit tried, the failing one last. */
      results: EditResult[];
      /** How many edits applied before the failure. */
      applied: number;
      /** The changes from the source to `text`, as minimal splices (UTF-16 offsets): the engine's placements of the edits, composed into splices of the source, split by their lines and trimmed on first read; not enumerable. */
      readonly splices: Splice[];
    };

/** What the binding returns for one edit: `[strategy (0 none, 1.. in ladder order), similarity, start, end, matches, replacement, failure?, runs]` (runs: the splice's byte ranges, for `editSplices`). */
type RawResult = [number, number, number, number, number, string, FailureFields | undefined, Uint32Array];

type FailureFields = Pick<EditFailed, 'reason' | 'message' | 'candidates' | 'nearest' | 'alreadyApplied'> & {
  note?: string;
  repairs?: Repair[];
};

/** The safe preset's options as the binding takes them, made on first use (nothing runs at import). */
let safe: Float64Array | undefined;

/** The binding's strategy numbers: 0 none, then the ladder in order. */
const STRATEGIES: ReadonlyArray<Strategy | null> = [null, ...strategies];

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** The options as the binding takes them: one array of numbers, in the order of `editOptionFields` (to read, not to change). */
function resolve(options: unknown): Float64Array {
  // No options: the safe preset as it is, one array for every call (its
  // callers only read it, and the binding copies it into wasm memory).
  if (options === undefined) {
    safe ??= new Float64Array(presets.safe);
    return safe;
  }
  const o = checkOptions(options);
  const preset = o.preset ?? 'safe';
  if (typeof preset !== 'string' || !Object.hasOwn(presets, preset)) {
    const names = Object.keys(presets)
      .map((p) => `'${p}'`)
      .join(' or ');
    throw new TypeError(`applypatch: options.preset must be ${names}, got ${typeof preset === 'string' ? `'${preset}'` : kind(preset)}`);
  }
  const values = new Float64Array(presets[preset as Preset]);
  for (let i = 0; i < editOptionFields.length; i++) {
    const [name, type] = editOptionFields[i]!;
    const v = o[name];
    if (v === undefined) continue;
    if (name === 'repair') {
      values[i] = repairBits(o, STRICT);
      continue;
    }
    if (typeof v !== type) throw new TypeError(`applypatch: options.${name} must be a ${type}, got ${kind(v)}`);
    values[i] = Number(v);
  }
  const onRepair = o.onRepair;
  if (onRepair !== undefined && typeof onRepair !== 'function') {
    throw new TypeError(`applypatch: options.onRepair must be a function, got ${describe(onRepair)}`);
  }
  return values;
}

/** Passes the results' repairs to `options.onRepair`, in order. */
function reportRepairs(options: unknown, results: ReadonlyArray<{ repairs?: Repair[] }>): void {
  const onRepair = (options as { onRepair?: (r: Repair) => void } | undefined)?.onRepair;
  if (onRepair === undefined) return;
  for (const r of results) for (const repair of r.repairs ?? []) onRepair(repair);
}

/** An edit's text, and its `[startLine, endLine, replaceAll]` for the binding (0 for none). */
function checkEdit(name: string, edit: unknown): { search: string; replace: string; hints: [number, number, number] } {
  if (edit === null || typeof edit !== 'object' || Array.isArray(edit)) {
    throw new TypeError(`applypatch: ${name} must be an object { search, replace }, got ${kind(edit)}`);
  }
  const { search, replace, startLine, endLine, replaceAll } = edit as Record<string, unknown>;
  if (typeof search !== 'string') throw new TypeError(`applypatch: ${name}.search must be a string, got ${kind(search)}`);
  // apply-edit-block treats a missing replace as '' (a deletion); a deletion
  // must be asked for.
  if (typeof replace !== 'string') throw new TypeError(`applypatch: ${name}.replace must be a string, got ${kind(replace)}`);
  const line = (field: string, v: unknown): number => {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new TypeError(
        `applypatch: ${name}.${field} must be a line number (an integer from 1), got ${typeof v === 'number' ? v : kind(v)}`,
      );
    }
    return v;
  };
  if (replaceAll !== undefined && typeof replaceAll !== 'boolean') {
    throw new TypeError(`applypatch: ${name}.replaceAll must be a boolean, got ${kind(replaceAll)}`);
  }
  return {
    search: checkString(`${name}.search`, search),
    replace: checkString(`${name}.replace`, replace),
    hints: [line('startLine', startLine), line('endLine', endLine), replaceAll ? 1 : 0],
  };
}

function finish(source: string, raw: RawResult): EditResult {
  const [code, similarity, start, end, matches, replacement, failure, runs] = raw;
  const strategy = STRATEGIES[code] ?? null;
  const ok = strategy !== null;
  const text = ok ? source.slice(0, start) + replacement + source.slice(end) : source;
  // The engine's invariant: a strategy exactly when the edit applied, and then a range.
  const result = { ok, text, strategy, similarity, start, end, matches } as EditResult;
  return addSplices(extra, (failure === undefined ? result : { ...result, ...failure }) as EditResult, source, text, () =>
    editSplices(extra, source, text, runs),
  );
}

/**
 * Parses SEARCH/REPLACE blocks (`<<<<<<< SEARCH`, the lines to find,
 * `=======`, the new lines, `>>>>>>> REPLACE`) out of a model's message.
 * Without options: apply-edit-block's parser, quirks included (a plain array;
 * unclosed blocks are dropped). With `{ detailed: true }`: strict markers,
 * file names, and problems for blocks that are not closed.
 */
export function parseBlocks(text: string, options: ParseBlocksOptions & { detailed: true }): ParsedBlocks;
export function parseBlocks(text: string, options?: ParseBlocksOptions & { detailed?: false }): EditBlock[];
export function parseBlocks(text: string, options?: ParseBlocksOptions): EditBlock[] | ParsedBlocks;
export function parseBlocks(text: string, options?: ParseBlocksOptions): EditBlock[] | ParsedBlocks {
  checkString('text', text);
  const detailed = checkOptions(options).detailed ?? false;
  if (typeof detailed !== 'boolean') throw new TypeError(`applypatch: options.detailed must be a boolean, got ${kind(detailed)}`);
  return extra.wasm().blocksParse(text, detailed) as EditBlock[] | ParsedBlocks;
}

/**
 * Applies one search/replace edit to `source` with the first strategy of the
 * ladder that matches. A failed match returns `ok: false` with the source
 * unchanged; only an input over the limits throws (a {@link PatchError},
 * `input_too_large`).
 */
export function applyEdit(source: string, edit: EditBlock, options?: EditOptions): EditResult {
  // Its lone surrogates are refused as it is put into wasm memory, below.
  checkText('source', source);
  const { search, replace, hints } = checkEdit('edit', edit);
  const base = baseOption(checkOptions(options));
  // Merged into, not put: checked here.
  if (base !== undefined) return editOverBase(checkString('source', source), base, applyEdit(base, edit, { ...options, base: undefined }));
  const args = resolve(options);
  const len = extra.putInput(source, 0, 'source');
  const searchLen = extra.putInput(search, len);
  const replaceLen = extra.putInput(replace, len + searchLen);
  const result = finish(
    source,
    call(() => extra.wasm().blocksApplyEdit(len, searchLen, replaceLen, args, new Float64Array(hints))) as RawResult,
  );
  reportRepairs(options, [result]);
  return result;
}

/**
 * Applies edits in order, each to the previous one's output, and stops at
 * the first failure (`text` is then the text after the last edit that applied).
 */
export function applyEdits(source: string, edits: readonly EditBlock[], options?: EditOptions): EditsResult {
  checkText('source', source);
  if (!Array.isArray(edits)) throw new TypeError(`applypatch: edits must be an array of { search, replace }, got ${kind(edits)}`);
  const flat: string[] = [];
  const hints = new Float64Array(edits.length * 3);
  // Every index, holes included: forEach would skip a hole in a sparse array.
  for (let i = 0; i < edits.length; i++) {
    const checked = checkEdit(`edits[${i}]`, edits[i]);
    flat.push(checked.search, checked.replace);
    hints.set(checked.hints, i * 3);
  }
  const base = baseOption(checkOptions(options));
  if (base !== undefined)
    return editsOverBase(checkString('source', source), base, applyEdits(base, edits, { ...options, base: undefined }));
  const args = resolve(options);
  const len = extra.putInput(source, 0, 'source');
  const raws = call(() => extra.wasm().blocksApplyEdits(len, flat, args, hints)) as [...RawResult[], Uint32Array];
  // The engine's splices of all the edits, as byte ranges of the source.
  const runs = raws.pop() as Uint32Array;
  let text = source;
  const results = (raws as RawResult[]).map((raw) => {
    const r = finish(text, raw);
    text = r.text;
    return r;
  });
  const applied = results.filter((r) => r.ok).length;
  reportRepairs(options, results);
  return addSplices(extra, { ok: applied === edits.length, text, results, applied } as EditsResult, source, text, () =>
    editSplices(extra, source, text, runs),
  );
}

/**
 * `merged` (an edit's result on base) merged into the source; a conflict
 * answers the failure it makes of `onBase` (@internal).
 */
function mergeEdit(
  source: string,
  base: string,
  patched: string,
): { text: string; splices: Splice[] } | { failure: (r: EditResult) => EditFailed } {
  try {
    return mergeWithSplices(extra, base, source, patched);
  } catch (e) {
    if (!(e instanceof PatchError) || e.code !== 'merge_conflict') throw e;
    return { failure: (r) => conflictFailure(source, r, e) };
  }
}

/** An edit result on base turned into the failure of a merge conflict: the source unchanged. */
function conflictFailure<T extends { similarity: number; matches: number }>(source: string, r: T, e: PatchError): EditFailed {
  const failed = {
    ok: false,
    text: source,
    strategy: null,
    similarity: r.similarity,
    start: -1,
    end: -1,
    matches: r.matches,
    reason: 'merge-conflict',
    message: e.message,
    conflicts: e.conflicts ?? [],
  } as const;
  return addSplices(extra, failed, source, source) as EditFailed;
}

/** {@link applyEdit} with `base`: `onBase` (the edit applied to base) merged into the source. */
function editOverBase(source: string, base: string, onBase: EditResult): EditResult {
  if (!onBase.ok) return addSplices(extra, { ...onBase, text: source }, source, source);
  const m = mergeEdit(source, base, onBase.text);
  if ('failure' in m) return m.failure(onBase);
  // The range of the source the merge replaced: from the first change to the last.
  const start = m.splices[0]?.from ?? 0;
  const end = m.splices.at(-1)?.to ?? 0;
  return withSplices({ ...onBase, text: m.text, start, end }, m.splices);
}

/** Gives a result its (known) `splices`, not enumerable, as {@link addSplices} does. */
function withSplices<T extends object>(target: T, splices: Splice[]): T & { readonly splices: Splice[] } {
  return Object.defineProperty(target, 'splices', { value: splices, enumerable: false, configurable: true }) as T & {
    readonly splices: Splice[];
  };
}

/** {@link applyEdits} with `base`: the edits' result on base merged into the source; a conflict fails the last edit. */
function editsOverBase(source: string, base: string, onBase: EditsResult): EditsResult {
  if (!onBase.ok) return addSplices(extra, { ok: false, text: source, results: onBase.results, applied: onBase.applied }, source, source);
  const m = mergeEdit(source, base, onBase.text);
  if ('text' in m) return withSplices({ ok: true, text: m.text, results: onBase.results, applied: onBase.applied }, m.splices);
  const results: EditResult[] = [...onBase.results];
  const last = results.pop() as EditResult;
  results.push(m.failure(last));
  return addSplices(extra, { ok: false, text: source, results, applied: results.length - 1 }, source, source);
}

/**
 * apply-edit-block's similarity: the longest common subsequence of the two
 * texts' lines (split on `\n`, compared exactly) over the longer line count.
 */
export function similarity(a: string, b: string): number {
  checkString('a', a);
  checkString('b', b);
  return call(() => extra.wasm().blocksSimilarity(a, b));
}

/** Where a block of {@link applyBlocks} is and which file it went to. */
interface BlockPlace {
  /** The file the block applies to. */
  path: string;
  /** 1-based line of the block's start marker in the message. */
  line: number;
  /** 1-based line of its end marker. */
  endMarkerLine: number;
}

/** One block of {@link applyBlocks}: the file it went to, and its result (offsets and text left out); a union on `ok`. */
export type BlockResult =
  | (Omit<EditApplied, 'text' | 'start' | 'end' | 'splices'> & BlockPlace)
  | (Omit<EditFailed, 'text' | 'start' | 'end' | 'splices'> & BlockPlace);

/** {@link applyBlocks}: a union on `ok`. */
export type BlocksResult<T extends Files> =
  | {
      /** Every block applied, there was at least one, and none was malformed. */
      ok: true;
      /** The new file map, of the same kind. */
      files: T;
      /** One per block, in message order. */
      results: BlockResult[];
      problems: [];
    }
  | {
      ok: false;
      /** The file map unchanged: all or nothing. */
      files: T;
      /** One per block tried, in message order, the failing one last (none when a block is malformed). */
      results: BlockResult[];
      /** Blocks that are not closed, or malformed (then nothing is applied). */
      problems: BlockProblem[];
    };

export interface ApplyBlocksOptions extends Omit<EditOptions, 'base'> {
  /** The file for blocks that name none. */
  path?: string;
  /**
   * The files the message was written against, when the files changed
   * since: the blocks apply to `base`, and each file they changed is merged
   * into the current one (`merge3`); a block for a file missing from `base`
   * fails (`unknown-file`, naming it) unless it creates the file. Where a
   * file changed the same lines, the result fails at that file's last block
   * with `reason: 'merge-conflict'` and `conflicts`, the map unchanged.
   */
  base?: Files;
}

/**
 * Applies the SEARCH/REPLACE blocks of a model's message to a file map (a
 * plain object or a Map): each block goes to the file named on the line
 * before it (or `options.path`), in message order, each to its file as the
 * blocks before left it. A block for a file the map lacks creates it when its
 * SEARCH text is empty, and fails otherwise (`reason: 'unknown-file'`). All or
 * nothing: the first failure stops, and `files` is then the map unchanged.
 */
export function applyBlocks<T extends Files>(files: T, message: string, options?: ApplyBlocksOptions): BlocksResult<T> {
  const map = fileMap(files);
  checkString('message', message);
  const args = resolve(options);
  const path = checkOptions(options).path;
  if (path !== undefined && typeof path !== 'string') throw new TypeError(`applypatch: options.path must be a string, got ${kind(path)}`);
  if (checkOptions(options).base !== undefined) return blocksOverBase(map, message, options as ApplyBlocksOptions);
  const result = withBlocks(message, (prepared) => applyPreparedBlocks(map, prepared, args, path));
  reportRepairs(options, result.results);
  return result;
}

/**
 * {@link applyBlocks} with `base`: the blocks applied to the base map, and
 * each file they changed merged into the current map. A conflict fails the
 * file's last block (`merge-conflict`); the results after it are dropped, as
 * after any failure.
 */
function blocksOverBase<T extends Files>(map: FileMap<T>, message: string, options: ApplyBlocksOptions): BlocksResult<T> {
  const base = baseFiles(options as Record<string, unknown>);
  const onBase = applyBlocks(base, message, { ...options, base: undefined });
  if (!onBase.ok) return { ...onBase, files: map.with([]) };
  const baseMap = fileMap(base);
  const patched = fileMap(onBase.files);
  const changes: BaseChange[] = [];
  for (const path of new Set(onBase.results.map((r) => r.path))) {
    const before = baseMap.get(path);
    if (patched.get(path) !== before) changes.push({ path, status: before === undefined ? 'added' : 'modified' });
  }
  try {
    return { ...onBase, files: map.with(mergeChanges(extra, map, baseMap, patched, changes)) };
  } catch (e) {
    if (!(e instanceof PatchError) || e.code !== 'merge_conflict') throw e;
    let last = onBase.results.length - 1;
    while (last > 0 && onBase.results[last]?.path !== e.path) last--;
    const block = onBase.results[last] as BlockResult;
    const failed: BlockResult = {
      ok: false,
      strategy: null,
      similarity: block.similarity,
      matches: block.matches,
      reason: 'merge-conflict',
      message: e.message,
      conflicts: e.conflicts ?? [],
      path: block.path,
      line: block.line,
      endMarkerLine: block.endMarkerLine,
    };
    const results: BlockResult[] = [...onBase.results.slice(0, last), failed];
    return { ok: false, files: map.with([]), results, problems: [] };
  }
}

/** The `repair` option's position in the binding's options. */
const REPAIR = editOptionFields.findIndex(([name]) => name === 'repair');
const FILE_NAME = 1 << repairKinds.indexOf('file-name');

/** Options as the binding takes them (for {@link applyPreparedBlocks}). @internal */
export function blockOptions(options?: EditOptions): Float64Array {
  return resolve(options);
}

/** Parses the blocks of `message` once, runs `use` on them, then frees them. @internal */
export function withBlocks<R>(message: string, use: (prepared: PreparedBlocks) => R): R {
  return extra.withPrepared('PreparedBlocks', () => call(() => extra.wasm().prepareBlocks(message)), use);
}

/** Applies prepared blocks to the files of a map they go to. @internal */
export function applyPreparedBlocks<T extends Files>(
  map: FileMap<T>,
  prepared: PreparedBlocks,
  args: Float64Array,
  path: string | undefined,
): BlocksResult<T> {
  // With the `file-name` repair the engine reads the blocks' names against
  // every path of the map (only the paths cross). Without it, only when a
  // block's file is unknown: its message then names the one file the name
  // can mean, if there is one.
  const fileNames = ((args[REPAIR] as number) & FILE_NAME) !== 0;
  if (fileNames) call(() => prepared.name(map.paths, args));
  const result = applyNamedBlocks(map, prepared, args, path);
  const failed = result.results.at(-1);
  if (fileNames || result.ok || failed?.reason !== 'unknown-file') return result;
  // A directory's map lists the root's files here (bounded; see js/node/directory.ts).
  const known = map.known([failed.path]) ?? map.paths;
  call(() => prepared.name(known as string[], args));
  return applyNamedBlocks(map, prepared, args, path);
}

function applyNamedBlocks<T extends Files>(
  map: FileMap<T>,
  prepared: PreparedBlocks,
  args: Float64Array,
  path: string | undefined,
): BlocksResult<T> {
  // Only the files the blocks go to cross into wasm, not the whole map;
  // their paths are the engine's already (`prepared.paths`).
  const named = prepared.paths(path).split('\n');
  named.pop();
  const [ok, changes, numbers, paths, full, problems] = call(() => prepared.apply(putPaths(extra, map, named), args, path)) as [
    boolean,
    Array<string | null>,
    Float64Array,
    string,
    Array<number | BlockResult>,
    BlockProblem[],
  ];
  // The blocks cross flat (src/wasm.rs `PreparedBlocks::apply`); those with a failure or a note, whole.
  const blockPaths = paths.split('\n');
  const results: BlockResult[] = new Array(blockPaths.length - 1);
  for (let i = 0; i < results.length; i++) {
    const k = i * 6;
    results[i] = {
      path: blockPaths[i] as string,
      line: numbers[k] as number,
      endMarkerLine: numbers[k + 1] as number,
      ok: numbers[k + 2] === 1,
      strategy: STRATEGIES[numbers[k + 3] as number] ?? null,
      similarity: numbers[k + 4] as number,
      matches: numbers[k + 5] as number,
    } as BlockResult;
  }
  for (let i = 0; i < full.length; i += 2) results[full[i] as number] = full[i + 1] as BlockResult;
  return { ok, files: map.with(changes), results, problems } as BlocksResult<T>;
}
