/// <reference types="node" />
// Patches on a real directory, shared by createEditor and the command line:
//
// 1. Every path is resolved against the root: absolute paths, `..` escapes and
//    symlinks that lead outside are refused, and so are two spellings of one file.
// 2. Only the files the patch touches are read; files that are not UTF-8 text
//    (a NUL byte, invalid UTF-8) are never read as text.
// 3. The whole result is computed in memory (the engine's file maps).
// 4. Then it is written all or nothing: new contents go to temporary files
//    next to their targets, which are then renamed into place, and deletes
//    come last. If any step fails, what was already replaced, created or
//    deleted is restored from the old bytes kept in memory, and the
//    temporary files and created directories are removed.
// File modes are kept (a moved file keeps its own).
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { type ErrorCode, PatchError } from '../errors.js';

/** The node:fs functions used; tests replace some to inject failures. */
export type Fs = Pick<
  typeof nodeFs,
  | 'lstatSync'
  | 'statSync'
  | 'realpathSync'
  | 'readFileSync'
  | 'writeFileSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'mkdirSync'
  | 'rmdirSync'
  | 'chmodSync'
  | 'readlinkSync'
  | 'symlinkSync'
>;

/** A path of the patch, resolved inside the root. */
export interface Target {
  /** The path as written in the patch. */
  path: string;
  /** Where its contents live: the real path, through any symlinks. */
  real: string;
  /** The directory entry the path names (a final symlink not followed). */
  entry: string;
  /** What is there now. */
  kind: 'file' | 'none';
  /** The entry is a symlink (to a file inside the root). */
  link?: string;
  /** The file's bytes and mode, when it exists. */
  bytes?: Buffer;
  mode?: number;
  /** Its text, when it is UTF-8 text. */
  text?: string;
}

function fail(code: ErrorCode, message: string, path?: string): PatchError {
  return new PatchError({ code, message, ...(path !== undefined ? { path } : {}) });
}

/** A short reason for a system error, for messages. */
export function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const known: Record<string, string> = {
    ENOTDIR: 'a part of the path is a file, not a directory',
    EISDIR: 'it is a directory',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    EEXIST: 'a file is in the way',
    ELOOP: 'too many levels of symbolic links',
    ENAMETOOLONG: 'the name is too long',
    EMFILE: 'too many open files',
    EIO: 'input/output error',
  };
  const code = typeof err?.code === 'string' ? err.code : undefined;
  if (code !== undefined && known[code] !== undefined) return `${known[code]} (${code})`;
  return err instanceof Error ? err.message : String(e);
}

/** The root's real path; it must be a directory. */
export function realRoot(root: string, fs: Fs = nodeFs): string {
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch (e) {
    throw fail('read_failed', `The root directory ${root} cannot be used: ${reason(e)}. Nothing was written.`);
  }
  if (!fs.statSync(real).isDirectory()) {
    throw fail('not_a_file', `The root ${root} is not a directory. Nothing was written.`);
  }
  return real;
}

const inside = (root: string, p: string): boolean => {
  const rel = nodePath.relative(root, p);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + nodePath.sep) && !nodePath.isAbsolute(rel);
};

/**
 * Resolves `path` against the real root, refusing what leaves it. Walks the
 * existing components one by one, following symlinks only to places inside
 * the root.
 */
