/// <reference types="node" />
// The `applypatch` command: applies a patch to a directory, safely.
// Over 600 lines: one argument parser and one output format for every
// subcommand (apply, merge, mcp), which read best side by side.
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { PreparedBlocks } from '../binding.js';
import {
  applyEdits,
  applyPreparedBlocks,
  type BlocksResult,
  blockOptions,
  type EditApplied,
  type EditResult,
  type ParsedBlocks,
  type ParsedEditBlock,
  type Preset,
  parseBlocks,
  withBlocks,
} from '../blocks.js';
import { PatchError } from '../errors.js';
import { detectFormat } from '../format.js';
import { type MergeStyle, merge3 } from '../merge.js';
import { fileMap } from '../patch.js';
import { type RepairKind, repairKinds, repairLine } from '../repair.js';
import { unifiedFileDiff as unifiedDiff } from '../unified.js';
import { type DirectoryOptions, type DirectoryResult, diffOf, listedMap, patchDirectory, plan, withFs } from './apply.js';
import type { CliError, CliErrorCode, CliOutput } from './cli-output.js';
import { binaryError, commit, type Fs, openRoot, type Root, readTarget, resolveTarget } from './directory.js';
import { applyUnifiedToDirectory } from './unified-dir.js';

export const HELP = `Usage: applypatch [options] [PATCH_FILE | -]
       applypatch mcp --root DIR [--read-only]
       applypatch merge [-p] [--diff3 | --zdiff3] [-L NAME]... OURS BASE THEIRS

Applies a patch to the files of a directory: all of it, or nothing.

The patch is the Codex apply_patch format ('*** Begin Patch' ... '*** End
Patch', with '*** Add File:', '*** Delete File:', '*** Update File:' and
'*** Move to:'), read from PATCH_FILE, or from standard input when PATCH_FILE
is '-' or missing. On success it prints what Codex prints:
  Success. Updated the following files:
  A added.txt
  M changed.txt
  D deleted.txt

It also applies unified diffs (git diff output, diff -u; new files, deletes,
renames and mode changes too) and search/replace edit blocks: each is
detected, or named with --format.

Options:
  --mode strict|codex|git
                       how hunks match (default: strict)
                         strict: context and removed lines match byte for
                           byte and exactly once, or the patch fails
                         codex: what the Codex CLI does (first match,
                           whitespace and Unicode-punctuation fallbacks)
                         git (unified diffs): what git apply writes
                         strict, for a unified diff: each hunk exactly at
                           its stated line or at exactly one other place,
                           and its header counts must agree
  --repair[=KINDS]     (strict) forgive the model's small slips when the place
                       is still certain, and name each one on standard error:
                       trailing-ws, unicode, tabs, indent, line-numbers,
                       hunk-header, envelope (a fence or heredoc around the
                       patch, a missing Begin/End Patch), already-applied (a
                       patch sent twice is a no-op). KINDS: a comma-separated
                       list; default: all
  --cwd DIR            the directory to patch (default: the current one)
  --dry-run            check the patch and print a unified diff of what it
                       would change; write nothing
  --json               print the result as JSON on standard output:
                         {"ok":true,"applied":true,"changes":[{"path","status"}],
                          "summary":"...","diff":"..." (with --dry-run)}
                         {"ok":false,"error":{"code","message","path",
                          "hunk","line",...}}
                       (type CliOutput in applypatch/node); the human text
                       still goes to standard error
  --format patch|unified|blocks
                       the input: a patch, a unified diff, or search/replace
                       edit blocks (<<<<<<< SEARCH / ======= / >>>>>>> REPLACE);
                       detected when not given
  --file PATH          edit blocks: the file the blocks edit (not needed when
                       each block names its file on the line before it)
  --preset safe|compatible
                       with --format blocks: how blocks match (default: safe)
  -h, --help           print this help
  --version            print the version

Safety: every path stays inside the directory (absolute paths, '..' escapes
and symlinks that lead outside are refused; on Linux even against a
directory swapped for a symlink while the patch runs). The whole patch is
computed in memory first; then each file is written to a temporary file next
to it and renamed into place, and if any write fails, the files already
changed are restored. A file that changed on disk since it was read (another
program or patch wrote it) fails the patch (file_changed): nothing is
written, read it again. File modes are kept. Files that are not UTF-8 text
are never updated (they may be deleted or replaced whole).

applypatch mcp serves the tools apply_patch, edit_file, apply_unified_diff
and read_file on DIR to a Model Context Protocol client over standard input
and output (it needs the package @modelcontextprotocol/sdk installed). With
--read-only, edits are only checked (dry runs). Logs go to standard error.

Exit status:
  0  the patch applied (with --dry-run: it would apply)
  1  the patch did not apply; nothing was written. The error names the file,
     the hunk (the patch's file operation, counted from 1) and the line.
  2  usage error (unknown option, unreadable patch file, no such --cwd)
  70 internal error (a bug); with --json, still one JSON object
`;

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input; null when it is a terminal. */
  stdin: () => Promise<Buffer | null>;
  cwd: string;
  version?: string;
  /** @internal Replaces node:fs functions (tests inject failures). */
  fs?: Partial<Fs>;
}

