// What `applypatch --json` prints on standard output: one JSON object, a
// union on `ok` (docs/node.md, "The command line").
import type { BlockProblem, BlockResult, EditApplied, EditFailed } from '../blocks.js';
import type { Conflict, ErrorCode, Nearest } from '../errors.js';
import type { Repair } from '../repair.js';
import type { DirectoryChange } from './apply.js';

/**
 * Every `error.code` of the command line: the library's {@link ErrorCode}s,
 * and `usage` (exit status 2), `no_blocks` (no complete edit block in the
 * input) and `no_match` (an edit block that did not match).
 */
export type CliErrorCode = ErrorCode | 'usage' | 'no_blocks' | 'no_match';

/** One edit of `--format blocks --file`: its `applyEdits` result without `text`. */
export type EditOutcome = Omit<EditApplied, 'text'> | Omit<EditFailed, 'text'>;

/** The error of a run that applied nothing (exit status 1, 2 or 70). */
export interface CliError {
  code: CliErrorCode;
  /** The engine's message, for the model (the same text as on standard error, without the first line). */
  message: string;
  /** The file. */
  path?: string;
  /** 1-based file operation of the patch (`operation + 1`). */
  hunk?: number;
  /** 1-based line of the patch or diff (the same as `diffLine`). */
  line?: number;
  /** The PatchError's own fields, when the error is one. */
  operation?: number;
  diffLine?: number;
  inputLines?: number[];
  nearest?: Nearest;
  diff?: number;
  conflict?: Conflict;
  /** When the input is another format than the one it was read as: which, and the --format or wrapping that takes it. */
  hint?: string;
  /** `no_match`: the 1-based block that failed, and the blocks tried (with `--file`: `applyEdits`' results without `text`). */
  block?: number;
  results?: BlockResult[] | EditOutcome[];
  /** `no_blocks`: the blocks that are malformed. */
  problems?: BlockProblem[];
}

/** A patch or unified diff that applied (or would, with `--dry-run`). */
export interface CliPatchApplied {
  ok: true;
  /** False with `--dry-run`: nothing was written. */
  applied: boolean;
  changes: DirectoryChange[];
  /** Codex's summary (`Success. Updated the following files:` …). */
  summary: string;
  /** With `--dry-run`: the unified diff of what would change. */
  diff?: string;
  /** With `--repair`: every repair made. */
  repairs?: Repair[];
}

/** Edit blocks on one file (`--format blocks --file PATH`) that applied. */
export interface CliBlocksApplied {
  ok: true;
  /** Whether the file was written (false with `--dry-run` or when nothing changed). */
  applied: boolean;
  path: string;
  /** How many blocks. */
  blocks: number;
  /** `applyEdits`' results, without `text`. */
  results: Array<Omit<EditApplied, 'text'>>;
  diff?: string;
}

/** Edit blocks that name their files that applied. */
export interface CliFilesApplied {
  ok: true;
  applied: boolean;
  /** The files written. */
  paths: string[];
  blocks: number;
  results: BlockResult[];
  diff?: string;
}

/** The JSON object `applypatch --json` prints. */
export type CliOutput = CliPatchApplied | CliBlocksApplied | CliFilesApplied | { ok: false; error: CliError };