export function resolveTarget(root: string, path: string, fs: Fs = nodeFs): Target {
  const refuse = (code: ErrorCode, why: string): PatchError => fail(code, `${why} Nothing was written.`, path);
  if (path === '') throw refuse('invalid_path', 'A path is empty.');
  if (path.includes('\0')) throw refuse('invalid_path', `The path ${JSON.stringify(path)} has a NUL character.`);
  if (nodePath.isAbsolute(path) || nodePath.win32.isAbsolute(path)) {
    throw refuse('path_outside_root', `The path ${path} is absolute: write paths relative to the root (${root}).`);
  }
  const lexical = nodePath.resolve(root, path);
  if (lexical === root) throw refuse('invalid_path', `The path ${path} names the root directory itself, not a file.`);
  if (!inside(root, lexical)) throw refuse('path_outside_root', `The path ${path} leaves the root directory (${root}) through '..'.`);

  const parts = nodePath.relative(root, lexical).split(nodePath.sep);
  let cur = root;
  for (let i = 0; i < parts.length; i++) {
    const last = i === parts.length - 1;
    const next = nodePath.join(cur, parts[i]!);
    let st: nodeFs.Stats;
    try {
      st = fs.lstatSync(next);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // The rest does not exist (or goes through a file, which writing will report).
        const rest = nodePath.join(next, ...parts.slice(i + 1));
        return { path, real: rest, entry: rest, kind: 'none' };
      }
      throw refuse('read_failed', `Cannot read ${path}: ${reason(e)}.`);
    }
    if (st.isSymbolicLink()) {
      let to: string;
      try {
        to = fs.realpathSync(next);
      } catch (e) {
        throw refuse(
          'invalid_path',
          `${parts.slice(0, i + 1).join('/')} (in ${path}) is a symlink that leads nowhere (${reason(e)}); it is not followed.`,
        );
      }
      if (!inside(root, to)) {
        throw refuse(
          'path_outside_root',
          `${parts.slice(0, i + 1).join('/')} (in ${path}) is a symlink to ${to}, outside the root directory (${root}).`,
        );
      }
      if (last) {
        const target = fs.statSync(to);
        if (!target.isFile()) throw refuse('not_a_file', `${path} is a symlink to a directory or another non-file (${to}).`);
        return { path, real: to, entry: next, kind: 'file', link: fs.readlinkSync(next) };
      }
      cur = to;
      continue;
    }
    if (last) {
      if (!st.isFile()) throw refuse('not_a_file', `${path} is ${st.isDirectory() ? 'a directory' : 'not a regular file'}.`);
      return { path, real: next, entry: next, kind: 'file' };
    }
    if (!st.isDirectory()) {
      // A file where a directory must be: creating the directory will fail, and report it.
      const rest = nodePath.join(next, ...parts.slice(i + 1));
      return { path, real: rest, entry: rest, kind: 'none' };
    }
    cur = next;
  }
  /* c8 ignore next */
  throw refuse('invalid_path', `The path ${path} could not be resolved.`);
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads a target's bytes and mode; `text` is set when it is UTF-8 without NUL. */
export function readTarget(t: Target, fs: Fs = nodeFs): void {
  if (t.kind !== 'file') return;
  try {
    t.bytes = fs.readFileSync(t.real);
    t.mode = fs.statSync(t.real).mode & 0o7777;
  } catch (e) {
    throw fail('read_failed', `Cannot read ${t.path}: ${reason(e)}. Nothing was written.`, t.path);
  }
  if (t.bytes.includes(0)) return;
  try {
    t.text = decoder.decode(t.bytes);
  } catch {
    // not UTF-8: left without text
  }
}

export function binaryError(path: string): PatchError {
  return fail(
    'binary_file',
    `${path} is not UTF-8 text (it has a NUL byte or invalid UTF-8), so it is not read as text and cannot be updated or moved. Nothing was written.`,
    path,
  );
}

/** One change to make on disk. */
export interface Change {
  target: Target;
  /** New contents, or null to delete. */
  contents: string | null;
  /** Mode for the new file (kept from the file it replaces, or the moved file). */
  mode?: number;
}

/** Whether a failed commit left changes on disk (its undo failed). */
const incomplete = new WeakSet<PatchError>();
export const leftChanges = (e: PatchError): boolean => incomplete.has(e);

function tempName(real: string): string {
  const rand = Math.random().toString(36).slice(2, 10);
  return nodePath.join(nodePath.dirname(real), `.${nodePath.basename(real)}.${process.pid}.${rand}.applypatch.tmp`);
}