class UsageError extends Error {}

interface Args {
  mode: 'strict' | 'codex' | 'git';
  repair?: true | RepairKind[];
  cwd?: string;
  dryRun: boolean;
  json: boolean;
  format: 'patch' | 'blocks' | 'unified' | undefined;
  file?: string;
  preset: Preset;
  input?: string;
  help: boolean;
  version: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'strict', dryRun: false, json: false, format: undefined, preset: 'safe', help: false, version: false };
  const positional: string[] = [];
  const takes = new Set(['--mode', '--cwd', '--format', '--file', '--preset']);
  const choices: Record<string, string[]> = {
    '--mode': ['strict', 'codex', 'git'],
    '--format': ['patch', 'unified', 'blocks'],
    '--preset': ['safe', 'compatible'],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (takes.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      const allowed = choices[name];
      if (allowed !== undefined && !allowed.includes(value))
        throw new UsageError(`${name} must be ${allowed.join(' or ')}, got '${value}'`);
      if (name === '--mode') args.mode = value as Args['mode'];
      else if (name === '--cwd') args.cwd = value;
      else if (name === '--format') args.format = value as Args['format'];
      else if (name === '--file') args.file = value;
      else args.preset = value as Preset; // checked against choices above
      continue;
    }
    if (name === '--repair') {
      if (eq < 0) args.repair = true;
      else {
        const kinds = arg.slice(eq + 1).split(',');
        const bad = kinds.filter((k) => !(repairKinds as readonly string[]).includes(k));
        if (bad.length > 0) throw new UsageError(`--repair: unknown kind '${bad[0]}'; the kinds are ${repairKinds.join(', ')}`);
        args.repair = kinds as RepairKind[];
      }
      continue;
    }
    if (eq > 0) throw new UsageError(`${name} takes no value`);
    if (arg === '--dry-run') args.dryRun = true;
    else if (arg === '--json') args.json = true;
    else if (arg === '-h' || arg === '--help') args.help = true;
    else if (arg === '--version') args.version = true;
    else throw new UsageError(`unknown option ${arg}`);
  }
  if (positional.length > 1) throw new UsageError(`one patch file at most, got ${positional.length}: ${positional.join(' ')}`);
  if (positional.length === 1 && positional[0] !== '-') args.input = positional[0];
  // --file names the one file edit blocks edit: it implies --format blocks.
  if (args.format === undefined && args.file !== undefined) args.format = 'blocks';
  if (args.format !== 'blocks' && args.file !== undefined)
    throw new UsageError('--file is for --format blocks; a patch names its own files');
  if (args.format === 'patch' && args.mode === 'git')
    throw new UsageError("--mode git is for unified diffs; a patch's modes are strict and codex");
  if (args.format === 'unified' && args.mode === 'codex')
    throw new UsageError("--mode codex is for patches; a unified diff's modes are strict and git");
  if (args.repair !== undefined && args.mode !== 'strict')
    throw new UsageError(
      `--repair is for --mode strict; --mode ${args.mode} does exactly what ${args.mode === 'git' ? 'git apply' : 'Codex'} does`,
    );
  if (args.repair !== undefined && args.format === 'blocks') throw new UsageError('--repair is for patches; edit blocks use --preset safe');
  if (args.repair !== undefined && args.format === 'unified') throw new UsageError('--repair is for *** Begin Patch patches');
  return args;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

