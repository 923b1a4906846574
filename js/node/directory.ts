/// <reference types="node" />
// Patches on a real directory, shared by createEditor and the command line.
// Over 600 lines on purpose: resolving (`resolveTarget`) and committing
// (`commit`) rely on the same open directory handles (`Root`, `Dir`, `at`) and
// the race-safety rules below, which are checked by reading them together.
//
// 1. Every path is resolved against the root: absolute paths, `..` escapes and
//    symlinks that lead outside are refused, and so are two spellings of one file.
// 2. Only the files the patch touches are read; files that are not UTF-8 text
//    (a NUL byte, invalid UTF-8) are never read as text.
// 3. The whole result is computed in memory (the engine's file maps).
// 4. Then it is written all or nothing: deletes first, then new contents to
//    temporary files next to their targets, put in place. Each file to
//    replace or delete is first claimed (a hard link in the root under a
//    name every writer of that file uses, so only one writer holds it) and
//    checked to be the very file that was read; a new file is linked into
//    place (never over a file that appeared meanwhile). If any step fails,
//    or a file changed since it was read (`file_changed`), the claimed files
//    come back and the temporary files and created directories are removed.
//
// Race safety (Linux): each directory is opened once, component by
// component, without following symlinks (O_NOFOLLOW | O_DIRECTORY), and
// every later step names files relative to that open directory through
// /proc/self/fd/N/name: a directory swapped for a symlink after it was
// checked cannot redirect a read, a temporary file, a rename or a delete.
// Files are opened with O_NOFOLLOW | O_NONBLOCK and checked to be regular
// files from the open handle, so a FIFO swapped in never blocks. Where
// /proc/self/fd is missing (macOS, Windows, some sandboxes) the same steps
// use path strings: the checks hold, but not against a concurrent swap.
// File modes are kept (a moved file keeps its own).
//
// Near paths: when a patch names a path with no file (an error, or a Delete
// to judge), `listFiles` lists the root's files by the same rules (each
// directory opened from its parent, no symlink followed), bounded in the
// entries it reads; a patch whose every path is there lists nothing.
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { type ErrorCode, PatchError } from '../errors.js';

/** The node:fs functions used; tests replace some to inject failures. */
export type Fs = Pick<
  typeof nodeFs,
  | 'lstatSync'
  | 'statSync'
  | 'fstatSync'
  | 'realpathSync'
  | 'readFileSync'
  | 'writeFileSync'
  | 'openSync'
  | 'closeSync'
  | 'writeSync'
  | 'fchmodSync'
  | 'renameSync'
  | 'linkSync'
  | 'unlinkSync'
  | 'mkdirSync'
  | 'rmdirSync'
  | 'readlinkSync'
  | 'opendirSync'
>;

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = nodeFs.constants;
const O_NOFOLLOW = nodeFs.constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = nodeFs.constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = nodeFs.constants.O_NONBLOCK ?? 0;

/** Whether directories can be used through handles (Linux: /proc/self/fd). */
export const HANDLES: boolean = process.platform === 'linux' && O_NOFOLLOW !== 0 && nodeFs.existsSync('/proc/self/fd');

/** A directory inside the root, opened once (`fd`, or -1 without handles). */
export interface Dir {
  fd: number;
  /** Its path below the root's real path (for messages and identity). */
  real: string;
}

/** The path of `name` in `dir`: through the open handle when there is one. */
const at = (dir: Dir, name: string): string => (dir.fd >= 0 ? `/proc/self/fd/${dir.fd}/${name}` : nodePath.join(dir.real, name));

/** The root of one call: its real path, and every directory opened below it (closed by {@link Root.close}). */
export class Root {
  readonly real: string;
  readonly top: Dir;
  private readonly opened: number[] = [];
  /** Directories opened so far, by parent handle and name. */
  readonly dirs = new Map<string, Dir>();
  constructor(
    real: string,
    private readonly fs: Fs,
  ) {
    this.real = real;
    this.top = { fd: HANDLES ? this.open(real, O_RDONLY | O_DIRECTORY) : -1, real };
  }
  open(path: string, flags: number): number {
    const fd = this.fs.openSync(path, flags);
    this.opened.push(fd);
    return fd;
  }
  close(): void {
    this.dirs.clear();
    for (const fd of this.opened.splice(0)) {
      try {
        this.fs.closeSync(fd);
      } catch {
        // already closed
      }
    }
  }
}