/**
 * Writes the changes all or nothing. Throws a `write_failed` PatchError after
 * undoing everything; if the undo itself fails, the message lists what could
 * not be restored and {@link leftChanges} is true for the error.
 */
export function commit(changes: Change[], fs: Fs = nodeFs): void {
  const writes = changes.filter((c) => c.contents !== null);
  const deletes = changes.filter((c) => c.contents === null);
  const createdDirs: string[] = [];
  const temps = new Map<Change, string>();
  const done: Change[] = [];
  let current: Change | undefined;
  try {
    for (const c of writes) {
      current = c;
      makeParents(nodePath.dirname(c.target.real), createdDirs, fs);
      const tmp = tempName(c.target.real);
      fs.writeFileSync(tmp, c.contents as string, { flag: 'wx', ...(c.mode !== undefined ? { mode: c.mode } : {}) });
      temps.set(c, tmp);
      if (c.mode !== undefined) fs.chmodSync(tmp, c.mode);
    }
    for (const c of writes) {
      current = c;
      fs.renameSync(temps.get(c)!, c.target.real);
      temps.delete(c);
      done.push(c);
    }
    for (const c of deletes) {
      current = c;
      fs.unlinkSync(c.target.entry);
      done.push(c);
    }
  } catch (e) {
    const failed = undo(done, temps, createdDirs, fs);
    const path = current?.target.path;
    const what = current?.contents === null ? 'delete' : 'write';
    const head = `Could not ${what} ${path ?? 'a file'}: ${reason(e)}.`;
    if (failed.length === 0) {
      const undone =
        done.length > 0
          ? ` (the ${done.length === 1 ? 'change' : `${done.length} changes`} already made ${done.length === 1 ? 'was' : 'were'} undone)`
          : '';
      throw fail('write_failed', `${head} Nothing was written: every file is as it was${undone}.`, path);
    }
    const err = fail(
      'write_failed',
      `${head} Undoing the changes already made failed for ${failed.join('; ')}: check those files. The other files are as they were.`,
      path,
    );
    incomplete.add(err);
    throw err;
  }
}

/** mkdir -p that records each directory it creates. */
function makeParents(dir: string, created: string[], fs: Fs): void {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      fs.lstatSync(cur);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') break; // mkdir below reports it
      missing.push(cur);
      const up = nodePath.dirname(cur);
      if (up === cur) break;
      cur = up;
    }
  }
  for (const d of missing.reverse()) {
    fs.mkdirSync(d);
    created.push(d);
  }
}

/** Restores what `done` changed; returns the paths it could not restore, with why. */
function undo(done: Change[], temps: Map<Change, string>, createdDirs: string[], fs: Fs): string[] {
  const failed: string[] = [];
  for (const c of [...done].reverse()) {
    const t = c.target;
    try {
      if (c.contents === null) {
        if (t.link !== undefined) fs.symlinkSync(t.link, t.entry);
        else restoreBytes(t.entry, t.bytes!, t.mode!, fs);
      } else if (t.kind === 'file') {
        restoreBytes(t.real, t.bytes!, t.mode!, fs);
      } else {
        fs.unlinkSync(t.real);
      }
    } catch (e) {
      failed.push(`${t.path} (${reason(e)})`);
    }
  }
  for (const tmp of temps.values()) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
  for (const d of [...createdDirs].reverse()) {
    try {
      fs.rmdirSync(d);
    } catch {
      // not empty (something else wrote there) or gone: leave it
    }
  }
  return failed;
}

function restoreBytes(path: string, bytes: Buffer, mode: number, fs: Fs): void {
  const tmp = tempName(path);
  try {
    fs.writeFileSync(tmp, bytes, { flag: 'wx', mode });
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, path);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // never created
    }
    fs.writeFileSync(path, bytes, { mode });
    fs.chmodSync(path, mode);
  }
}
