// Real temporary directories for the Node tests, and snapshots of them.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh directory with `files` ({ path: contents | { contents, mode } }); removed by `t.after`. */
export function makeTree(t, files = {}) {
  const base = mkdtempSync(join(tmpdir(), 'applypatch-test-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'root');
  mkdirSync(root);
  for (const [path, spec] of Object.entries(files)) {
    const { contents, mode } = typeof spec === 'string' || Buffer.isBuffer(spec) ? { contents: spec } : spec;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
    if (mode !== undefined) chmodSync(join(root, path), mode);
  }
  return { base, root };
}

/**
 * Everything under `dir`, without following symlinks: path → 'dir',
 * { link }, or { mode, bytes (base64) }. Two equal snapshots mean nothing
 * was written, renamed, created or left behind (temporary files included).
 */
export function snapshot(dir) {
  const out = {};
  const walk = (rel) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink()) out[path] = { link: readlinkSync(join(dir, path)) };
      else if (st.isDirectory()) {
        out[path] = 'dir';
        walk(path);
      } else out[path] = { mode: (st.mode & 0o7777).toString(8), bytes: readFileSync(join(dir, path)).toString('base64') };
    }
  };
  walk('');
  return out;
}

export const read = (root, path) => readFileSync(join(root, path), 'utf8');
export const modeOf = (root, path) => (lstatSync(join(root, path)).mode & 0o7777).toString(8);

/** Builds a patch from operations given as lines. */
export const patchOf = (...lines) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