/** A path of the patch, resolved inside the root. */
export interface Target {
  /** The path as written in the patch. */
  path: string;
  /** Where its contents live: the real path, through any symlinks. */
  real: string;
  /** The directory that holds (or will hold) the file, and its name there. */
  dir: Dir;
  name: string;
  /** Directories to create under `dir` before the file (the file goes in the last). */
  missing: string[];
  /** What is there now. */
  kind: 'file' | 'none';
  /** An empty directory is there now (the patch deletes what it had): it is removed first. */
  rmdir?: boolean;
  /** The entry is a symlink (to a file inside the root): where it is, and its text. */
  link?: string;
  linkDir?: Dir;
  linkName?: string;
  linkStat?: nodeFs.BigIntStats;
  /** The file's bytes, mode and identity when read. */
  bytes?: Buffer;
  mode?: number;
  stat?: nodeFs.BigIntStats;
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

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException)?.code;

/** Opens the root (its real path; it must be a directory) for one call. */
export function openRoot(root: string, fs: Fs = nodeFs): Root {
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch (e) {
    throw fail('read_failed', `The root directory ${root} cannot be used: ${reason(e)}. Nothing was written.`);
  }
  if (!fs.statSync(real).isDirectory()) {
    throw fail('not_a_file', `The root ${root} is not a directory. Nothing was written.`);
  }
  try {
    return new Root(real, fs);
  } catch (e) {
    throw fail('read_failed', `The root directory ${root} cannot be opened: ${reason(e)}. Nothing was written.`);
  }
}

const inside = (root: string, p: string): boolean => {
  const rel = nodePath.relative(root, p);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + nodePath.sep) && !nodePath.isAbsolute(rel);
};

/** At most this many symlinks are followed in one path (Linux's limit). */
const MAX_LINKS = 40;

/** What one name in an open directory is. */
type Entry =
  | { kind: 'dir'; dir: Dir }
  | { kind: 'missing' }
  | { kind: 'link'; text: string; stat: nodeFs.BigIntStats }
  | { kind: 'other'; stat: nodeFs.BigIntStats };

/** Looks at `name` in `dir` without following a symlink; a directory is opened (from `dir`, not by path). */
function entry(root: Root, dir: Dir, name: string, wantDir: boolean, fs: Fs): Entry {
  const path = at(dir, name);
  // Another program may replace the entry between two looks (a directory
  // swapped for a symlink and back): look again, a bounded number of times.
  for (let attempt = 0; ; attempt++) {
    if (wantDir && HANDLES) {
      // Each directory is opened once per call (a patch of many files in one directory opens it once).
      const key = `${dir.fd}/${name}`;
      const known = root.dirs.get(key);
      if (known !== undefined) return { kind: 'dir', dir: known };
      try {
        const opened = { fd: root.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK), real: nodePath.join(dir.real, name) };
        root.dirs.set(key, opened);
        return { kind: 'dir', dir: opened };
      } catch (e) {
        if (errno(e) === 'ENOENT') return { kind: 'missing' };
        if (errno(e) !== 'ELOOP' && errno(e) !== 'ENOTDIR') throw e;
        // a symlink or a non-directory: lstat says which
      }
    }
    let st: nodeFs.BigIntStats;
    try {
      st = fs.lstatSync(path, { bigint: true });
    } catch (e) {
      if (errno(e) === 'ENOENT') return { kind: 'missing' };
      throw e;
    }
    if (st.isSymbolicLink()) {
      try {
        return { kind: 'link', text: fs.readlinkSync(path, 'utf8'), stat: st };
      } catch (e) {
        if ((errno(e) === 'ENOENT' || errno(e) === 'EINVAL') && attempt < MAX_RETRIES) continue;
        throw e;
      }
    }
    if (st.isDirectory() && wantDir) {
      // With handles, a directory is only ever used through one: the open
      // above met something else, and now a directory is back. Open again;
      // never fall back to its path, which a swap could redirect.
      if (HANDLES) {
        if (attempt < MAX_RETRIES) continue;
        throw new PatchError({
          code: 'read_failed',
          message: `${nodePath.join(dir.real, name)} kept changing between a directory and something else while it was opened (another program is replacing it): nothing was written. Try again when it is left alone.`,
        });
      }
      return { kind: 'dir', dir: { fd: -1, real: nodePath.join(dir.real, name) } };
    }
    return { kind: 'other', stat: st };
  }
}