async function readInput(args: Args, io: Io): Promise<string> {
  let bytes: Buffer | null;
  let name: string;
  if (args.input !== undefined) {
    name = args.input;
    try {
      bytes = nodeFs.readFileSync(nodePath.resolve(io.cwd, args.input));
    } catch (e) {
      throw new UsageError(`cannot read ${args.input}: ${(e as Error).message}`);
    }
  } else {
    name = 'standard input';
    bytes = await io.stdin();
    if (bytes === null)
      throw new UsageError(`no ${args.format === 'blocks' ? 'edit blocks' : 'patch'}: give a file, or pipe it on standard input`);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new UsageError(`${name} is not UTF-8 text`);
  }
}

/** The error as JSON, with the hunk (1-based operation) added. */
function errorJson(e: PatchError): CliError {
  const out: CliError = { code: e.code, message: e.message };
  for (const key of ['path', 'operation', 'diffLine', 'inputLines', 'nearest', 'diff', 'conflict'] as const) {
    if (e[key] !== undefined) Object.assign(out, { [key]: e[key] });
  }
  if (e.operation !== undefined) out.hunk = e.operation + 1;
  if (e.diffLine !== undefined) out.line = e.diffLine;
  return out;
}

/** The one JSON object of `--json`, typed. */
function json(io: Io, out: CliOutput): void {
  io.stdout(`${JSON.stringify(out)}\n`);
}

/**
 * When `input`, read as `used`, is another format (detectFormat): which, and
 * how to run it. A bare V4A diff names no file: it goes into a patch.
 */
function formatHint(input: string, used: 'patch' | 'unified'): string | undefined {
  const found = detectFormat(input);
  if (found === used) return undefined;
  switch (found) {
    case 'diff':
      return "This input is a bare V4A update diff: it does not say which file it changes. Put it in a patch: '*** Begin Patch', then '*** Update File: PATH', then the diff, then '*** End Patch'.";
    case 'blocks':
      return 'This input is search/replace edit blocks: run it with --format blocks, or without --format (and with --file PATH when the blocks do not name their file).';
    case 'unified':
      return 'This input is a unified diff: run it with --format unified, or without --format.';
    case 'patch':
      return "This input is a '*** Begin Patch' patch: run it with --format patch, or without --format.";
  }
}