/** How often {@link entry} looks again at an entry that another program keeps replacing. */
const MAX_RETRIES = 100;

/**
 * Resolves `path` inside the root, refusing what leaves it. Walks the
 * components one by one from the root, each opened from its parent
 * directory without following symlinks; a symlink is followed only by
 * walking its text the same way (from the root for an absolute one, `..`
 * going back up the directories walked), so it can never lead outside.
 * `gone` holds the paths (relative to the root) of the files this patch
 * deletes: one of them may be where a directory goes (`x` deleted, `x/y`
 * added), and a directory holding only such files may become a file.
 */
export function resolveTarget(root: Root, path: string, fs: Fs = nodeFs, gone: ReadonlySet<string> = new Set()): Target {
  const refuse = (code: ErrorCode, why: string): PatchError => fail(code, `${why} Nothing was written.`, path);
  if (path === '') throw refuse('invalid_path', 'A path is empty.');
  if (path.includes('\0')) throw refuse('invalid_path', `The path ${JSON.stringify(path)} has a NUL character.`);
  if (nodePath.isAbsolute(path) || nodePath.win32.isAbsolute(path)) {
    throw refuse('path_outside_root', `The path ${path} is absolute: write paths relative to the root (${root.real}).`);
  }
  const lexical = nodePath.resolve(root.real, path);
  if (lexical === root.real) throw refuse('invalid_path', `The path ${path} names the root directory itself, not a file.`);
  if (!inside(root.real, lexical)) {
    throw refuse('path_outside_root', `The path ${path} leaves the root directory (${root.real}) through '..'.`);
  }
  if (/[/\\]$/.test(path)) throw refuse('invalid_path', `The path ${path} ends with a slash: it names a directory, not a file.`);

  const queue = nodePath.relative(root.real, lexical).split(nodePath.sep);
  const stack: Dir[] = [root.top];
  /** The entry the path itself names, when its last component is a symlink. */
  let linkEntry: Pick<Target, 'link' | 'linkDir' | 'linkName' | 'linkStat'> | undefined;
  let links = 0;
  /** How many of the next names in the queue come from a symlink's text (they must exist). */
  let pending = 0;
  let walked = '';
  const follow = (text: string, name: string): void => {
    if (++links > MAX_LINKS) throw refuse('invalid_path', `${path} goes through more than ${MAX_LINKS} symlinks.`);
    const outside = (): PatchError =>
      refuse('path_outside_root', `${walked}${name} (in ${path}) is a symlink to ${text}, outside the root directory (${root.real}).`);
    let parts: string[];
    if (nodePath.isAbsolute(text)) {
      const abs = nodePath.resolve(text);
      if (abs !== root.real && !inside(root.real, abs)) throw outside();
      stack.splice(1);
      parts = abs === root.real ? [] : nodePath.relative(root.real, abs).split(nodePath.sep);
    } else {
      parts = nodePath.normalize(text).split(nodePath.sep);
    }
    for (const p of parts.reverse()) {
      if (p === '' || p === '.') continue;
      queue.unshift(p);
      pending++;
    }
    // Leading '..' of a relative link go up the walked directories, never past the root.
    while (queue[0] === '..') {
      if (stack.length === 1) throw outside();
      stack.pop();
      queue.shift();
      pending--;
    }
  };
  try {
    for (;;) {
      const name = queue.shift();
      if (name === undefined) throw refuse('not_a_file', `${path} is a symlink to a directory, not a file.`);
      const fromLink = pending > 0;
      if (fromLink) pending--;
      const dir = stack[stack.length - 1]!;
      const last = queue.length === 0;
      const e = entry(root, dir, name, !last, fs);
      walked = stack.length > 1 ? `${nodePath.relative(root.real, dir.real)}/` : '';
      if (e.kind === 'link') {
        if (last && linkEntry === undefined) linkEntry = { link: e.text, linkDir: dir, linkName: name, linkStat: e.stat };
        follow(e.text, name);
        continue;
      }
      if (e.kind === 'missing') {
        if (fromLink) {
          throw refuse(
            'path_outside_root',
            `${path} is a symlink that leads nowhere (${nodePath.join(dir.real, name)} does not exist); it is not followed.`,
          );
        }
        if (queue.includes('..')) throw refuse('invalid_path', `${path} goes through ${walked}${name}, which does not exist.`);
        const missing = [name, ...queue];
        const file = missing.pop()!;
        return { path, real: nodePath.join(dir.real, ...missing, file), dir, name: file, missing, kind: 'none' };
      }
      if (e.kind === 'dir') {
        stack.push(e.dir);
        continue;
      }
      // A file or another non-directory.
      const rel = nodePath.relative(root.real, nodePath.join(dir.real, name));
      if (!last && gone.has(rel) && e.stat.isFile()) {
        // deleted by this patch first: the directory takes its place
        const missing = [name, ...queue];
        const file = missing.pop()!;
        return { path, real: nodePath.join(dir.real, ...missing, file), dir, name: file, missing, kind: 'none' };
      }
      if (!last) {
        throw refuse('invalid_path', `${walked}${name} (in ${path}) is a file, not a directory, so ${path} cannot be there.`);
      }
      if (e.stat.isDirectory() && linkEntry === undefined && [...gone].some((g) => g.startsWith(rel + nodePath.sep))) {
        // this patch deletes files in it: if that empties it, the file takes its place
        return { path, real: nodePath.join(dir.real, name), dir, name, missing: [], kind: 'none', rmdir: true };
      }
      if (e.stat.isDirectory()) {
        throw refuse(
          'not_a_file',
          linkEntry ? `${path} is a symlink to a directory (${nodePath.join(dir.real, name)}).` : `${path} is a directory.`,
        );
      }
      if (!e.stat.isFile()) {
        throw refuse(
          'not_a_file',
          linkEntry ? `${path} is a symlink to a non-file (${nodePath.join(dir.real, name)}).` : `${path} is not a regular file.`,
        );
      }
      return { path, real: nodePath.join(dir.real, name), dir, name, missing: [], kind: 'file', ...linkEntry };
    }
  } catch (e) {
    if (e instanceof PatchError) throw e;
    throw refuse('read_failed', `Cannot read ${path}: ${reason(e)}.`);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a target's bytes, mode and identity from one handle, opened without
 * following a symlink and without blocking (a FIFO swapped in is refused, not
 * waited on); `text` is set when it is UTF-8 without NUL.
 */
export function readTarget(t: Target, fs: Fs = nodeFs): void {
  if (t.kind !== 'file') return;
  let fd: number;
  try {
    fd = fs.openSync(at(t.dir, t.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    if (errno(e) === 'ENOENT' || errno(e) === 'ELOOP') throw changed(t.path);
    throw fail('read_failed', `Cannot read ${t.path}: ${reason(e)}. Nothing was written.`, t.path);
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw fail('not_a_file', `${t.path} is not a regular file. Nothing was written.`, t.path);
    t.stat = st;
    t.mode = Number(st.mode & 0o7777n);
    t.bytes = fs.readFileSync(fd);
  } catch (e) {
    if (e instanceof PatchError) throw e;
    throw fail('read_failed', `Cannot read ${t.path}: ${reason(e)}. Nothing was written.`, t.path);
  } finally {
    fs.closeSync(fd);
  }
  if (t.bytes.includes(0)) return;
  try {
    t.text = decoder.decode(t.bytes);
  } catch {
    // not UTF-8: left without text
  }
}

/** The error for a file that changed on disk between the read and the write. */
function changed(path: string, created = false): PatchError {
  return fail(
    'file_changed',
    created
      ? `${path} was created by another program while this patch was being applied, so the patch was not applied: nothing was written. Read ${path} and make the patch against its current contents.`
      : `${path} changed on disk while this patch was being applied (another program or patch wrote it at the same time), so the patch was not applied: nothing was written. Read ${path} again and make the patch against its current contents.`,
    path,
  );
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

/**
 * A short, unlikely name for a temporary or backup file next to a target: it
 * does not repeat the target's name, so names of up to 255 bytes still work.
 */
function shortName(kind: 'tmp' | 'old'): string {
  return `.ap${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 6)}.${kind}`;
}

/** Where a change stands while it is written. */
interface Step {
  change: Change;
  /** The directory the new file goes in (created directories included). */
  dir?: Dir;
  /** The temporary file with the new contents, until it is in place, and its inode. */
  tmp?: string;
  ino?: bigint;
  /** The claim on the old file (or link) at `dir`/`name`: the file `as` in `home` keeps it until the end. */
  backup?: Backup;
  /** The new file is in place. */
  installed?: boolean;
  /** The old file was removed (a delete; its claim keeps it until the end). */
  removed?: boolean;
  /** The empty directory that was where the new file goes was removed. */
  removedDir?: boolean;
}

interface Backup {
  dir: Dir;
  name: string;
  home: Dir;
  as: string;
  /** A hard link (the file stayed in place), or the file itself renamed aside. */
  linked: boolean;
}

/**
 * Writes the changes all or nothing. Throws `file_changed` when a file to
 * replace or delete is no longer the one that was read (or one to create
 * appeared), and `write_failed` when a step fails, after undoing everything;
 * if the undo itself fails, the message lists what could not be restored and
 * {@link leftChanges} is true for the error.
 *
 * Deletes go first (a patch may delete `x` and add `x/y`), each file claimed
 * and checked; then the new contents go to temporary files; then each file
 * to replace is claimed and checked, and the new files are put in place.
 */
export function commit(root: Root, changes: Change[], fs: Fs = nodeFs): void {
  const steps: Step[] = [...changes.filter((c) => c.contents === null), ...changes.filter((c) => c.contents !== null)].map((change) => ({
    change,
  }));
  const createdDirs: Array<{ dir: Dir; name: string }> = [];
  let current: Step | undefined;
  try {
    for (const step of steps) {
      const t = step.change.target;
      if (step.change.contents !== null) continue;
      current = step;
      const b =
        t.link !== undefined
          ? claim(root, t.linkDir!, t.linkName!, t.linkStat!, t.path, fs)
          : claim(root, t.dir, t.name, t.stat!, t.path, fs);
      step.backup = b;
      if (b.linked) {
        fs.unlinkSync(at(b.dir, b.name)); // the claim keeps the old file until the end
        step.removed = true;
      }
    }
    // New contents to temporary files, next to their targets.
    for (const step of steps) {
      const { target: t, contents, mode } = step.change;
      if (contents === null) continue;
      current = step;
      if (t.rmdir) {
        fs.rmdirSync(at(t.dir, t.name)); // emptied by the deletes above; fails if anything else is in it
        step.removedDir = true;
      }
      step.dir = makeDirs(root, t, createdDirs, fs);
      ({ name: step.tmp, ino: step.ino } = writeTemp(step.dir, contents, mode, fs));
    }
    // Claim each old file and check it is the one that was read; put each new file in place.
    for (const step of steps) {
      const t = step.change.target;
      if (step.change.contents === null) continue;
      current = step;
      if (t.kind === 'file') step.backup = claim(root, t.dir, t.name, t.stat!, t.path, fs);
      if (step.backup?.linked) {
        // Claimed: the new file replaces the old one in one rename (never missing for readers).
        fs.renameSync(at(step.dir!, step.tmp!), at(step.dir!, t.name));
        step.installed = true;
        step.tmp = undefined;
      } else {
        install(step.dir!, step.tmp!, t.name, t.path, fs);
        step.installed = true;
        step.tmp = removeQuietly(step.dir!, step.tmp!, fs) ? undefined : step.tmp;
      }
    }
  } catch (e) {
    const failed = undo(root, steps, createdDirs, fs);
    const path = current?.change.target.path;
    if (e instanceof PatchError) {
      if (failed.length === 0) throw e;
      const err = fail(
        e.code,
        `${e.message.replace(': nothing was written.', '.')} Undoing the changes already made failed for ${failed.join('; ')}: check those files.`,
        path,
      );
      incomplete.add(err);
      throw err;
    }
    const done = steps.filter(
      (s) => s.installed || s.removed || (s.backup !== undefined && !s.backup.linked && s.change.contents === null),
    ).length;
    const what = current?.change.contents === null ? 'delete' : 'write';
    const head = `Could not ${what} ${path ?? 'a file'}: ${reason(e)}.`;
    if (failed.length === 0) {
      const undone =
        done > 0 ? ` (the ${done === 1 ? 'change' : `${done} changes`} already made ${done === 1 ? 'was' : 'were'} undone)` : '';
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
  // Everything is in place: the old files go.
  for (const step of steps) {
    if (step.backup !== undefined) removeQuietly(step.backup.home, step.backup.as, fs);
  }
}

/** Creates the target's missing directories, each opened from its parent; returns the directory of the file. */
function makeDirs(root: Root, t: Target, created: Array<{ dir: Dir; name: string }>, fs: Fs): Dir {
  let dir = t.dir;
  for (const name of t.missing) {
    try {
      fs.mkdirSync(at(dir, name));
      created.push({ dir, name });
    } catch (e) {
      if (errno(e) !== 'EEXIST') throw e;
    }
    const e = entry(root, dir, name, true, fs);
    if (e.kind !== 'dir') {
      throw fail(
        'file_changed',
        `${nodePath.relative(root.real, nodePath.join(dir.real, name))} (in ${t.path}) was replaced by a symlink or a file while this patch was being applied, so the patch was not applied: nothing was written. Check the directory and send the patch again.`,
        t.path,
      );
    }
    dir = e.dir;
  }
  return dir;
}

/** Writes `contents` to a new temporary file in `dir` (never through a symlink); returns its name and inode. */
function writeTemp(dir: Dir, contents: string, mode: number | undefined, fs: Fs): { name: string; ino: bigint } {
  for (let attempt = 0; ; attempt++) {
    const name = shortName('tmp');
    let fd: number;
    try {
      fd = fs.openSync(at(dir, name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o666);
    } catch (e) {
      if (errno(e) === 'EEXIST' && attempt < 8) continue;
      throw e;
    }
    let ino: bigint;
    try {
      fs.writeFileSync(fd, contents);
      if (mode !== undefined) fs.fchmodSync(fd, mode);
      ino = fs.fstatSync(fd, { bigint: true }).ino;
    } catch (e) {
      fs.closeSync(fd);
      removeQuietly(dir, name, fs);
      throw e;
    }
    fs.closeSync(fd);
    return { name, ino };
  }
}

/** Same file as when it was read: device, inode, size and modification time. */
function same(now: nodeFs.BigIntStats, read: nodeFs.BigIntStats): boolean {
  return now.dev === read.dev && now.ino === read.ino && now.size === read.size && now.mtimeNs === read.mtimeNs;
}

/** Errors of a file system without hard links. */
const NO_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK'];

/** A claim older than this was left by a process that died: it is removed. */
const STALE_CLAIM_MS = 60_000;

/** The claim's name for a file (its real path): short, and the same for every writer of that file. */
function claimName(name: string): string {
  let h = 0xcbf29ce484222325n; // FNV-1a, 64 bits
  for (const byte of Buffer.from(name)) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return `.ap${h.toString(16).padStart(16, '0')}.claim`;
}

/**
 * Claims the file `name` that was read (`read`) and checks it is still that
 * file: a hard link to it under a name every writer of that file uses, so
 * that only one writer at a time can hold it (the file stays in place for
 * readers, and the claim keeps the old contents for an undo). A second
 * writer of the same file fails with `file_changed`; so does one whose file
 * was replaced or modified since it read it. On a file system without hard
 * links the file is renamed aside instead (the check holds, the exclusion
 * does not).
 */
function claim(root: Root, dir: Dir, name: string, read: nodeFs.BigIntStats, path: string, fs: Fs): Backup {
  // Claims live in the root, so that a directory emptied by deletes can be removed.
  const home = root.top;
  const as = claimName(nodePath.join(dir.real, name));
  for (let attempt = 0; ; attempt++) {
    try {
      fs.linkSync(at(dir, name), at(home, as));
      break;
    } catch (e) {
      if (errno(e) === 'ENOENT') throw changed(path);
      if (errno(e) === 'EEXIST' && attempt === 0 && stale(home, as, fs)) {
        removeQuietly(home, as, fs);
        continue;
      }
      if (errno(e) === 'EEXIST') throw changed(path); // another patch is writing it right now
      if (!NO_LINKS.includes(errno(e) ?? '')) throw e;
      return claimAside(dir, name, read, path, fs);
    }
  }
  const now = statOf(home, as, fs);
  if (now === undefined || !same(now, read)) {
    removeQuietly(home, as, fs);
    throw changed(path);
  }
  return { dir, name, home, as, linked: true };
}

function stale(dir: Dir, name: string, fs: Fs): boolean {
  const st = statOf(dir, name, fs);
  return st !== undefined && Date.now() - Number(st.ctimeMs) > STALE_CLAIM_MS;
}

function statOf(dir: Dir, name: string, fs: Fs): nodeFs.BigIntStats | undefined {
  try {
    return fs.lstatSync(at(dir, name), { bigint: true });
  } catch {
    return undefined;
  }
}

/** Without hard links: renames the file aside and checks it is the one that was read. */
function claimAside(dir: Dir, name: string, read: nodeFs.BigIntStats, path: string, fs: Fs): Backup {
  const as = shortName('old');
  try {
    fs.renameSync(at(dir, name), at(dir, as));
  } catch (e) {
    if (errno(e) === 'ENOENT') throw changed(path);
    throw e;
  }
  const now = statOf(dir, as, fs);
  if (now === undefined || !same(now, read)) {
    try {
      putBack(dir, as, dir, name, fs);
    } catch {
      // a file appeared in its place meanwhile: this one stays under its aside name
    }
    throw changed(path);
  }
  return { dir, name, home: dir, as, linked: false };
}

function inodeOf(dir: Dir, name: string, fs: Fs): bigint | undefined {
  try {
    return fs.lstatSync(at(dir, name), { bigint: true }).ino;
  } catch {
    return undefined;
  }
}

/** Puts a claimed or aside file back as `name`, never over a file that appeared there meanwhile (that is an error). */
function putBack(home: Dir, as: string, dir: Dir, name: string, fs: Fs): void {
  try {
    fs.linkSync(at(home, as), at(dir, name));
  } catch (e) {
    if (!NO_LINKS.includes(errno(e) ?? '')) throw e;
    fs.renameSync(at(home, as), at(dir, name));
    return;
  }
  removeQuietly(home, as, fs);
}

/** Puts the temporary file in place as `name`; fails with `file_changed` if a file appeared there. */
function install(dir: Dir, tmp: string, name: string, path: string, fs: Fs): void {
  try {
    // A hard link never replaces: a file another program created meanwhile stays.
    fs.linkSync(at(dir, tmp), at(dir, name));
  } catch (e) {
    if (errno(e) === 'EEXIST') throw changed(path, true);
    if (!NO_LINKS.includes(errno(e) ?? '')) throw e;
    fs.renameSync(at(dir, tmp), at(dir, name)); // no hard links on this file system
  }
}

function removeQuietly(dir: Dir, name: string, fs: Fs): boolean {
  try {
    fs.unlinkSync(at(dir, name));
    return true;
  } catch (e) {
    return errno(e) === 'ENOENT';
  }
}

/** Restores what the steps changed; returns the paths it could not restore, with why. */
function undo(root: Root, steps: Step[], createdDirs: Array<{ dir: Dir; name: string }>, fs: Fs): string[] {
  const failed: string[] = [];
  const restore = (step: Step, fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      const kept = step.backup !== undefined ? `; its old contents are in ${step.backup.as}, in ${step.backup.home.real}` : '';
      failed.push(`${step.change.target.path} (${reason(e)}${kept})`);
    }
  };
  // New files first, then the directories made for them, then what was deleted.
  for (const step of [...steps].reverse()) {
    if (step.change.contents === null) continue;
    const t = step.change.target;
    const b = step.backup;
    restore(step, () => {
      // Only the file this commit put there is taken back: a newer one, written meanwhile by another program, stays.
      if (step.installed && inodeOf(step.dir!, t.name, fs) !== step.ino) {
        throw Object.assign(new Error('another program replaced it meanwhile'), { code: 'ECHANGED' });
      }
      if (step.installed && b === undefined) fs.unlinkSync(at(step.dir!, t.name));
      if (b === undefined) return;
      if (step.installed)
        fs.renameSync(at(b.home, b.as), at(b.dir, b.name)); // the old file back over the new
      else if (b.linked)
        removeQuietly(b.home, b.as, fs); // only claimed: drop the claim
      else putBack(b.home, b.as, b.dir, b.name, fs);
    });
    if (step.tmp !== undefined) removeQuietly(step.dir!, step.tmp, fs);
  }
  for (const { dir, name } of [...createdDirs].reverse()) {
    try {
      fs.rmdirSync(at(dir, name));
    } catch {
      // not empty (something else wrote there) or gone: leave it
    }
  }
  /** Directories removed to make room for a file, made again: the old handle → the new directory. */
  const remade = new Map<Dir, Dir>();
  for (const step of [...steps].reverse()) {
    const t = step.change.target;
    if (step.removedDir) {
      restore(step, () => {
        fs.mkdirSync(at(t.dir, t.name));
        const old = root.dirs.get(`${t.dir.fd}/${t.name}`);
        root.dirs.delete(`${t.dir.fd}/${t.name}`);
        const e = entry(root, t.dir, t.name, true, fs);
        if (old !== undefined && e.kind === 'dir') remade.set(old, e.dir);
      });
    }
    if (step.change.contents !== null || step.backup === undefined) continue;
    const b = step.backup;
    const dir = remade.get(b.dir) ?? b.dir;
    restore(step, () => {
      if (step.removed || !b.linked) putBack(b.home, b.as, dir, b.name, fs);
      else removeQuietly(b.home, b.as, fs); // only claimed: drop the claim
    });
  }
  return failed;
}

/** Directories {@link listFiles} does not enter. */
export const UNLISTED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** The bounds of {@link listFiles}: entries read in all, and directories below the root. */
export const LIST_LIMITS: Readonly<{ entries: number; depth: number }> = { entries: 10_000, depth: 32 };

/**
 * Every regular file under the root, as paths relative to it joined with
 * `/`, sorted: what a directory has in place of a file map's keys, for the
 * near paths of a path that names no file (a typo) and for telling a Delete
 * of a file already gone from a Delete of a misspelt path. Called only
 * then, never for a patch whose every path is there.
 *
 * The rules of this file hold: each directory is opened from its parent
 * without following symlinks (a symlink is neither listed nor entered), and
 * read one entry at a time. Bounded: after `limits.entries` entries read, or
 * at a directory deeper than `limits.depth`, it stops and returns undefined,
 * and so it does when a directory cannot be read: the caller then knows
 * only the files the patch touches, as a partial map (no near paths; a
 * Delete of a missing path is not taken as done). `.git` and `node_modules`
 * are not entered: they hold thousands of files (git's objects, installed
 * packages) that no patch names by mistake, and would use up the bound in
 * most projects; for a missing path inside one of them (`missing`), it
 * returns undefined.
 */
export function listFiles(root: Root, fs: Fs, missing: readonly string[], limits = LIST_LIMITS): string[] | undefined {
  if (missing.some((p) => p.split(/[\\/]/).some((part) => UNLISTED.has(part)))) return undefined;
  const out: string[] = [];
  let read = 0;
  /** Lists `dir` (at `prefix` below the root) into `out`; false when a bound is reached or it cannot be read. */
  const walk = (dir: Dir, prefix: string, depth: number): boolean => {
    let d: nodeFs.Dir;
    try {
      d = fs.opendirSync(dir.fd >= 0 ? `/proc/self/fd/${dir.fd}` : dir.real);
    } catch {
      return false;
    }
    try {
      for (let e = d.readSync(); e !== null; e = d.readSync()) {
        if (++read > limits.entries) return false;
        const path = prefix + e.name;
        if (e.isFile()) out.push(path);
        if (!e.isDirectory() || UNLISTED.has(e.name)) continue;
        if (depth >= limits.depth) return false;
        let sub: Dir;
        try {
          sub = HANDLES
            ? { fd: fs.openSync(at(dir, e.name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK), real: nodePath.join(dir.real, e.name) }
            : { fd: -1, real: nodePath.join(dir.real, e.name) };
        } catch (err) {
          // gone, or swapped for a symlink or a file since it was read: not listed
          if (['ENOENT', 'ELOOP', 'ENOTDIR'].includes(errno(err) ?? '')) continue;
          return false;
        }
        try {
          if (!walk(sub, `${path}/`, depth + 1)) return false;
        } finally {
          if (sub.fd >= 0) fs.closeSync(sub.fd);
        }
      }
    } catch {
      return false;
    } finally {
      d.closeSync();
    }
    return true;
  };
  return walk(root.top, '', 0) ? out.sort() : undefined;
}