/** `error[code] in path (hunk N, patch line L): nothing was written.` then the message. */
function errorText(e: PatchError, lineOf: string): string {
  const where = [
    e.operation !== undefined ? `hunk ${e.operation + 1}` : undefined,
    e.diffLine !== undefined ? `${lineOf} line ${e.diffLine}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const at = [e.path !== undefined ? ` in ${e.path}` : '', where ? ` (${where})` : ''].join('');
  const nothing = e.code === 'write_failed' ? '' : ' Nothing was written.';
  return `applypatch: error[${e.code}]${at}.${nothing}\n${e.message}\n`;
}

/**
 * Runs the command; returns the exit status. An unexpected failure (a bug,
 * or the system failing in a way no error code covers) is exit status 70,
 * still with one JSON object under `--json`.
 */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    if (argv[0] === 'merge') return mergeFiles(argv.slice(1), io);
    return await run(argv, io);
  } catch (e) {
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const message = `Internal error: ${detail}. Files may or may not have been changed: check them (git status). Please report this with the patch.`;
    if (argv.includes('--json')) json(io, { ok: false, error: { code: 'internal_error', message } });
    io.stderr(`applypatch: ${message}\n${e instanceof Error && e.stack ? `${e.stack}\n` : ''}`);
    return 70;
  }
}

export const MCP_HELP = `Usage: applypatch mcp --root DIR [--read-only]

Serves the tools apply_patch, edit_file, apply_unified_diff and read_file on
the files under DIR (default: the current directory) to a Model Context
Protocol client, over standard input and output, until the client closes the
stream. With --read-only, edits are only checked (dry runs) and never written.
Logs go to standard error. Needs the package @modelcontextprotocol/sdk.
`;

/** `applypatch mcp`: the MCP server over stdio, until the client closes the stream. */
async function mcp(argv: string[], io: Io): Promise<number> {
  const usage = (message: string): number => {
    io.stderr(`applypatch mcp: ${message}\nRun 'applypatch mcp --help' for usage.\n`);
    return 2;
  };
  let root: string | undefined;
  let readOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? argv[++i] : arg.slice('--root='.length);
      if (value === undefined || value === '') return usage('--root needs a directory');
      root = value;
    } else if (arg === '--read-only') readOnly = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout(MCP_HELP);
      return 0;
    } else return usage(`unknown argument ${arg}`);
  }
  const dir = nodePath.resolve(io.cwd, root ?? '.');
  if (!nodeFs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return usage(`--root ${root ?? dir}: no such directory`);
  let server: typeof import('../mcp/server.js');
  try {
    server = await import('../mcp/server.js');
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND' && String((e as Error).message).includes('@modelcontextprotocol/sdk')) {
      io.stderr('applypatch mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk\n');
      return 2;
    }
    throw e;
  }
  await server.serveStdio({ root: dir, readOnly, ...(io.version !== undefined ? { version: io.version } : {}) }, (line) =>
    io.stderr(`${line}\n`),
  );
  return 0;
}

async function run(argv: string[], io: Io): Promise<number> {
  if (argv[0] === 'mcp') return mcp(argv.slice(1), io);
  let args: Args;
  const asJson = argv.includes('--json');
  const usage = (message: string): number => {
    if (asJson) json(io, { ok: false, error: { code: 'usage', message } });
    io.stderr(`applypatch: ${message}\nRun 'applypatch --help' for usage.\n`);
    return 2;
  };
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
  if (args.help) {
    io.stdout(HELP);
    return 0;
  }
  if (args.version) {
    io.stdout(`${io.version ?? 'unknown'}\n`);
    return 0;
  }
  const cwd = nodePath.resolve(io.cwd, args.cwd ?? '.');
  if (!nodeFs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) return usage(`--cwd ${args.cwd ?? cwd}: no such directory`);
  let input: string;
  try {
    input = await readInput(args, io);
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
  // Edit blocks are detected like unified diffs (detectFormat: the edit-block parser finds a block).
  if (args.format === undefined && detectFormat(input) === 'blocks') {
    if (args.repair !== undefined) return usage('--repair is for *** Begin Patch patches; this input is search/replace edit blocks');
    if (args.mode !== 'strict')
      return usage(`--mode ${args.mode} is for patches and unified diffs; this input is search/replace edit blocks`);
    args.format = 'blocks';
  }
  if (args.format === 'blocks' && args.file === undefined) {
    // Without --file, every block must name its file. One parse: the files the blocks name, then the blocks over them.
    return withBlocks(input, (prepared) => {
      const { edits } = prepared.parsed() as ParsedBlocks;
      if (edits.length === 0 || edits.some((e) => e.path === undefined))
        return usage(
          '--format blocks needs --file PATH (the file the blocks edit), or blocks that each name their file on the line before',
        );
      return blocksOverFiles(args, io, cwd, edits, prepared);
    });
  }
  if (args.format === 'blocks') return blocks(args, io, cwd, input);
  if (args.format === 'unified' || (args.format === undefined && detectFormat(input) === 'unified')) {
    if (args.mode === 'codex') return usage("--mode codex is for patches; a unified diff's modes are strict and git");
    if (args.repair !== undefined) return usage('--repair is for *** Begin Patch patches; this input is a unified diff');
    return unified(args, io, cwd, input);
  }
  if (args.mode === 'git') return usage("--mode git is for unified diffs; a patch's modes are strict and codex");
  const mode = args.mode === 'codex' ? 'codex' : 'strict';
  const repair = args.repair !== undefined ? { repair: args.repair } : {};
  // One parse: the engine answers the paths, the changes and the summary.
  return reportDirectory(args, io, input, 'patch', () =>
    patchDirectory(cwd, input, { mode, dryRun: args.dryRun, ...repair, ...(io.fs ? { fs: io.fs } : {}) } as DirectoryOptions),
  );
}

/**
 * Runs a patch or a unified diff on the directory and reports it: the JSON
 * object, the dry run's diff, or Codex's summary; an error as text (and JSON).
 */
function reportDirectory(
  args: Args,
  io: Io,
  input: string,
  what: 'patch' | 'diff',
  run: () => { result: DirectoryResult; summary: string },
): number {
  try {
    const { result, summary: computed } = run();
    const repairs = result.repairs ?? [];
    const already = repairs.some((r) => r.kind === 'already-applied');
    const text = already ? `Nothing changed: the ${what} is already applied.\n` : computed;
    for (const r of repairs) io.stderr(`applypatch: ${repairLine(r, 'patch')}\n`);
    if (args.json) {
      json(io, {
        ok: true,
        applied: result.applied,
        changes: result.changes,
        summary: text,
        ...(args.dryRun ? { diff: result.diff } : {}),
        ...(result.repairs !== undefined ? { repairs: result.repairs } : {}),
      });
    } else if (args.dryRun) {
      io.stdout(result.diff ?? '');
      io.stderr(
        `applypatch: dry run: the ${what} applies (${result.changes.length} file${result.changes.length === 1 ? '' : 's'} would change); nothing was written.\n`,
      );
    } else {
      io.stdout(text);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    const hint = formatHint(input, what === 'patch' ? 'patch' : 'unified');
    if (args.json) json(io, { ok: false, error: { ...errorJson(e), ...(hint !== undefined ? { hint } : {}) } });
    io.stderr(errorText(e, what) + (hint !== undefined ? `applypatch: hint: ${hint}\n` : ''));
    return 1;
  }
}

/** A unified diff on the directory, all or nothing; prints Codex's summary (A/M/D). */
function unified(args: Args, io: Io, cwd: string, input: string): number {
  return reportDirectory(args, io, input, 'diff', () => {
    const mode = args.mode === 'git' ? 'git' : 'strict';
    const result = applyUnifiedToDirectory(cwd, input, { mode, dryRun: args.dryRun, ...(io.fs ? { fs: io.fs } : {}) });
    const letter = { added: 'A', modified: 'M', deleted: 'D' } as const;
    return {
      result,
      summary: `Success. Updated the following files:\n${result.changes.map((c) => `${letter[c.status]} ${c.path}\n`).join('')}`,
    };
  });
}

/** `--format blocks`: search/replace edit blocks on one file, all or nothing. */
function blocks(args: Args, io: Io, cwd: string, input: string): number {
  const fail = (code: CliErrorCode, message: string, extra: Partial<CliError> = {}): number => {
    if (args.json) json(io, { ok: false, error: { code, message, ...(args.file !== undefined ? { path: args.file } : {}), ...extra } });
    io.stderr(`applypatch: error[${code}] in ${args.file}.${code === 'write_failed' ? '' : ' Nothing was written.'}\n${message}\n`);
    return 1;
  };
  const fs = withFs(io.fs);
  let root: Root | undefined;
  try {
    root = openRoot(cwd, fs);
    const target = resolveTarget(root, args.file!, fs);
    readTarget(target, fs);
    if (target.kind === 'file' && target.text === undefined) throw binaryError(args.file!);
    const source = target.text ?? '';

    const { edits, problems } = parseBlocks(input, { detailed: true });
    if (problems.length > 0 || edits.length === 0) {
      const list = problems.map((p) => `  line ${p.line}: ${p.message}`).join('\n');
      const message =
        edits.length === 0 ? 'No complete SEARCH/REPLACE block was found in the input.' : 'Some blocks in the input are malformed.';
      return fail('no_blocks', `${message}${list ? `\n${list}` : ''}`, { problems });
    }
    const result = applyEdits(source, edits, { preset: args.preset });
    const results = result.results.map(({ text: _text, ...rest }) => rest);
    if (!result.ok) {
      const index = results.findIndex((r) => !r.ok);
      const failed = results[index];
      const detail = failed?.message ?? describeBlockFailure(failed);
      const before = index > 0 ? ` Blocks 1-${index} matched but were not written either: the edit is all or nothing.` : '';
      return fail('no_match', `Block ${index + 1} of ${edits.length} did not match ${args.file}.${before}\n${detail}`, {
        block: index + 1,
        results,
      });
    }
    const changed = result.text !== source;
    if (changed && !args.dryRun)
      commit(root, [{ target, contents: result.text, ...(target.mode !== undefined ? { mode: target.mode } : {}) }], fs);
    const diff = unifiedDiff(target.kind === 'file' ? args.file! : null, args.file!, source, result.text);
    if (args.json) {
      json(io, {
        ok: true,
        applied: changed && !args.dryRun,
        path: args.file!,
        blocks: edits.length,
        results: results as Array<Omit<EditApplied, 'text'>>, // every edit applied (result.ok)
        ...(args.dryRun ? { diff } : {}),
      });
    } else if (args.dryRun) {
      io.stdout(diff);
      io.stderr(
        `applypatch: dry run: ${edits.length} block${edits.length === 1 ? '' : 's'} would apply to ${args.file}; nothing was written.\n`,
      );
    } else {
      const strategies = results.map((r) => r.strategy).filter((s) => typeof s === 'string');
      io.stdout(
        `Applied ${edits.length} edit block${edits.length === 1 ? '' : 's'} to ${args.file}${strategies.length ? ` (${strategies.join(', ')})` : ''}${changed ? '' : '; the file was already like this'}.\n`,
      );
    }
    return 0;
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return fail(e.code, e.message);
  } finally {
    root?.close();
  }
}

/** `--format blocks` without `--file`: blocks that name their files, over the directory, all or nothing. */
function blocksOverFiles(args: Args, io: Io, cwd: string, edits: ParsedEditBlock[], prepared: PreparedBlocks): number {
  const paths = prepared.paths(undefined).split('\n');
  paths.pop();
  const fail = (code: CliErrorCode, message: string, path: string, extra: Partial<CliError> = {}): number => {
    if (args.json) json(io, { ok: false, error: { code, message, path, ...extra } });
    io.stderr(`applypatch: error[${code}] in ${path}.${code === 'write_failed' ? '' : ' Nothing was written.'}\n${message}\n`);
    return 1;
  };
  const fs = withFs(io.fs);
  let root: Root | undefined;
  try {
    root = openRoot(cwd, fs);
    let result: BlocksResult<Map<string, string>> | undefined;
    const touches = paths.map((path) => ({ path, needsText: true }));
    const p = plan(
      root,
      touches,
      new Map(),
      (files) => {
        const map = fileMap(listedMap(root!, files, fs));
        result = applyPreparedBlocks(map, prepared, blockOptions({ preset: args.preset }), undefined);
        return result.files;
      },
      fs,
    );
    const results = result!.results;
    if (!result!.ok) {
      const index = results.length - 1;
      const failed = results[index];
      const detail = failed?.message ?? describeBlockFailure(failed);
      const before = index > 0 ? ` Blocks 1-${index} matched but were not written either: the edit is all or nothing.` : '';
      return fail(
        'no_match',
        `Block ${index + 1} of ${edits.length} did not match ${failed?.path}.${before}\n${detail}`,
        failed?.path ?? '',
        {
          block: index + 1,
          results,
        },
      );
    }
    if (!args.dryRun) commit(root, p.changes, fs);
    const changed = p.changes.map((c) => c.target.path);
    if (args.json) {
      json(io, {
        ok: true,
        applied: changed.length > 0 && !args.dryRun,
        paths: changed,
        blocks: edits.length,
        results,
        ...(args.dryRun ? { diff: diffOf(p) } : {}),
      });
    } else if (args.dryRun) {
      io.stdout(diffOf(p));
      io.stderr(
        `applypatch: dry run: ${edits.length} block${edits.length === 1 ? '' : 's'} would apply to ${paths.join(', ')}; nothing was written.\n`,
      );
    } else {
      const strategies = results.map((r) => r.strategy).filter((s) => typeof s === 'string');
      io.stdout(
        `Applied ${edits.length} edit block${edits.length === 1 ? '' : 's'} to ${paths.join(', ')}${strategies.length ? ` (${strategies.join(', ')})` : ''}${changed.length ? '' : '; the files were already like this'}.\n`,
      );
    }
    return 0;
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return fail(e.code, e.message, e.path ?? paths[0]!);
  } finally {
    root?.close();
  }
}

function describeBlockFailure(r: Omit<EditResult, 'text' | 'start' | 'end' | 'splices'> | undefined): string {
  const parts: string[] = [];
  if (r !== undefined) parts.push(`best similarity ${r.similarity.toFixed(2)}`);
  if (r !== undefined) parts.push(`${r.matches} matching place(s)`);
  return parts.length ? `The SEARCH text was not found (${parts.join(', ')}).` : 'The SEARCH text was not found.';
}

/** Standard input as a buffer, or null when it is a terminal. */
export const MERGE_HELP = `Usage: applypatch merge [-p] [--diff3 | --zdiff3] [-L NAME]... OURS BASE THEIRS

Merges into OURS the changes from BASE to THEIRS, as git merge-file does
(same result, same conflict markers). Exit status: the number of conflicts
(127 at most), 255 when a file cannot be read or written, 129 on a usage error.

  -p         print the result instead of writing it into OURS
  --diff3    show the base's lines in conflicts
  --zdiff3   --diff3, without the lines both sides share
  -L NAME    a name for the markers instead of the file name (up to 3:
             OURS, BASE, THEIRS)
  -q         accepted, for git merge-file compatibility
`;

/** `applypatch merge OURS BASE THEIRS`: git merge-file. */
function mergeFiles(argv: string[], io: Io): number {
  let print = false;
  let style: MergeStyle = 'merge';
  const labels: string[] = [];
  const files: string[] = [];
  const usage = (message: string): number => {
    io.stderr(`applypatch merge: ${message}\n${MERGE_HELP}`);
    return 129;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-p' || arg === '--stdout') print = true;
    else if (arg === '--diff3') style = 'diff3';
    else if (arg === '--zdiff3') style = 'zdiff3';
    else if (arg === '-q' || arg === '--quiet') continue;
    else if (arg === '-L') {
      const name = argv[++i];
      if (name === undefined) return usage('-L needs a name');
      if (labels.length === 3) return usage('too many labels (3 at most: OURS, BASE, THEIRS)');
      labels.push(name);
    } else if (arg === '-h' || arg === '--help') {
      io.stdout(MERGE_HELP);
      return 0;
    } else if (arg.startsWith('-') && arg !== '-') return usage(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 3) return usage(`three files are needed (OURS BASE THEIRS), got ${files.length}`);
  const texts: string[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = nodeFs.readFileSync(nodePath.resolve(io.cwd, file));
    } catch (e) {
      io.stderr(`applypatch merge: cannot read ${file}: ${(e as Error).message}\n`);
      return 255;
    }
    const text = bytes.toString('utf8');
    if (bytes.includes(0) || Buffer.from(text, 'utf8').length !== bytes.length || text.includes('\uFFFD')) {
      io.stderr(`applypatch merge: ${file} is not UTF-8 text; binary files are not merged\n`);
      return 255;
    }
    texts.push(text);
  }
  const names = files.map((f, i) => labels[i] ?? f) as [string, string, string];
  const [ours, base, theirs] = texts as [string, string, string];
  let merged: ReturnType<typeof merge3>;
  try {
    merged = merge3(base, ours, theirs, { style, labels: names });
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    io.stderr(`applypatch merge: ${e.message}\n`);
    return 255;
  }
  if (print) io.stdout(merged.text);
  else {
    try {
      nodeFs.writeFileSync(nodePath.resolve(io.cwd, files[0] as string), merged.text);
    } catch (e) {
      io.stderr(`applypatch merge: cannot write ${files[0]}: ${(e as Error).message}\n`);
      return 255;
    }
  }
  return Math.min(merged.conflicts.length, 127);
}

export async function readStdin(): Promise<Buffer | null> {
  if (process.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
